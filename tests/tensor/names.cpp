// nt/names.hpp: the names layer.
#include "core_testing.hpp"

#include <array>

using nt::errc;
using nt::test::error_message;

namespace {
const nt::name_list nchw{"N", "C", "H", "W"};
}

TEST_CASE("resolve_axis by index and by name", "[names]") {
    CHECK(nt::resolve_axis(0, nchw, "op") == 0);
    CHECK(nt::resolve_axis(-1, nchw, "op") == 3);
    CHECK(nt::resolve_axis(-4, nchw, "op") == 0);
    CHECK(nt::resolve_axis("H", nchw, "op") == 2);
    CHECK_THAT(error_message(errc::axis_out_of_range, [] { (void)nt::resolve_axis(4, nchw, "myop"); }),
               Catch::Contains("myop") && Catch::Contains("axis 4") && Catch::Contains("-4..3"));
    CHECK_THAT(error_message(errc::axis_out_of_range, [] { (void)nt::resolve_axis("X", nchw, "myop"); }),
               Catch::Contains("'X'") && Catch::Contains("N, C, H, W"));
    const nt::name_list unnamed(2, nt::name{});
    CHECK_THAT(error_message(errc::axis_out_of_range, [&] { (void)nt::resolve_axis("X", unnamed, "op"); }),
               Catch::Contains("no named axes"));
    error_message(errc::axis_out_of_range, [&] { (void)nt::resolve_axis("?", unnamed, "op"); });
    const std::array<std::int64_t, 4> sizes{2, 3, 4, 5};
    CHECK_THAT(error_message(errc::axis_out_of_range, [&] { (void)nt::resolve_axis(9, nchw, "op", sizes); }),
               Catch::Contains("(2,3,4,5 | N,C,H,W)"));
}

TEST_CASE("resolve_insert_position refers to the result", "[names]") {
    CHECK(nt::resolve_insert_position(-1, 2, "op") == 1);
    CHECK(nt::resolve_insert_position(0, 1, "op") == 0);
    error_message(errc::axis_out_of_range, [] { (void)nt::resolve_insert_position(2, 2, "op"); });
    error_message(errc::axis_out_of_range, [] { (void)nt::resolve_insert_position(-3, 2, "op"); });
}

TEST_CASE("unique names and names_for_rank", "[names]") {
    nt::check_unique_names(nchw, "op");
    const nt::name_list two_unnamed{nt::name{}, nt::name{}};
    nt::check_unique_names(two_unnamed, "op");  // unnamed axes may repeat
    const nt::name_list dup{"A", "B", "A"};
    CHECK_THAT(error_message(errc::duplicate_name, [&] { nt::check_unique_names(dup, "op"); }),
               Catch::Contains("'A'") && Catch::Contains("axes 0 and 2"));
    CHECK(nt::names_for_rank({}, 3, "op") == nt::name_list(3, nt::name{}));
    error_message(errc::invalid_spec, [] { (void)nt::names_for_rank(nchw, 3, "op"); });
    CHECK(nt::find_name(nchw, "W") == 3);
    CHECK(nt::find_name(nchw, nt::name{}) == -1);
    CHECK(nt::names_text(nchw) == "N, C, H, W");
}

TEST_CASE("reshape_names: common prefix, then common suffix", "[names]") {
    const std::array<std::int64_t, 4> from{2, 3, 4, 5};
    auto run = [&](std::initializer_list<std::int64_t> to) {
        std::vector<std::string> out;
        for (nt::name n : nt::reshape_names(from, nchw, std::span<const std::int64_t>(to.begin(), to.size())))
            out.emplace_back(n.str());
        return out;
    };
    CHECK(run({2, 3, 20}) == std::vector<std::string>{"N", "C", "?"});
    CHECK(run({6, 4, 5}) == std::vector<std::string>{"?", "H", "W"});
    CHECK(run({2, 60}) == std::vector<std::string>{"N", "?"});
    CHECK(run({2, 3, 4, 5, 1}) == std::vector<std::string>{"N", "C", "H", "W", "?"});
    CHECK(run({1, 2, 3, 4, 5}) == std::vector<std::string>{"?", "N", "C", "H", "W"});
    CHECK(run({120}) == std::vector<std::string>{"?"});
}
