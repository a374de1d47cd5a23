// The caching allocator: alignment, reuse, bounds.
#include "allocator.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace nt::detail;

TEST_CASE("allocator: alignment and small blocks", "[allocator]") {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{1000}, std::size_t{100000}}) {
        void* p = allocate(n);
        REQUIRE(p != nullptr);
        CHECK(reinterpret_cast<std::uintptr_t>(p) % alloc_alignment == 0);
        std::memset(p, 1, n);
        deallocate(p, n);
    }
    deallocate(nullptr, 10);
}

TEST_CASE("allocator: large blocks are reused from the cache", "[allocator]") {
    release_allocator_cache();
    const std::size_t n = (std::size_t{12} << 20) + 300000;  // 12 MiB and a bit: class 13 MiB
    void* p = allocate(n);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % (std::size_t{2} << 20) == 0);  // huge-page aligned
    std::memset(p, 7, n);
    const auto before = get_allocator_stats();
    deallocate(p, n);
    CHECK(get_allocator_stats().cached_blocks == before.cached_blocks + 1);
    void* q = allocate(n - 1000);  // same size class
    CHECK(q == p);
    const auto after = get_allocator_stats();
    CHECK(after.cache_hits == before.cache_hits + 1);
    CHECK(after.cached_blocks == before.cached_blocks);
    deallocate(q, n - 1000);

    // Size classes: within 12.5%, monotone.
    for (std::size_t s = large_threshold; s < (std::size_t{1} << 30); s = s * 5 / 4 + 4097) {
        const std::size_t c = allocator_size_class(s);
        CHECK(c >= s);
        CHECK(c <= s + s / 8 + 4096);
    }
}

TEST_CASE("allocator: the cache is bounded", "[allocator]") {
    const auto saved = get_allocator_stats().cache_limit;
    set_allocator_cache_limit(std::size_t{8} << 20);
    std::vector<void*> blocks;
    for (int i = 0; i < 5; ++i) blocks.push_back(allocate(std::size_t{3} << 20));
    for (void* b : blocks) deallocate(b, std::size_t{3} << 20);
    auto s = get_allocator_stats();
    CHECK(s.cached_bytes <= (std::size_t{8} << 20));
    CHECK(s.cached_blocks == 2);
    set_allocator_cache_limit(0);
    s = get_allocator_stats();
    CHECK(s.cached_blocks == 0);
    void* p = allocate(std::size_t{3} << 20);
    deallocate(p, std::size_t{3} << 20);
    CHECK(get_allocator_stats().cached_blocks == 0);
    set_allocator_cache_limit(saved);
}

TEST_CASE("allocator: concurrent use", "[allocator]") {
    auto work = [] {
        for (int i = 0; i < 200; ++i) {
            const std::size_t n = (std::size_t{1} << 20) * static_cast<std::size_t>(1 + i % 5);
            auto* p = static_cast<unsigned char*>(allocate(n));
            p[0] = 1;
            p[n - 1] = 2;
            deallocate(p, n);
        }
    };
    std::thread a(work), b(work);
    work();
    a.join();
    b.join();
    CHECK(get_allocator_stats().cached_bytes <= get_allocator_stats().cache_limit);
}
