// The element-wise engine against a naive index-by-index reference.
#include "engine.hpp"
#include "nt/error.hpp"
#include "nt/threads.hpp"

#include "engine_testing.hpp"

#include <array>
#include <cmath>
#include <cstring>

using namespace engine_testing;
using nt::detail::elementwise;

// Lowers the parallel threshold so that the small random cases also run on the pool.
engine_testing::thread_guard::thread_guard() : saved(nt::get_num_threads()) { nt::detail::set_parallel_threshold(512); }
engine_testing::thread_guard::~thread_guard() {
    nt::set_num_threads(saved);
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
}

namespace {

template <class T>
std::vector<T> random_buffer(std::int64_t n) {
    std::vector<T> v(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    for (auto& x : v) {
        if constexpr (std::is_floating_point_v<T>)
            x = static_cast<T>(std::uniform_real_distribution<double>(-4, 4)(rng()));
        else
            x = static_cast<T>(uniform(-100, 100));
    }
    return v;
}

// One binary case: out = f(a, b) with random layouts, compared with the reference, for
// 1 thread and several.
template <class O, class A, class B, class F>
void check_binary(const dims& shape, F f) {
    const layout lo = random_layout(shape, false), la = random_layout(shape, true), lb = random_layout(shape, true);
    const auto a = random_buffer<A>(la.span);  // two declarations: clang 14 wants one type per `auto`
    const auto b = random_buffer<B>(lb.span);
    std::vector<O> expect(static_cast<std::size_t>(lo.span), O(7));
    for_each_index(shape, {&lo.strides, &la.strides, &lb.strides}, [&](const std::vector<std::int64_t>& off) {
        expect[static_cast<std::size_t>(lo.offset + off[0])] = static_cast<O>(
            f(a[static_cast<std::size_t>(la.offset + off[1])], b[static_cast<std::size_t>(lb.offset + off[2])]));
    });
    INFO("shape " << text(shape) << " out " << text(lo.strides) << " a " << text(la.strides) << " b "
                  << text(lb.strides));
    for (int threads : {1, 3}) {
        nt::set_num_threads(threads);
        std::vector<O> out(static_cast<std::size_t>(lo.span), O(7));
        elementwise<O, A, B>(shape.span(), out.data() + lo.offset, lo.strides.span(), a.data() + la.offset,
                             la.strides.span(), b.data() + lb.offset, lb.strides.span(), f);
        INFO("threads " << threads);
        REQUIRE(std::memcmp(out.data(), expect.data(), out.size() * sizeof(O)) == 0);
    }
}

}  // namespace

TEST_CASE("engine: binary elementwise matches the reference on random layouts", "[engine]") {
    thread_guard guard;
    for (int i = 0; i < 400; ++i) {
        const dims shape = random_shape();
        check_binary<float, float, float>(shape, [](float x, float y) { return x * y + x; });
    }
    for (int i = 0; i < 150; ++i)
        check_binary<double, float, int>(random_shape(), [](float x, int y) { return double(x) - 2.0 * y; });
    for (int i = 0; i < 150; ++i)
        check_binary<std::int16_t, std::int8_t, std::int64_t>(
            random_shape(), [](std::int8_t x, std::int64_t y) { return static_cast<std::int16_t>(x + y); });
}

TEST_CASE("engine: large shapes take the threaded and tiled paths", "[engine]") {
    thread_guard guard;
    for (int i = 0; i < 12; ++i) {
        // Two to four axes, 40K..200K elements, so that the pool is used.
        const auto rank = static_cast<std::size_t>(uniform(2, 4));
        dims shape(rank, 1);
        for (auto& n : shape) n = uniform(2, 70);
        std::int64_t total = 1;
        for (auto n : shape) total *= n;
        if (total < 40000 || total > 200000) {
            --i;
            continue;
        }
        check_binary<float, float, float>(shape, [](float x, float y) { return x - y; });
    }
    // A plain transpose: the tiled walk with ragged edge tiles.
    check_binary<float, float, float>(dims{333, 517}, [](float x, float y) { return x + y; });
}

TEST_CASE("engine: rows that reread an input are walked a chunk of columns at a time", "[engine]") {
    using nt::detail::make_loop_plan;
    using nt::detail::operand_layout;
    // (2,3,n) + (2,1,n): the second input is read again for each of the 3 rows.
    auto plan_for = [](const dims& shape, const dims& out, const dims& a, const dims& b, std::int64_t es) {
        const std::array<operand_layout, 3> ops{operand_layout{out.span(), es}, operand_layout{a.span(), es},
                                                operand_layout{b.span(), es}};
        return make_loop_plan(shape.span(), ops);
    };
    const std::int64_t n = 9001;
    const dims shape{2, 3, n}, c{3 * n, n, 1}, reused{n, 0, 1};
    CHECK(plan_for(shape, c, c, reused, 4).column_chunk == 4096);  // 16 KiB of f32
    CHECK(plan_for(shape, c, c, reused, 8).column_chunk == 2048);
    CHECK(plan_for(shape, c, reused, c, 4).column_chunk == 4096);  // the first input reused
    CHECK(plan_for(shape, c, c, c, 4).column_chunk == 0);          // nothing reread
    CHECK(plan_for(dims{2, 3, 8191}, dims{3 * 8191, 8191, 1}, dims{3 * 8191, 8191, 1}, dims{8191, 0, 1}, 4)
              .column_chunk == 0);  // rows of less than two chunks: whole rows
    CHECK(plan_for(shape, c, c, dims{1, 1, 0}, 4).column_chunk == 0);  // broadcast along the rows: no reuse to keep

    // The chunked walk against the reference: rows of a few chunks and a partial one,
    // the reused input contiguous or reversed, on one thread and on three (row pieces).
    thread_guard guard;
    for (const std::int64_t step : {std::int64_t{1}, std::int64_t{-1}}) {
        const auto a = random_buffer<float>(2 * 3 * n), b = random_buffer<float>(2 * n);
        const std::int64_t b_offset = step < 0 ? n - 1 : 0;
        const dims b_strides{n, 0, step};
        std::vector<float> expect(static_cast<std::size_t>(2 * 3 * n));
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                for (std::int64_t k = 0; k < n; ++k)
                    expect[static_cast<std::size_t>((i * 3 + j) * n + k)] =
                        a[static_cast<std::size_t>((i * 3 + j) * n + k)] -
                        b[static_cast<std::size_t>(b_offset + i * n + k * step)];
        for (const int threads : {1, 3}) {
            nt::set_num_threads(threads);
            std::vector<float> out(expect.size(), 7.0f);
            elementwise<float, float, float>(shape.span(), out.data(), c.span(), a.data(), c.span(),
                                             b.data() + b_offset, b_strides.span(),
                                             [](float x, float y) { return x - y; });
            INFO("step " << step << " threads " << threads);
            REQUIRE(out == expect);
        }
    }
}

TEST_CASE("engine: unary, nullary and ternary forms", "[engine]") {
    thread_guard guard;
    for (int i = 0; i < 100; ++i) {
        const dims shape = random_shape();
        const layout lo = random_layout(shape, false), la = random_layout(shape, true);
        const layout lb = random_layout(shape, true), lc = random_layout(shape, true);
        const auto a = random_buffer<float>(la.span);
        const auto b = random_buffer<double>(lb.span);
        const auto c = random_buffer<std::int32_t>(lc.span);
        std::vector<double> e1(static_cast<std::size_t>(lo.span), 0), e0 = e1, e3 = e1;
        for_each_index(shape, {&lo.strides, &la.strides, &lb.strides, &lc.strides}, [&](const std::vector<std::int64_t>& off) {
            const auto o = static_cast<std::size_t>(lo.offset + off[0]);
            const float x = a[static_cast<std::size_t>(la.offset + off[1])];
            e1[o] = std::sqrt(std::abs(double(x)));
            e0[o] = 2.5;
            e3[o] = c[static_cast<std::size_t>(lc.offset + off[3])] > 0 ? double(x)
                                                                       : double(b[static_cast<std::size_t>(lb.offset + off[2])]);
        });
        for (int threads : {1, 2}) {
            nt::set_num_threads(threads);
            std::vector<double> o1(static_cast<std::size_t>(lo.span), 0), o0 = o1, o3 = o1;
            elementwise<double, float>(shape.span(), o1.data() + lo.offset, lo.strides.span(), a.data() + la.offset,
                                       la.strides.span(), [](float x) { return std::sqrt(std::abs(double(x))); });
            elementwise<double>(shape.span(), o0.data() + lo.offset, lo.strides.span(), [] { return 2.5; });
            elementwise<double, std::int32_t, float, double>(
                shape.span(), o3.data() + lo.offset, lo.strides.span(), c.data() + lc.offset, lc.strides.span(),
                a.data() + la.offset, la.strides.span(), b.data() + lb.offset, lb.strides.span(),
                [](std::int32_t k, float x, double y) { return k > 0 ? double(x) : y; });
            INFO("shape " << text(shape) << " threads " << threads);
            REQUIRE(o1 == e1);
            REQUIRE(o0 == e0);
            REQUIRE(o3 == e3);
        }
    }
}

TEST_CASE("engine: in place (output is also the first input)", "[engine]") {
    thread_guard guard;
    for (int i = 0; i < 100; ++i) {
        const dims shape = random_shape(i < 95 ? 4000 : 100000, true);
        const layout la = random_layout(shape, false), lb = random_layout(shape, true);
        auto a = random_buffer<float>(la.span);
        const auto b = random_buffer<float>(lb.span);
        auto expect = a;
        for_each_index(shape, {&la.strides, &lb.strides}, [&](const auto& off) {
            expect[static_cast<std::size_t>(la.offset + off[0])] += b[static_cast<std::size_t>(lb.offset + off[1])];
        });
        nt::set_num_threads(i % 2 ? 1 : 2);
        elementwise<float, float, float>(shape.span(), a.data() + la.offset, la.strides.span(), a.data() + la.offset,
                                         la.strides.span(), b.data() + lb.offset, lb.strides.span(),
                                         [](float x, float y) { return x + y; });
        INFO("shape " << text(shape));
        REQUIRE(a == expect);
    }
}

TEST_CASE("engine: zero-size shapes and bad arguments", "[engine]") {
    const dims shape{3, 0, 4};
    const dims st{0, 0, 0};
    float dummy = 1.0f;
    elementwise<float, float, float>(shape.span(), &dummy, st.span(), &dummy, st.span(), &dummy, st.span(),
                                     [](float, float) -> float { FAIL("called"); return 0; });
    CHECK(dummy == 1.0f);
    const dims short_strides{1, 1};
    const dims shape3{2, 2, 2};
    float buf[8] = {};
    CHECK_THROWS_AS(elementwise<float>(shape3.span(), buf, short_strides.span(), [] { return 1.0f; }), nt::error);
    const dims neg{2, -1};
    CHECK_THROWS_AS(elementwise<float>(neg.span(), buf, short_strides.span(), [] { return 1.0f; }), nt::error);
    // Rank 0: one element.
    elementwise<float>(std::span<const std::int64_t>{}, buf, std::span<const std::int64_t>{}, [] { return 5.0f; });
    CHECK(buf[0] == 5.0f);
    CHECK(buf[1] == 0.0f);
}

TEST_CASE("engine: thread count", "[engine][threads]") {
    thread_guard guard;
    nt::set_num_threads(3);
    CHECK(nt::get_num_threads() == 3);
    nt::set_num_threads(0);
    CHECK(nt::get_num_threads() >= 1);
    CHECK_THROWS_AS(nt::set_num_threads(-2), nt::error);
    // Exceptions from a chunk reach the caller; the pool stays usable.
    nt::set_num_threads(2);
    CHECK_THROWS_AS(nt::detail::parallel_for(100, [](std::int64_t b, std::int64_t) {
                        if (b == 0) throw std::runtime_error("boom");
                    }),
                    std::runtime_error);
    std::vector<int> hit(1000, 0);
    nt::detail::parallel_for(1000, [&](std::int64_t b, std::int64_t e) {
        for (auto i = b; i < e; ++i) hit[static_cast<std::size_t>(i)]++;
    });
    CHECK(std::all_of(hit.begin(), hit.end(), [](int h) { return h == 1; }));
}
