// nt/detail/allocator.hpp: aligned buffers for tensor storage, with a cache of large blocks.
//
// Fresh large buffers cost page faults on first touch (one per 4 KiB page), often more
// than the operation that fills them. allocate() therefore keeps recently freed large
// blocks (>= large_threshold) in a bounded, thread-safe cache keyed by size class and
// hands them out again; blocks of 2 MiB and more are 2 MiB aligned and advised
// MADV_HUGEPAGE, so a fault maps 2 MiB at a time when the kernel allows it.
// Small buffers come from the global aligned operator new.
#pragma once

#include <cstddef>

namespace nt::detail {

/// Every pointer allocate() returns is aligned to this many bytes.
inline constexpr std::size_t alloc_alignment = 64;
/// Buffers of at least this many bytes are mapped directly and cached when freed.
inline constexpr std::size_t large_threshold = std::size_t{1} << 20;

/// Returns `bytes` bytes (uninitialised, or stale data from a cached block) aligned to
/// alloc_alignment. `allocate(0)` returns a valid unique pointer. Throws std::bad_alloc.
///     void* p = nt::detail::allocate(n * sizeof(float));
///     ...
///     nt::detail::deallocate(p, n * sizeof(float));
[[nodiscard]] void* allocate(std::size_t bytes);

/// Frees a buffer from allocate(); `bytes` must be the size it was allocated with.
/// Large blocks go to the cache (evicting the oldest beyond the limit). Null is a no-op.
void deallocate(void* p, std::size_t bytes) noexcept;

struct allocator_stats {
    std::size_t cache_hits = 0;     ///< large allocations served from the cache
    std::size_t cache_misses = 0;   ///< large allocations that mapped fresh memory
    std::size_t cached_blocks = 0;  ///< blocks held right now
    std::size_t cached_bytes = 0;   ///< bytes held right now (by size class)
    std::size_t cache_limit = 0;    ///< the most the cache may hold
};

[[nodiscard]] allocator_stats get_allocator_stats() noexcept;

/// Sets the cache bound in bytes (0 disables caching) and evicts down to it.
/// Default: min(1 GiB, physical memory / 8); environment NT_ALLOC_CACHE_MB overrides.
void set_allocator_cache_limit(std::size_t bytes) noexcept;

/// Returns every cached block to the system.
void release_allocator_cache() noexcept;

/// The size class a large request is rounded to (exposed for tests): eight classes
/// per power of two, so at most 12.5% is wasted (as address space, not as touched memory).
[[nodiscard]] std::size_t allocator_size_class(std::size_t bytes) noexcept;

}  // namespace nt::detail
