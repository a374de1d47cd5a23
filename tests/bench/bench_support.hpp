// Shared by the benchmarks: throughput counters and the memcpy baseline that every
// bandwidth figure is compared with in the same run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace nt::bench {

/// Bytes read + written per iteration, reported as bytes/s and as a "bytes" counter.
inline void set_bytes(benchmark::State& state, std::int64_t bytes) {
    state.SetBytesProcessed(state.iterations() * bytes);
    state.counters["bytes"] = static_cast<double>(bytes);
}

/// memcpy of range(0) bytes moved (range(0)/2 read, range(0)/2 written).
inline void BM_memcpy(benchmark::State& state) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    std::vector<char> src(bytes / 2, 1), dst(bytes / 2, 0);
    for (auto _ : state) {
        std::memcpy(dst.data(), src.data(), src.size());
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    set_bytes(state, static_cast<std::int64_t>(bytes));
}

}  // namespace nt::bench
