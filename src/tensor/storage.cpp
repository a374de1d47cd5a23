// Aligned storage blocks on top of the engine's allocator.
#include "nt/storage.hpp"

#include "allocator.hpp"

#include <algorithm>
#include <memory>

namespace nt {

static_assert(detail::alloc_alignment >= storage_alignment);

namespace {

// The owner's control block comes from the same small-block cache as tiny tensors,
// so a fresh small result costs two cache pops instead of two mallocs.
template <class T>
struct control_block_allocator {
    using value_type = T;
    control_block_allocator() = default;
    template <class U>
    control_block_allocator(const control_block_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(detail::allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { detail::deallocate(p, n * sizeof(T)); }
    friend bool operator==(control_block_allocator, control_block_allocator) noexcept { return true; }
};

struct storage_deleter {
    std::size_t bytes;
    void operator()(void* p) const noexcept { detail::deallocate(p, bytes); }
};

}  // namespace

// Small blocks share one allocation with their owner's control block (one cache pop
// per fresh small result instead of two); allocate_shared gives the chunks their
// alignment.
struct alignas(storage_alignment) storage_chunk {
    std::byte bytes[storage_alignment];
};
constexpr std::size_t shared_block_max_bytes = 4096;

namespace detail {

void* allocate_owned(std::size_t bytes, std::shared_ptr<void>& owner) {
    if (bytes <= shared_block_max_bytes) {
        const std::size_t chunks = std::max<std::size_t>(1, (bytes + sizeof(storage_chunk) - 1) / sizeof(storage_chunk));
        std::shared_ptr<storage_chunk[]> block =
            std::allocate_shared_for_overwrite<storage_chunk[]>(control_block_allocator<storage_chunk>{}, chunks);
        void* data = block.get();
        owner = std::move(block);
        return data;
    }
    void* p = detail::allocate(bytes);
    try {
        owner = std::shared_ptr<void>(p, storage_deleter{bytes}, control_block_allocator<char>{});
    } catch (...) {
        detail::deallocate(p, bytes);
        throw;
    }
    return p;
}

}  // namespace detail

storage_block allocate_storage(std::size_t bytes) {
    storage_block block;
    block.data = detail::allocate_owned(bytes, block.owner);
    block.bytes = bytes;
    return block;
}

allocator_stats get_allocator_stats() noexcept { return detail::get_allocator_stats(); }
void set_allocator_cache_limit(std::size_t bytes) noexcept { detail::set_allocator_cache_limit(bytes); }
void release_allocator_cache() noexcept { detail::release_allocator_cache(); }

}  // namespace nt
