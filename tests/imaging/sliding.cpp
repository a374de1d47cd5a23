// nt::sliding_window: against a NumPy transcription of MONAI's
// sliding_window_inference (tests/numpy/gen_imaging_sliding.py), against the
// whole-volume prediction of pointwise predictors, the named rule, and the errors.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "nt/sliding_window.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"

namespace {

template <class T>
nt::Tensor<T> random_tensor(std::vector<std::int64_t> shape, std::vector<nt::name> names, unsigned seed) {
    auto t = nt::empty<T>(shape);
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<int> bytes(0, 255);
    for (auto& v : t) {
        if constexpr (std::is_floating_point_v<T>) v = static_cast<T>(normal(gen));
        else v = static_cast<T>(bytes(gen));
    }
    return names.empty() ? t : t.rename(names);
}

// |a - b| <= tol * (1 + |b|) everywhere, with the same shape and names.
template <class A, class B>
void require_close(const nt::Tensor<A>& a, const nt::Tensor<B>& b, double tol) {
    REQUIRE(a.spec() == b.spec());
    auto ad = a.template astype<double>();
    auto bd = b.template astype<double>();
    auto ai = ad.begin();
    double worst = 0;
    for (double v : bd) {
        worst = std::max(worst, std::abs(*ai - v) / (1.0 + std::abs(v)));
        ++ai;
    }
    INFO("largest relative difference " << worst);
    CHECK(worst <= tol);
}

nt::pad_mode pad_mode_of(const std::string& text) {
    for (auto m : {nt::pad_mode::constant, nt::pad_mode::edge, nt::pad_mode::reflect, nt::pad_mode::symmetric,
                   nt::pad_mode::wrap}) {
        static const char* const names[] = {"constant", "edge", "reflect", "symmetric", "wrap"};
        if (text == names[static_cast<int>(m)]) return m;
    }
    FAIL("unknown pad mode " << text);
    return nt::pad_mode::constant;
}

// The oracle's predictor: 2 w + 1 + mean(w) per window, in float64, cast to P.
template <class P, class T>
nt::Tensor<P> mean_predictor(const nt::Tensor<T>& w) {
    auto f = w.template astype<double>();
    std::vector<nt::Axis> rest;
    for (std::size_t i = 1; i < f.rank(); ++i) rest.emplace_back(static_cast<std::int64_t>(i));
    auto p = f * 2.0 + 1.0 + nt::mean(f, rest, true);
    return p.template astype<P>();
}

struct oracle_case {
    std::string line;
    nt::sliding_window_options options;
    std::string pred_dtype;
    std::vector<nt::Axis> axes;
    std::vector<std::int64_t> roi;
    nt::test::oracle_operand input, out;
};

template <class T, class P>
void replay(const oracle_case& c) {
    const auto x = nt::test::oracle_tensor<T>(c.input);
    const auto expected = nt::test::oracle_tensor<P>(c.out);
    const auto got = nt::sliding_window(x, c.axes, c.roi, [](const nt::Tensor<T>& w) { return mean_predictor<P>(w); },
                                        c.options);
    static_assert(std::is_same_v<typename decltype(got)::value_type, P>);
    require_close(got, expected, std::is_same_v<P, float> ? 2e-5 : 1e-10);
}

template <class T>
void replay_input(const oracle_case& c) {
    if (c.pred_dtype == "f32") replay<T, float>(c);
    else replay<T, double>(c);
}

int replay_file(const std::string& path) {
    int cases = 0;
    oracle_case c;
    nt::test::for_each_oracle_line(path, "imaging_sliding_generate", [&](const std::string& kind,
                                                                         std::istringstream& f,
                                                                         const std::string& line) {
        if (kind == "case") {
            c = oracle_case{};
            c.line = line;
            int id = 0;
            std::string blend, pad;
            std::size_t k = 0;
            f >> id >> blend >> c.options.overlap >> c.options.batch >> c.options.sigma_scale >> pad >>
                c.options.pad_value >> c.pred_dtype >> k;
            c.options.blend = blend == "gaussian" ? nt::blend::gaussian : nt::blend::constant;
            c.options.pad_mode = pad_mode_of(pad);
            for (std::size_t i = 0; i < k; ++i) {
                std::string a;
                f >> a;
                c.axes.push_back(nt::test::oracle_axis(a));
            }
            c.roi.resize(k);
            for (auto& r : c.roi) f >> r;
        } else if (kind == "input") {
            c.input = nt::test::read_oracle_operand(f);
        } else if (kind == "out") {
            c.out = nt::test::read_oracle_operand(f);
            INFO(c.line);
            if (c.input.dtype == "u8") replay_input<std::uint8_t>(c);
            else if (c.input.dtype == "f32") replay_input<float>(c);
            else replay_input<double>(c);
            ++cases;
        }
    });
    return cases;
}

}  // namespace

TEST_CASE("sliding_window equals MONAI's sliding_window_inference (NumPy transcription)", "[numpy][sliding]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay_file(dir + "/imaging_sliding_fixed.txt") >= 100);
    CHECK(replay_file(dir + "/imaging_sliding_fresh.txt") >= 30);
}

TEST_CASE("sliding_window with constant blending equals a pointwise predictor on the whole volume",
          "[imaging][sliding]") {
    struct shape_case {
        std::vector<std::int64_t> shape;
        std::vector<nt::name> names;
        std::vector<nt::Axis> axes;
        std::vector<std::int64_t> roi;
    };
    const std::vector<shape_case> shapes = {
        {{37}, {"W"}, {"W"}, {8}},
        {{5}, {"W"}, {"W"}, {8}},  // x smaller than the window
        {{3, 17, 23}, {"C", "H", "W"}, {"H", "W"}, {6, 9}},
        {{2, 3, 11, 13, 9}, {"N", "C", "D", "H", "W"}, {"D", "H", "W"}, {4, 5, 3}},
        {{2, 3, 11, 4, 9}, {"N", "C", "D", "H", "W"}, {"W", "D", "H"}, {4, 5, 7}},  // roi > x on H
        {{1, 7, 20, 1}, {}, {1, 2, 3}, {3, 32, 2}},                                   // unnamed, by index
    };
    unsigned seed = 1;
    for (const auto& s : shapes)
        for (double overlap : {0.0, 0.25, 0.5, 0.8})
            for (std::int64_t batch : {1, 3, 4, 16})
                for (auto pm : {nt::pad_mode::constant, nt::pad_mode::edge, nt::pad_mode::wrap}) {
                    const auto x = random_tensor<float>(s.shape, s.names, seed++);
                    auto model = [](const nt::Tensor<float>& w) { return nt::sqrt(nt::abs(w)) * 2.0f + 1.0f; };
                    INFO("shape " << x.spec() << " overlap " << overlap << " batch " << batch);
                    const auto got = nt::sliding_window(x, s.axes, s.roi, model,
                                                        {.overlap = overlap, .batch = batch, .pad_mode = pm});
                    require_close(got, model(x), 1e-6);
                }
}

TEST_CASE("sliding_window: the predictor may change the other axes (CHANNEL -> CLASS), any input type",
          "[imaging][sliding]") {
    const auto w = random_tensor<float>({3, 4}, {"C", "CLASS"}, 7);
    auto run = [&](auto type) {
        using T = typename decltype(type)::type;
        const auto x = random_tensor<T>({3, 10, 21, 9}, {"C", "D", "H", "W"}, 11);
        auto model = [&](const nt::Tensor<T>& win) { return nt::dot(win.template astype<float>(), w, {"C"}); };
        const auto got = nt::sliding_window(x, {"D", "H", "W"}, {4, 8, 4}, model, {.overlap = 0.5, .batch = 5});
        const auto whole = model(x);
        CHECK(got.spec() == whole.spec());
        require_close(got, whole, 1e-5);
    };
    run(std::type_identity<float>{});
    run(std::type_identity<double>{});
    run(std::type_identity<std::uint8_t>{});
    run(std::type_identity<std::int16_t>{});
    run(std::type_identity<std::uint16_t>{});

    // The any_tensor form: the same result, the type decided at run time.
    const auto x = random_tensor<std::uint8_t>({3, 10, 21, 9}, {"C", "D", "H", "W"}, 11);
    const nt::any_tensor got = nt::sliding_window(
        nt::any_tensor(x), {"D", "H", "W"}, {4, 8, 4},
        [&](const nt::any_tensor& win) { return nt::dot(win.astype<float>(), w, {"C"}); }, {.overlap = 0.5});
    REQUIRE(got.is<float>());
    require_close(got.as<float>(), nt::dot(x.astype<float>(), w, {"C"}), 1e-5);
    // float64 predictions give a float64 result.
    const auto d = nt::sliding_window(x, {"D", "H", "W"}, {4, 8, 4},
                                      [](const nt::Tensor<std::uint8_t>& win) { return win.astype<double>(); });
    static_assert(std::is_same_v<decltype(d), const nt::Tensor<double>>);
    require_close(d, x.astype<double>(), 1e-12);
    // Integer predictions are blended in float32.
    const auto u = nt::sliding_window(
        x, {"D", "H", "W"}, {4, 8, 4}, [](const nt::Tensor<std::uint8_t>& win) { return win; },
        {.blend = nt::blend::gaussian});
    static_assert(std::is_same_v<decltype(u), const nt::Tensor<float>>);
    require_close(u, x.astype<float>(), 1e-6);
}

TEST_CASE("sliding_window: the named rule", "[imaging][sliding]") {
    // A predictor that sees each (N, C) slice on its own: 2 w + 1 + the slice's mean
    // over the window, so that blending matters.
    auto model = [](const nt::Tensor<float>& w) { return w * 2.0f + 1.0f + nt::mean(w, {"D", "H", "W"}, true); };
    const auto x = random_tensor<float>({2, 3, 9, 14, 11}, {"N", "C", "D", "H", "W"}, 5);
    const nt::sliding_window_options gaussian{.overlap = 0.5, .batch = 3, .blend = nt::blend::gaussian};
    const auto all = nt::sliding_window(x, {"D", "H", "W"}, {4, 6, 5}, model, gaussian);
    for (std::int64_t n = 0; n < 2; ++n)
        for (std::int64_t c = 0; c < 3; ++c) {
            const auto slice = x.index(n, c);  // (D, H, W)
            const auto one = nt::sliding_window(slice, {"D", "H", "W"}, {4, 6, 5}, model, gaussian);
            require_close(all.index(n, c), one, 1e-6);
        }
    // Axes in another order than stored (roi in that order): the same result.
    const auto permuted = nt::sliding_window(x, {"W", "D", "H"}, {5, 4, 6}, model, gaussian);
    require_close(permuted, all, 1e-6);
    // Stored in another order: the same values, in x's order.
    const auto xt = x.permute({"W", "C", "H", "N", "D"});
    const auto transposed = nt::sliding_window(xt, {"D", "H", "W"}, {4, 6, 5}, model, gaussian);
    require_close(transposed.align_as(all), all, 1e-6);
    // Split among threads (each row of a window by one thread): the same values.
    nt::detail::set_parallel_threshold(1);
    const auto threaded = nt::sliding_window(x, {"D", "H", "W"}, {4, 6, 5}, model, gaussian);
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
    CHECK(nt::max(nt::abs(threaded - all)).at() == 0.0f);
}

TEST_CASE("sliding_window: a prediction may reorder the axes; spatial ones are found by name",
          "[imaging][sliding]") {
    const auto x = random_tensor<float>({2, 11, 13}, {"C", "H", "W"}, 21);
    // A strided view in another axis order: (?, W, C, H).
    auto model = [](const nt::Tensor<float>& w) { return (w * 2.0f).permute({0, 3, 1, 2}); };
    const auto got = nt::sliding_window(x, {"H", "W"}, {4, 6}, model,
                                        {.overlap = 0.5, .batch = 3, .blend = nt::blend::gaussian});
    CHECK(got.spec() == nt::spec({13, 2, 11}, {"W", "C", "H"}));
    require_close(got, (x * 2.0f).permute({"W", "C", "H"}), 1e-6);
}

TEST_CASE("sliding_window: empty axes give empty results", "[imaging][sliding]") {
    auto id = [](const nt::Tensor<float>& w) { return w; };
    // An empty spatial axis: padded to one window (constant), then cropped to nothing.
    const auto a = nt::sliding_window(nt::zeros<float>({0, 5}, {"H", "W"}), {"H", "W"}, {4, 4}, id);
    CHECK(a.spec() == nt::spec({0, 5}, {"H", "W"}));
    // An empty channel axis: windows of no elements.
    const auto b = nt::sliding_window(nt::zeros<float>({0, 9}, {"C", "W"}), {"W"}, {4}, id);
    CHECK(b.spec() == nt::spec({0, 9}, {"C", "W"}));
}

TEST_CASE("sliding_window records nothing for gradients, the predictor included", "[imaging][sliding]") {
    const auto x = random_tensor<float>({9, 10}, {"H", "W"}, 9).with_grad();
    const auto scale = nt::full<float>({1}, 3.0f, {"H"}).with_grad();
    bool recorded = true;
    auto model = [&](const nt::Tensor<float>& w) {
        auto p = w * scale;
        recorded = p.base().grad_node() != nullptr;
        return p;
    };
    const auto y = nt::sliding_window(x, {"H", "W"}, {4, 4}, model);
    CHECK_FALSE(recorded);
    CHECK(y.base().grad_node() == nullptr);
    require_close(y, x * 3.0f, 1e-6);
}

TEST_CASE("sliding_window: one batch of windows at a time, a buffer the predictor may keep", "[imaging][sliding]") {
    const auto x = random_tensor<float>({1, 12, 12}, {"C", "H", "W"}, 3);
    std::vector<std::int64_t> sizes;
    std::vector<nt::Tensor<float>> kept;
    auto model = [&](const nt::Tensor<float>& w) {
        sizes.push_back(w.shape()[0]);
        CHECK(w.spec() == nt::spec({w.shape()[0], 1, 4, 4}, {"", "C", "H", "W"}));
        if (sizes.size() <= 2) kept.push_back(w);  // holding a batch must not let the next overwrite it
        return w;
    };
    const auto got = nt::sliding_window(x, {"H", "W"}, {4, 4}, model, {.overlap = 0.5, .batch = 4});
    // Windows start at 0, 2, ..., 8 on each axis: 25 windows, batches of 4 then 1.
    CHECK(sizes == std::vector<std::int64_t>{4, 4, 4, 4, 4, 4, 1});
    REQUIRE(kept.size() == 2);
    CHECK(!kept[0].shares_storage(kept[1]));
    CHECK(nt::max(nt::abs(kept[0].index(0) - x.slice("H", 0, 4).slice("W", 0, 4))).at() == 0.0f);
    require_close(got, x, 1e-6);
}

TEST_CASE("sliding_window: errors name the axis, the sizes and the fix", "[imaging][sliding]") {
    const auto x = nt::zeros<float>({2, 10, 12, 14}, {"C", "D", "H", "W"});
    auto id = [](const nt::Tensor<float>& w) { return w; };
    using nt::test::require_error;
    require_error([&] { (void)nt::sliding_window(x, {"D", "H", "W"}, {4, 4}, id); }, nt::errc::invalid_argument,
                  {"sliding_window", "roi [4,4]", "2 sizes for 3 spatial axes"});
    require_error([&] { (void)nt::sliding_window(x, {"D", "H"}, {4, 0}, id); }, nt::errc::invalid_argument,
                  {"sliding_window", "window size 0", "'H'", "size 12"});
    require_error([&] { (void)nt::sliding_window(x, {"D", "T"}, {4, 4}, id); }, nt::errc::axis_out_of_range,
                  {"sliding_window", "'T'"});
    require_error([&] { (void)nt::sliding_window(x, {"D", "D"}, {4, 4}, id); }, nt::errc::duplicate_name,
                  {"sliding_window", "twice"});
    for (double overlap : {1.0, -0.25, std::nan("")})
        require_error([&] { (void)nt::sliding_window(x, {"H", "W"}, {4, 4}, id, {.overlap = overlap}); },
                      nt::errc::invalid_argument, {"sliding_window", "overlap", "[0, 1)"});
    require_error([&] { (void)nt::sliding_window(x, {"H", "W"}, {4, 4}, id, {.batch = 0}); },
                  nt::errc::invalid_argument, {"sliding_window", "batch 0", "at least 1"});
    require_error(
        [&] {
            (void)nt::sliding_window(x, {"H", "W"}, {4, 4}, id, {.blend = nt::blend::gaussian, .sigma_scale = 0.0});
        },
        nt::errc::invalid_argument, {"sliding_window", "sigma_scale", "positive"});
    // A predictor that changes a spatial size.
    auto shrink = [](const nt::Tensor<float>& w) { return w.slice("W", 0, 3); };
    require_error([&] { (void)nt::sliding_window(x, {"H", "W"}, {4, 5}, shrink); }, nt::errc::incompatible_sizes,
                  {"sliding_window", "'W'", "from 5 to 3", "keep the window's spatial sizes"});
    // ... that drops the window axis, or a spatial axis.
    auto first = [](const nt::Tensor<float>& w) { return w.index(0); };
    require_error([&] { (void)nt::sliding_window(x, {"H", "W"}, {4, 5}, first); }, nt::errc::invalid_argument,
                  {"sliding_window", "one prediction per window", "leading axis of 4"});
    auto reduce = [](const nt::Tensor<float>& w) { return nt::sum(w, "H"); };
    require_error([&] { (void)nt::sliding_window(x, {"H", "W"}, {4, 5}, reduce); }, nt::errc::axis_out_of_range,
                  {"sliding_window", "lacks axis 2 'H'", "keep the spatial axes"});
    // ... whose other axes change from one call to the next.
    int calls = 0;
    auto fickle = [&](const nt::Tensor<float>& w) { return ++calls == 1 ? w : nt::concatenate({w, w}, "C"); };
    require_error([&] { (void)nt::sliding_window(x, {"H", "W"}, {4, 5}, fickle, {.batch = 1}); },
                  nt::errc::incompatible_sizes, {"sliding_window", "every call must return the same axes"});
}
