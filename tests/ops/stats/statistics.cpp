// nt/statistics.hpp and nt/sort.hpp beyond the NumPy replay: the errors and their
// messages, names through each operation, and views (strided, broadcast, read-only)
// as inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
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
    // The fix it suggests, run: a percentage given to quantile goes to percentile.
    require_error([&] { (void)nt::quantile(t, 50.0, "W"); }, nt::errc::invalid_argument,
                  {"pass a fraction in [0, 1] (quantile), or a percentage in [0, 100] to percentile"});
    CHECK(nt::percentile(t, 50.0, "W").to_vector() == nt::quantile(t, 0.5, "W").to_vector());
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

// A row already in order is returned in one pass, and one in reverse order reversed;
// anything else is sorted. Rows of 3000 (beyond one 1024-pair block of the order test),
// with repeated values; the expectation is std::sort of the same values, compared as
// float so that f16 compares too. The almost-ordered rows break the order in the last
// pair, in the middle of the second block, and in the first pair.
TEST_CASE("statistics: sort and unique of rows in order, reversed and almost in order", "[stats][sort]") {
    auto check = [](auto zero) {
        using T = decltype(zero);
        const std::int64_t n = 3000;
        std::vector<T> ordered(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i)
            ordered[static_cast<std::size_t>(i)] = static_cast<T>(static_cast<float>(i * 200 / n));
        const std::vector<T> constant(static_cast<std::size_t>(n), static_cast<T>(7.0f));
        std::vector<std::vector<T>> rows{ordered, {ordered.rbegin(), ordered.rend()}, constant};
        for (const std::size_t swap_at : {std::size_t{2998}, std::size_t{1500}, std::size_t{0}}) {
            std::vector<T> almost = ordered;
            almost[swap_at] = static_cast<T>(250.0f);  // above every other value
            rows.push_back(almost);
            std::reverse(almost.begin(), almost.end());
            rows.push_back(almost);
        }
        for (std::size_t k = 0; k < rows.size(); ++k) {
            INFO(nt::to_string(nt::dtype_of<T>) << " row " << k);
            std::vector<float> expected(rows[k].begin(), rows[k].end());
            std::sort(expected.begin(), expected.end());
            const auto sorted = nt::sort(nt::from_vector<T>(rows[k], {n}));
            const std::vector<T> got = sorted.to_vector();
            REQUIRE(std::vector<float>(got.begin(), got.end()) == expected);
            expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
            const std::vector<T> distinct = nt::unique(nt::from_vector<T>(rows[k], {n})).to_vector();
            REQUIRE(std::vector<float>(distinct.begin(), distinct.end()) == expected);
        }
    };
    check(float{});
    check(double{});
    check(std::int16_t{});
    check(std::uint8_t{});
    check(nt::half{});
    // NaN goes last, after the numbers in order; infinities at the ends stay there.
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> with_nan{-inf, 1, 2, std::nanf(""), 3, 4, inf};
    const std::vector<float> got = nt::sort(nt::from_vector<float>(with_nan, {7})).to_vector();
    CHECK(std::vector<float>(got.begin(), got.begin() + 6) == std::vector<float>{-inf, 1, 2, 3, 4, inf});
    CHECK(std::isnan(got[6]));
}
