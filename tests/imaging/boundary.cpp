// The boundary rule every imaging operation extends its lines with, against
// scipy.ndimage's own correlate1d (tests/numpy/gen_imaging_boundary.py).
#include <fstream>
#include <sstream>
#include <string>

#include "nt/boundary.hpp"
#include "nt_test_support.hpp"
#include "spatial.hpp"

namespace {

nt::boundary mode_of(const std::string& text) {
    for (auto m : {nt::boundary::reflect, nt::boundary::constant, nt::boundary::nearest, nt::boundary::mirror,
                   nt::boundary::wrap})
        if (text == nt::to_string(m)) return m;
    FAIL("unknown mode " << text);
    return nt::boundary::reflect;
}

}  // namespace

TEST_CASE("boundary_index reads where scipy.ndimage reads", "[numpy][imaging_boundary]") {
    std::ifstream in(std::string(NT_TEST_DATA_DIR) + "/imaging_boundary.txt");
    REQUIRE(in);
    std::string line;
    int cases = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string mode;
        std::int64_t n = 0, offset = 0;
        fields >> mode >> n >> offset;
        for (std::int64_t i = 0; i < n; ++i) {
            std::int64_t expected = 0;
            fields >> expected;
            INFO(line << " at i=" << i);
            CHECK(nt::detail::imaging::boundary_index(mode_of(mode), i + offset, n) == expected);
        }
        ++cases;
    }
    CHECK(cases > 500);
}

TEST_CASE("spatial axes: names and indices, errors name the axis", "[imaging]") {
    auto x = nt::zeros<float>({2, 3, 4, 5}, {"", "C", "H", "W"});
    auto axes = nt::detail::imaging::spatial_axes(x.base(), {"W", "H"}, "test_op");
    REQUIRE(axes.size() == 2);
    CHECK(axes[0] == 3);
    CHECK(axes[1] == 2);
    nt::test::require_error([&] { (void)nt::detail::imaging::spatial_axes(x.base(), {"D"}, "test_op"); },
                            nt::errc::axis_out_of_range, {"test_op", "'D'"});
    nt::test::require_error([&] { (void)nt::detail::imaging::spatial_axes(x.base(), {"H", 2}, "test_op"); },
                            nt::errc::duplicate_name, {"test_op", "twice"});
    nt::test::require_error([&] { (void)nt::detail::imaging::spatial_axes(x.base(), nt::axes_arg{}, "test_op"); },
                            nt::errc::invalid_argument, {"test_op", "no spatial axes"});
}
