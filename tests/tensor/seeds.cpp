// Every structural example of the seeds, with its values:
//   000: Numerics.NET "Manipulating Tensors" (broadcasting, reshaping, moving axes)
//   002: maidenx "Transform Operations" (view, squeeze, unsqueeze, transpose, slice,
//        unfold, broadcast, broadcast_like, broadcast_left, reshape)
// Where a seed has a typo the arithmetic wins, noted at the case.
#include "core_testing.hpp"

using namespace core_testing;
using nt::errc;
using nt::test::error_message;
using i64s = std::vector<std::int64_t>;
using floats = std::vector<float>;

namespace {
// Element-wise sum of two tensors broadcast together (the seed's `x + y`; the
// arithmetic itself belongs to the element-wise layer, this is only the structure).
nt::Tensor<int> add(const nt::Tensor<int>& x, const nt::Tensor<int>& y) {
    const nt::plan p = nt::match({x.spec(), y.spec()});
    auto xb = x.broadcast_to(p.output), yb = y.broadcast_to(p.output);
    auto xs = xb.to_vector(), ys = yb.to_vector();
    for (std::size_t i = 0; i < xs.size(); ++i) xs[i] += ys[i];
    return nt::from_vector(xs, p.output.sizes());
}
}  // namespace

// --- seed 000 --------------------------------------------------------------------------

TEST_CASE("seed 000: broadcasting a single tensor (3) -> (2,3)", "[seeds]") {
    auto t = nt::tensor<int>({1, 2, 3});
    auto one = t.unsqueeze(0);  // first step: (1,3)
    CHECK(ints(one) == i64s{1, 2, 3});
    CHECK(shape(one) == shape_t{1, 3});
    auto b = t.broadcast_to({2, 3});
    CHECK(shape(b) == shape_t{2, 3});
    CHECK(ints(b) == i64s{1, 2, 3, 1, 2, 3});
}

TEST_CASE("seed 000: broadcast conditions", "[seeds]") {
    CHECK(shape(nt::zeros<int>({1, 3}).broadcast_to({4, 3})) == shape_t{4, 3});
    CHECK(shape(nt::zeros<int>({4, 1}).broadcast_to({4, 3})) == shape_t{4, 3});
    for (auto s : {shape_t{1, 4}, shape_t{3, 1}, shape_t{5, 3}})
        error_message(errc::incompatible_sizes, [&] { (void)nt::zeros<int>(s).broadcast_to({4, 3}); });
    // (3) is not broadcastable to (3,1): dimensions align from the end
    error_message(errc::incompatible_sizes, [] { (void)nt::zeros<int>({3}).broadcast_to({3, 1}); });
}

TEST_CASE("seed 000: compatible shapes", "[seeds]") {
    CHECK(nt::match({nt::spec{3, 1}, nt::spec{1, 4}}).output == nt::spec{3, 4});
    error_message(errc::incompatible_sizes, [] { (void)nt::match({nt::spec{3, 1}, nt::spec{4, 1}}); });
    const nt::plan p = nt::match({nt::spec{1, 3, 4}, nt::spec{3, 1, 4}, nt::spec{3, 1}});
    CHECK(p.output == nt::spec{3, 3, 4});
    auto c = nt::arange<int>(3).reshape({3, 1});
    CHECK(shape(c.broadcast_to(p.output)) == shape_t{3, 3, 4});
    error_message(errc::incompatible_sizes,
                  [] { (void)nt::match({nt::spec{1, 3, 4}, nt::spec{3, 1, 4}, nt::spec{3, 2, 4}}); });
}

TEST_CASE("seed 000: a[.., 1] = scalar(99)", "[seeds]") {
    auto a = nt::tensor<int>({{1, 2, 3}, {4, 5, 6}});
    a.index(nt::all, 1).assign(nt::scalar(99));
    CHECK(ints(a) == i64s{1, 99, 3, 4, 99, 6});
}

TEST_CASE("seed 000: x (2,1) + y (3) -> (2,3)", "[seeds]") {
    auto x = nt::tensor<int>({{10}, {20}});
    auto y = nt::tensor<int>({1, 2, 3});
    auto z = add(x, y);
    CHECK(shape(z) == shape_t{2, 3});
    // The seed prints [[11,12,13],[21,22,32]]; 20 + 3 is 23.
    CHECK(ints(z) == i64s{11, 12, 13, 21, 22, 23});
}

TEST_CASE("seed 000: reshaping", "[seeds]") {
    // The seed prints a as 0..12 (13 values); CreateRange(12) is 0..11.
    auto a = nt::arange<int>(12);
    CHECK(ints(a) == i64s{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    auto b = a.reshape({3, 4});
    CHECK(ints(b) == i64s{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    CHECK(b.shares_storage(a));  // a view
    auto c = a.reshape({4, 3});
    CHECK(shape(c) == shape_t{4, 3});
    CHECK(c.at(2, 2) == 8);  // the seed's "7.  8" is a typo for "7, 8"
    CHECK(c.shares_storage(a));
    auto d = a.reshape({-1, 6});
    CHECK(shape(d) == shape_t{2, 6});
    CHECK(ints(d.index(1)) == i64s{6, 7, 8, 9, 10, 11});
    auto e = b.index(nt::all, nt::range(0, 3));
    CHECK(ints(e) == i64s{0, 1, 2, 4, 5, 6, 8, 9, 10});
    auto f = e.reshape({-1});
    CHECK(ints(f) == i64s{0, 1, 2, 4, 5, 6, 8, 9, 10});
    CHECK_FALSE(f.shares_storage(a));  // e is not contiguous: a copy
    // The seed labels this result "f ->"; it is g.
    auto g = e.reshape({-1}, nt::order::fortran);
    CHECK(ints(g) == i64s{0, 4, 8, 1, 5, 9, 2, 6, 10});
    // (2,3) reshapes to (3,2) or (6), not (2,2)
    auto two_three = nt::zeros<int>({2, 3});
    CHECK(shape(two_three.reshape({3, 2})) == shape_t{3, 2});
    CHECK(shape(two_three.reshape({6})) == shape_t{6});
    error_message(errc::invalid_argument, [&] { (void)two_three.reshape({2, 2}); });
}

TEST_CASE("seed 000: transposing and moving axes", "[seeds]") {
    auto a = nt::arange<int>(3 * 4 * 5).reshape({3, 4, 5});
    auto b = a.move_axes({0, -1}, {-1, 0});
    CHECK(shape(b) == shape_t{5, 4, 3});
    CHECK(b.at(4, 3, 2) == a.at(2, 3, 4));
    CHECK(shape(a.move_axis(0, -1)) == shape_t{4, 5, 3});
    auto c = a.swap_axes(0, 2);
    CHECK(shape(c) == shape_t{5, 4, 3});
    CHECK(ints(c) == ints(b));
    // The seed's prose says "a 2x3x4 tensor" but its code transposes a (3,4,5).
    auto d = a.transpose();
    CHECK(shape(d) == shape_t{3, 5, 4});
    CHECK(ints(d) == ints(a.swap_axes(-1, -2)));
}

// --- seed 002 --------------------------------------------------------------------------

TEST_CASE("seed 002: view", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3, 4, 5, 6}).reshape({2, 3});
    auto b = a.view({6});
    CHECK(b.to_vector() == floats{1, 2, 3, 4, 5, 6});
    auto c = a.view({3, 2});
    CHECK(shape(c) == shape_t{3, 2});
    CHECK(c.to_vector() == floats{1, 2, 3, 4, 5, 6});
    CHECK(c.at(2, 1) == 6.f);
    CHECK(b.shares_storage(a));
    CHECK(a.view({-1}).size() == 6);
}

TEST_CASE("seed 002: squeeze, squeeze_all, unsqueeze", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3}).reshape({1, 3});
    CHECK(a.squeeze(0).to_vector() == floats{1, 2, 3});
    CHECK(shape(a.squeeze(0)) == shape_t{3});
    auto b = nt::from_vector<float>({1, 2, 3}).reshape({1, 3, 1});
    CHECK(shape(b.squeeze_all()) == shape_t{3});
    auto v = nt::from_vector<float>({1, 2, 3}).reshape({3});
    CHECK(shape(v.unsqueeze(0)) == shape_t{1, 3});
    CHECK(shape(v.unsqueeze(1)) == shape_t{3, 1});
    CHECK(v.unsqueeze(1).at(2, 0) == 3.f);
}

TEST_CASE("seed 002: transpose(0, 1)", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3, 4, 5, 6}).reshape({2, 3});
    auto b = a.transpose(0, 1);
    CHECK(shape(b) == shape_t{3, 2});
    CHECK(b.to_vector() == floats{1, 4, 2, 5, 3, 6});
}

TEST_CASE("seed 002: slice", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3, 4, 5}).reshape({5});
    CHECK(a.slice(0, 1, 4, 1).to_vector() == floats{2, 3, 4});
    CHECK(a.slice(0, 0, 5, 2).to_vector() == floats{1, 3, 5});
}

TEST_CASE("seed 002: unfold", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3, 4, 5}).reshape({5});
    auto b = a.unfold(0, 2, 1);
    CHECK(shape(b) == shape_t{4, 2});
    CHECK(b.to_vector() == floats{1, 2, 2, 3, 3, 4, 4, 5});
    CHECK(b.shares_storage(a));
}

TEST_CASE("seed 002: broadcast, broadcast_like, broadcast_left", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3}).reshape({3});
    CHECK(a.broadcast_to({2, 3}).to_vector() == floats{1, 2, 3, 1, 2, 3});
    auto templ = nt::from_vector<float>({0, 0, 0, 0, 0, 0}).reshape({2, 3});
    auto b = a.broadcast_like(templ);
    CHECK(shape(b) == shape_t{2, 3});
    CHECK(b.to_vector() == floats{1, 2, 3, 1, 2, 3});
    auto c = a.broadcast_left({2, 2});
    CHECK(shape(c) == shape_t{2, 2, 3});
    CHECK(c.to_vector() == floats{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
}

TEST_CASE("seed 002: reshape", "[seeds]") {
    auto a = nt::from_vector<float>({1, 2, 3, 4, 5, 6}).reshape({2, 3});
    auto b = a.reshape({3, 2});
    CHECK(b.to_vector() == floats{1, 2, 3, 4, 5, 6});
    CHECK(b.at(1, 0) == 3.f);
    CHECK(a.reshape({-1}).to_vector() == floats{1, 2, 3, 4, 5, 6});
    // "unlike view, reshape may copy data if the tensor is not contiguous"
    CHECK_FALSE(a.transpose().reshape({-1}).shares_storage(a));
    CHECK(a.transpose().reshape({-1}).to_vector() == floats{1, 4, 2, 5, 3, 6});
}

TEST_CASE("seed 002: broadcasting rules", "[seeds]") {
    CHECK(nt::match({nt::spec{3}, nt::spec{2, 3}}).output == nt::spec{2, 3});
    CHECK(nt::match({nt::spec{2, 1}, nt::spec{2, 3}}).output == nt::spec{2, 3});
    CHECK(nt::match({nt::spec{3, 1}, nt::spec{1, 4}}).output == nt::spec{3, 4});
    auto col = nt::from_vector<float>({1, 2, 3}).reshape({3, 1});
    CHECK(col.broadcast_to({3, 4}).at(2, 3) == 3.f);
}
