// Tensors as ranges: begin()/end() in row-major order for any strides, sorting a
// writable view in place, read-only views, nt::indices.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <ranges>
#include <utility>
#include <vector>

#include <range/v3/view/cartesian_product.hpp>
#include <range/v3/view/zip.hpp>

#include "nt/nt.hpp"

static_assert(std::ranges::random_access_range<nt::Tensor<float>>);
static_assert(std::ranges::random_access_range<const nt::Tensor<float>>);
static_assert(std::ranges::sized_range<nt::Tensor<int>>);
static_assert(std::random_access_iterator<nt::Tensor<double>::iterator>);
static_assert(std::random_access_iterator<nt::Tensor<double>::const_iterator>);
static_assert(std::sortable<nt::Tensor<int>::iterator>);
// Writing through a const tensor's iterator does not compile:
static_assert(!std::indirectly_writable<nt::Tensor<int>::const_iterator, int>);
static_assert(std::forward_iterator<nt::index_range::iterator>);

TEST_CASE("iteration is row-major for any strides", "[ranges]") {
    const auto t = nt::arange<int>(24).reshape({2, 3, 4});
    const std::vector<nt::Tensor<int>> views{t, t.transpose(), t.permute({2, 0, 1}), t.flip({0, 2}),
                                            t.slice(2, 1, std::nullopt, 2), t.index(nt::all, 1),
                                            t.index(0, nt::all, 0).broadcast_to({5, 3}), nt::arange<int>(0)};
    for (const auto& v : views) {
        INFO(v.spec());
        const std::vector<int> got(v.begin(), v.end());
        CHECK(got == v.to_vector());
        CHECK(std::ranges::distance(v) == v.size());
        if (v.size() > 2) CHECK(v.begin()[2] == v.to_vector()[2]);
    }
}

TEST_CASE("std::ranges::sort sorts a writable strided view in place", "[ranges]") {
    std::mt19937 rng(Catch::rngSeed());
    std::vector<int> values(30);
    for (auto& v : values) v = static_cast<int>(rng() % 100);
    auto t = nt::from_vector<int>(values, {5, 6});
    auto column = t.index(nt::all, 2);  // stride 6
    auto expected = column.to_vector();
    std::sort(expected.begin(), expected.end());
    std::ranges::sort(column);
    CHECK(column.to_vector() == expected);
    CHECK(t.at(0, 2) == expected[0]);  // written through to t
    auto flipped = t.flip();
    std::ranges::sort(flipped);
    CHECK(std::ranges::is_sorted(flipped));
    CHECK(std::ranges::is_sorted(t, std::greater<>()));
    for (int& x : t) x = 1;  // write through references
    CHECK(nt::sum(t).at() == 30);
}

TEST_CASE("a read-only view's mutable iterators throw read_only, its const ones read", "[ranges]") {
    auto b = nt::arange<int>(3).broadcast_to({2, 3});
    REQUIRE(b.is_read_only());
    CHECK_THROWS_AS(b.begin(), nt::error);
    try {
        (void)b.begin();
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::read_only);
    }
    int sum = 0;
    for (int x : std::as_const(b)) sum += x;
    CHECK(sum == 6);
    CHECK(std::accumulate(b.cbegin(), b.cend(), 0) == 6);
}

TEST_CASE("nt::indices gives the multi-indices in row-major order", "[ranges]") {
    std::vector<std::vector<std::int64_t>> got;
    for (const auto& i : nt::indices({2, 3})) got.emplace_back(i.begin(), i.end());
    REQUIRE(got.size() == 6);
    CHECK(got.front() == std::vector<std::int64_t>{0, 0});
    CHECK(got[1] == std::vector<std::int64_t>{0, 1});
    CHECK(got.back() == std::vector<std::int64_t>{1, 2});
    CHECK(std::ranges::distance(nt::indices({4, 0, 2})) == 0);
    CHECK(std::ranges::distance(nt::indices({})) == 1);  // rank 0: one empty index
    const auto t = nt::arange<int>(12).reshape({3, 4}).transpose();
    std::vector<int> by_index;
    for (const auto& i : nt::indices(t.shape())) by_index.push_back(t.at(i[0], i[1]));
    CHECK(by_index == t.to_vector());
}

TEST_CASE("range-v3 views take tensors: zip walks two in step", "[ranges]") {
    auto a = nt::arange<int>(6).reshape({2, 3});
    const auto b = nt::arange<int>(6).reshape({3, 2}).transpose();  // strided
    std::vector<int> products;
    for (auto [x, y] : ranges::views::zip(std::as_const(a), b)) products.push_back(x * y);
    CHECK(products == (a * b).to_vector());
    for (auto [x, y] : ranges::views::zip(a, b)) x = y;  // writes through a's references
    CHECK(a.to_vector() == b.to_vector());
    std::size_t pairs = 0;
    for (auto [x, y] : ranges::views::cartesian_product(std::as_const(a), b)) pairs += (x >= 0 && y >= 0);
    CHECK(pairs == 36);
}
