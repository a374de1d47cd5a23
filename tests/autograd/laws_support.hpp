// Inputs and checks shared by the gradient law tests: seeded random tensors, and the
// law itself (nt::check_grad in double, plus the f32 gradient against the f64 one).
#pragma once

#include <nt_test_support.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "nt/nt.hpp"

namespace nt::test {

/// Uniform values in [lo, hi), from a fixed seed per call site (tests are reproducible).
inline Tensor<double> random_tensor(shape_arg shape, names_arg names = {}, double lo = -1.0, double hi = 1.0,
                                    std::uint32_t seed = 7) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::int64_t n = 1;
    for (std::int64_t s : shape.span()) n *= s;
    std::vector<double> values(static_cast<std::size_t>(n));
    for (double& v : values) v = u(rng);
    return from_vector(values, shape, names);
}

/// The law: f's gradients agree with central differences in double.
template <class F, class... T>
void require_gradient_law(F&& f, const Tensor<T>&... xs) {
    const grad_check_report report = check_grad(f, xs...);
    INFO(report.where);
    CHECK(report.max_rel_error < 1e-6);
    CHECK(report.ok);
}

/// The f32 gradient of f at x agrees with the f64 one within float rounding.
template <class F>
void require_float_gradient(F&& f, const Tensor<double>& x, double tolerance = 1e-4) {
    const Tensor<double> g64 = grad(f, x);
    const Tensor<float> g32 = grad(f, x.astype<float>());
    CHECK(to_string(g32.spec()) == to_string(g64.spec()));
    const double scale = 1.0 + max(abs(g64)).to_vector()[0];
    CHECK(max(abs(g32.astype<double>() - g64)).to_vector()[0] <= tolerance * scale);
}

/// A loss whose gradient differs per element (a plain sum would hide a transposed
/// gradient) and whose second derivatives are not zero.
template <class X>
auto weighed(const X& y) {
    return sum(y * y * y + y);
}

}  // namespace nt::test
