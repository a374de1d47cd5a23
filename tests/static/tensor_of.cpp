// nt::tensor_of (<nt/static.hpp>): construction and its checks, creation, the
// run-time handle, element-wise operations, reductions and views, each compared
// with the same run-time operation on the same data, and gradients.
#include <catch2/catch.hpp>

#include <string>
#include <type_traits>
#include <vector>

#include <nt/nt.hpp>
#include <nt/static.hpp>

namespace {

using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
using lbl_t = nt::tensor_of<float, "?", "H", "W">;
using hw_t = nt::tensor_of<float, "H", "W">;

template <class T>
std::vector<T> values(const nt::Tensor<T>& t) {
    return t.to_vector();
}

std::string spec_of(const nt::detail::tensor_base& b) { return nt::to_string(b.spec()); }

// Distinct values so that a wrong pairing shows.
nt::Tensor<float> ramp(std::vector<std::int64_t> shape, std::vector<nt::name> names, float scale = 1.f) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>(i % 97) - 13.f;
    return nt::from_vector<float>(v, shape, names);
}

}  // namespace

TEST_CASE("tensor_of is built from a run-time tensor after checking rank and names", "[static]") {
    const nt::Tensor<float> t = ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"});
    const img_t s(t);
    CHECK(s.data() == t.data());  // no copy
    CHECK(&s.tensor() == static_cast<const nt::Tensor<float>*>(&s));
    const nt::Tensor<float>& handle = s;  // implicit use where a Tensor is accepted
    CHECK(nt::sum(handle).at() == nt::sum(t).at());
    CHECK(nt::sum(s, {"H"}).shape().size() == 3);  // run-time functions take it

    try {
        img_t bad(ramp({2, 3, 4, 5}, {{}, "CLASS", "H", "W"}));
        FAIL("no error");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::name_mismatch);
        const std::string m = e.message();
        CHECK_THAT(m, Catch::Contains("CLASS") && Catch::Contains("CHANNEL"));
    }
    try {
        img_t bad(ramp({2, 4, 5}, {{}, "H", "W"}));
        FAIL("no error");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::rank_mismatch);
        CHECK_THAT(e.message(), Catch::Contains("(2,4,5 | ?,H,W)") && Catch::Contains("CHANNEL"));
    }
    // An unnamed run-time axis fits only "?".
    CHECK_THROWS_AS(hw_t(ramp({4, 5}, {{}, "W"})), nt::error);
    CHECK_NOTHROW(lbl_t(ramp({2, 4, 5}, {{}, "H", "W"})));
}

TEST_CASE("tensor_of creation functions carry the type's names", "[static]") {
    const auto z = img_t::zeros({2, 3, 4, 5});
    CHECK(spec_of(z.base()) == "(2,3,4,5 | ?,CHANNEL,H,W)");
    CHECK(values(nt::Tensor<float>(img_t::ones({1, 1, 1, 2}))) == std::vector<float>{1.f, 1.f});
    CHECK(values(nt::Tensor<float>(hw_t::full({1, 2}, 7.f))) == std::vector<float>{7.f, 7.f});
    const auto f = hw_t::from({1, 2, 3, 4, 5, 6}, {2, 3});
    CHECK(f.at(1, 2) == 6.f);
    CHECK_THROWS_AS(hw_t::zeros({2, 3, 4}), nt::error);
    const img_t empty;
    CHECK(empty.rank() == 4);
}

TEST_CASE("element-wise operations on tensor_of equal the run-time ones", "[static]") {
    const auto img = img_t(ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"}));
    const auto lbl = lbl_t(ramp({2, 4, 5}, {{}, "H", "W"}, 0.5f));
    const nt::Tensor<float>& ri = img;
    const nt::Tensor<float>& rl = lbl;

    auto sum = img + lbl;
    static_assert(std::is_same_v<decltype(sum), img_t>);
    CHECK(spec_of(sum.base()) == spec_of((ri + rl).base()));
    CHECK(values<float>(sum) == values(ri + rl));
    CHECK(values<float>(lbl - img) == values(rl - ri));
    CHECK(spec_of((lbl - img).base()) == "(2,3,4,5 | ?,CHANNEL,H,W)");
    CHECK(values<float>(img * lbl) == values(ri * rl));
    CHECK(values<float>(img / (lbl + 100.f)) == values(ri / (rl + 100.f)));
    CHECK(values<float>(nt::minimum(img, lbl)) == values(nt::minimum(ri, rl)));
    CHECK(values<float>(nt::maximum(lbl, img)) == values(nt::maximum(rl, ri)));
    CHECK(values<float>(nt::pow(img, lbl * 0.f + 2.f)) == values(nt::pow(ri, rl * 0.f + 2.f)));
    auto less = img < lbl;
    static_assert(std::is_same_v<decltype(less), nt::tensor_of<bool, "?", "CHANNEL", "H", "W">>);
    CHECK(values<bool>(less) == values(ri < rl));
    CHECK(values<bool>(img == lbl) == values(ri == rl));
    CHECK(values<float>(2.f * img - 1.f) == values(2.f * ri - 1.f));
    CHECK(values<float>(-img) == values(-ri));
    CHECK(values<float>(nt::exp(lbl * 0.01f)) == values(nt::exp(rl * 0.01f)));
    CHECK(values<float>(nt::abs(img)) == values(nt::abs(ri)));
    auto w = nt::where(img > lbl, img, lbl);
    static_assert(std::is_same_v<decltype(w), img_t>);
    CHECK(values<float>(w) == values(nt::where(ri > rl, ri, rl)));

    // Names in another order, a permuted (non-contiguous) view, broadcasting by 1.
    const auto wh = nt::tensor_of<float, "W", "H">(ramp({5, 4}, {"W", "H"}, 2.f));
    CHECK(values<float>(img + wh) == values(ri + nt::Tensor<float>(wh)));
    const auto one = nt::tensor_of<float, "CHANNEL", "?", "?">(ramp({3, 1, 4}, {"CHANNEL", {}, {}}));
    const auto host = nt::tensor_of<float, "?", "?", "CHANNEL">(ramp({6, 4, 3}, {{}, {}, "CHANNEL"}));
    CHECK(values<float>(host * one) == values(nt::Tensor<float>(host) * nt::Tensor<float>(one)));
    const auto big = hw_t(ramp({64, 64}, {"H", "W"}));
    const auto row = nt::tensor_of<float, "W">(ramp({64}, {"W"}));
    CHECK(values<float>(big + row) == values(nt::Tensor<float>(big) + nt::Tensor<float>(row)));
    CHECK(values<double>(img + nt::tensor_of<double, "H", "W">(nt::ones<double>({4, 5}, {"H", "W"}))) ==
          values(ri + nt::ones<double>({4, 5}, {"H", "W"})));

    // Sizes stay run-time values: incompatible ones throw as at run time.
    const auto wrong = lbl_t(ramp({2, 3, 5}, {{}, "H", "W"}));
    try {
        (void)(img + wrong);
        FAIL("no error");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::incompatible_sizes);
        CHECK_THAT(e.message(), Catch::Contains("'H'") && Catch::Contains("(2,3,5 | ?,H,W)"));
    }
    // With a run-time operand, the run-time matcher decides and the result is a Tensor.
    auto mixed = img + rl;
    static_assert(std::is_same_v<decltype(mixed), nt::Tensor<float>>);
}

TEST_CASE("reductions by name in the type drop the named axes", "[static]") {
    const auto img = img_t(ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"}));
    const nt::Tensor<float>& ri = img;
    auto s = nt::sum<"H", "W">(img);
    static_assert(std::is_same_v<decltype(s), nt::tensor_of<float, "?", "CHANNEL">>);
    CHECK(values<float>(s) == values(nt::sum(ri, {"H", "W"})));
    auto m = nt::mean<"CHANNEL">(img);
    static_assert(std::is_same_v<decltype(m), lbl_t>);
    CHECK(values<float>(m) == values(nt::mean(ri, {"CHANNEL"})));
    CHECK(values<float>(nt::max<"W">(img)) == values(nt::max(ri, {"W"})));
    CHECK(values<float>(nt::min<"H", "CHANNEL">(img)) == values(nt::min(ri, {"H", "CHANNEL"})));
    CHECK(values<float>(nt::var<"W">(img)) == values(nt::var(ri, {"W"})));
    CHECK(values<float>(nt::stddev<"W">(img, 1)) == values(nt::stddev(ri, {"W"}, 1)));
    auto all = nt::sum(img);
    static_assert(std::is_same_v<decltype(all), nt::tensor_of<float>>);
    CHECK(all.at() == nt::sum(ri).at());
}

TEST_CASE("views by name in the type", "[static]") {
    const auto img = img_t(ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"}));
    const nt::Tensor<float>& ri = img;
    auto a = img.align_to<"H", "W", "CHANNEL", "?">();
    static_assert(std::is_same_v<decltype(a), nt::tensor_of<float, "H", "W", "CHANNEL", "?">>);
    CHECK(a.data() == img.data());
    CHECK(values<float>(a) == values(ri.permute({2, 3, 1, 0})));
    auto r = img.rename<"N", "C", "Y", "X">();
    CHECK(spec_of(r.base()) == "(2,3,4,5 | N,C,Y,X)");
    auto c = img.index<"CHANNEL">(1);
    static_assert(std::is_same_v<decltype(c), lbl_t>);
    CHECK(values<float>(c) == values(ri.index(nt::all, 1)));
    auto sl = img.slice<"H">(1, 4, 2);
    static_assert(std::is_same_v<decltype(sl), img_t>);
    CHECK(values<float>(sl) == values(ri.slice("H", 1, 4, 2)));
    CHECK(values<float>(img.slice<"W">(std::nullopt, std::nullopt, -1)) == values(ri.slice(3, std::nullopt, std::nullopt, -1)));
}

TEST_CASE("gradients flow through tensor_of as through Tensor", "[static][autograd]") {
    auto w = hw_t(ramp({3, 4}, {"H", "W"}, 0.25f));
    w.with_grad();
    const auto b = nt::tensor_of<float, "W">(ramp({4}, {"W"}, 0.5f));
    auto loss = nt::sum(nt::square(w * b + b));
    loss.backward();
    // The same program on run-time tensors.
    nt::Tensor<float> rw = ramp({3, 4}, {"H", "W"}, 0.25f);
    rw.with_grad();
    const nt::Tensor<float> rb = ramp({4}, {"W"}, 0.5f);
    auto rloss = nt::sum(nt::square(rw * rb + rb));
    rloss.backward();
    CHECK(loss.at() == rloss.at());
    CHECK(values(w.grad()) == values(rw.grad()));
}

TEST_CASE("every binary operator and function on tensor_of equals the run-time one", "[static]") {
    // Small positive integers: every operation (shifts, floor division, bitwise) is defined.
    std::vector<std::int32_t> va(2 * 3 * 4), vb(3 * 4);
    for (std::size_t i = 0; i < va.size(); ++i) va[i] = static_cast<std::int32_t>(1 + i % 7);
    for (std::size_t i = 0; i < vb.size(); ++i) vb[i] = static_cast<std::int32_t>(1 + (i * 5) % 3);
    const auto ra = nt::from_vector<std::int32_t>(va, {2, 3, 4}, {"N", "H", "W"});
    const auto rb = nt::from_vector<std::int32_t>(vb, {4, 3}, {"W", "H"});  // paired by name, permuted
    const nt::tensor_of<std::int32_t, "N", "H", "W"> a(ra);
    const nt::tensor_of<std::int32_t, "W", "H"> b(rb);
#define NT_CHECK_STATIC_BINARY(fn, op, text)                                     \
    {                                                                            \
        INFO(text);                                                              \
        const auto s = [](const auto& x, const auto& y) { return fn(x, y); };   \
        auto typed = s(a, b);                                                    \
        auto plain = s(ra, rb);                                                  \
        CHECK(spec_of(typed.base()) == spec_of(plain.base()));                   \
        CHECK(typed.to_vector() == plain.to_vector());                           \
    }
    using namespace nt;  // the operators' spelling in the list: operator+, add, ...
    NT_FOR_EACH_BINARY_FUNCTION(NT_CHECK_STATIC_BINARY)
#undef NT_CHECK_STATIC_BINARY
}

TEST_CASE("in-place forms on tensor_of keep the left type and equal the run-time ones", "[static]") {
    auto img = img_t(ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"}));
    const auto wh = nt::tensor_of<float, "W", "H">(ramp({5, 4}, {"W", "H"}, 0.5f));
    nt::Tensor<float> ri = ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"});
    const nt::Tensor<float> rwh = ramp({5, 4}, {"W", "H"}, 0.5f);
    auto& same = (img += wh);
    static_assert(std::is_same_v<decltype(same), img_t&>);
    CHECK(&same == &img);
    ri += rwh;
    CHECK(values<float>(img) == values(ri));
    img -= img;  // an operand that is the destination itself
    ri -= ri;
    CHECK(values<float>(img) == values(ri));
    static_assert(std::is_same_v<decltype(img *= 2.f), img_t&>);
    img += 1.5f;
    img *= wh;
    ri += 1.5f;
    ri *= rwh;
    CHECK(values<float>(img) == values(ri));
    // Sizes are still checked at run time, as by the run-time form.
    auto small = img_t(ramp({2, 3, 1, 5}, {{}, "CHANNEL", "H", "W"}));
    CHECK_THROWS_AS(small += img, nt::error);
}

TEST_CASE("clip on tensor_of keeps or solves the names", "[static]") {
    const auto img = img_t(ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"}));
    const nt::Tensor<float>& ri = img;
    auto c = nt::clip(img, -5.f, 20.f);
    static_assert(std::is_same_v<decltype(c), img_t>);
    CHECK(values<float>(c) == values(nt::clip(ri, -5.f, 20.f)));
    auto widened = nt::clip(img, -5.0, 20.0);  // double scalar bounds stay weak: float
    static_assert(std::is_same_v<decltype(widened), img_t>);
    const auto lo = nt::tensor_of<float, "W", "H">(ramp({5, 4}, {"W", "H"}, -0.5f));
    const auto hi = nt::tensor_of<float, "H", "W">(ramp({4, 5}, {"H", "W"}, 0.5f));
    auto b = nt::clip(img, lo, hi);
    static_assert(std::is_same_v<decltype(b), img_t>);
    CHECK(values<float>(b) == values(nt::clip(ri, nt::Tensor<float>(lo), nt::Tensor<float>(hi))));
}

TEST_CASE("the per-thread alignment by maps follows changing sizes and layouts", "[static]") {
    // One plan (names in another order, no row plan), operands whose sizes, strides
    // and broadcasting change from call to call: each result equals the run-time one.
    using rc_t = nt::tensor_of<float, "R", "C">;
    using cr_t = nt::tensor_of<float, "C", "R">;
    const std::vector<std::array<std::int64_t, 4>> cases = {
        {4, 8, 8, 4}, {4, 8, 8, 4}, {3, 5, 5, 3}, {3, 5, 1, 3}, {3, 5, 5, 1}, {1, 5, 5, 3}, {3, 5, 5, 3}};
    for (const auto& c : cases) {
        const nt::Tensor<float> ra = ramp({c[0], c[1]}, {"R", "C"});
        const nt::Tensor<float> rb = ramp({c[2], c[3]}, {"C", "R"}, 0.5f);
        const rc_t a(ra);
        const cr_t b(rb);
        INFO(spec_of(a.base()) << " + " << spec_of(b.base()));
        CHECK(spec_of((a + b).base()) == spec_of((ra + rb).base()));
        CHECK(values<float>(a + b) == values(ra + rb));
        // The same sizes through a strided view of a bigger tensor.
        const nt::Tensor<float> big = ramp({c[0], 2 * c[1]}, {"R", "C"}, 2.f);
        const rc_t view(big.slice("C", 0, std::nullopt, 2));
        CHECK(values<float>(view * b) == values(nt::Tensor<float>(view) * rb));
    }
    // where by maps, after the binary operations above.
    const auto img = img_t(ramp({2, 3, 4, 5}, {{}, "CHANNEL", "H", "W"}));
    const auto wh = nt::tensor_of<float, "W", "H">(ramp({5, 4}, {"W", "H"}, 2.f));
    const nt::Tensor<float>& ri = img;
    const nt::Tensor<float> rwh = wh;
    CHECK(values<float>(nt::where(img > wh, wh, img)) == values(nt::where(ri > rwh, rwh, ri)));
}
