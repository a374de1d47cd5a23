// nt/rearrange.hpp: names, views versus copies, the plan cache, and the errors with
// what their messages name. Values against NumPy are in numpy_structure_ops.cpp.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"
#include "structure_testing.hpp"

namespace {

using nt::test::require_error;
using nt::test::shape_of;

}  // namespace

TEST_CASE("rearrange names its result from the right side", "[rearrange]") {
    const auto x = nt::zeros<float>({2, 3, 4, 6}, {"N", "C", "H", "W"});
    const auto s2d = nt::rearrange(x, "N C (H ph) (W pw) -> N (C ph pw) H W", {{"ph", 2}, {"pw", 2}});
    CHECK(shape_of(s2d) == std::vector<std::int64_t>{2, 12, 2, 3});
    CHECK(nt::names_text(s2d.names()) == "N, ?, H, W");
    const auto named = nt::rearrange(x, "N C (H ph) (W pw) -> N (C ph pw):K H W", {{"ph", 2}, {"pw", 2}});
    CHECK(nt::names_text(named.names()) == "N, K, H, W");
    const auto nhwc = nt::rearrange(x, "N C H W -> N H W C");
    CHECK(nhwc.shares_storage(x));  // a permutation is a view
    CHECK(nt::names_text(nhwc.names()) == "N, H, W, C");
    const auto moved = nt::rearrange(x, "... W -> W ...");
    CHECK(nt::names_text(moved.names()) == "W, N, C, H");
    const auto pooled = nt::reduce(x, "N C (H 2) (W 2) -> N C H W", nt::reduce_op::max);
    CHECK(shape_of(pooled) == std::vector<std::int64_t>{2, 3, 2, 3});
    const auto rgb = nt::repeat(nt::zeros<float>({4, 5}, {"H", "W"}), "H W -> H W C", {{"C", 3}});
    CHECK(nt::names_text(rgb.names()) == "H, W, C");
    CHECK(!rgb.is_read_only());
}

TEST_CASE("a pattern is parsed once per pattern and spec", "[rearrange]") {
    const auto x = nt::zeros<float>({2, 8, 8});
    (void)nt::rearrange(x, "B (H a) W -> B H (a W)", {{"a", 2}});
    const auto before = nt::detail::pattern_cache_counters();
    for (int k = 0; k < 10; ++k) (void)nt::rearrange(x, "B (H a) W -> B H (a W)", {{"a", 2}});
    const auto after = nt::detail::pattern_cache_counters();
    CHECK(after.parses == before.parses);
    CHECK(after.hits == before.hits + 10);
    (void)nt::rearrange(nt::zeros<float>({2, 4, 8}), "B (H a) W -> B H (a W)", {{"a", 2}});
    CHECK(nt::detail::pattern_cache_counters().parses == after.parses + 1);  // another shape
}

TEST_CASE("pattern errors name the axis or identifier and the fix", "[rearrange][errors]") {
    const auto x = nt::zeros<float>({2, 3, 7, 8}, {"N", "C", "H", "W"});
    SECTION("an unknown identifier on the right") {
        require_error([&] { (void)nt::rearrange(x, "N C H W -> N C H X"); }, nt::errc::invalid_argument,
                      {"'X'", "not on the left", "N, C, H, W"});
    }
    SECTION("an identifier of the left missing on the right") {
        require_error([&] { (void)nt::rearrange(x, "N C H W -> N C H"); }, nt::errc::invalid_argument,
                      {"'W'", "missing on the right", "nt::reduce"});
    }
    SECTION("a duplicated identifier") {
        require_error([&] { (void)nt::rearrange(x.rename({}), "N C H H -> N C H"); }, nt::errc::invalid_argument,
                      {"'H'", "twice", "left side"});
        require_error([&] { (void)nt::rearrange(x, "N C H W -> N C H W W"); }, nt::errc::invalid_argument,
                      {"'W'", "twice", "right side"});
    }
    SECTION("sizes that do not divide") {
        require_error([&] { (void)nt::rearrange(x, "N C (H ph) W -> N C H ph W", {{"ph", 2}}); },
                      nt::errc::invalid_argument, {"axis 2 'H'", "size 7", "(H ph)", "not a multiple of 2", "pad or crop"});
    }
    SECTION("a named axis the pattern calls otherwise") {
        require_error([&] { (void)nt::rearrange(x, "N K H W -> N H W K"); }, nt::errc::name_mismatch,
                      {"axis 1 'C'", "'K'", "tensor's names"});
    }
    SECTION("rank and syntax") {
        require_error([&] { (void)nt::rearrange(x, "N C H -> N C H"); }, nt::errc::invalid_argument,
                      {"3 axes", "rank 4", "\"...\""});
        require_error([&] { (void)nt::rearrange(x, "N C (H W -> N C H W"); }, nt::errc::invalid_argument,
                      {"'(' without ')'"});
        require_error([&] { (void)nt::rearrange(x, "N C H W"); }, nt::errc::invalid_argument, {"\"->\""});
    }
    SECTION("two unknown sizes in one group") {
        require_error([&] { (void)nt::rearrange(x, "N C H (W a b) -> N C H W a b"); }, nt::errc::invalid_argument,
                      {"'W' and 'a'", "give one of them in sizes"});
    }
}
