// The matcher at its limits (issue 8): a union may not build an output past max_rank.
#include <catch2/catch.hpp>

#include <string>

#include "nt/match.hpp"
#include "nt_test_support.hpp"

using Catch::Matchers::Contains;

TEST_CASE("union refuses an output over max_rank", "[match][union][limits]") {
    nt::spec wide;
    for (std::size_t a = 0; a < nt::max_rank; ++a) wide.push_back({2, nt::name("A" + std::to_string(a))});
    const nt::spec extra = nt::test::unchecked_spec({3}, {"X"});
    const nt::spec specs[] = {wide, extra};
    nt::match_options options;
    options.union_axes = true;
    const auto msg = nt::test::error_message(nt::errc::invalid_spec, [&] { (void)nt::match(specs, options); });
    CHECK_THAT(msg, Contains("65") && Contains("64") && Contains("'X'"));
    // One axis fewer in the host fits exactly.
    nt::spec narrower;
    for (std::size_t a = 0; a + 1 < nt::max_rank; ++a) narrower.push_back({2, nt::name("A" + std::to_string(a))});
    const nt::spec ok[] = {narrower, extra};
    CHECK(nt::match(ok, options).output.rank() == nt::max_rank);
}
