// nt/index.hpp: ranges resolve as Python's slice.indices().
#include "core_testing.hpp"

using nt::errc;
using nt::test::error_message;

namespace {
std::vector<std::int64_t> pick(const nt::range& r, std::int64_t n) {
    const auto rr = nt::resolve_range(r, n);
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < rr.count; ++i) out.push_back(rr.start + i * rr.step);
    return out;
}
using v = std::vector<std::int64_t>;
}  // namespace

// Expected values are Python's list(range(n))[start:stop:step].
TEST_CASE("resolve_range matches Python slicing", "[index]") {
    CHECK(pick(nt::range(), 5) == v{0, 1, 2, 3, 4});
    CHECK(pick(nt::range(1, 4), 5) == v{1, 2, 3});
    CHECK(pick(nt::range(0, 5, 2), 5) == v{0, 2, 4});
    CHECK(pick(nt::range(-2), 5) == v{3, 4});
    CHECK(pick(nt::range(std::nullopt, -2), 5) == v{0, 1, 2});
    CHECK(pick(nt::range(std::nullopt, std::nullopt, -1), 5) == v{4, 3, 2, 1, 0});
    CHECK(pick(nt::range(3, std::nullopt, -2), 5) == v{3, 1});
    CHECK(pick(nt::range(std::nullopt, 1, -1), 5) == v{4, 3, 2});
    CHECK(pick(nt::range(10, -10, -3), 5) == v{4, 1});
    CHECK(pick(nt::range(-10, 10), 5) == v{0, 1, 2, 3, 4});
    CHECK(pick(nt::range(4, 1), 5).empty());
    CHECK(pick(nt::range(1, 4, -1), 5).empty());
    CHECK(pick(nt::range(), 0).empty());
    CHECK(pick(nt::range(std::nullopt, std::nullopt, -1), 0).empty());
    CHECK(pick(nt::range(INT64_MIN, INT64_MAX, INT64_MAX), 5) == v{0});
    CHECK_THAT(error_message(errc::invalid_argument, [] { (void)nt::resolve_range(nt::range(0, 1, 0), 3); }),
               Catch::Contains("step is 0"));
}

TEST_CASE("all and order", "[index]") {
    static_assert(std::is_same_v<decltype(nt::all), const nt::all_t>);
    CHECK(nt::order::c != nt::order::fortran);
}
