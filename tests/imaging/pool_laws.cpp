// Pooling and resampling: gradient laws (central differences, second derivatives),
// the named rule (batch axes anywhere, axes listed in any order), element types, and
// the errors. The values themselves are checked against torch and scipy in pool.cpp.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../autograd/laws_support.hpp"
#include "nt/nt.hpp"
#include "nt/pooling.hpp"
#include "nt_test_support.hpp"

using nt::test::random_tensor;
using nt::test::require_gradient_law;
using nt::test::weighed;

namespace {

using T64 = nt::Tensor<double>;

// Values far enough apart that a finite-difference step never changes an argmax.
T64 distinct_values(nt::shape_arg shape, nt::names_arg names, std::uint32_t seed) {
    T64 t = random_tensor(shape, names, 0.0, 1.0, seed);
    const auto n = t.size();
    std::vector<double> v = t.to_vector();
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return v[a] < v[b]; });
    for (std::int64_t r = 0; r < n; ++r) v[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = 0.01 * static_cast<double>(r);
    return nt::from_vector(v, shape, names);
}

template <class F>
void check_second_order(const std::string& what, const F& f, const T64& x) {
    INFO(what << " (second order)");
    auto h = [&](const auto& t) {
        const auto y = f(t);
        return nt::sum(y * y * y);
    };
    auto outer = [&](const auto& t) { return weighed(nt::grad(h, t)); };
    const nt::grad_check_report r = nt::check_grad(outer, x);
    INFO(r.where);
    CHECK(r.ok);
}

bool same(const nt::any_tensor& a, const nt::any_tensor& b, double tol = 0.0) {
    if (nt::to_string(a.spec()) != nt::to_string(b.spec())) return false;
    const auto va = nt::Tensor<double>(a.astype(nt::dtype::f64).base()).to_vector();
    const auto vb = nt::Tensor<double>(b.astype(nt::dtype::f64).base()).to_vector();
    for (std::size_t i = 0; i < va.size(); ++i)
        if (!(std::abs(va[i] - vb[i]) <= tol * (1 + std::abs(vb[i])))) return false;
    return true;
}

}  // namespace

TEST_CASE("pool and resize gradients: central differences", "[imaging][imaging_pool]") {
    const T64 x = distinct_values({2, 5, 7}, {"C", "H", "W"}, 3);
    require_gradient_law([](const auto& t) { return weighed(nt::max_pool(t, {"H", "W"}, {2})); }, x);
    require_gradient_law(
        [](const auto& t) { return weighed(nt::max_pool(t, {"W", "H"}, {3, 2}, {.stride = {1}, .padding = {1}, .ceil_mode = true})); }, x);
    require_gradient_law(
        [](const auto& t) { return weighed(nt::max_pool(t, {"W"}, {2}, {.dilation = {2}})); }, x);
    require_gradient_law([](const auto& t) { return weighed(nt::avg_pool(t, {"H", "W"}, {2, 3}, {.padding = {1}})); }, x);
    require_gradient_law(
        [](const auto& t) {
            return weighed(nt::avg_pool(t, {"H", "W"}, {3}, {.stride = {2}, .padding = {1}, .ceil_mode = true,
                                                           .count_include_pad = false}));
        },
        x);
    for (auto mode : {nt::interp::nearest, nt::interp::linear, nt::interp::cubic})
        for (bool align : {false, true}) {
            INFO("mode " << static_cast<int>(mode) << " align " << align);
            require_gradient_law(
                [&](const auto& t) { return weighed(nt::resize(t, {{"H", 9}, {"W", 4}}, mode, {.align_corners = align})); },
                x);
        }
    require_gradient_law([](const auto& t) { return weighed(nt::resize(t, {"W"}, {1.5}, nt::interp::linear)); }, x);
    for (int order : {0, 1})
        require_gradient_law(
            [&](const auto& t) { return weighed(nt::zoom(t, {1.6, 0.7}, {"H", "W"}, order, nt::boundary::nearest)); }, x);
}

TEST_CASE("pool and resize gradients: second derivatives through the recorded rules", "[imaging][imaging_pool]") {
    const T64 x = distinct_values({2, 4, 5}, {"C", "H", "W"}, 5);
    check_second_order("max_pool", [](const auto& t) { return nt::max_pool(t, {"H", "W"}, {2}, {.stride = {1}}); }, x);
    check_second_order("avg_pool", [](const auto& t) { return nt::avg_pool(t, {"H", "W"}, {2}, {.padding = {1}}); }, x);
    check_second_order("resize linear",
                       [](const auto& t) { return nt::resize(t, {{"H", 7}, {"W", 3}}, nt::interp::linear); }, x);
    check_second_order("resize cubic",
                       [](const auto& t) { return nt::resize(t, {{"H", 6}, {"W", 8}}, nt::interp::cubic); }, x);
}

TEST_CASE("pool and resize gradients: float against double", "[imaging][imaging_pool]") {
    const T64 x = distinct_values({3, 6, 5}, {"C", "H", "W"}, 9);
    nt::test::require_float_gradient([](const auto& t) { return weighed(nt::max_pool(t, {"H", "W"}, {2})); }, x);
    nt::test::require_float_gradient(
        [](const auto& t) { return weighed(nt::resize(t, {{"H", 11}, {"W", 7}}, nt::interp::linear)); }, x);
}

TEST_CASE("pooling and resampling: the named rule", "[imaging][imaging_pool]") {
    // (N, CHANNEL, D, H, W) at once == each (N, CHANNEL) slice on its own; the batch axes
    // may sit anywhere; listing the axes in another order changes nothing.
    const auto v = random_tensor({2, 3, 4, 6, 5}, {"N", "CHANNEL", "D", "H", "W"}, -1, 1, 11).astype<float>();
    const auto moved = v.permute({"H", "N", "W", "CHANNEL", "D"});
    using op_fn = std::function<nt::any_tensor(const nt::any_tensor&, bool)>;
    const std::vector<std::pair<std::string, op_fn>> ops = {
        {"max_pool", [](const nt::any_tensor& t, bool r) {
             return r ? nt::max_pool(t, {"W", "D", "H"}, {2, 1, 3}) : nt::max_pool(t, {"D", "H", "W"}, {1, 3, 2});
         }},
        {"avg_pool", [](const nt::any_tensor& t, bool r) {
             return r ? nt::avg_pool(t, {"H", "W", "D"}, {3, 2, 2}, {.padding = {1, 0, 1}})
                      : nt::avg_pool(t, {"D", "H", "W"}, {2, 3, 2}, {.padding = {1, 1, 0}});
         }},
        {"resize", [](const nt::any_tensor& t, bool r) {
             return r ? nt::resize(t, {{"W", 9}, {"D", 3}, {"H", 8}}, nt::interp::linear)
                      : nt::resize(t, {{"D", 3}, {"H", 8}, {"W", 9}}, nt::interp::linear);
         }},
        {"zoom", [](const nt::any_tensor& t, bool r) {
             return r ? nt::zoom(t, {1.5, 0.5, 2.0}, {"H", "D", "W"}, 3, nt::boundary::reflect)
                      : nt::zoom(t, {0.5, 1.5, 2.0}, {"D", "H", "W"}, 3, nt::boundary::reflect);
         }},
    };
    for (const auto& [name, op] : ops) {
        INFO(name);
        const nt::any_tensor whole = op(v, false);
        CHECK(same(op(v, true), whole));
        CHECK(nt::to_string(whole.spec()).find("N,CHANNEL,D,H,W") != std::string::npos);
        // Batch axes between the spatial ones: the same values, in the input's order
        // (summed in another order: float rounding apart).
        const nt::any_tensor m = op(moved, false);
        CHECK(nt::to_string(m.spec()).find("H,N,W,CHANNEL,D") != std::string::npos);
        CHECK(same(m.align_to({"N", "CHANNEL", "D", "H", "W"}).contiguous(), whole, 1e-6));
        for (std::int64_t n = 0; n < 2; ++n)
            for (std::int64_t c = 0; c < 3; ++c) {
                const nt::any_tensor slice = nt::any_tensor(v.index(n, c));
                CHECK(same(op(slice, false), nt::any_tensor(whole.base().index(std::vector<nt::index_item>{n, c}))));
            }
    }
}

TEST_CASE("max_pool: indices, ties, NaN and integer types", "[imaging][imaging_pool]") {
    // Ties: the first maximum in row-major window order takes the index (and the gradient).
    const auto t = nt::from_vector<float>({1, 3, 3, 0, 3, 2, 1, 3}, {2, 4}, {"H", "W"});
    auto [m, where] = nt::max_pool_with_indices(t, {"H", "W"}, {2});
    CHECK(m.to_vector() == std::vector<float>{3, 3});
    CHECK(where.to_vector() == std::vector<std::int64_t>{1, 2});
    const auto g = nt::grad([](const auto& x) { return nt::sum(nt::max_pool(x, {"H", "W"}, {2})); }, t);
    CHECK(g.to_vector() == std::vector<float>{0, 1, 1, 0, 0, 0, 0, 0});
    // NaN wins its window, as in torch.
    const auto n = nt::from_vector<double>({1, NAN, 2, 5}, {4}, {"W"});
    CHECK(std::isnan(nt::max_pool(n, {"W"}, {2}).to_vector()[0]));
    // Integers and halves pool exactly.
    const auto u = nt::from_vector<std::uint8_t>({0, 255, 7, 9}, {4}, {"W"});
    CHECK(nt::max_pool(u, {"W"}, {2}).to_vector() == std::vector<std::uint8_t>{255, 9});
    const auto h = nt::from_vector<double>({-1, 2, 0.5, -3}, {4}, {"W"}).astype<nt::half>();
    CHECK(nt::max_pool(h, {"W"}, {2}).astype<double>().to_vector() == std::vector<double>{2, 0.5});
}

TEST_CASE("pool_options own their lists: a named one is reused after its declaration", "[imaging][imaging_pool]") {
    // Regression: the lists were non-owning views, so these braced lists ended with the
    // declaration and the calls below read freed stack (AddressSanitizer:
    // stack-use-after-scope).
    const nt::pool_options named{.stride = {2, 1}, .padding = {1, 0}, .dilation = {1, 2}};
    const auto t = random_tensor({2, 5, 6}, {"", "H", "W"}, -1.0, 1.0, 11);
    const auto expected = nt::max_pool(t, {"H", "W"}, {3, 2}, {.stride = {2, 1}, .padding = {1, 0}, .dilation = {1, 2}});
    CHECK(nt::max_pool(t, {"H", "W"}, {3, 2}, named).to_vector() == expected.to_vector());
    const nt::pool_options averaged{.stride = {2}, .count_include_pad = false};
    CHECK(nt::avg_pool(t, {"H", "W"}, {2}, averaged).to_vector() ==
          nt::avg_pool(t, {"H", "W"}, {2}, {.stride = {2}, .count_include_pad = false}).to_vector());
}

TEST_CASE("zoom: integer images round and clip as scipy", "[imaging][imaging_pool]") {
    // Order 3 overshoots at a step; uint8 clips to 0..255.
    const auto x = nt::from_vector<std::uint8_t>({0, 0, 255, 255, 0, 0}, {6}, {"W"});
    const auto z = nt::zoom(x, {2.0}, {"W"}, 3, nt::boundary::mirror);
    CHECK(z.shape()[0] == 12);
    for (auto v : z.to_vector()) CHECK(v <= 255);
    // Factor 1 reproduces the input.
    const auto y = nt::zoom(nt::from_vector<std::int16_t>({-7, 300, 12, -32768}, {4}), {1.0}, {0}, 3);
    CHECK(y.to_vector() == std::vector<std::int16_t>{-7, 300, 12, -32768});
}

TEST_CASE("pooling and resampling: errors name the operation, the axis and the sizes", "[imaging][imaging_pool]") {
    const auto x = nt::zeros<float>({2, 3, 4}, {"C", "H", "W"});
    using nt::errc;
    using nt::test::require_error;
    require_error([&] { (void)nt::max_pool(x, {"H", "W"}, {5}); }, errc::invalid_argument,
                  {"max_pool", "'H'", "size 3", "smaller than the window"});
    require_error([&] { (void)nt::max_pool(x, {"D"}, {2}); }, errc::axis_out_of_range, {"max_pool", "'D'"});
    require_error([&] { (void)nt::max_pool(x, {"H", "H"}, {2}); }, errc::duplicate_name, {"max_pool", "twice"});
    require_error([&] { (void)nt::max_pool(x, {"H", "W"}, {2}, {.stride = {0}}); }, errc::invalid_argument,
                  {"max_pool", "stride 0", "'H'"});
    require_error([&] { (void)nt::max_pool(x, {"H", "W"}, {2, 2, 2}); }, errc::invalid_argument,
                  {"max_pool", "3 values for 2 spatial axes"});
    require_error([&] { (void)nt::avg_pool(x, {"W"}, {2}, {.padding = {2}}); }, errc::invalid_argument,
                  {"avg_pool", "padding 2", "'W'", "half the window"});
    require_error([&] { (void)nt::max_pool(x, {"W"}, {0}); }, errc::invalid_argument, {"max_pool", "window size 0"});
    require_error([&] { (void)nt::max_pool(nt::zeros<float>({1, 2, 3, 4, 5}), {0, 1, 2, 3}, {1}); },
                  errc::invalid_argument, {"max_pool", "1, 2 or 3 axes"});
    require_error([&] { (void)nt::avg_pool(x.astype<std::int32_t>(), {"W"}, {2}); }, errc::type_mismatch,
                  {"avg_pool", "i32"});
    require_error([&] { (void)nt::resize(x, {{"H", 0}}, nt::interp::linear); }, errc::invalid_argument,
                  {"resize", "target size 0", "'H'"});
    require_error([&] { (void)nt::resize(x, {"W"}, {0.1}, nt::interp::linear); }, errc::invalid_argument,
                  {"resize", "target size 0", "'W'"});
    require_error([&] { (void)nt::resize(x.astype<std::uint8_t>(), {{"H", 4}}, nt::interp::linear); },
                  errc::type_mismatch, {"resize", "u8", "nearest only"});
    require_error([&] { (void)nt::zoom(x, {2.0}, {"W"}, 2); }, errc::invalid_argument, {"zoom", "order 2"});
    require_error([&] { (void)nt::zoom(x, {-1.0}, {"W"}, 1); }, errc::invalid_argument, {"zoom", "'W'", "above 0"});
    require_error([&] { (void)nt::zoom(x, {1.0, 2.0, 3.0}, {"H", "W"}, 1); }, errc::invalid_argument,
                  {"zoom", "3 factors for 2 spatial axes"});
}

TEST_CASE("resize and avg_pool on half: computed in float, rounded once", "[imaging][imaging_pool]") {
    const auto x = random_tensor({2, 5, 6}, {"C", "H", "W"}, -1, 1, 21).astype<nt::half>();
    const auto xf = x.astype<float>();
    const auto r = nt::resize(x, {{"H", 9}, {"W", 4}}, nt::interp::cubic);
    const auto rf = nt::resize(xf, {{"H", 9}, {"W", 4}}, nt::interp::cubic).astype<nt::half>();
    CHECK(r.to_vector() == rf.to_vector());
    const auto a = nt::avg_pool(x, {"W", "H"}, {2});
    const auto af = nt::avg_pool(xf, {"W", "H"}, {2}).astype<nt::half>();
    CHECK(a.to_vector() == af.to_vector());
}

TEST_CASE("pooling and resampling: an empty batch axis gives an empty result", "[imaging][imaging_pool]") {
    const auto x = nt::zeros<float>({0, 4, 6}, {"N", "H", "W"});
    CHECK(nt::to_string(nt::max_pool(x, {"H", "W"}, {2}).spec()) == "(0,2,3 | N,H,W)");
    CHECK(nt::to_string(nt::avg_pool(x, {"H", "W"}, {2}).spec()) == "(0,2,3 | N,H,W)");
    CHECK(nt::to_string(nt::resize(x, {{"W", 5}}, nt::interp::cubic).spec()) == "(0,4,5 | N,H,W)");
    CHECK(nt::to_string(nt::zoom(x, {2.0}, {"H", "W"}, 3).spec()) == "(0,8,12 | N,H,W)");
}
