// Masks and objects (nt/morphology.hpp) against scipy.ndimage 1.10
// (tests/numpy/gen_imaging_morph.py), the batch rule, the typed overloads and errors.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "nt/morphology.hpp"
#include "nt/threads.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"

namespace {

nt::any_tensor operand_tensor(const nt::test::oracle_operand& o) {
    const std::string& d = o.dtype;
    if (d == "b8") return nt::test::oracle_tensor<bool>(o);
    if (d == "u8") return nt::test::oracle_tensor<std::uint8_t>(o);
    if (d == "i16") return nt::test::oracle_tensor<std::int16_t>(o);
    if (d == "u16") return nt::test::oracle_tensor<std::uint16_t>(o);
    if (d == "i32") return nt::test::oracle_tensor<std::int32_t>(o);
    if (d == "i64") return nt::test::oracle_tensor<std::int64_t>(o);
    if (d == "f32") return nt::test::oracle_tensor<float>(o);
    if (d == "i8") return nt::test::oracle_tensor<std::int8_t>(o);
    if (d == "u32") return nt::test::oracle_tensor<std::uint32_t>(o);
    if (d == "u64") return nt::test::oracle_tensor<std::uint64_t>(o);
    if (d == "f16") return nt::test::oracle_tensor<nt::half>(o);
    if (d == "f64") return nt::test::oracle_tensor<double>(o);
    FAIL("unexpected dtype " << d);
    return {};
}

template <class T>
std::vector<T> elements(const nt::Tensor<T>& t) {
    std::vector<T> out;
    for (const T& v : t) out.push_back(v);
    return out;
}

bool close(double a, double b) {
    if (std::isnan(b)) return std::isnan(a);
    if (std::isinf(b)) return a == b;
    return std::abs(a - b) <= 1e-9 * (1.0 + std::abs(b));
}

struct morph_case {
    std::string op;
    int connectivity = 1;
    std::int64_t iterations = 1;
    std::vector<double> spacing;
    std::vector<nt::Axis> axes;
    std::string header;
    nt::any_tensor x, lab;
    std::int64_t count = 0;
};

void check_names(const nt::detail::tensor_base& got, const nt::any_tensor& want) {
    CHECK(got.describe() == want.base().describe());
}

void run_case(const morph_case& c, const nt::test::oracle_operand& want_op) {
    INFO(c.header);
    const nt::axes_arg axes(c.axes);
    if (c.op == "erosion" || c.op == "dilation" || c.op == "opening" || c.op == "closing" || c.op == "fill") {
        const nt::morphology_options o{.connectivity = c.connectivity, .iterations = c.iterations};
        nt::Tensor<bool> got = c.op == "erosion"    ? nt::binary_erosion(c.x, axes, o)
                               : c.op == "dilation" ? nt::binary_dilation(c.x, axes, o)
                               : c.op == "opening"  ? nt::binary_opening(c.x, axes, o)
                               : c.op == "closing"  ? nt::binary_closing(c.x, axes, o)
                                                    : nt::binary_fill_holes(c.x, axes, c.connectivity);
        const auto want = nt::test::oracle_tensor<bool>(want_op);
        check_names(got.base(), want);
        CHECK(elements(got) == elements(want));
    } else if (c.op == "label") {
        auto [labels, count] = nt::label(c.x, axes, c.connectivity);
        const auto want = nt::test::oracle_tensor<std::int32_t>(want_op);
        check_names(labels.base(), want);
        CHECK(count == c.count);
        CHECK(elements(labels) == elements(want));
    } else if (c.op == "edt") {
        auto got = nt::distance_transform_edt(c.x, axes, c.spacing);
        const auto want = nt::test::oracle_tensor<double>(want_op);
        check_names(got.base(), want);
        const auto g = elements(got), w = elements(want);
        REQUIRE(g.size() == w.size());
        for (std::size_t i = 0; i < g.size(); ++i) {
            INFO("element " << i << ": " << g[i] << " vs " << w[i]);
            CHECK(close(g[i], w[i]));
        }
    } else if (c.op == "com" || c.op == "stats") {
        const auto want = nt::test::oracle_tensor<double>(want_op);
        std::vector<double> g;
        if (c.op == "com") {
            auto got = nt::center_of_mass(c.x, c.lab, axes);
            CHECK(std::vector<std::int64_t>(got.shape().begin(), got.shape().end()) == want_op.shape);
            g = elements(got);
        } else {
            auto s = nt::region_stats(c.x, c.lab, axes);
            const auto cnt = elements(s.count);
            const auto sum = elements(s.sum), mean = elements(s.mean), mn = elements(s.min), mx = elements(s.max);
            REQUIRE(static_cast<std::int64_t>(cnt.size()) == want_op.shape[0]);
            for (std::size_t l = 0; l < cnt.size(); ++l)
                for (double v : {static_cast<double>(cnt[l]), sum[l], mean[l], mn[l], mx[l]}) g.push_back(v);
        }
        const auto w = elements(want);
        REQUIRE(g.size() == w.size());
        for (std::size_t i = 0; i < g.size(); ++i) {
            INFO("element " << i << ": " << g[i] << " vs " << w[i]);
            CHECK(close(g[i], w[i]));
        }
    } else if (c.op == "objects") {
        const auto want = elements(nt::test::oracle_tensor<std::int64_t>(want_op));
        auto got = nt::find_objects(c.lab, axes);
        const std::size_t k = c.axes.size();
        REQUIRE(static_cast<std::int64_t>(got.size()) == want_op.shape[0]);
        for (std::size_t l = 0; l < got.size(); ++l) {
            const std::int64_t* row = want.data() + l * (1 + 2 * k);
            INFO("label " << l + 1);
            REQUIRE(got[l].has_value() == (row[0] == 1));
            if (!got[l]) continue;
            CHECK(got[l]->begin == std::vector<std::int64_t>(row + 1, row + 1 + k));
            CHECK(got[l]->end == std::vector<std::int64_t>(row + 1 + k, row + 1 + 2 * k));
        }
    } else {
        FAIL("unknown op " << c.op);
    }
}

}  // namespace

namespace {

// Replays one oracle file; returns the number of cases.
int replay(const std::string& path) {
    morph_case c;
    int cases = 0;
    nt::test::for_each_oracle_line(path, "imaging_morph_generate",
                                   [&](const std::string& kind, std::istringstream& f, const std::string& line) {
        if (kind == "case") {
            c = morph_case{};
            c.header = line;
            std::size_t n = 0;
            f >> c.op >> c.connectivity >> c.iterations >> n;
            c.spacing.resize(n);
            for (auto& s : c.spacing) f >> s;
            f >> n;
            for (std::size_t i = 0; i < n; ++i) {
                std::string a;
                f >> a;
                c.axes.push_back(nt::Axis(a));
            }
        } else if (kind == "x") {
            c.x = operand_tensor(nt::test::read_oracle_operand(f));
        } else if (kind == "lab") {
            c.lab = operand_tensor(nt::test::read_oracle_operand(f));
        } else if (kind == "count") {
            f >> c.count;
        } else if (kind == "want") {
            run_case(c, nt::test::read_oracle_operand(f));
            ++cases;
        }
    });
    return cases;
}

}  // namespace

// 35 cases per round of the generator (SEEDED 30 15 in tests/imaging.cmake).
TEST_CASE("masks and objects agree with scipy.ndimage", "[numpy][imaging_morph]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/imaging_morph_fixed.txt") >= 900);
    CHECK(replay(dir + "/imaging_morph_fresh.txt") >= 450);
}

namespace {

// A (2, 3, D, H, W) volume of blobs: random values smoothed a little, thresholded.
nt::Tensor<float> volume() {
    auto v = nt::empty<float>({2, 3, 5, 9, 11}, {"", "CHANNEL", "D", "H", "W"});
    std::uint32_t s = 12345;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<float>(s >> 8) / static_cast<float>(1u << 24) < 0.55f ? 1.0f : 0.0f;
    }
    return v;
}

}  // namespace

TEST_CASE("batch axes: each slice on its own; spatial axes in any order", "[imaging][imaging_morph]") {
    const auto v = volume();
    const auto dist = nt::distance_transform_edt(v, {"D", "H", "W"}, {2.0, 1.0, 0.5});
    const auto dist_swapped = nt::distance_transform_edt(v, {"W", "D", "H"}, {0.5, 2.0, 1.0});
    CHECK(elements(dist) == elements(dist_swapped));
    const auto eroded = nt::binary_erosion(v, {"D", "H", "W"}, {.connectivity = 2});
    const auto filled = nt::binary_fill_holes(v, {"H", "W", "D"}, 3);
    auto [labels, count] = nt::label(v, {"D", "H", "W"}, 3);
    auto [labels_swapped, count_swapped] = nt::label(v, {"H", "D", "W"}, 3);
    CHECK(count == count_swapped);
    CHECK(elements(labels) == elements(labels_swapped));
    std::int64_t offset = 0;
    for (std::int64_t n = 0; n < 2; ++n)
        for (std::int64_t ch = 0; ch < 3; ++ch) {
            const auto slice = v.index(n, ch).contiguous();
            CHECK(elements(nt::distance_transform_edt(slice, {"D", "H", "W"}, {2.0, 1.0, 0.5})) ==
                  elements(dist.index(n, ch).contiguous()));
            CHECK(elements(nt::binary_erosion(slice, {"D", "H", "W"}, {.connectivity = 2})) ==
                  elements(eroded.index(n, ch).contiguous()));
            CHECK(elements(nt::binary_fill_holes(slice, {"D", "H", "W"}, 3)) ==
                  elements(filled.index(n, ch).contiguous()));
            // Labels run on from slice to slice: the slice's own labels plus those before.
            auto [own, own_count] = nt::label(slice, {"D", "H", "W"}, 3);
            auto expected = elements(own);
            for (auto& l : expected)
                if (l) l += static_cast<std::int32_t>(offset);
            CHECK(expected == elements(labels.index(n, ch).contiguous()));
            offset += own_count;
        }
    CHECK(offset == count);
    // Per-label measurements see each object in its own slice.
    const auto boxes = nt::find_objects(labels, {"D", "H", "W"});
    CHECK(static_cast<std::int64_t>(boxes.size()) == count);
    const auto stats = nt::region_stats(v, labels, {"D", "H", "W"});
    for (std::int64_t l = 0; l < count; ++l) CHECK(stats.mean(l) == 1.0);
}

TEST_CASE("distance_transform_edt on threads equals one thread", "[imaging][imaging_morph]") {
    auto v = nt::empty<std::uint8_t>({3, 40, 33, 29}, {"N", "D", "H", "W"});
    std::uint32_t s = 7;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = (s >> 28) != 0;
    }
    const int threads = nt::get_num_threads();
    nt::set_num_threads(1);
    const auto one = nt::distance_transform_edt(v, {"D", "H", "W"}, {1.5, 1.0, 0.7});
    nt::set_num_threads(std::max(2, threads));
    nt::detail::set_parallel_threshold(1024);
    const auto many = nt::distance_transform_edt(v, {"D", "H", "W"}, {1.5, 1.0, 0.7});
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
    nt::set_num_threads(threads);
    CHECK(elements(one) == elements(many));
}

TEST_CASE("masks and objects: typed overloads, results, empty sizes", "[imaging][imaging_morph]") {
    auto m = nt::zeros<bool>({4, 5}, {"H", "W"});
    m(1, 1) = true;
    m(1, 2) = true;
    m(3, 4) = true;
    nt::Tensor<bool> d = nt::binary_dilation(m, {"H", "W"});
    CHECK(d(0, 1));
    CHECK_FALSE(d(0, 0));
    auto [labels, count] = nt::label(m, {"H", "W"});
    CHECK(count == 2);
    CHECK(labels(3, 4) == 2);
    auto com = nt::center_of_mass(m, labels, {"W", "H"});  // coordinates in the order given
    CHECK(com(0, 0) == 1.5);
    CHECK(com(0, 1) == 1.0);
    auto boxes = nt::find_objects(labels, {"H", "W"});
    REQUIRE(boxes.size() == 2);
    CHECK(boxes[0]->begin == std::vector<std::int64_t>{1, 1});
    CHECK(boxes[0]->end == std::vector<std::int64_t>{2, 3});
    auto empty = nt::zeros<float>({0, 3}, {"H", "W"});
    CHECK(nt::binary_closing(empty, {"H", "W"}).size() == 0);
    CHECK(nt::distance_transform_edt(empty, {"H", "W"}).size() == 0);
    CHECK(nt::label(empty, {"H", "W"}).second == 0);
}

TEST_CASE("masks and objects: errors name the operation and the fix", "[imaging][imaging_morph]") {
    auto m = nt::zeros<std::uint8_t>({4, 5, 6}, {"D", "H", "W"});
    auto f = nt::zeros<float>({4, 5, 6}, {"D", "H", "W"});
    nt::test::require_error([&] { (void)nt::binary_erosion(m, {"H", "W"}, {.connectivity = 3}); },
                            nt::errc::invalid_argument, {"binary_erosion", "connectivity 3", "2 spatial axes"});
    nt::test::require_error([&] { (void)nt::label(m, {"H", "W"}, 0); }, nt::errc::invalid_argument,
                            {"label", "connectivity 0"});
    nt::test::require_error([&] { (void)nt::binary_fill_holes(m, {"H", "X"}); }, nt::errc::axis_out_of_range,
                            {"binary_fill_holes", "'X'"});
    nt::test::require_error([&] { (void)nt::binary_opening(m, {"H", "H"}); }, nt::errc::duplicate_name,
                            {"binary_opening", "twice"});
    nt::test::require_error([&] { (void)nt::distance_transform_edt(m, {"H", "W"}, {1.0, 2.0, 3.0}); },
                            nt::errc::invalid_argument, {"distance_transform_edt", "3 spacings", "2 spatial axes"});
    nt::test::require_error([&] { (void)nt::distance_transform_edt(m, {"H", "W"}, {1.0, -2.0}); },
                            nt::errc::invalid_argument, {"distance_transform_edt", "spacing -2"});
    nt::test::require_error([&] { (void)nt::find_objects(f, {"H", "W"}); }, nt::errc::type_mismatch,
                            {"find_objects", "f32", "not integers"});
    auto small = nt::zeros<std::int32_t>({4, 5}, {"H", "W"});
    nt::test::require_error([&] { (void)nt::region_stats(f, small, {"H", "W"}); }, nt::errc::incompatible_sizes,
                            {"region_stats", "differ in shape"});
    nt::test::require_error([&] { (void)nt::center_of_mass(f, small, {"H", "W"}); }, nt::errc::incompatible_sizes,
                            {"center_of_mass", "differ in shape"});
}

TEST_CASE("masks and objects: unnamed tensors take axes by index", "[imaging][imaging_morph]") {
    auto m = nt::zeros<std::int16_t>({3, 4, 5});
    m(0, 1, 1) = 7;
    m(0, 1, 2) = -1;
    m(2, 3, 4) = 1;
    auto [labels, count] = nt::label(m, {1, 2});
    CHECK(count == 2);
    CHECK(labels(0, 1, 2) == 1);
    CHECK(labels(2, 3, 4) == 2);
    const auto d = nt::distance_transform_edt(m, {2, 1}, {2.0, 1.0});  // spacing follows the axes given
    CHECK(d(0, 1, 1) == 1.0);                                          // a step along axis 1
    CHECK(d(0, 1, 2) == 1.0);
    CHECK(d(2, 3, 4) == 1.0);
    CHECK(nt::binary_erosion(m, {1, 2}).size() == m.size());
}

TEST_CASE("masks and objects: strided views read as their copies", "[imaging][imaging_morph]") {
    auto v = nt::empty<std::uint8_t>({9, 12, 10}, {"D", "H", "W"});
    std::uint32_t s = 99;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<std::uint8_t>((s >> 29) > 2 ? (s >> 24) : 0);
    }
    const auto view = v.transpose();  // (W, H, D), strided
    const auto copy = view.contiguous();
    CHECK(elements(nt::label(view, {"D", "H", "W"}, 2).first) == elements(nt::label(copy, {"D", "H", "W"}, 2).first));
    CHECK(elements(nt::distance_transform_edt(view, {"H", "D"}, {1.0, 3.0})) ==
          elements(nt::distance_transform_edt(copy, {"H", "D"}, {1.0, 3.0})));
    CHECK(elements(nt::binary_closing(view, {"W", "D"}, {.connectivity = 2, .iterations = 2})) ==
          elements(nt::binary_closing(copy, {"W", "D"}, {.connectivity = 2, .iterations = 2})));
    CHECK(elements(nt::binary_fill_holes(view, {"D", "H", "W"})) ==
          elements(nt::binary_fill_holes(copy, {"D", "H", "W"})));
}
