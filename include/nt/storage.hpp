// nt/storage.hpp: the memory behind tensors.
//
// A tensor's storage is a block of elements kept alive by a std::shared_ptr<void>
// "owner"; views and handle copies share the owner. Blocks made by ntensor are
// 64-byte aligned (nt::storage_alignment); external memory enters through
// Tensor<T>::wrap with an owner of the caller's choosing.
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

}  // namespace nt
