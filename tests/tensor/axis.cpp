// nt/axis.hpp: axes by index or by name.
#include "core_testing.hpp"

#include <type_traits>

using nt::errc;
using nt::test::error_message;

TEST_CASE("Axis converts from integers and names", "[axis]") {
    nt::Axis a = 2;
    CHECK_FALSE(a.is_name());
    CHECK(a.index() == 2);
    CHECK(a.str() == "2");
    nt::Axis b = -1L;
    CHECK(b.index() == -1);
    nt::Axis c = std::size_t{3};
    CHECK(c.index() == 3);
    nt::Axis d = "C";
    CHECK(d.is_name());
    CHECK(d.name() == nt::name("C"));
    CHECK(d.str() == "'C'");
    nt::Axis e = std::string_view("H");
    CHECK(e.name() == nt::name("H"));
    nt::Axis f = std::string("W");
    CHECK(f.name() == nt::name("W"));
    nt::Axis g = nt::name("N");
    CHECK(g.name().str() == "N");
    static_assert(!std::is_convertible_v<bool, nt::Axis>, "bool is not an axis");
    static_assert(std::is_trivially_copyable_v<nt::Axis>);
}

TEST_CASE("Axis rejects invalid names", "[axis]") {
    error_message(errc::invalid_spec, [] { nt::Axis a = "1x"; (void)a; });
    error_message(errc::invalid_spec, [] { nt::Axis a = "a b"; (void)a; });
}

TEST_CASE("axes_arg binds braced lists of mixed axes", "[axis]") {
    auto count = [](nt::axes_arg axes) { return axes.size(); };
    CHECK(count({0, "C", -1}) == 3);
    CHECK(count({}) == 0);
    std::vector<nt::Axis> v{1, 2};
    CHECK(count(v) == 2);
}
