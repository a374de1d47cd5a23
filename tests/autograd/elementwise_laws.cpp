// Gradient laws of the element-wise operations, reductions, casts, where, clip and
// views: nt::check_grad (central differences in double) on random inputs, named and
// unnamed, broadcast both ways, through negative strides.
#include "laws_support.hpp"

#include <string>

using nt::test::random_tensor;
using nt::test::require_float_gradient;
using nt::test::require_gradient_law;

namespace {
using T64 = nt::Tensor<double>;
}

TEST_CASE("unary operations: gradients agree with central differences", "[autograd][laws][unary]") {
    const T64 x = random_tensor({2, 3}, {"N", "C"}, -0.9, 0.9);
    const T64 positive = random_tensor({2, 3}, {"N", "C"}, 0.2, 2.0, 11);
    require_gradient_law([](const auto& t) { return nt::sum(nt::abs(t)); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(-t * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::exp(t)); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::log(t)); }, positive);
    require_gradient_law([](const auto& t) { return nt::sum(nt::sqrt(t)); }, positive);
    require_gradient_law([](const auto& t) { return nt::sum(nt::sin(t) * nt::cos(t)); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::tanh(t) + nt::sigmoid(t)); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::square(t) + nt::reciprocal(t)); }, positive);
    require_gradient_law([](const auto& t) { return nt::sum(nt::log1p(t) + nt::expm1(t)); }, positive);
    require_gradient_law([](const auto& t) { return nt::sum(nt::exp2(t) + nt::log2(t) + nt::log10(t)); }, positive);
    require_gradient_law([](const auto& t) { return nt::sum(nt::erf(t)); }, x);
    // Piecewise constant: zero gradients (PyTorch's rule), away from the steps.
    const T64 g = nt::grad([](const auto& t) { return nt::sum(nt::floor(t) + nt::round(t) + nt::sign(t)); }, x);
    CHECK(nt::all(g == 0.0).to_vector()[0]);
    // The kink of abs: gradient 0 at 0, as PyTorch.
    const T64 zero = nt::zeros<double>({1});
    CHECK(nt::grad([](const auto& t) { return nt::sum(nt::abs(t)); }, zero).to_vector()[0] == 0.0);
    require_float_gradient([](const auto& t) { return nt::sum(nt::tanh(t) * nt::exp(t)); }, x);
}

TEST_CASE("binary operations: gradients reduce over the axes the matcher broadcast", "[autograd][laws][binary]") {
    const T64 a = random_tensor({2, 3}, {"N", "C"}, 0.5, 1.5, 3);
    const T64 c = random_tensor({3}, {"C"}, 0.5, 1.5, 5);          // broadcast over N, by name
    const T64 cn = random_tensor({3, 2}, {"C", "N"}, 0.5, 1.5, 9);  // the same axes, another order
    const T64 u = random_tensor({4, 1, 3}, {}, 0.5, 1.5, 13);       // unnamed: stretched and inserted
    const T64 v = random_tensor({2, 3}, {}, 0.5, 1.5, 17);
    auto all_ops = [](const auto& p, const auto& q) {
        return nt::sum(p + q) + nt::sum(p - q) + nt::sum(p * q) + nt::sum(p / q) + nt::sum(nt::pow(p, q)) +
               nt::sum(nt::atan2(p, q)) + nt::sum(nt::hypot(p, q)) + nt::sum(nt::minimum(p, q)) +
               nt::sum(nt::maximum(p, q)) + nt::sum(nt::mod(p, q));
    };
    require_gradient_law(all_ops, a, c);
    require_gradient_law(all_ops, c, a);
    require_gradient_law(all_ops, a, cn);
    require_gradient_law(all_ops, u, v);
    require_gradient_law(all_ops, v, u);
    // Negative strides: the operands flipped before the operation.
    require_gradient_law([&](const auto& p, const auto& q) { return all_ops(p.flip(), q.flip({0})); }, a, cn);
    // The gradient has its operand's shape and names.
    const auto [ga, gc] = nt::grad([](const auto& p, const auto& q) { return nt::sum(p * q); }, a, cn);
    CHECK(nt::to_string(ga.spec()) == "(2,3 | N,C)");
    CHECK(nt::to_string(gc.spec()) == "(3,2 | C,N)");
    // Scalars on either side.
    require_gradient_law(
        [](const auto& p) {
            return nt::sum(2.0 - p) + nt::sum(p / 3.0) + nt::sum(3.0 / p) + nt::sum(nt::pow(p, 2.5)) +
                   nt::sum(nt::pow(2.0, p)) + nt::sum(nt::maximum(p, 1.0)) + nt::sum(nt::atan2(1.0, p));
        },
        a);
    require_float_gradient([&](const auto& p) { return nt::sum(p * nt::exp(p) / (p + 2.0)); }, a);
}

TEST_CASE("min and max share the gradient at ties, as PyTorch", "[autograd][laws][binary]") {
    const T64 p = nt::from_vector(std::vector<double>{1.0, 2.0, 3.0});
    const T64 q = nt::from_vector(std::vector<double>{1.0, 3.0, 2.0});
    const auto [gp, gq] = nt::grad([](const auto& x, const auto& y) { return nt::sum(nt::maximum(x, y)); }, p, q);
    CHECK(gp.to_vector() == std::vector<double>{0.5, 0.0, 1.0});
    CHECK(gq.to_vector() == std::vector<double>{0.5, 1.0, 0.0});
}

TEST_CASE("reductions: sum, mean, max, min and prod over named axes", "[autograd][laws][reduce]") {
    const T64 x = random_tensor({2, 3, 4}, {"N", "C", "W"}, -1.0, 1.0, 21);
    require_gradient_law([](const auto& t) { return nt::sum(nt::sum(t, "C") * nt::mean(t, {"C"})); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::mean(t, {"N", "W"}, true) * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::max(t, "W")) + nt::sum(nt::min(t, 1, true)); }, x);
    require_gradient_law([](const auto& t) { return nt::max(t) - nt::min(t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::prod(t, "C")); }, x);
    require_gradient_law([](const auto& t) { return nt::prod(t.flip({"W"}).index(0)); }, x);
    // prod with zeros: the product of the others where x is the one zero of its slice.
    const T64 z = nt::from_vector(std::vector<double>{0.0, 2.0, 3.0, 0.0, 0.0, 5.0}, {2, 3});
    const T64 gz = nt::grad([](const auto& t) { return nt::sum(nt::prod(t, 1)); }, z);
    CHECK(gz.to_vector() == std::vector<double>{6.0, 0.0, 0.0, 0.0, 0.0, 0.0});
    // max over one axis: the element argmax picks (the first); over all axes ties share.
    const T64 tie = nt::from_vector(std::vector<double>{2.0, 2.0, 1.0});
    CHECK(nt::grad([](const auto& t) { return nt::sum(nt::max(t, 0)); }, tie).to_vector() ==
          std::vector<double>{1.0, 0.0, 0.0});
    CHECK(nt::grad([](const auto& t) { return nt::max(t); }, tie).to_vector() == std::vector<double>{0.5, 0.5, 0.0});
    // Zero-size axes: a sum over nothing has a zero-size gradient.
    const T64 empty = nt::zeros<double>({0, 3});
    CHECK(nt::grad([](const auto& t) { return nt::sum(t); }, empty).shape()[0] == 0);
    require_float_gradient([](const auto& t) { return nt::sum(nt::mean(t, "C") * nt::max(t, "C")); }, x);
}

TEST_CASE("where, clip and casts", "[autograd][laws][select]") {
    const T64 x = random_tensor({3, 4}, {"H", "W"}, -1.0, 1.0, 31);
    const T64 y = random_tensor({4}, {"W"}, -1.0, 1.0, 37);
    require_gradient_law([](const auto& p, const auto& q) { return nt::sum(nt::where(p > 0.0, p * p, q)); }, x, y);
    require_gradient_law([](const auto& p) { return nt::sum(nt::where(p > 0.0, p, 0.5)); }, x);
    require_gradient_law([](const auto& p, const auto& q) { return nt::sum(nt::clip(p, q, q + 0.5)); }, x, y);
    require_gradient_law([](const auto& p) { return nt::sum(nt::clip(p, -0.5, 0.5) * p); }, x);
    // Casts between floating types pass the gradient, converted (not a law: central
    // differences through a float rounding are noise).
    const T64 gc = nt::grad([](const auto& p) { return nt::sum(nt::exp(p.template astype<float>()).template astype<double>()); }, x);
    CHECK(nt::max(nt::abs(gc - nt::exp(x)) / nt::exp(x)).to_vector()[0] < 1e-6);
    // clip passes the gradient where lo <= x <= hi, boundaries included (PyTorch).
    const T64 edge = nt::from_vector(std::vector<double>{-1.0, 0.0, 1.0, 2.0});
    CHECK(nt::grad([](const auto& p) { return nt::sum(nt::clip(p, -1.0, 1.0)); }, edge).to_vector() ==
          std::vector<double>{1.0, 1.0, 1.0, 0.0});
}

TEST_CASE("views: the gradient goes back through the same view", "[autograd][laws][views]") {
    const T64 x = random_tensor({2, 3, 4}, {"N", "C", "W"}, -1.0, 1.0, 41);
    const T64 w = random_tensor({64}, {}, -1.0, 1.0, 43);
    auto weigh = [&](const auto& v) {
        // A weighted sum, so that every element's gradient differs.
        const auto flat = v.reshape({v.size()}, nt::names_arg{});
        return nt::sum(flat * w.index(nt::range(0, flat.size())).template astype<typename std::decay_t<decltype(v)>::value_type>());
    };
    require_gradient_law([&](const auto& t) { return weigh(t.index(1).transpose()); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.slice("W", 3, 0, -2)); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.flip().permute({2, 0, 1})); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.align_to("W", "...")); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.rename({"A", "B", "C2"}).unsqueeze(1, "S")); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.flatten("C", "W", "CW")); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.move_axis("N", -1).squeeze_all()); }, x);
    // Broadcasts and overlapping windows reach an element several times: the gradient sums.
    require_gradient_law([&](const auto& t) { return weigh(t.index(0, 0).broadcast_to({3, 4})); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.index(0).unfold("W", 3, 1, "K")); }, x);
    require_gradient_law([&](const auto& t) { return weigh(t.clone().contiguous()); }, x);
    const T64 g = nt::grad([](const auto& t) { return nt::sum(t.index(nt::all, 0)); }, x);
    CHECK(nt::to_string(g.spec()) == "(2,3,4 | N,C,W)");
    CHECK(nt::sum(g).to_vector()[0] == 8.0);
    require_float_gradient([&](const auto& t) { return weigh(t.flip().unfold("W", 2, 1, "K")); }, x);
}

TEST_CASE("second derivatives: gradients of gradients", "[autograd][laws][second]") {
    const T64 x = random_tensor({5}, {"I"}, 0.2, 1.5, 51);
    auto f = [](const auto& t) { return nt::sum(t * t * nt::exp(t) + nt::log(t) / t); };
    // d/dx sum(grad f) by the law: check_grad of a function that differentiates.
    require_gradient_law([&](const auto& t) { return nt::sum(nt::grad(f, t) * t); }, x);
    // x^3: the gradient of the gradient's sum is 6x.
    auto cube = [](const auto& t) { return nt::sum(t * t * t); };
    const T64 h = nt::grad([&](const auto& t) { return nt::sum(nt::grad(cube, t)); }, x);
    CHECK(nt::max(nt::abs(h - 6.0 * x)).to_vector()[0] < 1e-12);
    // Hessian-vector products through views and reductions.
    const T64 m = random_tensor({2, 3}, {"N", "C"}, -1.0, 1.0, 53);
    require_gradient_law(
        [&](const auto& t) {
            auto inner = [](const auto& s) { return nt::sum(nt::max(s, "C")) * nt::sum(nt::mean(s.transpose(), "N")); };
            return nt::sum(nt::grad(inner, t) * t);
        },
        m);
}
