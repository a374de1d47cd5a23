// The direct convolution kernels (src/imaging/conv_simd.cpp) are compiled once per
// SIMD target and picked at run time; the torch oracle (conv.cpp) checks the target
// this machine picks. Every other target it can run (narrower vectors, fewer
// registers, so other block sizes) must give the same results: forward, input and
// weight gradients, f32 and f64, rows with and without a tail, feature counts that
// leave every remainder block.
#include <hwy/targets.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "nt/conv.hpp"
#include "nt/nt.hpp"
#include "nt_test_support.hpp"

namespace {

template <class T>
nt::Tensor<T> wave(std::vector<std::int64_t> shape, std::vector<nt::name> names, double phase) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    return nt::sin(nt::arange<T>(n) * T(0.37) + T(phase)).reshape(shape, names);
}

template <class T>
struct conv_results {
    std::vector<T> y, gx, gw;
};

template <class T>
conv_results<T> run_conv(const nt::Tensor<T>& x0, const nt::Tensor<T>& w0, const nt::conv_options& o) {
    nt::Tensor<T> x = x0.clone(), w = w0.clone();
    x.with_grad();
    w.with_grad();
    const nt::Tensor<T> y = nt::conv(x, w, {"D", "H", "W"}, o);
    nt::sum(y * nt::cos(nt::arange<T>(y.size()).reshape(y.shape(), y.names()))).backward();
    return {y.detach().to_vector(), x.grad().to_vector(), w.grad().to_vector()};
}

template <class T>
void require_close(const std::vector<T>& a, const std::vector<T>& b, double tol, const std::string& what) {
    INFO(what);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("element " << i);
        REQUIRE(std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])) <=
                tol * (1.0 + std::abs(static_cast<double>(b[i]))));
    }
}

template <class T>
void check_targets(double tol) {
    struct shape_case {
        std::int64_t features, channels, width;
        nt::conv_options options;
    };
    const std::vector<shape_case> cases{
        {11, 2, 37, {}},                                           // 8 + 2 + 1 features, a tail
        {8, 3, 48, {.padding = nt::padding::same}},                // whole vectors
        {3, 1, 21, {.stride = {2, 1, 1}, .dilation = {1, 1, 2}}},  // strided rows, dilated taps
        {5, 2, 70, {.padding = 1, .pad_mode = nt::pad_mode::reflect}},
    };
    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    for (const auto& c : cases) {
        const auto x = wave<T>({2, c.channels, 4, 5, c.width}, {"N", "C", "D", "H", "W"}, 0.2);
        const auto w = wave<T>({c.features, c.channels, 3, 2, 3}, {"F", "C", "D", "H", "W"}, 0.7);
        hwy::SetSupportedTargetsForTest(0);
        const conv_results<T> best = run_conv(x, w, c.options);
        for (const std::int64_t target : targets) {
            hwy::SetSupportedTargetsForTest(target);
            const conv_results<T> r = run_conv(x, w, c.options);
            hwy::SetSupportedTargetsForTest(0);
            const std::string what = std::string(hwy::TargetName(target)) + ", " + std::to_string(c.features) +
                                     " features, width " + std::to_string(c.width);
            require_close(r.y, best.y, tol, "forward on " + what);
            require_close(r.gx, best.gx, tol, "input gradient on " + what);
            require_close(r.gw, best.gw, tol, "weight gradient on " + what);
        }
    }
}

}  // namespace

TEST_CASE("conv: every SIMD target this machine runs gives the best target's results", "[imaging][imaging_conv]") {
    INFO("targets: " << hwy::SupportedAndGeneratedTargets().size());
    check_targets<float>(1e-4);
    check_targets<double>(1e-11);
}
