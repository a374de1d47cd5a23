// allocator.hpp (private): aligned buffers for tensor storage, with a cache of large blocks.
//
// Fresh large buffers cost page faults on first touch (one per 4 KiB page), often more
// than the operation that fills them. allocate() therefore keeps recently freed large
// blocks (>= large_threshold) in a bounded, thread-safe cache keyed by size class and
// hands them out again; blocks of 2 MiB and more are 2 MiB aligned and advised
// MADV_HUGEPAGE, so a fault maps 2 MiB at a time when the kernel allows it.
// Small buffers come from the global aligned operator new.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "nt/storage.hpp"

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

/// A storage block of `bytes` (nt::allocate_storage's) whose owner is written to
/// `owner` in place. A fresh tensor's owner is a member: returning the pair in a
/// storage_block and moving it out cost a store-forwarding stall (two 8-byte stores
/// read back as one 16-byte load), a large part of a tiny operation's allocation
/// (figures: docs/performance.md, "Figures behind the engine's thresholds").
[[nodiscard]] void* allocate_owned(std::size_t bytes, std::shared_ptr<void>& owner);

/// Frees a buffer from allocate(); `bytes` must be the size it was allocated with.
/// Large blocks go to the cache (evicting the oldest beyond the limit). Null is a no-op.
void deallocate(void* p, std::size_t bytes) noexcept;

// The cache controls users may call are public, in <nt/storage.hpp> (nt::
// get_allocator_stats, ...); these are their implementations.
using allocator_stats = nt::allocator_stats;
[[nodiscard]] allocator_stats get_allocator_stats() noexcept;
void set_allocator_cache_limit(std::size_t bytes) noexcept;
void release_allocator_cache() noexcept;

/// A buffer from allocate() owned by one scope: scratch space for an operation. Large
/// scratch comes from the cache of blocks, already mapped (on huge pages), where a
/// fresh `new[]` of megabytes costs a page fault per 4 KiB page on every call.
///     scratch_buffer copy(n * sizeof(float));
///     float* p = copy.as<float>();
class scratch_buffer {
public:
    scratch_buffer() = default;
    explicit scratch_buffer(std::size_t bytes) : data_(allocate(bytes)), bytes_(bytes) {}
    scratch_buffer(scratch_buffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
    scratch_buffer& operator=(scratch_buffer&& other) noexcept {
        if (this != &other) {
            deallocate(data_, bytes_);
            data_ = std::exchange(other.data_, nullptr);
            bytes_ = std::exchange(other.bytes_, 0);
        }
        return *this;
    }
    ~scratch_buffer() { deallocate(data_, bytes_); }

    template <class T>
    [[nodiscard]] T* as() const noexcept {
        return static_cast<T*>(data_);
    }
    [[nodiscard]] std::size_t size() const noexcept { return bytes_; }
    /// Makes room for at least `bytes` (the contents are not kept when it grows).
    void reserve(std::size_t bytes) {
        if (bytes > bytes_) *this = scratch_buffer(bytes);
    }

private:
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

/// The size class a large request is rounded to (exposed for tests): eight classes
/// per power of two, so at most 12.5% is wasted (as address space, not as touched memory).
[[nodiscard]] std::size_t allocator_size_class(std::size_t bytes) noexcept;

}  // namespace nt::detail
