// The side-by-side comparison's one timing rule (scripts/bench.sh --peers): every
// library's program times each workload the same way and prints one line per figure,
//     <workload>\t<column>\t<seconds per call>
// which peers_report.py turns into the table of docs/performance.md.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

namespace peers {

/// Seconds per call of `op`, the best of 15 samples; a sample repeats the call for
/// at least 20 ms (after one untimed call, so first-touch page faults are not timed).
template <class Op>
double best_of_15(Op&& op) {
    using clock = std::chrono::steady_clock;
    op();
    long calls = 1;
    for (;;) {  // calls per sample: enough for 20 ms
        const auto t0 = clock::now();
        for (long i = 0; i < calls; ++i) op();
        if (std::chrono::duration<double>(clock::now() - t0).count() >= 0.02) break;
        calls *= 2;
    }
    double best = std::numeric_limits<double>::infinity();
    for (int sample = 0; sample < 15; ++sample) {
        const auto t0 = clock::now();
        for (long i = 0; i < calls; ++i) op();
        best = std::min(best, std::chrono::duration<double>(clock::now() - t0).count() / static_cast<double>(calls));
    }
    return best;
}

inline void report(const char* workload, const char* column, double seconds) {
    std::printf("%s\t%s\t%.9g\n", workload, column, seconds);
    std::fflush(stdout);
}

/// Keeps the compiler from dropping a result it does not see used.
template <class T>
inline void keep(const T* p) {
    asm volatile("" : : "g"(p) : "memory");
}

}  // namespace peers
