// nt/storage.hpp: the memory behind tensors.
//
// A tensor's storage is a block of elements kept alive by a std::shared_ptr<void>
// "owner"; views and handle copies share the owner. Blocks made by ntensor are
// 64-byte aligned (nt::storage_alignment); external memory enters through
// Tensor<T>::wrap with an owner of the caller's choosing. Large blocks are cached
// for reuse; get_allocator_stats, set_allocator_cache_limit and
// release_allocator_cache control the cache.
//
//     auto block = nt::allocate_storage(12 * sizeof(float));
//     float* p = static_cast<float*>(block.data);   // 64-byte aligned, uninitialised
#pragma once

#include <cstddef>
#include <memory>

namespace nt {

/// Alignment in bytes of every block allocate_storage returns.
inline constexpr std::size_t storage_alignment = 64;

/// An owned block of bytes: `owner` keeps `data` alive.
struct storage_block {
    std::shared_ptr<void> owner;
    void* data = nullptr;
    std::size_t bytes = 0;
};

/// Allocates `bytes` uninitialised bytes aligned to storage_alignment (a valid,
/// unique block also for 0 bytes). Throws std::bad_alloc.
[[nodiscard]] storage_block allocate_storage(std::size_t bytes);

// --- the cache of large blocks ------------------------------------------------------
// Fresh large blocks cost a page fault per 4 KiB page on first touch, often more than
// the operation that fills them, so freed blocks of 1 MiB or more are kept in a
// bounded, thread-safe cache and handed out again.

/// What the cache did and holds.
struct allocator_stats {
    std::size_t cache_hits = 0;     ///< large allocations served from the cache
    std::size_t cache_misses = 0;   ///< large allocations that mapped fresh memory
    std::size_t cached_blocks = 0;  ///< blocks held right now
    std::size_t cached_bytes = 0;   ///< bytes held right now (by size class)
    std::size_t cache_limit = 0;    ///< the most the cache may hold
};

/// The cache's counters and contents.
[[nodiscard]] allocator_stats get_allocator_stats() noexcept;

/// Sets the cache bound in bytes (0 disables caching) and evicts down to it.
/// Default: min(1 GiB, physical memory / 8); environment NT_ALLOC_CACHE_MB overrides.
///     nt::set_allocator_cache_limit(0);   // every freed block goes back to the system
void set_allocator_cache_limit(std::size_t bytes) noexcept;

/// Returns every cached block to the system.
void release_allocator_cache() noexcept;

}  // namespace nt
