// Gradient laws of the statistics (var, stddev, nansum, nanmean, cumsum, cumprod) and
// of the values of median, quantile, sort and topk: nt::check_grad (central
// differences in double) on random inputs, named and unnamed, through negative
// strides; second derivatives where the rule is not piecewise linear; float against
// double.
#include "laws_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "nt/nt.hpp"

using nt::test::require_float_gradient;
using nt::test::require_gradient_law;
using nt::test::weighed;

namespace {

using T64 = nt::Tensor<double>;

// Distinct values (a random permutation of a spread grid, jittered), so that the
// order statistics have no ties for the finite differences to straddle.
T64 distinct_values(nt::shape_arg shape, nt::names_arg names = {}, std::uint32_t seed = 7) {
    std::mt19937 rng(seed);
    std::int64_t n = 1;
    for (std::int64_t s : shape.span()) n *= s;
    std::vector<double> values(static_cast<std::size_t>(n));
    std::uniform_real_distribution<double> jitter(0.0, 0.5);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = -1.0 + 0.1 * static_cast<double>(i) + 0.1 * jitter(rng);
    std::shuffle(values.begin(), values.end(), rng);
    return nt::from_vector(values, shape, names);
}

// x -> <grad f(x), grad f(x)>: its gradient is 2 H grad f, so check_grad of it checks
// the rules' own derivatives.
template <class F>
auto second_order(F f) {
    return [f](const T64& x) {
        const T64 g = nt::grad(f, x);
        return nt::sum(g * g);
    };
}

}  // namespace

// The law, with the line of the call in the message.
#define REQUIRE_LAW(...)                  \
    do {                                  \
        INFO("law at line " << __LINE__); \
        require_gradient_law(__VA_ARGS__);         \
    } while (false)

TEST_CASE("var and stddev: gradients over named axes, every axis, ddof", "[autograd][stats]") {
    const T64 x = distinct_values({3, 4, 2}, {"N", "C", "W"}, 1);
    const T64 u = distinct_values({5, 3}, {}, 2);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::var(t, {"C"})); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::var(t, {"N", "W"}, 1, true)); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::var(t)); }, u);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::stddev(t, {0})); }, u);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::stddev(t, {"C"}, 1)); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::stddev(t)); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::var(t.flip(), {"C"}, 2)); }, x);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::var(t, {"C"}, 1)); }), x);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::stddev(t, {1})); }), u);
    const T64 g = nt::grad([](const T64& t) { return nt::sum(nt::var(t, {"C"})); }, x);
    CHECK(nt::to_string(g.spec()) == "(3,4,2 | N,C,W)");
    require_float_gradient([](const auto& t) { return weighed(nt::stddev(t, {"C"}, 1)); }, x);
}

TEST_CASE("nansum and nanmean: NaNs take no gradient", "[autograd][stats]") {
    const T64 x = distinct_values({3, 4}, {"N", "C"}, 3);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::nansum(t, {"C"})); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::nanmean(t, {"N"})); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::nanmean(t)); }, x);
    // With a NaN: its gradient is 0, the others' as without it (central differences
    // would see NaN, so the analytic gradient is compared with the NaN-free reduction).
    std::vector<double> v = x.to_vector();
    v[5] = std::numeric_limits<double>::quiet_NaN();
    const T64 with_nan = nt::from_vector(v, {3, 4}, {"N", "C"});
    const T64 g = nt::grad([](const T64& t) { return weighed(nt::nanmean(t, {"C"})); }, with_nan);
    const T64 masked = nt::where(nt::isnan(with_nan), nt::scalar(0.0), with_nan);
    const T64 counts = nt::sum((with_nan == with_nan).astype<double>(), {"C"});
    const T64 expected =
        nt::grad([&](const T64& t) { return weighed(nt::sum(t, {"C"}) / counts); }, masked);
    const T64 expected_masked = nt::where(nt::isnan(with_nan), nt::scalar(0.0), expected);
    CHECK(nt::to_string(g.spec()) == "(3,4 | N,C)");
    CHECK(nt::max(nt::abs(g - expected_masked)).to_vector()[0] < 1e-12);
    const T64 gs = nt::grad([](const T64& t) { return nt::sum(nt::nansum(t)); }, with_nan);
    CHECK(gs.to_vector()[5] == 0.0);
    CHECK(nt::sum(gs).to_vector()[0] == 11.0);
}

TEST_CASE("cumsum and cumprod: gradients along an axis, zeros included", "[autograd][stats]") {
    const T64 x = distinct_values({3, 5}, {"N", "T"}, 4);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::cumsum(t, "T")); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::cumsum(t, 0)); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::cumsum(t.flip({1}), "T")); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::cumprod(t, "T")); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::cumprod(t.flip(), 0)); }, x);
    // Zeros: one, two, at the start and at the end of a row (cumprod's special cases).
    std::vector<double> v = x.to_vector();
    v[2] = 0.0;               // row 0: one zero in the middle
    v[5] = 0.0, v[8] = 0.0;   // row 1: two zeros
    v[14] = 0.0;              // row 2: a zero last
    const T64 zeros = nt::from_vector(v, {3, 5}, {"N", "T"});
    REQUIRE_LAW([](const T64& t) { return weighed(nt::cumprod(t, "T")); }, zeros);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::cumprod(t, "T")); }), x);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::cumprod(t, "T")); }), zeros);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::cumsum(t, "N")); }), x);
    const T64 empty = distinct_values({0, 3}, {}, 5);
    CHECK(nt::to_string(nt::grad([](const T64& t) { return nt::sum(nt::cumsum(t, 0)); }, empty).spec()) == "(0,3)");
    require_float_gradient([](const auto& t) { return weighed(nt::cumprod(t, "T")); }, x);
}

TEST_CASE("median and quantile: the gradient goes to the ranks the value reads", "[autograd][stats]") {
    const T64 odd = distinct_values({3, 5}, {"N", "C"}, 6);
    const T64 even = distinct_values({4, 2, 3}, {"N", "C", "W"}, 7);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::median(t, {"C"})); }, odd);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::median(t, {"N"})); }, odd);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::median(t)); }, even);  // even count: the two middles
    REQUIRE_LAW([](const T64& t) { return weighed(nt::median(t, {"N", "W"}, true)); }, even);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::quantile(t, 0.3, {"C"})); }, odd);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::quantile(t, 0.0, {"N"})); }, odd);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::quantile(t, 1.0)); }, even);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::quantile(t.flip(), 0.77, {"W", "N"})); }, even);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::percentile(t, 40.0, {"C"})); }, odd);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::quantile(t, 0.4, {"C"})); }), odd);
    // Ties, as PyTorch 1.13: along axes, the element of the selected rank in the stable
    // order takes the whole gradient (torch.median(dim) and torch.quantile pick it);
    // the median of the whole tensor shares it among the elements equal to it.
    const T64 ties = nt::from_vector(std::vector<double>{2.0, 1.0, 2.0, 2.0, 3.0}, {1, 5}, {"N", "C"});
    const T64 along = nt::grad([](const T64& t) { return nt::sum(nt::median(t, {"C"})); }, ties);
    const nt::Tensor<std::int64_t> order = nt::argsort(ties, "C");
    std::vector<double> picked(5, 0.0);
    picked[static_cast<std::size_t>(order.to_vector()[2])] = 1.0;
    CHECK(along.to_vector() == picked);
    const T64 whole = nt::grad([](const T64& t) { return nt::median(t); }, ties);
    const T64 equal = (ties == nt::median(ties)).astype<double>();
    CHECK(nt::max(nt::abs(whole - equal / nt::sum(equal))).to_vector()[0] < 1e-15);
    CHECK(nt::to_string(whole.spec()) == "(1,5 | N,C)");
    const nt::Tensor<float> f = odd.astype<float>();
    CHECK(nt::grad([](const auto& t) { return nt::sum(nt::quantile(t, 0.3, {"C"})); }, f).dtype() == nt::dtype::f32);
    require_float_gradient([](const auto& t) { return weighed(nt::median(t, {"C"})); }, odd);
}

TEST_CASE("sort and topk: values carry the gradient back to their positions", "[autograd][stats]") {
    const T64 x = distinct_values({3, 5}, {"N", "C"}, 8);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::sort(t, "C") * nt::arange<double>(5).rename({"C"})); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::sort(t, 0)); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::sort(t.flip({1}), "C")); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::topk(t, 2, "C").values); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::topk(t.flip(), 3, 0).values); }, x);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::topk(t, 0, "C").values) + nt::sum(t); }, x);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::sort(t, "C")); }), x);
    const T64 empty = distinct_values({0, 4}, {"N", "C"}, 9);
    const T64 g_empty = nt::grad(
        [](const T64& t) { return nt::sum(nt::sort(t, "C")) + nt::sum(nt::topk(t, 2, "C").values) + nt::sum(nt::sort(t, "N")); },
        empty);
    CHECK(nt::to_string(g_empty.spec()) == "(0,4 | N,C)");
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::topk(t, 2, 0).values); }), x);
    const T64 g = nt::grad([](const T64& t) { return nt::sum(nt::topk(t, 2, "C").values); }, x);
    CHECK(nt::to_string(g.spec()) == "(3,5 | N,C)");
    CHECK(nt::sum(g).to_vector()[0] == 6.0);
    // Integer results record nothing: argsort of a recorded tensor is a plain tensor.
    const T64 w = x.clone().with_grad();
    CHECK_FALSE(nt::argsort(w, "C").requires_grad());
    CHECK_FALSE(nt::topk(w, 2, "C").indices.requires_grad());
    CHECK(nt::sort(w, "C").requires_grad());
    // Recording changes no value.
    CHECK(nt::sort(w, "C").to_vector() == nt::sort(x, "C").to_vector());
    CHECK(nt::topk(w, 3, "C").values.to_vector() == nt::topk(x, 3, "C").values.to_vector());
    CHECK(nt::median(w, {"C"}).to_vector() == nt::median(x, {"C"}).to_vector());
    CHECK(nt::var(w, {"C"}, 1).to_vector() == nt::var(x, {"C"}, 1).to_vector());
    CHECK(nt::cumprod(w, "C").to_vector() == nt::cumprod(x, "C").to_vector());
    require_float_gradient([](const auto& t) { return weighed(nt::sort(t, "C")); }, x);
}
TEST_CASE("logsumexp (learning.cpp) is differentiable through its composition", "[autograd][stats]") {
    const T64 u = distinct_values({5, 3}, {"N", "C"}, 2);
    REQUIRE_LAW([](const T64& t) { return weighed(nt::logsumexp(t, {"C"})); }, u);
    REQUIRE_LAW(second_order([](const T64& t) { return weighed(nt::logsumexp(t, {"C"})); }), u);
}
