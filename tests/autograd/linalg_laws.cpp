// Gradient laws of the contractions (dot, einsum, matmul, tensordot): nt::check_grad
// (central differences in double) on random inputs, named and unnamed, broadcast both
// ways, through negative strides and zero-size axes; second derivatives through
// nt::grad inside the checked function; float against double.
#include "laws_support.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "nt/nt.hpp"

using nt::test::require_float_gradient;
using nt::test::require_gradient_law;
using nt::test::weighed;

namespace {

using T64 = nt::Tensor<double>;

T64 random_values(nt::shape_arg shape, nt::names_arg names = {}, std::uint32_t seed = 7) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::int64_t n = 1;
    for (std::int64_t s : shape.span()) n *= s;
    std::vector<double> values(static_cast<std::size_t>(n));
    for (double& v : values) v = u(rng);
    return nt::from_vector(values, shape, names);
}

}  // namespace

TEST_CASE("dot: gradients over named contracted axes, kept axes broadcast both ways", "[autograd][linalg]") {
    const T64 x = random_values({2, 3, 4}, {"N", "C", "H"}, 1);
    const T64 w = random_values({3, 5}, {"C", "K"}, 2);
    const T64 c = random_values({3}, {"C"}, 3);
    const T64 nc = random_values({4, 3}, {"H", "C"}, 4);
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a, b, {"C"})); }, x, w);
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a, b, {"C"})); }, w, x);
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a, b, {"C"})); }, x, c);
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a, b, {"C", "H"})); }, x, nc);
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a, b, {})); }, c, w);  // no sum: a product
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a.flip(), b.flip({"C"}), {"C"})); }, x, w);
    // Kept axes named in both operands, in another order.
    require_gradient_law([](const auto& a, const auto& b) { return weighed(nt::dot(a, b, {"C"})); }, random_values({2, 3}, {"N", "C"}, 5),
                random_values({3, 2}, {"C", "N"}, 6));
    // A zero-size contracted axis: zero gradients of the operands' shapes and names.
    const auto [g0a, g0b] = nt::grad([](const auto& a, const auto& b) { return nt::sum(nt::dot(a, b, {"C"})); },
                                     random_values({2, 0}, {"N", "C"}, 7), random_values({0, 4}, {"C", "K"}, 8));
    CHECK(nt::to_string(g0a.spec()) == "(2,0 | N,C)");
    CHECK(nt::to_string(g0b.spec()) == "(0,4 | C,K)");
    const auto [gx, gw] = nt::grad([](const auto& a, const auto& b) { return nt::sum(nt::dot(a, b, {"C"})); }, x, w);
    CHECK(nt::to_string(gx.spec()) == "(2,3,4 | N,C,H)");
    CHECK(nt::to_string(gw.spec()) == "(3,5 | C,K)");
    require_float_gradient([](const auto& a) { return weighed(nt::dot(a, nt::exp(a), {"C"})); }, x);
}

TEST_CASE("einsum: gradients of products, sums, diagonals and broadcasts", "[autograd][linalg]") {
    const T64 a = random_values({3, 4}, {}, 5);
    const T64 b = random_values({4, 2}, {}, 6);
    const T64 c = random_values({2, 5}, {}, 7);
    const T64 sq = random_values({3, 3}, {}, 8);
    const T64 x = random_values({2, 3, 4}, {"N", "C", "H"}, 9);
    const T64 w = random_values({3, 5}, {"C", "K"}, 10);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i j, j k -> i k", p, q)); }, a, b);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i j, j k -> k i", p, q)); }, a, b);
    require_gradient_law([](const auto& p, const auto& q, const auto& r) { return weighed(nt::einsum("i j, j k, k l -> l i", p, q, r)); },
                a, b, c);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("N C H, C K -> N K H", p, q)); }, x, w);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("N C H, C K -> K", p, q)); }, x, w);
    // One operand: sums, transposes, a diagonal and a trace.
    require_gradient_law([](const auto& p) { return weighed(nt::einsum("i j -> i", p)); }, a);
    require_gradient_law([](const auto& p) { return weighed(nt::einsum("i j -> j i", p)); }, a);
    require_gradient_law([](const auto& p) { return weighed(nt::einsum("i i -> i", p)); }, sq);
    require_gradient_law([](const auto& p) { return weighed(nt::einsum("i i ->", p)); }, sq);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i i, i j -> j", p, q)); }, sq,
                random_values({3, 2}, {}, 11));
    // A label only one operand has and the result drops: the other's gradient repeats.
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i j, k -> i k", p, q)); }, a,
                random_values({2}, {}, 12));
    // Size 1 against a larger size (broadcast) on a kept label, each way.
    const T64 one = random_values({1, 3, 4}, {}, 13), many = random_values({5, 4, 2}, {}, 14);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("b i j, b j k -> b i k", p, q)); }, one, many);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("b j k, b i j -> b i k", p, q)); }, many, one);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("... j, j k -> ... k", p, q)); }, random_values({2, 3, 4}, {}, 16),
                random_values({4, 2}, {}, 15));
    // Negative strides.
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i j, j k -> i k", p.flip(), q.flip({1}))); }, a, b);
    // Zero-size axes, kept and summed.
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i j, j k -> i k", p, q)) + nt::sum(q); },
                random_values({3, 0}, {}, 17), random_values({0, 2}, {}, 18));
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::einsum("i j, j k -> i k", p, q)); },
                random_values({0, 4}, {}, 19), b);
    // half: the gradient is half, close to the double one.
    const nt::Tensor<nt::half> h = a.astype<nt::half>();
    const nt::Tensor<nt::half> gh = nt::grad([](const auto& p) { return nt::sum(nt::einsum("i j, k j -> i k", p, p)); }, h);
    const T64 gd = nt::grad([](const auto& p) { return nt::sum(nt::einsum("i j, k j -> i k", p, p)); }, h.astype<double>());
    CHECK(nt::max(nt::abs(gh.astype<double>() - gd)).to_vector()[0] < 2e-2);
    // The same operand twice: both gradients add up.
    require_gradient_law([](const auto& p) { return weighed(nt::einsum("i j, k j -> i k", p, p)); }, a);
    require_float_gradient([](const auto& p) { return weighed(nt::einsum("i j, k j -> i k", p, p)); }, a);
}

TEST_CASE("matmul: gradients with vectors and batch axes broadcast both ways", "[autograd][linalg]") {
    const T64 m23 = random_values({2, 3}, {}, 20);
    const T64 m34 = random_values({3, 4}, {}, 21);
    const T64 b234 = random_values({5, 2, 3}, {}, 22);
    const T64 b134 = random_values({1, 3, 4}, {}, 23);
    const T64 v3 = random_values({3}, {}, 24);
    auto mm = [](const auto& p, const auto& q) { return weighed(nt::matmul(p, q)); };
    require_gradient_law(mm, m23, m34);
    require_gradient_law(mm, b234, m34);
    require_gradient_law(mm, m23, random_values({5, 3, 4}, {}, 25));
    require_gradient_law(mm, b234, b134);
    require_gradient_law(mm, v3, m34);
    require_gradient_law(mm, m23, v3);
    require_gradient_law(mm, v3, v3);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::matmul(p.flip(), q.flip({0}))); }, b234, m34);
    // Named rows and columns keep their names in the gradients.
    const T64 named_a = random_values({2, 3}, {"N", "C"}, 26), named_b = random_values({3, 4}, {"C", "K"}, 27);
    require_gradient_law(mm, named_a, named_b);
    const auto [ga, gb] = nt::grad([](const auto& p, const auto& q) { return nt::sum(nt::matmul(p, q)); }, named_a, named_b);
    CHECK(nt::to_string(ga.spec()) == "(2,3 | N,C)");
    CHECK(nt::to_string(gb.spec()) == "(3,4 | C,K)");
    // Zero-size axes: an empty contraction gives zero gradients of the operands' shapes.
    const T64 e20 = random_values({2, 0}, {}, 28), e03 = random_values({0, 3}, {}, 29);
    const auto [g20, g03] = nt::grad([](const auto& p, const auto& q) { return nt::sum(nt::matmul(p, q)); }, e20, e03);
    CHECK(nt::to_string(g20.spec()) == "(2,0)");
    CHECK(nt::to_string(g03.spec()) == "(0,3)");
    const T64 e02 = random_values({0, 2}, {}, 30);
    require_gradient_law(mm, e02, random_values({2, 3}, {}, 31));
    // A float operand with a double one: each gradient has its operand's type.
    const nt::Tensor<float> f23 = m23.astype<float>().with_grad();
    const T64 d34 = m34.clone().with_grad();
    nt::sum(nt::matmul(f23, d34)).backward();
    CHECK(f23.grad().dtype() == nt::dtype::f32);
    CHECK(d34.grad().dtype() == nt::dtype::f64);
    // An integer operand takes no gradient; the floating one does.
    const nt::Tensor<std::int64_t> i34 = nt::ones<std::int64_t>({3, 4});
    const T64 gi = nt::grad([&](const auto& p) { return nt::sum(nt::matmul(p, i34)); }, m23);
    CHECK(nt::all(gi == 4.0).to_vector()[0]);
    require_float_gradient([&](const auto& p) { return weighed(nt::matmul(p, p.transpose(1, 2))); }, b234);
    // The rule reads the other operand: writing it before the backward pass is refused.
    const T64 leaf = m23.clone().with_grad();
    T64 other = m34.clone();
    const T64 product = nt::matmul(leaf, other);
    other.fill(0.0);
    try {
        nt::sum(product).backward();
        FAIL("backward after a write into a saved operand did not throw");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::modified_in_place);
    }
    // Recording changes no value.
    CHECK(nt::matmul(leaf, m34).to_vector() == nt::matmul(m23, m34).to_vector());
}

TEST_CASE("tensordot: gradients over counts, axis lists and pairs", "[autograd][linalg]") {
    const T64 a = random_values({2, 3, 4}, {}, 40);
    const T64 b = random_values({3, 4, 5}, {}, 41);
    const T64 c = random_values({4, 2}, {}, 42);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::tensordot(p, q, 2)); }, a, b);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::tensordot(p, q, 0)); }, c, random_values({3}, {}, 43));
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::tensordot(p, q, {2, 0}, {0, 1})); }, a, c);
    const T64 named = random_values({2, 3, 4}, {"N", "C", "H"}, 44);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::tensordot(p, q, {{"H", 0}})); }, named, c);
    require_gradient_law([](const auto& p, const auto& q) { return weighed(nt::tensordot(p.flip({0}), q.flip(), {1, 2}, {0, 1})); }, a, b);
}

TEST_CASE("contractions: second derivatives (Hessian-vector products)", "[autograd][linalg]") {
    const T64 a = random_values({3, 4}, {}, 50);
    const T64 b = random_values({4, 2}, {}, 51);
    const T64 v = random_values({3, 4}, {}, 52);
    // x -> <grad f(x), v>, whose gradient is the Hessian of f times v.
    auto hvp_matmul = [&](const auto& x) {
        const T64 g = nt::grad([&](const T64& y) { return weighed(nt::matmul(nt::matmul(y, b), nt::matmul(b.transpose(), y.transpose()))); }, x);
        return nt::sum(g * v);
    };
    require_gradient_law(hvp_matmul, a);
    auto hvp_einsum = [&](const auto& x) {
        const T64 g = nt::grad([&](const T64& y) { return weighed(nt::einsum("i j, j k, l j -> i l k", y, b, y)); }, x);
        return nt::sum(g * g);
    };
    require_gradient_law(hvp_einsum, a);
    // Both operands of the inner function, second derivative in the other.
    auto cross = [&](const auto& x, const auto& y) {
        const T64 g = nt::grad([&](const T64& p) { return weighed(nt::einsum("i i, i j -> j", p, y)); }, x);
        return nt::sum(g * g);
    };
    require_gradient_law(cross, random_values({3, 3}, {}, 53), random_values({3, 2}, {}, 54));
}
