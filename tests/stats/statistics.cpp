// nt/statistics.hpp and nt/sort.hpp beyond the NumPy replay: the errors and their
// messages, names through each operation, and views (strided, broadcast, read-only)
// as inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"

using nt::test::require_error;

TEST_CASE("statistics: bad arguments are nt::errors naming the op and the fix", "[stats][errors]") {
    const auto t = nt::arange<float>(24).reshape({2, 3, 4}, {"N", "C", "W"});
    require_error([&] { (void)nt::quantile(t, 1.5, "W"); }, nt::errc::invalid_argument,
                  {"quantile", "1.5", "outside [0, 1]", "Fix"});
    require_error([&] { (void)nt::percentile(t, -1.0, "W"); }, nt::errc::invalid_argument, {"percentile", "Fix"});
    require_error([&] { (void)nt::quantile(t, std::nan(""), "W"); }, nt::errc::invalid_argument, {"quantile"});
    require_error([&] { (void)nt::var(t, "H"); }, nt::errc::axis_out_of_range, {"'H'"});
    require_error([&] { (void)nt::median(t, {"W", 2}); }, nt::errc::invalid_argument, {"median", "twice"});
    require_error([&] { (void)nt::cumsum(t, 3); }, nt::errc::axis_out_of_range, {"cumsum"});
    require_error([&] { (void)nt::sort(t, "X"); }, nt::errc::axis_out_of_range, {"sort", "'X'"});
    require_error([&] { (void)nt::topk(t, 5, "W"); }, nt::errc::invalid_argument,
                  {"topk", "k = 5", "size 4", "(2,3,4 | N,C,W)", "Fix"});
    require_error([&] { (void)nt::topk(t, -1, "W"); }, nt::errc::invalid_argument, {"topk"});
    const auto empty = nt::zeros<float>({2, 0}, {"N", "W"});
    require_error([&] { (void)nt::nanmin(empty, "W"); }, nt::errc::invalid_argument, {"zero elements"});
    require_error([&] { (void)nt::quantile(empty, 0.5, "W"); }, nt::errc::invalid_argument,
                  {"quantile", "zero elements", "Fix"});
    // What is defined on empty reductions is NumPy's value, not an error.
    CHECK(std::isnan(nt::median(empty, "W").at(0)));
    CHECK(nt::nansum(empty, "W").at(1) == 0.0f);
    CHECK(nt::count_nonzero(empty).at() == 0);
}

TEST_CASE("statistics: names follow the reductions' rule, sorting keeps them", "[stats][names]") {
    const auto t = nt::arange<double>(24).reshape({2, 3, 4}, {"N", "C", "W"});
    CHECK(nt::stddev(t, {"N", "W"}).spec() == nt::spec({3}, {"C"}));
    CHECK(nt::var(t, "C", 1, true).spec() == nt::spec({2, 1, 4}, {"N", "C", "W"}));
    CHECK(nt::median(t, {0, "W"}).spec() == nt::spec({3}, {"C"}));
    CHECK(nt::quantile(t, 0.5, "N", true).spec() == nt::spec({1, 3, 4}, {"N", "C", "W"}));
    CHECK(nt::cumsum(t, "C").spec() == t.spec());
    CHECK(nt::sort(t, "N").spec() == t.spec());
    auto [values, indices] = nt::topk(t, 2, "W");
    CHECK(values.spec() == nt::spec({2, 3, 2}, {"N", "C", "W"}));
    CHECK(indices.spec() == values.spec());
    CHECK(nt::unique(t).spec() == nt::spec({24}));
    CHECK(nt::count_nonzero(t).rank() == 0);
}

TEST_CASE("statistics take any view: strided, broadcast and read-only inputs", "[stats][views]") {
    const auto base = nt::arange<int>(12).reshape({3, 4}, {"H", "W"});
    const auto flipped = base.flip("W").transpose();  // negative and swapped strides
    CHECK(nt::sort(flipped, "W").to_vector() == nt::sort(flipped.contiguous(), "W").to_vector());
    CHECK(nt::cumsum(flipped, 0).to_vector() == nt::cumsum(flipped.contiguous(), 0).to_vector());
    const auto broadcast = nt::arange<int>(4).broadcast_to({3, 4});
    REQUIRE(broadcast.is_read_only());
    CHECK(nt::median(broadcast, 0).to_vector() == std::vector<double>{0, 1, 2, 3});
    CHECK(nt::unique_counts(broadcast).counts.to_vector() == std::vector<std::int64_t>{3, 3, 3, 3});
    // The input is never written: a sort copies.
    const auto before = flipped.to_vector();
    (void)nt::sort(flipped, 0);
    CHECK(flipped.to_vector() == before);
}

// Rows longer than the NaN scan's blocks (1024 elements): one NaN anywhere makes the
// median and the quantiles NaN, and a row without one selects in the element type. The
// expectation is the middle of a std::sort of the same values, an independent route.
TEST_CASE("statistics: median and quantile of long rows see a NaN in any block", "[stats][median]") {
    const std::int64_t n = 5001;
    std::vector<float> values(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = std::sin(0.37f * float(i)) * 100.0f;
    std::vector<float> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const auto row = nt::from_vector<float>(values, {n});
    CHECK(nt::median(row, 0).at() == double(sorted[n / 2]));
    CHECK(nt::quantile(row, 1.0, 0).at() == double(sorted.back()));
    CHECK(nt::quantile(row, 0.0, 0).at() == double(sorted.front()));
    for (const std::int64_t at : {std::int64_t{0}, std::int64_t{1023}, std::int64_t{1024}, std::int64_t{3000}, n - 1}) {
        INFO("NaN at " << at);
        auto with_nan = row.clone();
        with_nan(at) = std::nanf("");
        CHECK(std::isnan(nt::median(with_nan, 0).at()));
        CHECK(std::isnan(nt::quantile(with_nan, 0.25, 0).at()));
        CHECK(std::isnan(nt::median(with_nan.astype<double>(), 0).at()));
    }
}
