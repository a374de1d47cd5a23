// nt/filters.hpp against scipy.ndimage 1.10 (tests/numpy/gen_imaging_filters.py), the
// named rule, float16, and the errors.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "nt/filters.hpp"
#include "nt/nt.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"

namespace {

nt::boundary mode_of(const std::string& text) {
    for (auto m : {nt::boundary::reflect, nt::boundary::constant, nt::boundary::nearest, nt::boundary::mirror,
                   nt::boundary::wrap})
        if (text == nt::to_string(m)) return m;
    FAIL("unknown mode " << text);
    return nt::boundary::reflect;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string p; std::getline(in, p, ',');) parts.push_back(p);
    return parts;
}
std::vector<double> doubles(const std::string& text) {
    std::vector<double> v;
    for (const auto& p : split(text)) v.push_back(std::stod(p));
    return v;
}
std::vector<std::int64_t> ints(const std::string& text) {
    std::vector<std::int64_t> v;
    for (const auto& p : split(text)) v.push_back(std::stoll(p));
    return v;
}

struct filter_case {
    std::string line, fn;
    std::map<std::string, std::string> key;
    nt::test::oracle_operand input, expected;
};

// Runs the case's function on x (any element type).
nt::any_tensor run(const filter_case& c, const nt::any_tensor& x) {
    const nt::boundary mode = mode_of(c.key.at("mode"));
    const double cval = std::stod(c.key.at("cval"));
    std::vector<nt::Axis> axes;
    for (const auto& a : split(c.key.at("axes"))) axes.emplace_back(a);
    const auto has = [&](const char* k) { return c.key.count(k) != 0; };
    if (c.fn == "gaussian_filter" || c.fn == "gaussian_gradient_magnitude") {
        nt::gaussian_options o{.truncate = std::stod(c.key.at("truncate")), .mode = mode, .cval = cval};
        if (has("order")) o.order = ints(c.key.at("order"));
        const auto sigma = doubles(c.key.at("sigma"));
        return c.fn == "gaussian_filter" ? nt::gaussian_filter(x, sigma, axes, o)
                                         : nt::gaussian_gradient_magnitude(x, sigma, axes, o);
    }
    if (c.fn == "sobel") return nt::sobel(x, nt::Axis(c.key.at("axis")), axes, {.mode = mode, .cval = cval});
    nt::filter_options o{.mode = mode, .cval = cval};
    if (has("origin")) o.origin = ints(c.key.at("origin"));
    const auto size = ints(c.key.at("size"));
    if (c.fn == "uniform_filter") return nt::uniform_filter(x, size, axes, o);
    if (c.fn == "median_filter") return nt::median_filter(x, size, axes, o);
    if (c.fn == "minimum_filter") return nt::minimum_filter(x, size, axes, o);
    return nt::maximum_filter(x, size, axes, o);
}

template <class T>
void check_case(const filter_case& c) {
    INFO(c.line);
    const nt::Tensor<T> x = nt::test::oracle_tensor<T>(c.input);
    const nt::Tensor<T> want = nt::test::oracle_tensor<T>(c.expected);
    const nt::Tensor<T> got = run(c, x).template as<T>();
    REQUIRE(nt::to_string(got.spec()) == nt::to_string(want.spec()));
    const auto g = got.to_vector(), w = want.to_vector();
    if constexpr (std::is_floating_point_v<T>) {
        double scale = 1.0;
        for (T v : w) scale = std::max(scale, std::fabs(static_cast<double>(v)));
        const double tol = (std::is_same_v<T, float> ? 3e-6 : 1e-12) * scale;
        for (std::size_t i = 0; i < w.size(); ++i) {
            INFO("element " << i);
            CHECK(std::fabs(static_cast<double>(g[i]) - static_cast<double>(w[i])) <= tol);
        }
    } else {
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < w.size(); ++i) wrong += g[i] != w[i];
        CHECK(wrong == 0);
        if (wrong != 0)
            for (std::size_t i = 0; i < w.size(); ++i)
                if (g[i] != w[i]) {
                    FAIL_CHECK("element " << i << ": " << +g[i] << " != scipy's " << +w[i]);
                    break;
                }
    }
}

}  // namespace

namespace {

// Replays one oracle file; the cases per function.
std::map<std::string, int> replay(const std::string& path) {
    std::map<std::string, int> per_fn;
    filter_case c;
    nt::test::for_each_oracle_line(path, "imaging_filters",
                                   [&](const std::string& kind, std::istringstream& fields, const std::string& line) {
                                       if (kind == "case") {
                                           c = filter_case{};
                                           c.line = line;
                                           std::string id;
                                           fields >> id >> c.fn;
                                           for (std::string kv; fields >> kv;) {
                                               const auto eq = kv.find('=');
                                               c.key[kv.substr(0, eq)] = kv.substr(eq + 1);
                                           }
                                       } else if (kind == "input") {
                                           c.input = nt::test::read_oracle_operand(fields);
                                       } else if (kind == "out") {
                                           c.expected = nt::test::read_oracle_operand(fields);
                                           const std::string& d = c.input.dtype;
                                           if (d == "b8") check_case<bool>(c);
                                           else if (d == "i8") check_case<std::int8_t>(c);
                                           else if (d == "u8") check_case<std::uint8_t>(c);
                                           else if (d == "i16") check_case<std::int16_t>(c);
                                           else if (d == "u16") check_case<std::uint16_t>(c);
                                           else if (d == "i32") check_case<std::int32_t>(c);
                                           else if (d == "u32") check_case<std::uint32_t>(c);
                                           else if (d == "i64") check_case<std::int64_t>(c);
                                           else if (d == "u64") check_case<std::uint64_t>(c);
                                           else if (d == "f32") check_case<float>(c);
                                           else if (d == "f64") check_case<double>(c);
                                           else FAIL("dtype " << d);
                                           ++per_fn[c.fn];
                                       }
                                   });
    return per_fn;
}

}  // namespace

TEST_CASE("filters equal scipy.ndimage's", "[numpy][imaging_filters]") {
    const std::string dir = NT_TEST_DATA_DIR;
    for (const auto& [file, least] :
         {std::pair{"/imaging_filters_fixed.txt", 100}, std::pair{"/imaging_filters_fresh.txt", 50}}) {
        const auto per_fn = replay(dir + file);
        CHECK(per_fn.size() == 7);
        for (const auto& [fn, n] : per_fn) {
            INFO(file << " " << fn);
            CHECK(n >= least);
        }
    }
}

namespace {

nt::Tensor<double> random_doubles(nt::shape_arg shape, nt::names_arg names, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 3.0);
    std::int64_t n = 1;
    for (std::int64_t s : shape.span()) n *= s;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& e : v) e = normal(rng);
    return nt::from_vector(v, shape, names);
}

double max_difference(const nt::Tensor<double>& a, const nt::Tensor<double>& b) {
    REQUIRE(nt::to_string(a.spec()) == nt::to_string(b.spec()));
    const auto x = a.to_vector(), y = b.to_vector();
    double d = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) d = std::max(d, std::fabs(x[i] - y[i]));
    return d;
}

// Every filter of the header on x over `axes` (in that order; sizes and sigmas per axis).
std::vector<nt::Tensor<double>> every_filter(const nt::Tensor<double>& x, const std::vector<nt::Axis>& axes,
                                             const std::vector<double>& sigma, const std::vector<std::int64_t>& size,
                                             nt::boundary mode) {
    return {nt::gaussian_filter(x, sigma, axes, {.mode = mode, .cval = 0.5}),
            nt::uniform_filter(x, size, axes, {.mode = mode, .cval = 0.5}),
            nt::median_filter(x, size, axes, {.mode = mode, .cval = 0.5}),
            nt::minimum_filter(x, size, axes, {.mode = mode, .cval = 0.5}),
            nt::maximum_filter(x, size, axes, {.mode = mode, .cval = 0.5}),
            nt::sobel(x, "H", axes, {.mode = mode, .cval = 0.5}),
            nt::gaussian_gradient_magnitude(x, sigma, axes, {.mode = mode, .cval = 0.5})};
}

}  // namespace

TEST_CASE("filters: the named rule", "[imaging][imaging_filters]") {
    const auto mode = GENERATE(nt::boundary::reflect, nt::boundary::constant, nt::boundary::nearest,
                               nt::boundary::mirror, nt::boundary::wrap);
    INFO(nt::to_string(mode));
    const auto vol = random_doubles({2, 3, 4, 6, 5}, {"", "CHANNEL", "D", "H", "W"}, 11);
    const auto whole = every_filter(vol, {"D", "H", "W"}, {1.0, 0.7, 1.5}, {3, 2, 4}, mode);
    SECTION("a (?, CHANNEL, D, H, W) volume == each slice on its own") {
        for (std::int64_t n = 0; n < 2; ++n)
            for (std::int64_t c = 0; c < 3; ++c) {
                const auto slice = vol.index(n, c).clone();
                const auto parts = every_filter(slice, {"D", "H", "W"}, {1.0, 0.7, 1.5}, {3, 2, 4}, mode);
                for (std::size_t f = 0; f < parts.size(); ++f) {
                    INFO("filter " << f);
                    CHECK(max_difference(whole[f].index(n, c).clone(), parts[f]) == 0.0);
                }
            }
    }
    SECTION("axes given in another order (options following them) == the same result") {
        const auto other = every_filter(vol, {"W", "D", "H"}, {1.5, 1.0, 0.7}, {4, 3, 2}, mode);
        for (std::size_t f = 0; f < other.size(); ++f) {
            INFO("filter " << f);
            CHECK(max_difference(whole[f], other[f]) < 1e-12);
        }
    }
    SECTION("a strided view (axes stored in another order) == its contiguous copy") {
        const auto permuted = vol.permute({4, 0, 2, 1, 3});
        const auto copied = permuted.clone();
        const auto a = every_filter(permuted, {"D", "H", "W"}, {1.0, 0.7, 1.5}, {3, 2, 4}, mode);
        const auto b = every_filter(copied, {"D", "H", "W"}, {1.0, 0.7, 1.5}, {3, 2, 4}, mode);
        for (std::size_t f = 0; f < a.size(); ++f) {
            INFO("filter " << f);
            CHECK(max_difference(a[f], b[f]) == 0.0);
            // sobel and the gradient magnitude are not symmetric in their passes when
            // the constant is not 0: they follow x's axis order, as scipy's do.
            if (mode == nt::boundary::constant && f >= 5) continue;
            CHECK(max_difference(a[f].permute({1, 3, 2, 4, 0}).clone(), whole[f]) < 1e-12);
        }
    }
}

TEST_CASE("filters: a large volume on the threads == one line at a time", "[imaging][imaging_filters]") {
    // Wide enough for the side-by-side blocks and the pool; W short for the gathered ones.
    const auto vol = random_doubles({3, 37, 41, 7}, {"C", "D", "H", "W"}, 5).astype<float>();
    const auto g = nt::gaussian_filter(vol, {2.0, 1.0, 0.8}, {"D", "H", "W"});
    for (std::int64_t c = 0; c < 3; ++c) {
        auto slice = vol.index(c).clone();
        auto part = nt::gaussian_filter(nt::gaussian_filter(nt::gaussian_filter(slice, 2.0, "D"), 1.0, "H"), 0.8, "W");
        const auto x = g.index(c).clone().to_vector(), y = part.to_vector();
        double d = 0;
        for (std::size_t i = 0; i < x.size(); ++i) d = std::max(d, double(std::fabs(x[i] - y[i])));
        CHECK(d == 0.0);
    }
}

TEST_CASE("filters: float16 is filtered in float and rounded once", "[imaging][imaging_filters]") {
    const auto x = random_doubles({9, 11}, {"H", "W"}, 3);
    const auto h = x.astype<nt::half>();
    const auto want = nt::gaussian_filter(h.astype<float>(), 1.2, {"H", "W"}).astype<nt::half>();
    const auto got = nt::gaussian_filter(h, 1.2, {"H", "W"});
    CHECK(got.astype<float>().to_vector() == want.astype<float>().to_vector());
    const auto med = nt::median_filter(h, 3, {"H", "W"});
    CHECK(med.astype<float>().to_vector() == nt::median_filter(h.astype<float>(), 3, {"H", "W"}).to_vector());
}

TEST_CASE("filters: sigma 0 and size 1 leave an axis as it is", "[imaging][imaging_filters]") {
    const auto x = random_doubles({5, 6}, {"H", "W"}, 4);
    CHECK(max_difference(nt::gaussian_filter(x, {0.0, 1.0}, {"H", "W"}), nt::gaussian_filter(x, 1.0, "W")) == 0.0);
    CHECK(max_difference(nt::uniform_filter(x, {1, 3}, {"H", "W"}), nt::uniform_filter(x, 3, "W")) == 0.0);
    CHECK(max_difference(nt::gaussian_filter(x, 0.0, {"H", "W"}), x) == 0.0);
}

TEST_CASE("filters: errors name the operation, the axis and the sizes", "[imaging][imaging_filters]") {
    const auto x = nt::zeros<float>({4, 5}, {"H", "W"});
    using nt::errc;
    nt::test::require_error([&] { (void)nt::gaussian_filter(x, -1.0, {"H", "W"}); }, errc::invalid_argument,
                            {"gaussian_filter", "sigma -1", "'H'", "size 4", ">= 0"});
    nt::test::require_error([&] { (void)nt::gaussian_filter(x, {1.0, 2.0, 3.0}, {"H", "W"}); },
                            errc::invalid_argument, {"gaussian_filter", "3 sigmas", "2 spatial axes"});
    nt::test::require_error([&] { (void)nt::gaussian_filter(x, 1.0, {"D"}); }, errc::axis_out_of_range,
                            {"gaussian_filter", "'D'"});
    nt::test::require_error([&] { (void)nt::gaussian_filter(x, 1.0, {"H", "H"}); }, errc::duplicate_name,
                            {"gaussian_filter", "twice"});
    nt::test::require_error([&] { (void)nt::gaussian_filter(x, 1.0, "W", {.truncate = -1.0}); },
                            errc::invalid_argument, {"gaussian_filter", "truncate"});
    nt::test::require_error([&] { (void)nt::gaussian_filter(x, 1.0, "W", {.order = {-1}}); },
                            errc::invalid_argument, {"gaussian_filter", "order -1", "'W'"});
    nt::test::require_error([&] { (void)nt::uniform_filter(x, 0, {"H", "W"}); }, errc::invalid_argument,
                            {"uniform_filter", "size 0", "'H'", ">= 1"});
    nt::test::require_error([&] { (void)nt::median_filter(x, 3, "W", {.origin = {2}}); }, errc::invalid_argument,
                            {"median_filter", "origin 2", "'W'", "[-1, 1]"});
    nt::test::require_error([&] { (void)nt::maximum_filter(x, {3, 3}, {"W"}); }, errc::invalid_argument,
                            {"maximum_filter", "2 sizes", "1 spatial axes"});
    nt::test::require_error([&] { (void)nt::sobel(x, "H", {"W"}); }, errc::invalid_argument,
                            {"sobel", "'H'", "spatial axes"});
    nt::test::require_error([&] { (void)nt::gaussian_gradient_magnitude(x, -0.5, {"W"}); }, errc::invalid_argument,
                            {"gaussian_gradient_magnitude", "sigma -0.5"});
}

TEST_CASE("filters: any_tensor forms, 1-D signals, empty tensors", "[imaging][imaging_filters]") {
    const auto x = random_doubles({7}, {"T"}, 9);
    const nt::any_tensor a = x;
    CHECK(nt::gaussian_filter(a, 1.5, "T").as<double>().to_vector() == nt::gaussian_filter(x, 1.5, "T").to_vector());
    CHECK(nt::uniform_filter(a, 4, "T").as<double>().to_vector() == nt::uniform_filter(x, 4, "T").to_vector());
    CHECK(nt::median_filter(a, 3, "T").as<double>().to_vector() == nt::median_filter(x, 3, "T").to_vector());
    CHECK(nt::sobel(a, "T").as<double>().to_vector() == nt::sobel(x, "T").to_vector());
    CHECK(nt::gaussian_gradient_magnitude(a, 1.0, "T").as<double>().to_vector() ==
          nt::gaussian_gradient_magnitude(x, 1.0, "T").to_vector());
    const auto empty = nt::zeros<float>({0, 5}, {"H", "W"});
    CHECK(nt::to_string(nt::gaussian_filter(empty, 1.0, {"H", "W"}).spec()) == nt::to_string(empty.spec()));
    CHECK(nt::median_filter(empty, 3, {"H", "W"}).size() == 0);
    CHECK(nt::gaussian_gradient_magnitude(nt::zeros<std::uint8_t>({0, 3}, {"H", "W"}), 1.0, {"H", "W"}).size() == 0);
}
