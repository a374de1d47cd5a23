// nt/layout.hpp: layout queries, transforms and the no-copy reshape rule.
#include "core_testing.hpp"

#include <array>

using namespace core_testing;
using nt::errc;
using nt::layout;
using nt::test::error_message;

namespace {
layout make(std::initializer_list<std::int64_t> sizes, std::initializer_list<std::int64_t> strides,
            std::int64_t offset = 0) {
    return layout(std::span<const std::int64_t>(sizes.begin(), sizes.size()),
                  std::span<const std::int64_t>(strides.begin(), strides.size()), offset);
}
shape_t vec(std::span<const std::int64_t> s) { return shape_t(s.begin(), s.end()); }
std::optional<shape_t> reshape(const layout& l, std::initializer_list<std::int64_t> sizes, bool fortran = false) {
    auto r = nt::reshape_strides(l, std::span<const std::int64_t>(sizes.begin(), sizes.size()), fortran);
    if (!r) return std::nullopt;
    return vec(r->span());
}
}  // namespace

TEST_CASE("contiguous layouts", "[layout]") {
    const std::array<std::int64_t, 3> s{2, 3, 4};
    auto c = layout::c_contiguous(s);
    CHECK(vec(c.strides()) == shape_t{12, 4, 1});
    CHECK(c.is_contiguous());
    CHECK_FALSE(c.is_f_contiguous());
    CHECK(c.element_count() == 24);
    auto f = layout::f_contiguous(s);
    CHECK(vec(f.strides()) == shape_t{1, 2, 6});
    CHECK(f.is_f_contiguous());
    CHECK_FALSE(f.is_contiguous());
    CHECK(layout().rank() == 0);
    CHECK(layout().element_count() == 1);
    CHECK(layout().is_contiguous());
}

TEST_CASE("contiguity ignores size-1 axes and zero-size layouts (NumPy's relaxed rule)", "[layout]") {
    CHECK(make({2, 1, 3}, {3, 99, 1}).is_contiguous());
    CHECK(make({1, 1}, {5, 7}).is_contiguous());
    CHECK(make({1, 1}, {5, 7}).is_f_contiguous());
    CHECK(make({0, 3}, {-7, 2}).is_contiguous());
    CHECK_FALSE(make({2, 3}, {1, 2}).is_contiguous());
    CHECK_FALSE(make({2, 3}, {0, 1}).is_contiguous());
}

TEST_CASE("required_span with negative and zero strides", "[layout]") {
    auto l = make({3, 4}, {-4, 1}, 8);  // rows reversed
    auto b = l.required_span();
    CHECK_FALSE(b.empty);
    CHECK(b.min == 0);
    CHECK(b.max == 11);
    CHECK(l.required_span_size() == 12);
    CHECK(make({5}, {0}, 3).required_span().max == 3);
    CHECK(make({0, 5}, {5, 1}).required_span().empty);
    CHECK(make({0, 5}, {5, 1}).required_span_size() == 0);
    CHECK(l.offset_of(std::array<std::int64_t, 2>{2, 3}) == 3);
}

TEST_CASE("has_self_overlap", "[layout]") {
    CHECK_FALSE(make({2, 3}, {3, 1}).has_self_overlap());
    CHECK_FALSE(make({2, 3}, {1, 2}).has_self_overlap());
    CHECK_FALSE(make({4, 2}, {-2, 1}).has_self_overlap());
    CHECK(make({2, 3}, {0, 1}).has_self_overlap());
    CHECK(make({3, 2}, {1, 1}).has_self_overlap());
    CHECK_FALSE(make({1, 3}, {0, 1}).has_self_overlap());  // a size-1 axis never aliases
    CHECK_FALSE(make({0, 3}, {0, 0}).has_self_overlap());
    CHECK_FALSE(make({3, 2}, {2, 1}).has_self_overlap());   // disjoint unfold windows
    CHECK(make({3, 3}, {1, 1}).has_self_overlap());         // overlapping unfold windows
}

TEST_CASE("transforms", "[layout]") {
    auto l = make({2, 3, 4}, {12, 4, 1}, 5);
    auto p = l.permuted(std::array<std::int64_t, 3>{2, 0, 1});
    CHECK(vec(p.sizes()) == shape_t{4, 2, 3});
    CHECK(vec(p.strides()) == shape_t{1, 12, 4});
    CHECK(p.offset() == 5);
    auto s = l.sliced(1, 2, 2, -1);
    CHECK(vec(s.sizes()) == shape_t{2, 2, 4});
    CHECK(s.offset() == 13);
    CHECK(vec(s.strides()) == shape_t{12, -4, 1});
    auto i = l.indexed(0, 1);
    CHECK(vec(i.sizes()) == shape_t{3, 4});
    CHECK(i.offset() == 17);
    auto ins = l.inserted(3, 1, 1);
    CHECK(vec(ins.sizes()) == shape_t{2, 3, 4, 1});
    CHECK(l.removed(0).rank() == 2);
    CHECK(l.with_offset(0).offset() == 0);
    CHECK(l == make({2, 3, 4}, {12, 4, 1}, 5));
}

TEST_CASE("layout constructor checks", "[layout]") {
    error_message(errc::invalid_argument, [] { (void)make({2, 3}, {1}); });
    error_message(errc::invalid_argument, [] { (void)make({-2}, {1}); });
    CHECK(nt::checked_element_count(std::array<std::int64_t, 2>{1LL << 40, 1LL << 40}) == std::nullopt);
    CHECK(nt::checked_element_count(std::array<std::int64_t, 2>{1LL << 40, 0}) == 0);
    CHECK(nt::checked_element_count(std::array<std::int64_t, 1>{-1}) == std::nullopt);
    CHECK(vec(nt::c_strides(std::array<std::int64_t, 3>{2, 0, 3}).span()) == shape_t{3, 3, 1});
}

// Cases checked against NumPy: np.ndarray((shape), strides).reshape(new).strides.
TEST_CASE("reshape_strides follows NumPy's _attempt_nocopy_reshape", "[layout][reshape]") {
    // contiguous
    CHECK(reshape(make({2, 3, 4}, {12, 4, 1}), {6, 4}) == shape_t{4, 1});
    // a column slice: (3,4) of (3,5): merging rows is impossible, splitting columns is fine
    auto cols = make({3, 4}, {5, 1});
    CHECK(reshape(cols, {12}) == std::nullopt);
    CHECK(reshape(cols, {3, 2, 2}) == shape_t{5, 2, 1});
    CHECK(reshape(cols, {3, 4, 1}) == shape_t{5, 1, 1});
    // a transpose
    auto t = make({4, 3}, {1, 4});
    CHECK(reshape(t, {12}) == std::nullopt);
    CHECK(reshape(t, {12}, true) == shape_t{1});
    CHECK(reshape(t, {2, 2, 3}) == shape_t{2, 1, 4});
    CHECK(reshape(t, {2, 2, 3}, true) == shape_t{1, 2, 4});
    CHECK(reshape(t, {4, 1, 3}) == shape_t{1, 12, 4});
    // every other element
    auto step = make({6}, {2});
    CHECK(reshape(step, {2, 3}) == shape_t{6, 2});
    CHECK(reshape(step, {3, 2}, true) == shape_t{2, 6});
    // broadcast axes
    auto b = make({4, 3}, {0, 1});
    CHECK(reshape(b, {12}) == std::nullopt);
    CHECK(reshape(b, {2, 2, 3}) == shape_t{0, 0, 1});
    // size-1 axes with odd strides are ignored
    CHECK(reshape(make({2, 1, 3}, {3, 100, 1}), {6}) == shape_t{1});
    // zero size: always a view
    CHECK(reshape(make({0, 3}, {1, 7}), {3, 0}) == shape_t{1, 1});
    // negative strides
    auto rev = make({3, 4}, {-4, 1}, 8);
    CHECK(reshape(rev, {3, 2, 2}) == shape_t{-4, 2, 1});
    CHECK(reshape(rev, {12}) == std::nullopt);
}
