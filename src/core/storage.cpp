// Aligned storage blocks on top of the engine's allocator.
#include "nt/storage.hpp"

#include "nt/detail/allocator.hpp"

namespace nt {

static_assert(detail::alloc_alignment >= storage_alignment);

storage_block allocate_storage(std::size_t bytes) {
    void* p = detail::allocate(bytes);
    storage_block block;
    block.owner = std::shared_ptr<void>(p, [bytes](void* q) { detail::deallocate(q, bytes); });
    block.data = p;
    block.bytes = bytes;
    return block;
}

}  // namespace nt
