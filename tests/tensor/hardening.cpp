// Defects found by fuzzing and limit tests (issue 8), each pinned by the input that
// showed it. Expected values come from exact 128-bit arithmetic, not from the
// code under test.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"

using nt::errc;
using nt::test::error_message;
using Catch::Matchers::Contains;

namespace {
constexpr std::int64_t i64_min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();

// start + i * step in exact arithmetic.
template <class T>
std::vector<T> exact_arange(T start, T step, std::int64_t n) {
    __extension__ using i128 = __int128;
    std::vector<T> out;
    for (std::int64_t i = 0; i < n; ++i) out.push_back(static_cast<T>(static_cast<i128>(start) + static_cast<i128>(i) * step));
    return out;
}
}  // namespace

TEST_CASE("arange does not overflow between start and stop", "[creation][hardening]") {
    // start + i * step overflowed (UB) at i = 2 although the element is MAX - 1.
    const auto wide = nt::arange<std::int64_t>(i64_min, i64_max, i64_max);
    CHECK(wide.to_vector() == exact_arange<std::int64_t>(i64_min, i64_max, 3));
    const auto narrow = nt::arange<std::int32_t>(-2000000000, 2000000000, 1500000000);
    CHECK(narrow.to_vector() == exact_arange<std::int32_t>(-2000000000, 1500000000, 3));
    const auto down = nt::arange<std::int64_t>(i64_max, i64_min, i64_min + 1);
    CHECK(down.to_vector() == exact_arange<std::int64_t>(i64_max, i64_min + 1, 3));
}

TEST_CASE("zero-size shapes whose other sizes overflow are refused, as NumPy does", "[layout][hardening]") {
    const auto msg = error_message(errc::invalid_argument, [] { (void)nt::zeros<float>({0, i64_max, i64_max}); });
    CHECK_THAT(msg, Contains("too many elements"));
    CHECK_THAT(error_message(errc::invalid_argument, [] { (void)nt::zeros<float>({0}).reshape({0, i64_max, i64_max}); }),
               Contains("0,9223372036854775807,9223372036854775807"));
    (void)error_message(errc::invalid_argument, [] { (void)nt::zeros<float>({1}).broadcast_to({3, i64_max, 0}); });
    // Large but representable zero-size shapes stay valid, with exact strides.
    const auto big = nt::zeros<float>({0, std::int64_t{1} << 40, std::int64_t{1} << 20});
    CHECK(big.size() == 0);
    CHECK(std::vector<std::int64_t>(big.strides().begin(), big.strides().end()) ==
          std::vector<std::int64_t>{std::int64_t{1} << 60, std::int64_t{1} << 20, 1});
    CHECK(nt::zeros<float>({1}).broadcast_to({3, i64_max / 3, 0}).size() == 0);
}

TEST_CASE("wrap refuses strides whose span does not fit 64-bit offsets", "[wrap][hardening]") {
    float buf[2] = {1, 2};
    const auto msg = error_message(errc::invalid_argument, [&] {
        (void)nt::Tensor<float>::wrap(buf, {2}, {i64_min}, nullptr);
    });
    CHECK_THAT(msg, Contains("-9223372036854775808"));
    (void)error_message(errc::invalid_argument, [&] { (void)nt::Tensor<float>::wrap(buf, {2, 2}, {i64_max / 2, -i64_max / 2}, nullptr); });
    // A reversed wrap that fits is still fine.
    const auto rev = nt::Tensor<float>::wrap(buf + 1, {2}, {-1}, nullptr);
    CHECK(rev.to_vector() == std::vector<float>{2, 1});
}

TEST_CASE("set_num_threads is bounded like NT_NUM_THREADS", "[threads][hardening]") {
    const int before = nt::get_num_threads();
    const auto msg = error_message(errc::invalid_argument, [] { nt::set_num_threads(100000); });
    CHECK_THAT(msg, Contains("100000") && Contains(std::to_string(nt::max_threads)));
    CHECK(nt::get_num_threads() == before);
    nt::set_num_threads(nt::max_threads);
    CHECK(nt::get_num_threads() == nt::max_threads);
    nt::set_num_threads(before);
}

TEST_CASE("slice step INT64_MIN names the value and the fix", "[slice][hardening]") {
    const auto t = nt::arange<int>(5);
    const auto msg = error_message(errc::invalid_argument, [&] { (void)t.slice(0, std::nullopt, std::nullopt, i64_min); });
    CHECK_THAT(msg, Contains("-9223372036854775808") && Contains("-9223372036854775807"));
    // The suggested step works: one element, the last.
    CHECK(t.slice(0, std::nullopt, std::nullopt, -i64_max).to_vector() == std::vector<int>{4});
    (void)error_message(errc::invalid_argument, [&] { (void)t.index(nt::range(std::nullopt, std::nullopt, i64_min)); });
}
