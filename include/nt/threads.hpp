// nt/threads.hpp: the worker pool behind ntensor's element-wise engine.
//
// One small pool of std::threads, started on first use. Large operations are split
// into chunks that the calling thread and the workers take in turn; small ones stay on
// the calling thread. Results never depend on the thread count: element-wise work is
// independent per element, and reductions combine fixed-size blocks in a fixed order.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace nt {

/// Sets how many threads (the caller included) large operations may use.
/// `n == 0` means the hardware concurrency; `n == 1` runs everything on the caller.
/// Negative values and values over nt::max_threads throw nt::error
/// (invalid_argument). Cheap to call; the pool is
/// rebuilt lazily. The initial value comes from the environment variable
/// NT_NUM_THREADS if set, else the hardware concurrency.
///     nt::set_num_threads(1);   // deterministic single-threaded timing
void set_num_threads(int n);

/// The largest thread count set_num_threads and NT_NUM_THREADS accept. Past it,
/// thread creation fails with std::system_error and parked workers pile up.
inline constexpr int max_threads = 1024;

/// The number of threads large operations use (>= 1).
[[nodiscard]] int get_num_threads() noexcept;

namespace detail {

using range_fn = void (*)(void* context, std::int64_t begin, std::int64_t end);

/// Calls fn(context, b, e) on disjoint ranges covering [0, n), possibly concurrently.
/// Runs on the caller when n <= 1, when one thread is configured, inside a worker
/// (no nesting) or while another parallel_for holds the pool. Rethrows the first
/// exception thrown by fn once every chunk has finished.
void parallel_for_impl(std::int64_t n, range_fn fn, void* context);

/// True on a pool worker, or on a caller while it runs a parallel job.
[[nodiscard]] bool in_parallel_region() noexcept;

/// Work of at least this many elements (or a comparable cost) is worth splitting.
/// Waking the pool costs more than a small operation takes: below it a second thread
/// made adds slower (figures: docs/performance.md, "Figures behind the engine's thresholds").
inline constexpr std::int64_t default_parallel_threshold = std::int64_t{1} << 17;
/// The threshold in force (default_parallel_threshold unless set).
[[nodiscard]] std::int64_t parallel_threshold() noexcept;
/// Sets the threshold (>= 1). Tests lower it so that small cases run on the pool.
void set_parallel_threshold(std::int64_t elements) noexcept;

/// parallel_for(n, f): f(begin, end) over disjoint ranges covering [0, n).
template <class F>
void parallel_for(std::int64_t n, F&& f) {
    using Fn = std::remove_reference_t<F>;
    parallel_for_impl(
        n, [](void* ctx, std::int64_t b, std::int64_t e) { (*static_cast<Fn*>(ctx))(b, e); },
        const_cast<void*>(static_cast<const void*>(&f)));
}

/// Whether work of `cost` elements should be split among threads.
[[nodiscard]] inline bool want_parallel(std::int64_t cost) noexcept {
    return cost >= parallel_threshold() && get_num_threads() > 1 && !in_parallel_region();
}

}  // namespace detail
}  // namespace nt
