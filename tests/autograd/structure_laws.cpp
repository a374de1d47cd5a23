// Backward rules of the structure operations (nt/structure.hpp, nt/rearrange.hpp):
// each gradient agrees with central differences in double (nt::check_grad), on named
// and unnamed operands, on flipped (negative-stride) operands and on empty axes where
// the operation allows them; f32 gradients agree with the f64 ones; gradients carry
// their tensor's names; concatenate and pad differentiate twice.
#include <nt_test_support.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "nt/nt.hpp"

namespace {

nt::Tensor<double> random_tensor(std::initializer_list<std::int64_t> shape, nt::names_arg names = {},
                                 unsigned seed = 7) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::int64_t n = 1;
    for (std::int64_t s : shape) n *= s;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) x = u(gen);
    return nt::from_vector(v, nt::shape_arg(shape), names);
}

// Fixed weights shaped and named as y, so that every result element has its own
// weight in the scalar under test (a plain sum would hide a permuted gradient).
template <class T>
nt::Tensor<T> weights_like(const nt::Tensor<T>& y) {
    const auto w = nt::cos(nt::arange<T>(y.size()) * T(0.7) + T(0.3));
    return w.reshape(nt::shape_arg(y.shape()), nt::names_arg(y.names()));
}

template <class T>
nt::Tensor<T> weigh(const nt::Tensor<T>& y) {
    return nt::sum(y * weights_like(y));
}

// The law for one operation f (a generic callable of one tensor): f64 gradients
// agree with central differences; the gradient has x's shape and names; the f32
// gradient agrees with the f64 one within float rounding.
template <class F>
void check_law(const std::string& what, const F& f, const nt::Tensor<double>& x) {
    INFO(what << " on " << nt::to_string(x.spec()));
    auto loss = [&](const auto& t) { return weigh(f(t)); };
    const nt::grad_check_report r = nt::check_grad(loss, x);
    INFO(r.where);
    CHECK(r.ok);
    const nt::Tensor<double> g64 = nt::grad(loss, x);
    CHECK(nt::to_string(g64.spec()) == nt::to_string(x.spec()));
    const nt::Tensor<float> g32 = nt::grad(loss, x.astype<float>());
    CHECK(nt::to_string(g32.spec()) == nt::to_string(x.spec()));
    const std::vector<double> a = g64.to_vector();
    const std::vector<float> b = g32.to_vector();
    REQUIRE(a.size() == b.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i] - static_cast<double>(b[i])) / (1.0 + std::abs(a[i])));
    CHECK(worst < 1e-5);
}

// The law on x as given and on x flipped along every axis first (negative strides).
template <class F>
void check_law_and_flipped(const std::string& what, const F& f, const nt::Tensor<double>& x) {
    check_law(what, f, x);
    check_law(what + " (flipped input)", [&](const auto& t) { return f(nt::flip(t)); }, x);
}

// The law on a named and an unnamed x (and both flipped).
template <class F>
void check_named_and_unnamed(const std::string& what, const F& f, const nt::Tensor<double>& named) {
    check_law_and_flipped(what + " (named)", f, named);
    check_law_and_flipped(what + " (unnamed)", f, named.rename(nt::names_arg{}));
}

// Second derivatives: the gradient of h(x) = sum(w * f(x)^2), itself weighed, checked
// against central differences of that gradient (so the backward of f's rule records).
template <class F>
void check_second_order(const std::string& what, const F& f, const nt::Tensor<double>& x) {
    INFO(what << " (second order) on " << nt::to_string(x.spec()));
    auto h = [&](const auto& t) {
        const auto y = f(t);
        return nt::sum(y * y * weights_like(y));
    };
    auto outer = [&](const auto& t) { return weigh(nt::grad(h, t)); };
    const nt::grad_check_report r = nt::check_grad(outer, x);
    INFO(r.where);
    CHECK(r.ok);
}

template <class T>
nt::Tensor<T> sum_of_parts(const std::vector<nt::Tensor<T>>& parts) {
    nt::Tensor<T> total = weigh(parts[0]);
    for (std::size_t k = 1; k < parts.size(); ++k) total = total + weigh(parts[k] * T(k + 1));
    return total;
}

}  // namespace

TEST_CASE("concatenate and stack: the gradient of each input is its part", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    check_named_and_unnamed("concatenate", [](const auto& t) { return nt::concatenate({t, t.slice(1, 0, 2) * 2.0}, 1); }, x);
    check_named_and_unnamed("concatenate axis 0", [](const auto& t) { return nt::concatenate({nt::exp(t), t, t}, 0); }, x);
    check_named_and_unnamed("stack", [](const auto& t) { return nt::stack({t, t * t}, 1); }, x);
    check_named_and_unnamed("stack last", [](const auto& t) { return nt::stack({t, nt::sin(t), t}, 2); }, x);
    // Inputs whose names come in another order are aligned by names; their gradients
    // come back in their own order.
    check_law_and_flipped("concatenate of transposed named inputs",
                          [](const auto& t) { return nt::concatenate({t, nt::sin(t).transpose()}, "W"); }, x);
    check_law_and_flipped("stack of transposed named inputs",
                          [](const auto& t) { return nt::stack({t.transpose(), t * 3.0}, 0, "S"); }, x);
    // Zero-size inputs along the joined axis, and an empty axis elsewhere.
    check_law("concatenate with an empty input", [](const auto& t) { return nt::concatenate({t.slice(1, 0, 0), t}, 1); }, x);
    check_law("concatenate of empty tensors", [](const auto& t) { return nt::concatenate({t, t}, 1); },
              random_tensor({0, 2}, {"H", "W"}));
    check_law("stack of empty tensors", [](const auto& t) { return nt::stack({t, t}, 0); }, random_tensor({0, 2}));
}

TEST_CASE("concatenate: a gradient that reaches one input and not another", "[autograd][structure]") {
    const auto x = random_tensor({2, 3}, {"H", "W"});
    const auto c = random_tensor({2, 1}, {"H", "W"}, 3);
    check_law("concatenate with a constant", [&](const auto& t) {
        using T = typename std::decay_t<decltype(t)>::value_type;
        return nt::concatenate({c.template astype<T>(), t}, "W");
    }, x);
}

TEST_CASE("split, array_split, chunk: the parts are recorded views", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    check_named_and_unnamed("split equal", [](const auto& t) { return sum_of_parts(nt::split(t, 1, 2)); }, x);
    check_named_and_unnamed("split at", [](const auto& t) { return sum_of_parts(nt::split(t, 1, {1, 3})); }, x);
    check_named_and_unnamed("split at with an empty part",
                            [](const auto& t) { return sum_of_parts(nt::split(t, 0, {0, 2})); }, x);
    check_named_and_unnamed("array_split", [](const auto& t) { return sum_of_parts(nt::array_split(t, 1, 3)); }, x);
    check_named_and_unnamed("chunk", [](const auto& t) { return sum_of_parts(nt::chunk(t, 3, 1)); }, x);
    check_law("chunk of an empty axis", [](const auto& t) { return sum_of_parts(nt::chunk(t, 2, 0)); },
              random_tensor({0, 3}));
    // A part used twice, and only one part used.
    check_law("split part reused", [](const auto& t) {
        const auto p = nt::split(t, "W", 2);
        return nt::concatenate({p[1], p[1] * p[0]}, "W");
    }, x);
}

TEST_CASE("pad: every mode folds the padded borders back", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    const nt::pad_mode modes[] = {nt::pad_mode::constant, nt::pad_mode::edge, nt::pad_mode::reflect,
                                  nt::pad_mode::symmetric, nt::pad_mode::wrap};
    for (nt::pad_mode m : modes) {
        const std::string what = "pad mode " + std::to_string(static_cast<int>(m));
        check_named_and_unnamed(what, [m](const auto& t) { return nt::pad(t, {{0, {1, 2}}, {1, {2, 1}}}, m); }, x);
        check_named_and_unnamed(what + " one axis",
                                [m](const auto& t) { return nt::pad(t, {{1, {0, 3}}}, m); }, x);
        // An empty axis that is not padded.
        check_law(what + " empty", [m](const auto& t) { return nt::pad(t, {{1, {1, 2}}}, m); },
                  random_tensor({0, 3}, {"H", "W"}));
    }
    // Widths wider than the axis: the mirror and the period repeat.
    for (nt::pad_mode m : {nt::pad_mode::symmetric, nt::pad_mode::wrap, nt::pad_mode::edge, nt::pad_mode::constant}) {
        const std::string what = "wide pad mode " + std::to_string(static_cast<int>(m));
        check_named_and_unnamed(what, [m](const auto& t) { return nt::pad(t, {{1, {5, 9}}, {0, {4, 1}}}, m); }, x);
    }
    // reflect of a one-element axis repeats its edge.
    check_law("reflect of a one-element axis",
              [](const auto& t) { return nt::pad(t, {{0, {2, 1}}}, nt::pad_mode::reflect); },
              random_tensor({1, 3}, {"H", "W"}));
    // A constant value other than 0 does not change the gradient.
    check_named_and_unnamed("pad with a constant value",
                            [](const auto& t) { return nt::pad(t, {{0, {1, 1}}}, nt::pad_mode::constant, 1.5); }, x);
    // Padding an empty axis with constants.
    check_law("constant pad of an empty axis",
              [](const auto& t) { return nt::pad(t, {{0, {1, 2}}}, nt::pad_mode::constant); },
              random_tensor({0, 3}, {"H", "W"}));
}

TEST_CASE("roll, repeat, tile", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    check_named_and_unnamed("roll axis", [](const auto& t) { return nt::roll(t, 2, 1); }, x);
    check_named_and_unnamed("roll negative", [](const auto& t) { return nt::roll(t, -5, 0); }, x);
    check_named_and_unnamed("roll flat", [](const auto& t) { return nt::roll(t, 5); }, x);
    check_named_and_unnamed("repeat", [](const auto& t) { return nt::repeat(t, 3, 1); }, x);
    check_named_and_unnamed("repeat axis 0", [](const auto& t) { return nt::repeat(t, 2, 0); }, x);
    check_named_and_unnamed("tile", [](const auto& t) { return nt::tile(t, {2, 3}); }, x);
    check_named_and_unnamed("tile with a new axis", [](const auto& t) { return nt::tile(t, {2, 1, 2}); }, x);
    check_named_and_unnamed("tile of one axis", [](const auto& t) { return nt::tile(t, {3}); }, x);
    // Zero-size results and inputs.
    check_law("repeat zero times", [](const auto& t) { return nt::repeat(t, 0, 1); }, x);
    check_law("tile zero times", [](const auto& t) { return nt::tile(t, {0, 2}); }, x);
    check_law("roll of an empty tensor", [](const auto& t) { return nt::roll(t, 1, 1); }, random_tensor({0, 3}));
    check_law("roll flat of an empty tensor", [](const auto& t) { return nt::roll(t, 1); }, random_tensor({0, 3}));
}

TEST_CASE("flip and unfold as free functions are recorded views", "[autograd][structure]") {
    const auto x = random_tensor({4, 5}, {"H", "W"});
    check_named_and_unnamed("flip", [](const auto& t) { return nt::flip(t, {1}) * t; }, x);
    check_named_and_unnamed("flip all", [](const auto& t) { return nt::flip(t) * t; }, x);
    check_named_and_unnamed("unfold", [](const auto& t) { return nt::unfold(t, {0, 1}, {2, 3}, {1, 2}); }, x);
    // Overlapping windows: the element of several windows sums their gradients.
    check_named_and_unnamed("unfold overlapping", [](const auto& t) { return nt::unfold(t, {1}, {3}, {1}); }, x);
}

TEST_CASE("fold: the backward is unfold", "[autograd][structure]") {
    // (H windows 2, W windows 3, window 2 x 2): folds to (3, 4) with step 1.
    const auto p = random_tensor({2, 3, 2, 2}, {"H", "W", "h", "w"});
    for (nt::fold_norm norm : {nt::fold_norm::none, nt::fold_norm::average}) {
        const std::string what = norm == nt::fold_norm::none ? "fold" : "fold average";
        check_named_and_unnamed(what, [norm](const auto& t) { return nt::fold(t, {0, 1}, {3, 4}, {1, 1}, norm); }, p);
        // Steps wider than the windows leave elements no window covers.
        check_named_and_unnamed(what + " with gaps",
                                [norm](const auto& t) { return nt::fold(t, {0, 1}, {5, 8}, {3, 3}, norm); }, p);
    }
    // A leading axis that is not folded.
    check_named_and_unnamed("fold one axis", [](const auto& t) { return nt::fold(t, {1}, {7}, {2}); },
                            random_tensor({2, 3, 3}, {"N", "W", "w"}));
    // fold after unfold adds each element once per window covering it.
    check_law("fold of unfold", [](const auto& t) {
        return nt::fold(nt::unfold(t, {0, 1}, {2, 2}, {1, 1}), {0, 1}, {3, 4}, {1, 1}, nt::fold_norm::average);
    }, random_tensor({3, 4}, {"H", "W"}));
    check_law("fold of empty patches", [](const auto& t) { return nt::fold(t, {0}, {1}, {1}); }, random_tensor({0, 2}));
}

TEST_CASE("rearrange, reduce and einops repeat", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    check_named_and_unnamed("rearrange permutation", [](const auto& t) { return nt::rearrange(t, "H W -> W H"); }, x);
    check_named_and_unnamed("rearrange split and merge", [](const auto& t) {
        return nt::rearrange(t, "H (W two) -> (two H) W", {{"two", 2}});
    }, x);
    check_named_and_unnamed("rearrange merge after permute",
                            [](const auto& t) { return nt::rearrange(t, "H W -> (W H) 1"); }, x);
    check_named_and_unnamed("rearrange ellipsis", [](const auto& t) { return nt::rearrange(t, "... W -> W ..."); }, x);
    const nt::reduce_op ops[] = {nt::reduce_op::sum, nt::reduce_op::mean, nt::reduce_op::max, nt::reduce_op::min};
    for (nt::reduce_op op : ops) {
        const std::string what = "reduce op " + std::to_string(static_cast<int>(op));
        check_named_and_unnamed(what, [op](const auto& t) { return nt::reduce(t, "H (W two) -> W H", op, {{"two", 2}}); }, x);
        check_named_and_unnamed(what + " to a scalar", [op](const auto& t) { return nt::reduce(t, "H W -> ", op); }, x);
        check_named_and_unnamed(what + " one axis", [op](const auto& t) { return nt::reduce(t, "H W -> W", op); }, x);
    }
    check_named_and_unnamed("einops repeat", [](const auto& t) { return nt::repeat(t, "H W -> W C H", {{"C", 3}}); }, x);
    check_law("rearrange of an empty tensor", [](const auto& t) { return nt::rearrange(t, "H W -> (W H)"); },
              random_tensor({0, 3}, {"H", "W"}));
}

TEST_CASE("second derivatives through concatenate, pad and the index-map rules", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    check_second_order("concatenate", [](const auto& t) { return nt::concatenate({t, nt::sin(t).transpose()}, "W"); }, x);
    check_second_order("stack", [](const auto& t) { return nt::stack({t, t * t}, 0); }, x);
    for (nt::pad_mode m : {nt::pad_mode::constant, nt::pad_mode::edge, nt::pad_mode::reflect, nt::pad_mode::symmetric,
                           nt::pad_mode::wrap})
        check_second_order("pad mode " + std::to_string(static_cast<int>(m)),
                           [m](const auto& t) { return nt::pad(t, {{0, {1, 2}}, {1, {2, 1}}}, m); }, x);
    check_second_order("roll", [](const auto& t) { return nt::roll(t, 3); }, x);
    check_second_order("tile", [](const auto& t) { return nt::tile(t, {2, 1, 2}); }, x);
    check_second_order("repeat", [](const auto& t) { return nt::repeat(t, 2, "W"); }, x);
    check_second_order("fold", [](const auto& t) { return nt::fold(t, {0}, {6}, {1}, nt::fold_norm::average); }, x);
    check_second_order("rearrange", [](const auto& t) { return nt::rearrange(t, "H W -> (W H)"); }, x);
    check_second_order("reduce max", [](const auto& t) { return nt::reduce(t, "H (W two) -> H W", nt::reduce_op::max, {{"two", 2}}); }, x);
}

TEST_CASE("the tape: leaves' gradients through structure operations carry names", "[autograd][structure]") {
    auto w = nt::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}, {"H", "W"}).with_grad();
    const auto y = nt::pad(nt::concatenate({w, w}, "W"), {{"H", {1, 1}}}, nt::pad_mode::reflect);
    nt::sum(y).backward();
    CHECK(nt::to_string(w.grad().spec()) == nt::to_string(w.spec()));
    // Each element appears twice in the concatenation; reflect over H (size 2, width 1)
    // copies row 1 above and row 0 below: every element is read twice more.
    CHECK(w.grad().to_vector() == std::vector<float>(6, 4.0f));
}

TEST_CASE("structure operations outside any graph record nothing", "[autograd][structure]") {
    const auto x = random_tensor({3, 4}, {"H", "W"});
    CHECK_FALSE(nt::pad(x, {{0, {1, 1}}}, nt::pad_mode::wrap).requires_grad());
    CHECK_FALSE(nt::concatenate({x, x}, 0).requires_grad());
    CHECK_FALSE(nt::roll(x, 1).requires_grad());
    CHECK_FALSE(nt::split(x, 0, {1})[0].requires_grad());
    auto w = x.clone().with_grad();
    CHECK(nt::pad(w, {{0, {1, 1}}}, nt::pad_mode::wrap).requires_grad());
    CHECK(nt::split(w, 0, {1})[1].requires_grad());
    {
        const nt::no_grad guard;
        CHECK_FALSE(nt::tile(w, {2}).requires_grad());
        CHECK_FALSE(nt::concatenate({w, x}, 0).requires_grad());
    }
    // Integer results record nothing (fold_counts, integer structure results).
    const auto counts = nt::fold_counts(w, {0}, {6}, {1});
    CHECK_FALSE(counts.requires_grad());
}

TEST_CASE("half-precision gradients through the index-map and join rules", "[autograd][structure]") {
    auto w = nt::ones<nt::half>({2, 3}, {"H", "W"}).with_grad();
    // wrap over H (size 2, widths 1 and 1) reads each row once more; roll and stack
    // move elements; the stack with a constant adds nothing.
    const auto y = nt::stack({nt::roll(nt::pad(w, {{"H", {1, 1}}}, nt::pad_mode::wrap), 1), nt::zeros<nt::half>({4, 3}, {"H", "W"})}, 0, "S");
    nt::sum(y).backward();
    CHECK(w.grad().dtype() == nt::dtype::f16);
    CHECK(nt::to_string(w.grad().spec()) == "(2,3 | H,W)");
    CHECK(w.grad().astype<float>().to_vector() == std::vector<float>(6, 2.0f));
}

TEST_CASE("recording does not change the values of structure operations", "[autograd][structure]") {
    const auto x = nt::flip(random_tensor({4, 6}, {"H", "W"}));  // negative strides: the copying paths
    const auto w = x.clone().with_grad();
    auto same = [](const nt::Tensor<double>& recorded, const nt::Tensor<double>& plain) {
        CHECK(recorded.requires_grad());
        CHECK(nt::to_string(recorded.spec()) == nt::to_string(plain.spec()));
        CHECK(recorded.to_vector() == plain.to_vector());
    };
    auto both = [&](const auto& f) { same(f(nt::flip(w)), f(nt::flip(x))); };
    both([](const auto& t) { return nt::rearrange(t, "H (W two) -> (two H) W", {{"two", 2}}); });
    both([](const auto& t) { return nt::repeat(t, "H W -> W C H", {{"C", 2}}); });
    both([](const auto& t) { return nt::reduce(t, "(H two) W -> W H", nt::reduce_op::max, {{"two", 2}}); });
    both([](const auto& t) { return nt::pad(t, {{0, {3, 5}}, {1, {1, 7}}}, nt::pad_mode::symmetric); });
    both([](const auto& t) { return nt::pad(t, {{1, {2, 9}}}, nt::pad_mode::wrap); });
    both([](const auto& t) { return nt::roll(t, -7); });
    both([](const auto& t) { return nt::tile(t, {2, 1, 3}); });
    both([](const auto& t) { return nt::repeat(t, 2, 0); });
    both([](const auto& t) { return nt::concatenate({t, t.transpose()}, 0); });
    both([](const auto& t) { return nt::array_split(t, 1, 4)[3]; });
    both([](const auto& t) { return nt::fold(t, {0}, {12}, {2}, nt::fold_norm::average); });
}
