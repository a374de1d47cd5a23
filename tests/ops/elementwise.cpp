// Element-wise operations: matching by names, promotion, in-place forms, errors.
#include <array>

#include <nt_test_support.hpp>

#include "nt/nt.hpp"

using nt::test::error_message;

namespace {
template <class T>
std::vector<std::int64_t> shape_of(const nt::Tensor<T>& t) {
    return {t.shape().begin(), t.shape().end()};
}
template <class T>
std::string names_of(const nt::Tensor<T>& t) {
    return nt::names_string(t.spec());
}
}  // namespace

TEST_CASE("an image batch plus labels pairs H and W by name", "[ops]") {
    // (2,3,4,5 | ?,CHANNEL,H,W) + (2,4,5 | ?,H,W): NumPy would pair the labels' batch
    // with CHANNEL; ntensor inserts a singleton at CHANNEL instead.
    auto img = nt::arange<float>(2 * 3 * 4 * 5).reshape({2, 3, 4, 5}).rename({"?", "CHANNEL", "H", "W"});
    auto lbl = nt::arange<float>(2 * 4 * 5).reshape({2, 4, 5}).rename({"?", "H", "W"});
    auto sum = img + lbl;
    CHECK(shape_of(sum) == std::vector<std::int64_t>{2, 3, 4, 5});
    CHECK(names_of(sum) == "? CHANNEL H W");
    for (std::int64_t n = 0; n < 2; ++n)
        for (std::int64_t c = 0; c < 3; ++c)
            for (std::int64_t h = 0; h < 4; ++h)
                for (std::int64_t w = 0; w < 5; ++w)
                    REQUIRE(sum.at(n, c, h, w) == img.at(n, c, h, w) + lbl.at(n, h, w));
    // The order of the operands does not matter: the host is the larger one.
    auto other = lbl + img;
    CHECK(names_of(other) == "? CHANNEL H W");
    CHECK(other.to_vector() == sum.to_vector());
}

TEST_CASE("named axes in a different order are permuted", "[ops]") {
    auto hw = nt::arange<std::int32_t>(6).reshape({2, 3}).rename({"H", "W"});
    auto wh = nt::arange<std::int32_t>(6).reshape({3, 2}).rename({"W", "H"});
    auto sum = hw + wh;
    CHECK(names_of(sum) == "H W");
    for (std::int64_t h = 0; h < 2; ++h)
        for (std::int64_t w = 0; w < 3; ++w) CHECK(sum.at(h, w) == hw.at(h, w) + wh.at(w, h));
}

TEST_CASE("mismatched operands throw with both specs and the operation", "[ops][errors]") {
    auto a = nt::zeros<float>({64, 32, 8, 5});
    auto b = nt::zeros<float>({64, 32, 8});
    const auto msg = error_message(nt::errc::incompatible_sizes, [&] { (void)(a + b); });
    CHECK_THAT(msg, Catch::Contains("operator+") && Catch::Contains("(64,32,8,5)") && Catch::Contains("(64,32,8)"));
    auto prob = nt::zeros<float>({2, 3, 4, 4}, {"?", "CLASS", "H", "W"});
    auto pred = nt::zeros<float>({2, 1, 4, 4, 4}, {"?", "S", "T", "H", "W"});
    const auto msg2 = error_message(nt::errc::no_counterpart, [&] { (void)(prob * pred); });
    CHECK_THAT(msg2, Catch::Contains("operator*") && Catch::Contains("CLASS"));
}

TEST_CASE("type promotion follows NumPy", "[ops][promotion]") {
    STATIC_REQUIRE(std::is_same_v<nt::promote_t<std::int32_t, float>, double>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_t<std::uint8_t, float>, float>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_t<bool, std::uint8_t>, std::uint8_t>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_t<std::uint8_t, std::int32_t>, std::int32_t>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_t<std::int64_t, float>, double>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_scalar_t<std::uint8_t, int>, std::uint8_t>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_scalar_t<std::int32_t, double>, double>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_scalar_t<float, double>, float>);
    STATIC_REQUIRE(std::is_same_v<nt::promote_scalar_t<bool, int>, std::int64_t>);
    auto i = nt::arange<std::int32_t>(4);
    auto half = i / 2;  // true division: double
    STATIC_REQUIRE(std::is_same_v<decltype(half), nt::Tensor<double>>);
    CHECK(half.to_vector() == std::vector<double>{0, 0.5, 1, 1.5});
    auto u = nt::full<std::uint8_t>({3}, 250);
    CHECK((u + 10).to_vector() == std::vector<std::uint8_t>{4, 4, 4});  // wraps like NumPy's uint8
}

TEST_CASE("integer edge cases are defined, never UB", "[ops]") {
    auto a = nt::tensor<std::int32_t>({-7, 7, std::numeric_limits<std::int32_t>::min(), 5});
    auto b = nt::tensor<std::int32_t>({3, -3, -1, 0});
    CHECK((a % b).to_vector() == std::vector<std::int32_t>{2, -2, 0, 0});  // floor modulo; x % 0 == 0
    CHECK((a + nt::full<std::int32_t>({4}, std::numeric_limits<std::int32_t>::max())).at(2) == -1);  // wraps
    CHECK(nt::pow(nt::tensor<std::int64_t>({2, 3, -1, 2}), nt::tensor<std::int64_t>({10, 0, -3, -1})).to_vector() ==
          std::vector<std::int64_t>{1024, 1, -1, 0});
    auto f = nt::tensor<double>({std::nan(""), 1e300, -1e300, 2.9});
    CHECK(nt::astype<std::int32_t>(f).to_vector() ==
          std::vector<std::int32_t>{0, std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(), 2});
}

TEST_CASE("in-place forms write into the destination and check it", "[ops][in_place]") {
    SECTION("a broadcast source") {
        auto a = nt::zeros<float>({2, 3}, {"N", "C"});
        a += nt::tensor<float>({1, 2, 3}).rename({"C"});
        CHECK(a.to_vector() == std::vector<float>{1, 2, 3, 1, 2, 3});
        a *= 2;
        CHECK(a.to_vector() == std::vector<float>{2, 4, 6, 2, 4, 6});
    }
    SECTION("a source that would grow the destination is an error") {
        auto a = nt::zeros<float>({3});
        auto b = nt::zeros<float>({2, 3});
        error_message(nt::errc::no_counterpart, [&] { a += b; });
    }
    SECTION("a read-only destination throws read_only") {
        auto row = nt::arange<float>(3);
        auto wide = row.broadcast_to({4, 3});
        REQUIRE(wide.is_read_only());
        const auto msg = error_message(nt::errc::read_only, [&] { wide += 1.0f; });
        CHECK_THAT(msg, Catch::Contains("read-only") && Catch::Contains("write into clone() or contiguous() of it instead"));
        // The fix it suggests, run: both copies take the write.
        auto copied = wide.clone();
        copied += 1.0f;
        auto packed = wide.contiguous();
        packed += 1.0f;
        CHECK(copied.to_vector() == std::vector<float>{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
        CHECK(packed.to_vector() == copied.to_vector());
        error_message(nt::errc::read_only, [&] { wide -= row; });
        CHECK(row.to_vector() == std::vector<float>{0, 1, 2});
    }
    SECTION("an overlapping source behaves as if copied first") {
        auto a = nt::arange<std::int64_t>(9).reshape({3, 3});
        auto expected = a.clone();
        expected += a.transpose().clone();
        a += a.transpose();  // reads elements it has already written, unless copied first
        CHECK(a.to_vector() == expected.to_vector());
        auto v = nt::arange<std::int32_t>(6);
        auto want = nt::tensor<std::int32_t>({5, 5, 5, 5, 5, 5});
        v += v.slice(0, std::nullopt, std::nullopt, -1);  // v + reversed(v)
        CHECK(v.to_vector() == want.to_vector());
    }
    SECTION("division in place keeps the destination's type") {
        auto a = nt::tensor<std::int32_t>({7, 8, 9});
        a /= 2;
        CHECK(a.to_vector() == std::vector<std::int32_t>{3, 4, 4});  // 3.5 -> 3, 4, 4.5 -> 4
    }
}

TEST_CASE("unary math, comparisons, logical ops and where", "[ops]") {
    auto x = nt::tensor<float>({-1.0f, 0.0f, 2.0f});
    CHECK(nt::abs(x).to_vector() == std::vector<float>{1, 0, 2});
    CHECK((-x).to_vector() == std::vector<float>{1, -0.0f, -2});
    CHECK(nt::sigmoid(x).at(1) == 0.5f);
    auto positive = x > 0.0f;
    STATIC_REQUIRE(std::is_same_v<decltype(positive), nt::Tensor<bool>>);
    CHECK(positive.to_vector() == std::vector<bool>{false, false, true});
    CHECK((!positive).to_vector() == std::vector<bool>{true, true, false});
    CHECK(nt::where(positive, x, nt::scalar(10.0f)).to_vector() == std::vector<float>{10, 10, 2});
    CHECK(nt::maximum(x, 0.0f).to_vector() == std::vector<float>{0, 0, 2});
    auto nan = nt::tensor<double>({std::nan(""), 1.0});
    CHECK(std::isnan(nt::minimum(nan, 0.0).at(0)));
}

TEST_CASE("bool tensors refuse -, % and neg with a clear error", "[ops][errors]") {
    auto t = nt::tensor<bool>({true, false});
    const auto msg = error_message(nt::errc::type_mismatch, [&] { (void)(t - t); });
    CHECK_THAT(msg, Catch::Contains("astype"));
    CHECK((t + t).to_vector() == std::vector<bool>{true, false});  // logical or, as NumPy
}

TEST_CASE("broadcast_tensors returns the aligned views", "[ops]") {
    auto img = nt::zeros<float>({2, 3, 4, 5}, {"?", "CHANNEL", "H", "W"});
    auto lbl = nt::arange<std::int32_t>(40).reshape({2, 4, 5}).rename({"?", "H", "W"});
    auto [x, y] = nt::broadcast_tensors(img, lbl);
    CHECK(shape_of(y) == std::vector<std::int64_t>{2, 3, 4, 5});
    CHECK(names_of(y) == "? CHANNEL H W");
    CHECK(y.shares_storage(lbl));
    CHECK(y.is_read_only());
    CHECK(y.at(1, 2, 3, 4) == lbl.at(1, 3, 4));
    CHECK(x.shares_storage(img));
}

TEST_CASE("operations give the same results on 1 and on all threads", "[ops][threads]") {
    // Split across threads (threshold lowered for the test, restored below).
    nt::detail::set_parallel_threshold(1024);
    auto a = nt::arange<float>(300 * 400).reshape({300, 400}) * 0.001f;
    auto b = nt::arange<float>(400).rename({"W"}) * 0.5f;
    auto named = a.rename({"H", "W"});
    nt::set_num_threads(1);
    auto one = (named + b).to_vector();
    auto sum_one = nt::sum(a).to_vector();
    auto rows_one = nt::sum(a, 1).to_vector();
    nt::set_num_threads(0);
    CHECK((named + b).to_vector() == one);
    CHECK(nt::sum(a).to_vector() == sum_one);  // bitwise: fixed blocking
    CHECK(nt::sum(a, 1).to_vector() == rows_one);
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
}

TEST_CASE("out= forms write into a preallocated result", "[ops][out]") {
    auto img = nt::arange<float>(24).reshape({2, 3, 4}).rename({"N", "C", "W"});
    auto row = nt::arange<float>(4).rename({"W"});
    auto out = nt::empty<float>(img.spec());
    const float* before = out.data();
    nt::add(img, row, out);
    CHECK(out.data() == before);
    CHECK(out.to_vector() == (img + row).to_vector());
    SECTION("the wrong shape is an error naming both") {
        auto small = nt::empty<float>(nt::spec({2, 3}));
        const auto msg = error_message(nt::errc::invalid_argument, [&] { nt::add(img, row, small); });
        CHECK_THAT(msg, Catch::Contains("(2,3)") && Catch::Contains("(2,3,4 | N,C,W)"));
        // The fix it suggests, run.
        CHECK_THAT(msg, Catch::Contains("nt::empty<T>(nt::parse_spec(\"(2,3,4 | N,C,W)\"))"));
        auto fixed = nt::empty<float>(nt::parse_spec("(2,3,4 | N,C,W)"));
        nt::add(img, row, fixed);
        CHECK(fixed.to_vector() == (img + row).to_vector());
    }
    SECTION("out may be an operand") {
        nt::multiply(img, row, img);
        CHECK(img.at(1, 2, 3) == float(1 * 12 + 2 * 4 + 3) * 3.0f);
    }
    SECTION("out overlapping an operand differently is computed aside") {
        auto sq = nt::arange<std::int32_t>(9).reshape({3, 3});
        auto t = sq.transpose();
        auto want = sq + t;
        nt::add(sq, t, sq);
        CHECK(sq.to_vector() == want.to_vector());
    }
}

// Operands of other types than the computation's are converted as the kernel reads
// them (NumPy's values are checked by the oracle cases); these pin the out= and
// in-place rules on that path against the definition, a.astype<C>() op b.astype<C>().
TEST_CASE("operands of another element type are converted as they are read", "[ops][out]") {
    const auto u16 = nt::astype<std::uint16_t>(nt::arange<std::int32_t>(12).reshape({3, 4}) * 1000);
    SECTION("into a fresh result, named") {
        const auto img = nt::arange<float>(24).reshape({2, 3, 4}).rename({"N", "H", "W"});
        const auto named = u16.rename({"H", "W"});
        const auto sum = img + named;
        CHECK(sum.names()[0] == nt::name("N"));
        CHECK(sum.to_vector() == (img + named.astype<float>()).to_vector());
    }
    SECTION("out may be the operand of the computation's type") {
        auto f = nt::arange<float>(12).reshape({3, 4}) * 0.5f;
        const auto want = f + u16.astype<float>();
        const float* before = f.data();
        nt::add(f, u16, f);
        CHECK(f.data() == before);
        CHECK(f.to_vector() == want.to_vector());
    }
    SECTION("out overlapping that operand differently is computed aside") {
        auto sq = nt::arange<float>(16).reshape({4, 4});
        const auto t = sq.transpose();
        const auto other = nt::astype<std::int16_t>(nt::arange<std::int32_t>(16).reshape({4, 4}) - 8);
        const auto want = t + other.astype<float>();
        nt::add(t, other, sq);
        CHECK(sq.to_vector() == want.to_vector());
    }
    SECTION("in place, the source broadcast") {
        auto acc = nt::arange<double>(24).reshape({2, 3, 4});
        const auto want = acc + u16.astype<double>();
        const double* before = acc.data();
        acc += u16;
        CHECK(acc.data() == before);
        CHECK(acc.to_vector() == want.to_vector());
    }
    SECTION("a tensor with a scalar of another type") {
        const auto scaled = u16 * 0.25;  // a double scalar: u16 computes in f64
        CHECK(scaled.dtype() == nt::dtype::f64);
        CHECK(scaled.to_vector() == (u16.astype<double>() * 0.25).to_vector());
        CHECK((2.5 - u16).to_vector() == (2.5 - u16.astype<double>()).to_vector());
    }
    SECTION("a read-only out and a wrong out shape are errors") {
        auto wide = nt::zeros<float>({4}).broadcast_to({3, 4});
        error_message(nt::errc::read_only, [&] { nt::add(wide, u16, wide); });
        auto small = nt::empty<float>(nt::spec({2, 4}));
        const auto msg = error_message(nt::errc::invalid_argument, [&] { nt::add(u16, nt::ones<float>({4}), small); });
        CHECK_THAT(msg, Catch::Contains("(2,4)") && Catch::Contains("(3,4)"));
    }
}

// alignment_of remembers the last alignment per thread. Each section repeats a call
// with one thing changed that the memo must see: a memo keyed on less gives the
// previous call's axis pairing, and these results differ from the expected ones.
TEST_CASE("repeated operand layouts reuse the alignment only when names, strides and options agree",
          "[ops][memo]") {
    auto a = nt::arange<std::int32_t>(9).reshape({3, 3}).rename({"H", "W"});
    auto row = (nt::arange<std::int32_t>(3) * 10);
    SECTION("the same sizes and strides with other names") {
        auto by_w = a + row.rename({"W"});
        auto by_h = a + row.rename({"H"});
        for (std::int64_t h = 0; h < 3; ++h)
            for (std::int64_t w = 0; w < 3; ++w) {
                CHECK(by_w.at(h, w) == a.at(h, w) + row.at(w));
                CHECK(by_h.at(h, w) == a.at(h, w) + row.at(h));
            }
    }
    SECTION("the same sizes and names with other strides") {
        auto b = (nt::arange<std::int32_t>(9) * 100).reshape({3, 3});
        auto plain = a + b.rename({"H", "W"});
        auto transposed = a + b.transpose().rename({"H", "W"});
        for (std::int64_t h = 0; h < 3; ++h)
            for (std::int64_t w = 0; w < 3; ++w) {
                CHECK(plain.at(h, w) == a.at(h, w) + b.at(h, w));
                CHECK(transposed.at(h, w) == a.at(h, w) + b.at(w, h));
            }
    }
    SECTION("the same operands with and without the option union") {
        auto h = nt::arange<std::int32_t>(2).rename({"H"});
        auto w = (nt::arange<std::int32_t>(3) * 10).rename({"W"});
        auto both = nt::with_union(h) + w;
        CHECK(names_of(both) == "H W");
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j) CHECK(both.at(i, j) == h.at(i) + w.at(j));
        (void)error_message(nt::errc::no_counterpart, [&] { (void)(h + w); });
        // A failed match leaves nothing behind: the union call is matched afresh.
        CHECK((nt::with_union(h) + w).to_vector() == both.to_vector());
    }
    SECTION("the same first operands with another count") {
        auto b = nt::arange<std::int32_t>(9).reshape({3, 3}).rename({"W", "H"});
        auto sum = a + b;
        auto mask = nt::ones<bool>({3}, {"H"});
        auto picked = nt::where(mask, a, b);
        for (std::int64_t h = 0; h < 3; ++h)
            for (std::int64_t w = 0; w < 3; ++w) {
                CHECK(sum.at(h, w) == a.at(h, w) + b.at(w, h));
                CHECK(picked.at(h, w) == a.at(h, w));
            }
    }
}

// Small operations go to the kernel with the row plan alignment_of keeps (n0 rows of
// n1 elements for a contiguous output). Each case is checked against the definition,
// element by element through at(): the plan must cover exactly the layouts it claims.
TEST_CASE("small operations take the remembered row plan only for layouts it describes", "[ops][memo][rows]") {
    auto a = nt::arange<std::int32_t>(24).reshape({2, 3, 4});
    auto check = [&](const nt::Tensor<std::int32_t>& sum, const nt::Tensor<std::int32_t>& b, auto b_at) {
        REQUIRE(shape_of(sum) == std::vector<std::int64_t>{2, 3, 4});
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                for (std::int64_t k = 0; k < 4; ++k) REQUIRE(sum.at(i, j, k) == a.at(i, j, k) + b_at(b, i, j, k));
    };
    const auto b_block = nt::arange<std::int32_t>(12).reshape({3, 4}) * 100;  // one (3,4) block per i
    const auto b_row = nt::arange<std::int32_t>(4) * 1000;                    // one row per (i, j)
    SECTION("an out of the same shape but another layout, after a contiguous one") {
        auto out = nt::empty<std::int32_t>({2, 3, 4});
        nt::add(a, b_block, out);
        check(out, b_block, [](const auto& b, auto, auto j, auto k) { return b.at(j, k); });
        auto storage = nt::zeros<std::int32_t>({4, 3, 2});
        auto strided = storage.permute({2, 1, 0});  // (2,3,4), strides (1,2,6)
        nt::add(a, b_block, strided);
        check(strided, b_block, [](const auto& b, auto, auto j, auto k) { return b.at(j, k); });
    }
    SECTION("blocks, rows, single values and singleton axes") {
        check(a + b_block, b_block, [](const auto& b, auto, auto j, auto k) { return b.at(j, k); });
        check(a + b_row, b_row, [](const auto& b, auto, auto, auto k) { return b.at(k); });
        const auto one = nt::full<std::int32_t>({1, 1, 1}, 7);
        check(a + one, one, [](const auto& b, auto, auto, auto) { return b.at(0, 0, 0); });
        const auto mid = nt::arange<std::int32_t>(3).reshape({3, 1}) * 10;  // broadcast along the rows
        check(a + mid, mid, [](const auto& b, auto, auto j, auto) { return b.at(j, 0); });
        const auto lead = nt::arange<std::int32_t>(2).reshape({2, 1, 1}) * 10;
        check(a + lead, lead, [](const auto& b, auto i, auto, auto) { return b.at(i, 0, 0); });
        const auto with_ones = nt::arange<std::int32_t>(4).reshape({1, 1, 4}) * 10;
        check(a + with_ones, with_ones, [](const auto& b, auto, auto, auto k) { return b.at(0, 0, k); });
    }
    SECTION("two inputs broadcast with different blocks") {
        // Over (2,3,4): b_row repeats a 4-element block, the broadcast b_block a 12-element one.
        const auto wide = b_block.broadcast_to({2, 3, 4});
        auto fresh = b_row + wide;
        auto out = nt::empty<std::int32_t>({2, 3, 4});
        nt::add(b_row, wide, out);
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                for (std::int64_t k = 0; k < 4; ++k) {
                    REQUIRE(fresh.at(i, j, k) == b_row.at(k) + b_block.at(j, k));
                    REQUIRE(out.at(i, j, k) == b_row.at(k) + b_block.at(j, k));
                }
    }
    SECTION("transposed, reversed and sliced inputs") {
        const auto t = (nt::arange<std::int32_t>(12) * 100).reshape({4, 3}).transpose();  // (3,4), strides (1,3)
        check(a + t, t, [](const auto& b, auto, auto j, auto k) { return b.at(j, k); });
        const auto r = nt::flip(b_row);
        check(a + r, r, [](const auto& b, auto, auto, auto k) { return b.at(k); });
        const auto s = (nt::arange<std::int32_t>(8) * 10).index(nt::range(0, 8, 2));
        check(a + s, s, [](const auto& b, auto, auto, auto k) { return b.at(k); });
    }
    SECTION("comparisons and types with a rule take the same path") {
        auto gt = a > b_row;
        auto fd = nt::floor_divide(a, b_row + 1);
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                for (std::int64_t k = 0; k < 4; ++k) {
                    REQUIRE(gt.at(i, j, k) == (a.at(i, j, k) > b_row.at(k)));
                    REQUIRE(fd.at(i, j, k) == a.at(i, j, k) / (b_row.at(k) + 1));
                }
    }
}

// Two unnamed operands with C order's strides whose shapes right-align without a
// size-1 axis to broadcast go straight to the kernel, before alignment_of
// (identity_row_plan); other layouts take the aligned path. Each case is checked
// against the definition through at(), with the operands on either side (subtraction
// tells them apart), fresh and out=, also when out shares memory with an operand.
TEST_CASE("operands whose alignment is the identity skip the matcher and give the definition", "[ops][rows]") {
    const auto a = nt::arange<std::int32_t>(24).reshape({2, 3, 4});
    const auto block = nt::arange<std::int32_t>(12).reshape({3, 4}) * 100;
    const auto row = nt::arange<std::int32_t>(4) * 1000;
    auto check_difference = [](const nt::Tensor<std::int32_t>& r, auto x_at, auto y_at) {
        REQUIRE(shape_of(r) == std::vector<std::int64_t>{2, 3, 4});
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                for (std::int64_t k = 0; k < 4; ++k) REQUIRE(r.at(i, j, k) == x_at(i, j, k) - y_at(i, j, k));
    };
    auto at_a = [&](std::int64_t i, std::int64_t j, std::int64_t k) { return a.at(i, j, k); };
    auto at_block = [&](std::int64_t, std::int64_t j, std::int64_t k) { return block.at(j, k); };
    auto at_row = [&](std::int64_t, std::int64_t, std::int64_t k) { return row.at(k); };
    SECTION("fresh results, the narrower operand on either side") {
        check_difference(a - block, at_a, at_block);
        check_difference(block - a, at_block, at_a);
        check_difference(row - a, at_row, at_a);
        check_difference(a - a, at_a, at_a);
        const auto r = row - a;
        CHECK(r.is_contiguous());
        CHECK(names_of(r) == names_of(a));
        const auto greater = row > a;  // a bool result of the wider operand's shape
        REQUIRE(shape_of(greater) == std::vector<std::int64_t>{2, 3, 4});
        for (std::int64_t i = 0; i < 2; ++i)
            for (std::int64_t j = 0; j < 3; ++j)
                for (std::int64_t k = 0; k < 4; ++k) REQUIRE(greater.at(i, j, k) == (row.at(k) > a.at(i, j, k)));
        const auto scalar = nt::full<std::int32_t>({}, 5) - nt::full<std::int32_t>({}, 7);
        CHECK(scalar.rank() == 0);
        CHECK(scalar.to_vector() == std::vector<std::int32_t>{-2});
    }
    SECTION("a view at an offset, and the layouts left to alignment") {
        const auto big = nt::arange<std::int32_t>(48).reshape({2, 2, 3, 4});
        const auto second = big.index(1);  // (2,3,4) with C strides, 24 elements in
        const auto r = second - row;
        check_difference(r, [&](std::int64_t i, std::int64_t j, std::int64_t k) { return second.at(i, j, k); }, at_row);
        CHECK(r.is_contiguous());
        const auto one_row = row.reshape({1, 4});  // a size-1 axis to broadcast
        check_difference(a - one_row, at_a,
                         [&](std::int64_t, std::int64_t, std::int64_t k) { return one_row.at(0, k); });
        const auto t = (nt::arange<std::int32_t>(12) * 100).reshape({4, 3}).transpose();  // strides (1,3)
        check_difference(a - t, at_a, [&](std::int64_t, std::int64_t j, std::int64_t k) { return t.at(j, k); });
        // Names: the narrower operand's those of the wider one's last axes (the row
        // plan), or elsewhere (alignment permutes).
        const auto a_named = a.rename({"?", "H", "W"});
        const auto named = row.rename({"W"}) - a_named;
        CHECK(names_of(named) == "? H W");
        check_difference(named, at_row, at_a);
        const auto block_named = block.rename({"H", "W"});
        check_difference(a_named - block_named, at_a, at_block);
        const auto swapped = block.transpose().contiguous().rename({"W", "H"});
        check_difference(a_named - swapped, at_a, at_block);
        const auto other = block.rename({"C", "W"});  // C is not a's: no counterpart
        CHECK(error_message(nt::errc::no_counterpart, [&] { (void)(a_named - other); }) != "");
        auto out = nt::empty<std::int32_t>({2, 3, 4});
        nt::subtract(a_named, swapped, out);
        check_difference(out, at_a, at_block);
    }
    SECTION("out= a fresh tensor, an operand, or memory that holds an operand") {
        auto out = nt::empty<std::int32_t>({2, 3, 4});
        nt::subtract(row, a, out);
        check_difference(out, at_row, at_a);
        auto wide = a.clone();
        nt::subtract(wide, block, wide);  // out is the wider operand: element for element
        check_difference(wide, at_a, at_block);
        auto wide2 = a.clone();
        nt::subtract(block, wide2, wide2);
        check_difference(wide2, at_block, at_a);
        // out holds the narrower operand, which every row reads: the result is as if
        // the operand had been copied first, where it starts with out and elsewhere.
        for (const std::int64_t j : {0, 2}) {
            auto holder = a.clone();
            const auto inside = holder.index(1, j);
            const auto before = inside.clone();
            nt::subtract(a, inside, holder);
            check_difference(holder, at_a, [&](std::int64_t, std::int64_t, std::int64_t k) { return before.at(k); });
        }
        auto holder = a.clone();
        const auto first = holder.index(0, 0);
        const auto before = first.clone();
        nt::subtract(a, first, holder);
        check_difference(holder, at_a, [&](std::int64_t, std::int64_t, std::int64_t k) { return before.at(k); });
    }
}

// The same memory wrapped as int32 operands and as the double result of their division:
// the out starts where the operands start but its elements are twice as wide, so writing
// element i overwrites operands not read yet. It is computed aside (both paths).
TEST_CASE("out= over operands of a narrower type in the same memory is computed aside", "[ops][alias]") {
    for (const std::int64_t rows : {1, 4}) {  // the row plan: one row, and a block over four
        INFO("rows " << rows);
        alignas(8) std::array<std::int32_t, 64> buffer{};
        for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<std::int32_t>(i * 10 + 3);
        const auto ints = nt::Tensor<std::int32_t>::wrap(buffer.data(), {rows, 8}, {}, nullptr);
        auto doubles = nt::Tensor<double>::wrap(reinterpret_cast<double*>(buffer.data()), {rows, 8}, {}, nullptr);
        const std::vector<std::int32_t> before = ints.to_vector();
        const auto two = nt::full<std::int32_t>({8}, 2);
        nt::divide(ints, two, doubles);
        for (std::int64_t i = 0; i < rows * 8; ++i)
            REQUIRE(doubles.at(i / 8, i % 8) == double(before[static_cast<std::size_t>(i)]) / 2.0);
    }
    // The aligned path: a transposed operand.
    alignas(8) std::array<std::int32_t, 32> buffer{};
    for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<std::int32_t>(i * 10 + 3);
    const auto ints = nt::Tensor<std::int32_t>::wrap(buffer.data(), {4, 4}, {}, nullptr);
    auto doubles = nt::Tensor<double>::wrap(reinterpret_cast<double*>(buffer.data()), {4, 4}, {}, nullptr);
    const auto before = ints.clone();
    const auto twos = nt::full<std::int32_t>({4, 4}, 2).transpose();
    nt::divide(ints, twos, doubles);
    for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t j = 0; j < 4; ++j) REQUIRE(doubles.at(i, j) == double(before.at(i, j)) / 2.0);
}

TEST_CASE("an element-wise result whose element count overflows is an error, not an allocation", "[ops][errors]") {
    const std::int64_t big = std::int64_t{1} << 40;
    auto tall = nt::zeros<float>({1, 1}).broadcast_to({big, 1});
    auto wide = nt::zeros<float>({1, 1}).broadcast_to({1, big});
    CHECK_THAT(error_message(nt::errc::invalid_argument, [&] { (void)(tall + wide); }),
               Catch::Contains("too many elements") && Catch::Contains("1099511627776,1099511627776"));
    const std::int64_t half_range = std::int64_t{1} << 31;  // 2^62 elements fit, 2^64 bytes do not
    auto t2 = nt::zeros<float>({1, 1}).broadcast_to({half_range, 1});
    auto w2 = nt::zeros<float>({1, 1}).broadcast_to({1, half_range});
    CHECK_THAT(error_message(nt::errc::invalid_argument, [&] { (void)(t2 + w2); }),
               Catch::Contains("more bytes than memory can address"));
}
