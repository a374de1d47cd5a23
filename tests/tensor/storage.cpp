// nt/storage.hpp: aligned blocks.
#include "core_testing.hpp"

#include <cstring>

TEST_CASE("allocate_storage gives aligned, owned blocks", "[storage]") {
    for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{1} << 21}) {
        auto block = nt::allocate_storage(bytes);
        REQUIRE(block.data != nullptr);
        CHECK(block.bytes == bytes);
        CHECK(reinterpret_cast<std::uintptr_t>(block.data) % nt::storage_alignment == 0);
        CHECK(block.owner.get() == block.data);
        if (bytes) std::memset(block.data, 0x5A, bytes);
    }
}

TEST_CASE("tensor storage outlives the handle that made it", "[storage]") {
    nt::Tensor<int> view;
    {
        auto t = nt::arange<int>(10);
        view = t.slice(0, 5);
    }
    CHECK(view.to_vector() == std::vector<int>{5, 6, 7, 8, 9});
}
