// Reductions on SIMD vectors (src/engine/simd/simd_reduce.cpp and the row kernels): min, max,
// any, all and float sums of contiguous runs; min, max, any, all and float sums over
// outer axes; and argmax's tiles over outer axes. On every instruction set this CPU
// runs, a contiguous input gives bit for bit what the same values give through a
// strided view, which the engine folds element by element: the same value, the same
// NaN and the same signed zero (a sum: any NaN).
#include <nt_test_simd.hpp>
#include <nt_test_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "simd.hpp"

namespace {

template <class T>
bool same_bits(T x, T y) {
    return std::memcmp(&x, &y, sizeof(T)) == 0;
}
// For sums: a NaN's sign and payload come from the order of the additions (inf + -inf,
// NaN + NaN), which the compiler's vectorised loops choose; only min and max promise
// which NaN.
template <class T>
bool same_value(T x, T y) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(x) && std::isnan(y)) return true;
    return same_bits(x, y);
}

// n values of T: spread over the type's range, with its limits, and for floats some
// infinities, zeros of both signs and (when `nan`) NaNs.
template <class T>
std::vector<T> values(std::mt19937& rng, std::int64_t n, bool nan) {
    std::vector<T> v(static_cast<std::size_t>(n));
    for (T& x : v) {
        const std::uint32_t r = rng() % 64;
        if constexpr (std::is_floating_point_v<T>) {
            std::uniform_real_distribution<T> across(T(-1e6), T(1e6));
            x = r == 0 && nan ? std::numeric_limits<T>::quiet_NaN()
                : r == 1      ? (rng() % 2 ? 1 : -1) * std::numeric_limits<T>::infinity()
                : r == 2      ? T(-0.0)
                : r == 3      ? T(0.0)
                              : across(rng);
        } else {
            std::uniform_int_distribution<std::int64_t> across(std::numeric_limits<T>::min(),
                                                                std::numeric_limits<T>::max());
            x = r == 0   ? std::numeric_limits<T>::min()
                : r == 1 ? std::numeric_limits<T>::max()
                         : static_cast<T>(across(rng));
        }
    }
    return v;
}

// The same values twice: a contiguous tensor, and a strided view of them (every second
// element of a buffer twice as long), which the engine folds element by element.
template <class T>
struct twins {
    nt::Tensor<T> contiguous, strided;
};
template <class T>
twins<T> make_twins(const std::vector<T>& v, std::vector<std::int64_t> shape) {
    auto c = nt::from_vector(v, shape);
    std::vector<std::int64_t> wide = shape;
    wide.back() *= 2;
    auto buffer = nt::zeros<T>(wide);
    auto s = buffer.slice(-1, 0, std::nullopt, 2);
    s.assign(c);
    return {c, s};
}

template <class T>
void check_same(const nt::Tensor<T>& got, const nt::Tensor<T>& want, const std::string& what, bool any_nan = false) {
    REQUIRE(got.size() == want.size());
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < got.size(); ++i)
        if (!(any_nan ? same_value(got.data()[i], want.data()[i]) : same_bits(got.data()[i], want.data()[i])) &&
            ++wrong <= 3)
            UNSCOPED_INFO(what << ": element " << i << " is " << +got.data()[i] << ", want " << +want.data()[i]);
    CHECK(wrong == 0);
}

template <class T>
void check_type(std::mt19937& rng, const std::string& target) {
    const std::string type(nt::to_string(nt::dtype_of<T>));
    // Whole reductions: one run per block of the engine, several blocks for the longest.
    for (const std::int64_t n : {1, 7, 8, 31, 63, 64, 65, 100, 127, 128, 129, 257, 1000, 4099, 70001}) {
        for (const bool nan : {false, true}) {
            const auto t = make_twins(values<T>(rng, n, nan), {n});
            const std::string what = target + " " + type + " n=" + std::to_string(n);
            check_same(nt::max(t.contiguous), nt::max(t.strided), "max " + what);
            check_same(nt::min(t.contiguous), nt::min(t.strided), "min " + what);
            if constexpr (std::is_floating_point_v<T>)  // pairwise on vectors: the same additions
                check_same(nt::sum(t.contiguous), nt::sum(t.strided), "sum " + what, true);
        }
    }
    // A zero extreme, whose sign the fold in order decides.
    if constexpr (std::is_floating_point_v<T>) {
        std::vector<T> v(300);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = i % 3 == 0 ? T(-0.0) : i % 3 == 1 ? T(0.0) : T(-1.0 - static_cast<double>(i));
        const auto t = make_twins(v, {300});
        check_same(nt::max(t.contiguous), nt::max(t.strided), "max of zeros " + target + " " + type);
        for (T& x : v) x = -x;
        const auto u = make_twins(v, {300});
        check_same(nt::min(u.contiguous), nt::min(u.strided), "min of zeros " + target + " " + type);
    }
    // Runs along the last axis, and outer axes of rows as wide as a tile and wider.
    // (3,4200): rows wider than the outer traversal's SIMD tile (4096).
    const std::vector<std::vector<std::int64_t>> shapes{{3, 200}, {2, 5, 70}, {9, 300}, {33, 257}, {17, 40}, {3, 4200}};
    for (const auto& shape : shapes) {
        const std::int64_t n = shape.size() == 2 ? shape[0] * shape[1] : shape[0] * shape[1] * shape[2];
        const auto t = make_twins(values<T>(rng, n, true), shape);
        const std::string what = target + " " + type + " " + nt::to_string(t.contiguous.spec());
        for (const std::int64_t axis : {std::int64_t{0}, std::int64_t(shape.size()) - 1}) {
            const std::string along = " axis " + std::to_string(axis) + " " + what;
            check_same(nt::max(t.contiguous, axis), nt::max(t.strided, axis), "max" + along);
            check_same(nt::min(t.contiguous, axis), nt::min(t.strided, axis), "min" + along);
            check_same(nt::argmax(t.contiguous, axis), nt::argmax(t.strided, axis), "argmax" + along);
            if constexpr (std::is_floating_point_v<T>)
                check_same(nt::sum(t.contiguous, axis), nt::sum(t.strided, axis), "sum" + along, true);
        }
        if (shape.size() == 3) {  // two outer axes that merge into one
            check_same(nt::max(t.contiguous, {0, 1}), nt::max(t.strided, {0, 1}), "max axes 0,1 " + what);
        }
    }
}

}  // namespace

TEST_CASE("min, max and float sums on SIMD vectors give the element loop's bits on every target",
          "[ops][reduce][simd]") {
    std::mt19937 rng(20261126);
    nt::test::for_each_simd_target([&](const std::string& target) {
        check_type<float>(rng, target);
        check_type<double>(rng, target);
        check_type<std::int32_t>(rng, target);
        check_type<std::uint32_t>(rng, target);
        check_type<std::int16_t>(rng, target);
        check_type<std::uint16_t>(rng, target);
        check_type<std::int8_t>(rng, target);
        check_type<std::uint8_t>(rng, target);
    });
}

TEST_CASE("argmax over outer axes of a tensor with no kept elements is empty", "[ops][reduce]") {
    // A size-0 kept axis last: its tiles once divided by zero (SIGFPE).
    const auto t = nt::zeros<std::uint16_t>({4, 1, 2, 4, 0});
    CHECK(nt::argmin(t, {0, 1}).size() == 0);
    CHECK(nt::argmax(t, 0).size() == 0);
    CHECK(nt::to_string(nt::argmax(t, {0, 1}).spec()) == "(2,4,0)");
}

TEST_CASE("any, all and sums of bool runs see every element, on every target", "[ops][reduce][simd]") {
    nt::test::for_each_simd_target([](const std::string& target) {
        for (const std::int64_t n : {64, 65, 100, 257}) {
            for (std::int64_t at = -1; at < n; ++at) {
                std::vector<bool> one(static_cast<std::size_t>(n), false), all_but(static_cast<std::size_t>(n), true);
                if (at >= 0) {
                    one[static_cast<std::size_t>(at)] = true;
                    all_but[static_cast<std::size_t>(at)] = false;
                }
                const std::uint8_t zero = 0;
                auto a = nt::from_vector(std::vector<std::uint8_t>(one.begin(), one.end()), {n}) != zero;
                auto b = nt::from_vector(std::vector<std::uint8_t>(all_but.begin(), all_but.end()), {n}) != zero;
                INFO(target << " n=" << n << " at " << at);
                CHECK(nt::any(a).at() == (at >= 0));
                CHECK(nt::all(b).at() == (at < 0));
                CHECK_FALSE(nt::all(a).at());
                CHECK(nt::any(b).at());
            }
        }
        // Runs of several reduction blocks (2^15 elements; any and all skip the blocks
        // after one that decides), a last block shorter than a vector, the deciding byte
        // at blocks' edges; on one thread and on two (each folds a range of blocks).
        const std::int64_t long_n = 2 * 65536 + 10;
        for (const int threads : {1, 2}) {
            nt::set_num_threads(threads);
            for (const std::int64_t at : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{65535}, std::int64_t{65536},
                                          std::int64_t{131071}, std::int64_t{131072}, long_n - 1}) {
                auto a = nt::zeros<bool>({long_n});
                auto b = nt::ones<bool>({long_n});
                if (at >= 0) {
                    a(at) = true;
                    b(at) = false;
                }
                INFO(target << " threads " << threads << " at " << at);
                CHECK(nt::any(a).at() == (at >= 0));
                CHECK(nt::all(b).at() == (at < 0));
                CHECK(nt::any(b).at() == (long_n > 1));
                CHECK_FALSE(nt::all(a).at());
            }
        }
        nt::set_num_threads(1);
        // Output elements of several blocks each: a decided one does not decide the next.
        auto rows = nt::zeros<bool>({3, 70000});
        rows(0, 0) = true;
        rows(2, 69999) = true;
        const auto any_rows = nt::any(rows, 1), all_rows = nt::all(!rows, 1);
        CHECK((std::vector<bool>{any_rows.at(0), any_rows.at(1), any_rows.at(2)}) ==
              std::vector<bool>{true, false, true});
        CHECK((std::vector<bool>{all_rows.at(0), all_rows.at(1), all_rows.at(2)}) ==
              std::vector<bool>{false, true, false});
        nt::set_num_threads(0);
        // Sums of bool count the true bytes; count_nonzero of floats counts NaN, not -0.0.
        std::mt19937 rng(5);
        for (const std::int64_t n : {64, 100, 1000, 70001}) {
            std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
            for (auto& b : bytes) b = rng() % 3 == 0;
            const auto mask = nt::from_vector(bytes, {n}) != std::uint8_t(0);
            const auto want = static_cast<std::int64_t>(std::count(bytes.begin(), bytes.end(), 1));
            INFO(target << " n=" << n);
            CHECK(nt::sum(mask).at() == want);
            CHECK(nt::count_nonzero(mask).at() == want);
            const auto f = values<float>(rng, n, true);
            const auto nonzero =
                static_cast<std::int64_t>(std::count_if(f.begin(), f.end(), [](float x) { return x != 0; }));
            CHECK(nt::count_nonzero(nt::from_vector(f, {n})).at() == nonzero);
        }
        // Over outer axes: column j of a (rows, 300) mask has its one true value in row j % rows.
        for (const std::int64_t rows : {2, 9, 20}) {
            auto mask = nt::zeros<bool>({rows, 300});
            for (std::int64_t j = 0; j < 300; j += 2) mask(j % rows, j) = true;
            const auto any = nt::any(mask, 0), all = nt::all(!mask, 0);
            for (std::int64_t j = 0; j < 300; ++j) {
                INFO(target << " rows=" << rows << " column " << j);
                CHECK(any.at(j) == (j % 2 == 0));
                CHECK(all.at(j) == (j % 2 == 1));
            }
        }
    });
}
