// Structural operations on tensors of rank <= 8 allocate nothing on the heap:
// layouts and names are small vectors with inline capacity 8, and errors format
// their messages only when thrown. Counted by replacing the global operator new.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>
#include <new>

#include "nt/nt.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define NT_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NT_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef NT_COUNT_ALLOCATIONS
#define NT_COUNT_ALLOCATIONS 1
#endif

namespace {
thread_local long allocations = 0;
thread_local long large_allocations = 0;  // of 1 MiB or more
}

#if NT_COUNT_ALLOCATIONS
void* operator new(std::size_t n) {
    ++allocations;
    large_allocations += n >= (std::size_t{1} << 20);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
// Storage comes from the aligned forms: count those too.
void* operator new(std::size_t n, std::align_val_t al) {
    ++allocations;
    large_allocations += n >= (std::size_t{1} << 20);
    const auto a = static_cast<std::size_t>(al);
    if (void* p = std::aligned_alloc(a, (std::max<std::size_t>(n, 1) + a - 1) / a * a)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#endif

namespace {
template <class Fn>
long count(Fn&& fn) {
    const long before = allocations;
    fn();
    return allocations - before;
}
template <class Fn>
long count_large(Fn&& fn) {
    const long before = large_allocations;
    fn();
    return large_allocations - before;
}
}  // namespace

TEST_CASE("views of rank <= 8 do not allocate", "[core][alloc]") {
    if (!NT_COUNT_ALLOCATIONS) SUCCEED("allocation counting is off under AddressSanitizer");
    auto t = nt::arange<float>(2 * 3 * 4 * 5).reshape({2, 3, 4, 5}, {"N", "C", "H", "W"});
    nt::Tensor<float> v = t;
    const nt::name b("B"), hw("HW");  // interning a new name is the name table's business
    CHECK(count([&] { v = t.transpose(); }) == 0);
    CHECK(count([&] { v = t.swap_axes("N", "W"); }) == 0);
    CHECK(count([&] { v = t.permute({3, 2, 1, 0}); }) == 0);
    CHECK(count([&] { v = t.move_axis(0, -1); }) == 0);
    CHECK(count([&] { v = t.move_axes({0, 1}, {-1, -2}); }) == 0);
    CHECK(count([&] { v = t.move_axes({3, 2, 1, 0}); }) == 0);
    CHECK(count([&] { v = t.slice("H", 1, std::nullopt, 2); }) == 0);
    CHECK(count([&] { v = t.index(0, nt::all, nt::range(1, 3)); }) == 0);
    CHECK(count([&] { v = t.unsqueeze(0, b); }) == 0);
    CHECK(count([&] { v = t.expand_dims({0, -1}); }) == 0);
    CHECK(count([&] { v = t.unsqueeze(1).squeeze(1); }) == 0);
    CHECK(count([&] { v = t.reshape({6, 20}); }) == 0);
    CHECK(count([&] { v = t.reshape({2, 3, -1}, nt::order::c); }) == 0);
    CHECK(count([&] { v = t.view({6, 4, 5}); }) == 0);
    CHECK(count([&] { v = t.flatten("H", "W", hw); }) == 0);
    CHECK(count([&] { v = t.unflatten(-1, {5, 1}); }) == 0);
    CHECK(count([&] { v = t.unfold("W", 2, 1); }) == 0);
    CHECK(count([&] { v = t.align_to("W", "..."); }) == 0);
    CHECK(count([&] { v = t.rename("N", "B"); }) == 0);
    CHECK(count([&] { v = t.refine_names({"...", "W"}); }) == 0);
    CHECK(count([&] { v = t.squeeze_all(); }) == 0);
    CHECK(count([&] { (void)t.at(1, 2, 3, 4); }) == 0);
    CHECK(count([&] { (void)t.shape(); }) == 0);
    CHECK(count([&] { (void)t.spec(); }) == 0);
}

TEST_CASE("broadcast views do not allocate", "[core][alloc]") {
    // The matcher's plan is reused per thread (nt::try_broadcast_to_into), so once
    // warm a broadcast view allocates nothing.
    auto t = nt::arange<float>(3).rename({"W"});
    auto img = nt::zeros<float>({2, 4, 3}, {"N", "H", "W"});
    nt::Tensor<float> v = t;
    // Warm the per-thread plan (unnamed targets take NumPy's rule and skip the matcher).
    v = t.broadcast_to(img.spec());
    CHECK(count([&] { v = t.broadcast_to({2, 3}); }) == 0);
    CHECK(count([&] { v = t.broadcast_to(img.spec()); }) == 0);
    CHECK(count([&] { v = t.broadcast_like(img); }) == 0);
    CHECK(count([&] { v = t.broadcast_left({5}); }) == 0);
}

TEST_CASE("a warm tiny element-wise op takes its result from the small-block cache", "[core][alloc]") {
    // A fresh small result needs a storage block and the owner's control block; both
    // come from a per-thread cache of freed blocks (off under AddressSanitizer).
    if (!NT_COUNT_ALLOCATIONS) SUCCEED("allocation counting is off under AddressSanitizer");
    const auto a = nt::full<float>({4, 8}, 1.5f);
    const auto b = nt::full<float>({8}, 2.5f);
    // Assigning to r makes the new result while r still holds the old one: one warm
    // call leaves a spare pair of blocks in the cache for the next.
    nt::Tensor<float> r = a + b;
    r = a + b;
    CHECK(count([&] { r = a + b; }) == 0);
    r = a * 2.0f;
    CHECK(count([&] { r = a * 2.0f; }) == 0);
    CHECK(r.at(3, 7) == 3.0f);
    const auto img = nt::zeros<float>({2, 3, 4, 5}, {"N", "C", "H", "W"});
    const auto lbl = nt::ones<float>({2, 4, 5}, {"N", "H", "W"});
    nt::Tensor<float> s = img + lbl;  // warms the per-thread plan and specs
    s = img + lbl;
    CHECK(count([&] { s = img + lbl; }) == 0);
    CHECK(nt::sum(s).at() == 2.0f * 3 * 4 * 5);
}

TEST_CASE("small blocks freed on another thread stay valid", "[core][alloc]") {
    // Results made here and dropped on a worker (whose cache then owns the blocks),
    // and the reverse: every value survives and nothing is freed twice.
    std::vector<nt::Tensor<std::int32_t>> made;
    for (int i = 0; i < 200; ++i) made.push_back(nt::full<std::int32_t>({3, i % 17 + 1}, i));
    std::vector<nt::Tensor<std::int32_t>> from_worker;
    std::thread worker([&] {
        made.clear();
        for (int i = 0; i < 200; ++i) from_worker.push_back(nt::full<std::int32_t>({2, i % 13 + 1}, -i));
    });
    worker.join();
    for (int i = 0; i < 200; ++i) {
        auto fresh = nt::full<std::int32_t>({2, i % 13 + 1}, 7);
        CHECK(from_worker[static_cast<std::size_t>(i)].at(1, 0) == -i);
        CHECK(fresh.at(1, 0) == 7);
    }
    from_worker.clear();
}

TEST_CASE("an operand reordered for a broadcast add takes its copy from the block cache", "[core][alloc]") {
    // (N,W,H) against (N,C,H,W): the engine copies the second operand into the
    // output's order (here a 1 MiB slice of N at a time). That copy came from new[], which for large operands mapped fresh
    // memory and faulted on every page at every call: a (48,3,512,512) + (48,512,512)
    // f32 add took 156 ms against 10 ms with the operand in order. It now comes from
    // the cache of large blocks (1 MiB and more), as tensor storage does.
    const int threads = nt::get_num_threads();
    nt::set_num_threads(1);
    const auto img = nt::arange<float>(2 * 3 * 512 * 512).reshape({2, 3, 512, 512}, {"N", "C", "H", "W"});
    const auto lbl = nt::arange<float>(2 * 512 * 512).reshape({2, 512, 512}, {"N", "W", "H"});  // 2 MiB
    auto out = nt::zeros<float>({2, 3, 512, 512}, {"N", "C", "H", "W"});
    nt::add(img, lbl, out);  // warms the plan memo and puts a block of the copy's size in the cache
    const nt::allocator_stats before = nt::get_allocator_stats();
    if (NT_COUNT_ALLOCATIONS) CHECK(count([&] { nt::add(img, lbl, out); }) == 0);
    else nt::add(img, lbl, out);
    const nt::allocator_stats after = nt::get_allocator_stats();
    CHECK(after.cache_hits > before.cache_hits);
    CHECK(after.cache_misses == before.cache_misses);
    const auto in_order = lbl.permute({0, 2, 1}).contiguous();
    CHECK(out.to_vector() == (img + in_order).to_vector());
    nt::set_num_threads(threads);
}

TEST_CASE("large scratch of masked_select, var and sort comes from the block cache", "[core][alloc]") {
    // Their buffers of 1 MiB and more (mask flags, the mean of var's two passes, the radix
    // sort's keys) came from new[] and std::vector: glibc maps buffers of more than
    // 32 MiB afresh and faults on every page at every call (masked_select of a
    // (128,512,512) f32 volume took 118 ms against 27, var over 128 MiB 211 ms against
    // 27, a sort of 32 Mi int16 491 ms against 85-121). Warm calls now take no buffer of
    // 1 MiB or more from the heap.
    if (!NT_COUNT_ALLOCATIONS) SUCCEED("allocation counting is off under AddressSanitizer");
    const int threads = nt::get_num_threads();
    nt::set_num_threads(1);
    const auto volume = nt::arange<float>(2 * 1024 * 1024).reshape({2, 1024, 1024});
    const auto mask = volume > 1000.0f;  // 2 MiB of flags
    nt::Tensor<float> selected = nt::masked_select(volume, mask);
    selected = nt::masked_select(volume, mask);
    if (NT_COUNT_ALLOCATIONS) CHECK(count_large([&] { selected = nt::masked_select(volume, mask); }) == 0);
    CHECK(selected.size() == 2 * 1024 * 1024 - 1001);
    auto spread = nt::var(volume, 0);  // its mean: 1 Mi elements
    spread = nt::var(volume, 0);
    if (NT_COUNT_ALLOCATIONS) CHECK(count_large([&] { spread = nt::var(volume, 0); }) == 0);
    CHECK(spread.at(5, 7) == 1024.0f * 1024.0f * 1024.0f * 256.0f);
    const auto ct = nt::astype<std::int16_t>(nt::arange<std::int32_t>(1 << 19) * 79 % 4000 - 1000);  // 2 MiB of keys
    auto sorted = nt::sort(ct, 0);
    sorted = nt::sort(ct, 0);
    if (NT_COUNT_ALLOCATIONS) CHECK(count_large([&] { sorted = nt::sort(ct, 0); }) == 0);
    CHECK(std::is_sorted(sorted.cbegin(), sorted.cend()));
    nt::set_num_threads(threads);
}
