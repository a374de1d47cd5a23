// Strided reductions against the reference; bitwise equal across thread counts.
#include "engine.hpp"
#include "engine_reduce.hpp"
#include "nt/error.hpp"
#include "nt/threads.hpp"

#include "engine_testing.hpp"

#include <cmath>
#include <cstring>
#include <memory>

using namespace engine_testing;
using namespace nt::detail;

namespace {

struct reduce_case {
    dims shape;
    layout in;
    dims out_shape;     // keepdims shape
    dims out_strides;   // keepdims strides, 0 on reduced axes
    layout out;         // layout over out_shape
};

reduce_case random_reduce_case(const dims& shape) {
    reduce_case c;
    c.shape = shape;
    c.in = random_layout(shape, true);
    c.out_shape = shape;
    for (auto& n : c.out_shape)
        if (chance(0.5)) n = 1;  // reduced
    // A size-0 axis that is reduced leaves a size-1 (empty-sum) axis in the output.
    c.out = random_layout(c.out_shape, false);
    c.out_strides = c.out.strides;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (c.out_shape[d] == 1) c.out_strides[d] = 0;
    return c;
}

// A plain buffer (std::vector<bool> has no data()).
template <class T>
struct buffer {
    std::unique_ptr<T[]> p;
    std::size_t n;
    buffer(std::int64_t size, T fill) : p(new T[static_cast<std::size_t>(size)]), n(static_cast<std::size_t>(size)) {
        std::fill(p.get(), p.get() + n, fill);
    }
    T* data() { return p.get(); }
    const T* data() const { return p.get(); }
    std::size_t size() const { return n; }
    T& operator[](std::size_t i) { return p[i]; }
    const T& operator[](std::size_t i) const { return p[i]; }
    friend bool operator==(const buffer& a, const buffer& b) {
        return a.n == b.n && std::equal(a.p.get(), a.p.get() + a.n, b.p.get());
    }
};

// Reference: acc per output element over the input in row-major order.
template <class Acc, class In, class Op>
buffer<Acc> reference(const reduce_case& c, const std::vector<In>& in, const Op& op, Acc fill) {
    buffer<Acc> out(c.out.span, fill);
    for_each_index(c.out_shape, {&c.out.strides}, [&](const auto& off) {
        out[static_cast<std::size_t>(c.out.offset + off[0])] = op.identity();
    });
    for_each_index(c.shape, {&c.out_strides, &c.in.strides}, [&](const auto& off) {
        auto& o = out[static_cast<std::size_t>(c.out.offset + off[0])];
        o = op.reduce(o, in[static_cast<std::size_t>(c.in.offset + off[1])]);
    });
    return out;
}

template <class Acc, class In, class Op>
buffer<Acc> run(const reduce_case& c, const std::vector<In>& in, const Op& op, Acc fill) {
    buffer<Acc> out(c.out.span, fill);
    reduce<Acc, In>(c.shape.span(), out.data() + c.out.offset, c.out_strides.span(), in.data() + c.in.offset,
                    c.in.strides.span(), op);
    return out;
}

template <class T>
std::vector<T> values(std::int64_t n, bool exact) {
    std::vector<T> v(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    for (auto& x : v)
        x = exact ? static_cast<T>(uniform(-64, 64)) / T(8)
                  : static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng()));
    return v;
}

}  // namespace

TEST_CASE("engine: reductions over random axis subsets match the reference", "[engine][reduce]") {
    thread_guard guard;
    for (int i = 0; i < 400; ++i) {
        const reduce_case c = random_reduce_case(random_shape());
        INFO("shape " << text(c.shape) << " in " << text(c.in.strides) << " out " << text(c.out_strides));
        // Multiples of 1/8 with small sums: exact in float whatever the order.
        const auto in = values<float>(c.in.span, true);
        for (int threads : {1, 3}) {
            nt::set_num_threads(threads);
            REQUIRE(run<float>(c, in, sum_op<float>{}, -99.0f) == reference<float>(c, in, sum_op<float>{}, -99.0f));
            REQUIRE(run<float>(c, in, max_op<float>{}, -99.0f) == reference<float>(c, in, max_op<float>{}, -99.0f));
            REQUIRE(run<double>(c, in, min_op<double>{}, -99.0) == reference<double>(c, in, min_op<double>{}, -99.0));
            REQUIRE(run<bool>(c, in, any_op{}, true) == reference<bool>(c, in, any_op{}, true));
            REQUIRE(run<bool>(c, in, all_op{}, false) == reference<bool>(c, in, all_op{}, false));
        }
        const auto ints = values<std::int32_t>(c.in.span, false);
        REQUIRE(run<std::int64_t>(c, ints, sum_op<std::int64_t>{}, std::int64_t{-1}) ==
                reference<std::int64_t>(c, ints, sum_op<std::int64_t>{}, std::int64_t{-1}));
    }
}

TEST_CASE("engine: float reductions are bitwise identical for any thread count", "[engine][reduce]") {
    thread_guard guard;
    const std::vector<dims> shapes{{1000000}, {300, 1000}, {1000, 300}, {7, 9000, 5}, {40, 50, 60}, {5000, 3}};
    for (const dims& shape : shapes) {
        for (int trial = 0; trial < 4; ++trial) {
            reduce_case c = random_reduce_case(shape);
            if (trial == 0) {  // everything
                c.out_shape = dims(shape.size(), 1);
                c.out = random_layout(c.out_shape, false);
                c.out_strides = dims(shape.size(), 0);
            }
            INFO("shape " << text(c.shape) << " in " << text(c.in.strides) << " out " << text(c.out_strides));
            const auto in = values<float>(c.in.span, false);
            nt::set_num_threads(1);
            const auto one = run<float>(c, in, sum_op<float>{}, 0.0f);
            for (int threads : {2, 3, 8}) {
                nt::set_num_threads(threads);
                const auto many = run<float>(c, in, sum_op<float>{}, 0.0f);
                REQUIRE(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)) == 0);
            }
            // And accurate: compare with a double reference.
            const auto ref = reference<double>(c, in, sum_op<double>{}, 0.0);
            double worst = 0;
            for (std::size_t k = 0; k < one.size(); ++k) worst = std::max(worst, std::abs(double(one[k]) - ref[k]));
            std::int64_t total = 1;
            for (auto n : c.shape) total *= n;
            const double per_output = double(total) / double(std::max<std::size_t>(one.size(), 1));
            CHECK(worst < 1e-6 * per_output + 1e-6);
        }
    }
}

TEST_CASE("engine: pairwise summation is accurate", "[engine][reduce]") {
    // 2^24 + many small ones: naive float accumulation stalls at 2^24.
    const std::int64_t n = 1 << 22;
    std::vector<float> v(static_cast<std::size_t>(n), 1.0f);
    const dims shape{n}, is{1}, os{0};
    float out = 0;
    reduce<float, float>(shape.span(), &out, os.span(), v.data(), is.span(), sum_op<float>{});
    CHECK(out == float(n));
    // Column sums (outer traversal) of a tall matrix of 0.1.
    const std::int64_t rows = 1 << 20, cols = 4;
    std::vector<float> m(static_cast<std::size_t>(rows * cols), 0.1f);
    const dims mshape{rows, cols}, mis{cols, 1}, mos{0, 1};
    float sums[4];
    reduce<float, float>(mshape.span(), sums, mos.span(), m.data(), mis.span(), sum_op<float>{});
    for (float s : sums) CHECK(std::abs(double(s) - 0.1 * double(rows)) / (0.1 * double(rows)) < 1e-5);
}

TEST_CASE("engine: reduction edge cases", "[engine][reduce]") {
    // Empty reduced axis: the identity.
    const dims shape{3, 0}, is{1, 3}, os{1, 0};
    float out[3] = {5, 5, 5};
    reduce<float, float>(shape.span(), out, os.span(), static_cast<const float*>(nullptr), is.span(), sum_op<float>{});
    for (float x : out) CHECK(x == 0.0f);
    // Empty kept axis: nothing written.
    const dims shape2{0, 3}, is2{3, 1}, os2{1, 0};
    reduce<float, float>(shape2.span(), out, os2.span(), static_cast<const float*>(nullptr), is2.span(),
                         max_op<float>{});
    // Rank 0.
    const float one = 4.5f;
    float r = 0;
    reduce<float, float>(std::span<const std::int64_t>{}, &r, std::span<const std::int64_t>{}, &one,
                         std::span<const std::int64_t>{}, sum_op<float>{});
    CHECK(r == 4.5f);
    // NaN propagates through max.
    const float nan_in[4] = {1, std::nanf(""), 3, 2};
    const dims s4{4}, i4{1}, o4{0};
    reduce<float, float>(s4.span(), &r, o4.span(), nan_in, i4.span(), max_op<float>{});
    CHECK(std::isnan(r));
    auto bad = [&] { reduce<float, float>(s4.span(), &r, is.span(), nan_in, i4.span(), sum_op<float>{}); };
    CHECK_THROWS_AS(bad(), nt::error);
}
