// The backward rules of the linear filters (gaussian_filter, uniform_filter, sobel, and
// gaussian_gradient_magnitude built on them): central differences (nt::check_grad, f64)
// for every boundary mode, second derivatives, the adjoint identity
// <A x, y> == <x, A^T y>, and the rank filters' refusal.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "nt/filters.hpp"
#include "nt/nt.hpp"
#include "nt_test_support.hpp"

namespace {

constexpr nt::boundary modes[] = {nt::boundary::reflect, nt::boundary::constant, nt::boundary::nearest,
                                  nt::boundary::mirror, nt::boundary::wrap};

nt::Tensor<double> uniform_values(nt::shape_arg shape, nt::names_arg names, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::int64_t n = 1;
    for (std::int64_t s : shape.span()) n *= s;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& e : v) e = u(rng);
    return nt::from_vector(v, shape, names);
}

// A loss whose gradient differs per element and whose second derivatives are not 0.
template <class X>
auto weigh(const X& y) {
    return nt::sum(y * y * y + y);
}

// The filters under test, by number, on any floating tensor over {"H", "W"}.
template <class T>
nt::Tensor<T> apply(int which, const nt::Tensor<T>& x, nt::boundary mode, double cval) {
    switch (which) {
        case 0: return nt::gaussian_filter(x, {1.0, 0.6}, {"H", "W"}, {.mode = mode, .cval = cval});
        case 1:  // a kernel wider than the axis, and a derivative
            return nt::gaussian_filter(x, {2.5, 0.8}, {"W", "H"}, {.mode = mode, .cval = cval, .order = {0, 1}});
        case 2: return nt::uniform_filter(x, {3, 2}, {"H", "W"}, {.mode = mode, .cval = cval});
        case 3: return nt::uniform_filter(x, {5, 4}, {"H", "W"}, {.mode = mode, .cval = cval, .origin = {1, -2}});
        case 4: return nt::sobel(x, "W", {"H", "W"}, {.mode = mode, .cval = cval});
        default: return nt::gaussian_gradient_magnitude(x, 0.9, {"H", "W"}, {.mode = mode, .cval = cval});
    }
}
constexpr int filter_count = 6;

}  // namespace

TEST_CASE("filters: gradients agree with central differences, every mode", "[imaging][imaging_filters]") {
    const auto x = uniform_values({2, 4, 5}, {"N", "H", "W"}, 21);
    for (nt::boundary mode : modes)
        for (int f = 0; f < filter_count; ++f) {
            // mirror makes both derivatives 0 at a corner, where sqrt has no derivative.
            if (f == 5 && mode == nt::boundary::mirror) continue;
            INFO(nt::to_string(mode) << " filter " << f);
            const double cval = mode == nt::boundary::constant ? 0.75 : 0.0;
            const auto loss = [&](const auto& t) { return weigh(apply(f, t, mode, cval)); };
            const nt::grad_check_report r = nt::check_grad(loss, x);
            INFO(r.where);
            CHECK(r.max_rel_error < 1e-6);
            // float's gradient is double's, to float rounding.
            const auto g64 = nt::grad(loss, x);
            const auto g32 = nt::grad(loss, x.astype<float>()).astype<double>();
            const auto a = g64.to_vector(), b = g32.to_vector();
            double scale = 1.0, diff = 0.0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                scale = std::max(scale, std::fabs(a[i]));
                diff = std::max(diff, std::fabs(a[i] - b[i]));
            }
            CHECK(diff <= 1e-4 * scale);
        }
}

TEST_CASE("filters: second derivatives (the backward rules record)", "[imaging][imaging_filters]") {
    const auto x = uniform_values({3, 4}, {"H", "W"}, 8);
    for (nt::boundary mode : modes)
        for (int f : {0, 2, 3, 5}) {
            if (f == 5 && mode == nt::boundary::mirror) continue;
            INFO(nt::to_string(mode) << " filter " << f);
            const auto h = [&](const auto& t) {
                const auto y = apply(f, t, mode, 0.5);
                return nt::sum(y * y * t);
            };
            const auto outer = [&](const auto& t) { return weigh(nt::grad(h, t)); };
            const nt::grad_check_report r = nt::check_grad(outer, x);
            INFO(r.where);
            CHECK(r.ok);
        }
}

TEST_CASE("filters: the backward is the adjoint, <A x, y> == <x, A^T y>", "[imaging][imaging_filters]") {
    const auto x = uniform_values({3, 7, 6}, {"C", "H", "W"}, 1);
    const auto y = uniform_values({3, 7, 6}, {"C", "H", "W"}, 2);
    for (nt::boundary mode : modes)
        for (int f = 0; f < 5; ++f) {  // the linear ones, without the constant (affine otherwise)
            INFO(nt::to_string(mode) << " filter " << f);
            const auto ax = apply(f, x, mode, 0.0);
            const auto aty = nt::vjp([&](const auto& t) { return apply(f, t, mode, 0.0); }, x, y);
            const double left = nt::sum(ax * y).to_vector()[0], right = nt::sum(x * aty).to_vector()[0];
            CHECK(std::fabs(left - right) <= 1e-12 * (1.0 + std::fabs(left)));
        }
}

TEST_CASE("filters: the rank filters refuse a gradient", "[imaging][imaging_filters]") {
    const auto x = uniform_values({4, 5}, {"H", "W"}, 3);
    const auto median = [](const auto& t) { return nt::sum(nt::median_filter(t, 3, {"H", "W"})); };
    const auto maximum = [](const auto& t) { return nt::sum(nt::maximum_filter(t, 2, "W")); };
    nt::test::require_error([&] { (void)nt::grad(median, x); }, nt::errc::no_gradient,
                            {"median_filter", "no backward rule"});
    nt::test::require_error([&] { (void)nt::grad(maximum, x); }, nt::errc::no_gradient, {"maximum_filter"});
    // Outside any graph they are plain operations.
    CHECK(nt::minimum_filter(x, 3, {"H", "W"}).to_vector().size() == 20);
}
