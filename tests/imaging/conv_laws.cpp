// Laws of convolution by names: gradients against central differences (first and
// second order, through every option), the named rule (a batch equals its slices,
// axes in another order give the same result), and the errors.
#include <cstdint>
#include <string>
#include <vector>

#include "nt/conv.hpp"
#include "nt/nt.hpp"
#include "nt_test_support.hpp"

namespace {

using nt::test::require_error;

nt::Tensor<double> wave(std::vector<std::int64_t> shape, std::vector<nt::name> names, double phase) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    return nt::sin(nt::arange<double>(n) * 0.7 + phase).reshape(shape, names);
}

double max_abs_diff(const nt::Tensor<double>& a, const nt::Tensor<double>& b) {
    return nt::max(nt::abs(a - b)).to_vector()[0];
}

}  // namespace

TEST_CASE("conv: gradients equal central differences through every option", "[imaging][imaging_conv]") {
    const auto x = wave({2, 3, 6, 5}, {"N", "C", "H", "W"}, 0.1);
    const auto w = wave({2, 3, 3, 2}, {"F", "C", "H", "W"}, 0.4);
    const auto b = wave({2}, {"F"}, 0.9);
    const std::vector<nt::conv_options> options{
        {},
        {.stride = {2, 1}, .dilation = {1, 2}},
        {.padding = nt::padding::same, .pad_mode = nt::pad_mode::reflect},
        {.stride = {2}, .padding = {{1, 0}, {2, 1}}, .pad_mode = nt::pad_mode::wrap},
        {.padding = 1, .pad_mode = nt::pad_mode::edge},
    };
    for (const auto& o : options) {
        auto f = [&](const nt::Tensor<double>& xx, const nt::Tensor<double>& ww, const nt::Tensor<double>& bb) {
            nt::conv_options with_bias = o;
            with_bias.bias = nt::any_tensor(bb);
            return nt::sum(nt::square(nt::conv(xx, ww, {"H", "W"}, with_bias)));
        };
        const auto report = nt::check_grad(f, x, w, b);
        INFO("max relative error " << report.max_rel_error << " at " << report.where);
        CHECK(report.ok);
    }
    // Kept axes (depthwise): x (N, G, H, W), w (G, H, W).
    const auto xg = wave({2, 3, 5, 5}, {"N", "G", "H", "W"}, 0.2);
    const auto wg = wave({3, 2, 2}, {"G", "H", "W"}, 0.5);
    auto depthwise = [](const nt::Tensor<double>& xx, const nt::Tensor<double>& ww) {
        return nt::sum(nt::square(nt::conv(xx, ww, {"H", "W"}, {.keep = {nt::Axis("G")}})));
    };
    CHECK(nt::check_grad(depthwise, xg, wg).ok);
    // conv_transpose with stride, padding and output_padding.
    const auto xt = wave({1, 2, 3, 4}, {"N", "C", "H", "W"}, 0.3);
    const auto wt = wave({2, 3, 3, 3}, {"C", "F", "H", "W"}, 0.6);
    auto transposed = [](const nt::Tensor<double>& xx, const nt::Tensor<double>& ww) {
        return nt::sum(nt::square(
            nt::conv_transpose(xx, ww, {"H", "W"}, {.stride = {2}, .padding = {1}, .output_padding = {1}})));
    };
    CHECK(nt::check_grad(transposed, xt, wt).ok);
    // correlate and convolve (every mode), in double.
    for (auto mode : {nt::boundary::reflect, nt::boundary::constant, nt::boundary::nearest, nt::boundary::mirror,
                      nt::boundary::wrap}) {
        INFO(nt::to_string(mode));
        const auto img = wave({2, 5, 4}, {"N", "H", "W"}, 0.7);
        const auto k = wave({3, 2}, {"H", "W"}, 0.8);
        auto corr = [&](const nt::Tensor<double>& xx, const nt::Tensor<double>& kk) {
            return nt::sum(nt::square(nt::correlate(xx, kk, {"H", "W"}, mode, 0.5)));
        };
        auto conv = [&](const nt::Tensor<double>& xx, const nt::Tensor<double>& kk) {
            return nt::sum(nt::square(nt::convolve(xx, kk, {"H", "W"}, mode, 0.5)));
        };
        CHECK(nt::check_grad(corr, img, k).ok);
        CHECK(nt::check_grad(conv, img, k).ok);
    }
}

TEST_CASE("conv: second derivatives (the rules are each other)", "[imaging][imaging_conv]") {
    const auto x = wave({1, 2, 5, 4}, {"N", "C", "H", "W"}, 0.1);
    const auto w = wave({2, 2, 2, 3}, {"F", "C", "H", "W"}, 0.4);
    // The gradient in x of a cubic loss, differentiated again in x and in w.
    auto gx = [&](const nt::Tensor<double>& xx, const nt::Tensor<double>& ww) {
        auto inner = [&](const nt::Tensor<double>& t) {
            return nt::sum(nt::square(nt::conv(t, ww, {"H", "W"}, {.stride = {1, 2}, .padding = 1})) * t.index(0).index(0).index(0).index(0));
        };
        return nt::sum(nt::square(nt::grad(inner, xx)));
    };
    CHECK(nt::check_grad(gx, x, w).ok);
    auto gw = [&](const nt::Tensor<double>& xx, const nt::Tensor<double>& ww) {
        auto inner = [&](const nt::Tensor<double>& t) { return nt::sum(nt::square(nt::conv(xx, t, {"H", "W"}))); };
        return nt::sum(nt::square(nt::grad(inner, ww)));
    };
    CHECK(nt::check_grad(gw, x, w).ok);
}

TEST_CASE("conv: f32 against f64, torch's layout without names", "[imaging][imaging_conv]") {
    const auto x = wave({2, 3, 7, 6}, {}, 0.1);
    const auto w = wave({4, 3, 3, 3}, {}, 0.4);
    const auto y64 = nt::conv(x, w, {2, 3}, {.padding = 1});
    const auto y32 = nt::conv(x.astype<float>(), w.astype<float>(), {2, 3}, {.padding = 1});
    CHECK(std::vector<std::int64_t>(y64.shape().begin(), y64.shape().end()) == std::vector<std::int64_t>{2, 4, 7, 6});
    CHECK(max_abs_diff(y32.astype<double>(), y64) < 1e-5);
    // half is computed in float and rounded once.
    const auto y16 = nt::conv(x.astype<nt::half>(), w.astype<nt::half>(), {2, 3}, {.padding = 1});
    CHECK(y16.dtype() == nt::dtype::f16);
    CHECK(max_abs_diff(y16.astype<double>(), y64) < 0.05);
}

TEST_CASE("conv: the named rule", "[imaging][imaging_conv]") {
    // A (?, CHANNEL, D, H, W) batch equals each volume convolved alone.
    const auto x = wave({3, 2, 4, 5, 6}, {"", "CHANNEL", "D", "H", "W"}, 0.1);
    const auto w = wave({4, 2, 3, 3, 3}, {"FEATURE", "CHANNEL", "D", "H", "W"}, 0.2);
    const nt::conv_options o{.padding = nt::padding::same};
    const auto y = nt::conv(x, w, {"D", "H", "W"}, o);
    CHECK(y.spec() == nt::spec({3, 4, 4, 5, 6}, {"", "FEATURE", "D", "H", "W"}));
    for (std::int64_t i = 0; i < 3; ++i) {
        const auto one = nt::conv(x.index(i), w, {"D", "H", "W"}, o);
        CHECK(max_abs_diff(one, y.index(i)) < 1e-12);
    }
    // Axes listed in another order, stored in another order, a kernel stored in
    // another order: the same result (the spatial axes come out in x's order).
    const auto listed = nt::conv(x, w, {"W", "D", "H"}, o);
    CHECK(max_abs_diff(listed, y) < 1e-12);
    const auto xp = x.permute({4, 1, 0, 3, 2});  // (W, CHANNEL, ?, H, D)
    const auto wp = w.permute({2, 0, 4, 1, 3});
    const auto yp = nt::conv(xp, wp, {"D", "H", "W"}, o);
    CHECK(yp.spec() == nt::spec({3, 4, 6, 5, 4}, {"", "FEATURE", "W", "H", "D"}));
    CHECK(max_abs_diff(yp.permute({0, 1, 4, 3, 2}), y) < 1e-12);
    // Per-axis options follow the listed order.
    const auto strided = nt::conv(x, w, {"W", "H", "D"}, {.stride = {3, 2, 1}});
    const auto same_by_x_order = nt::conv(x, w, {"D", "H", "W"}, {.stride = {1, 2, 3}});
    CHECK(max_abs_diff(strided, same_by_x_order) < 1e-12);
    // correlate filters each slice of the batch axes alone.
    const auto img = wave({2, 6, 7}, {"N", "H", "W"}, 0.3);
    const auto k = wave({3, 3}, {"H", "W"}, 0.5);
    const auto c = nt::correlate(img, k, {"H", "W"});
    for (std::int64_t i = 0; i < 2; ++i)
        CHECK(max_abs_diff(nt::correlate(img.index(i), k, {"H", "W"}), c.index(i)) < 1e-12);
}

TEST_CASE("conv: errors name the operation, the axis and the sizes", "[imaging][imaging_conv]") {
    const auto x = wave({1, 3, 5, 5}, {"N", "C", "H", "W"}, 0.1);
    const auto w = wave({2, 3, 3, 3}, {"F", "C", "H", "W"}, 0.4);
    require_error([&] { (void)nt::conv(x, w, {"D"}); }, nt::errc::axis_out_of_range, {"conv", "'D'"});
    require_error([&] { (void)nt::conv(x, w, {"H", "W"}, {.stride = {0}}); }, nt::errc::invalid_argument,
                  {"conv", ".stride", "at least 1"});
    require_error([&] { (void)nt::conv(x, wave({2, 3, 7, 3}, {"F", "C", "H", "W"}, 0.0), {"H", "W"}); },
                  nt::errc::invalid_argument, {"conv", "'H'", "7", "5"});
    require_error([&] { (void)nt::conv(x, wave({2, 4, 3, 3}, {"F", "C", "H", "W"}, 0.0), {"H", "W"}); },
                  nt::errc::incompatible_sizes, {"conv", "'C'", "3", "4"});
    require_error([&] { (void)nt::conv(x, w, {"H", "W"}, {.stride = {2}, .padding = nt::padding::same}); },
                  nt::errc::invalid_argument, {"conv", "same", "stride"});
    require_error([&] { (void)nt::conv(x, wave({2, 3, 3}, {"F", "C", "H"}, 0.0), {"H", "W"}); },
                  nt::errc::axis_out_of_range, {"conv", "'W'"});
    require_error([&] { (void)nt::conv(x.astype<std::int16_t>(), w.astype<std::int16_t>(), {"H", "W"}); },
                  nt::errc::type_mismatch, {"conv", "astype"});
    require_error([&] { (void)nt::conv(x, w, {"H", "W"}, {.keep = {nt::Axis("G")}}); }, nt::errc::axis_out_of_range,
                  {"conv", ".keep", "'G'"});
    require_error([&] { (void)nt::conv(x, w, {"H", "W"}, {.bias = nt::any_tensor(nt::zeros<double>({5}))}); },
                  nt::errc::incompatible_sizes, {"conv", "bias", "5"});
    require_error(
        [&] {
            (void)nt::conv_transpose(x, wave({3, 2, 3, 3}, {"C", "F", "H", "W"}, 0.0), {"H", "W"},
                                     {.stride = {2}, .output_padding = {2}});
        },
        nt::errc::invalid_argument, {"conv_transpose", ".output_padding", "2"});
    require_error([&] { (void)nt::correlate(x, wave({3}, {"H"}, 0.0), {"H", "W"}); }, nt::errc::invalid_argument,
                  {"correlate", "kernel", "1 axes"});
    require_error([&] { (void)nt::conv(wave({1, 3, 5, 5}, {}, 0.0), wave({3, 3, 3}, {}, 0.0), {2, 3}); },
                  nt::errc::invalid_argument, {"conv", "torch's layout"});
}
