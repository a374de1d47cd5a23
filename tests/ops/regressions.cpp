// Bugs found while writing docs/reference.md, each pinned by the case that showed it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "nt/nt.hpp"

TEST_CASE("out= forms accept a result type that differs from the operands'", "[ops][out]") {
    // Comparing out's pointer with the operands' once failed to compile for bool out.
    const auto a = nt::tensor<std::int32_t>({1, 5, 3});
    const auto b = nt::tensor<std::int32_t>({2, 2, 3});
    auto lt = nt::empty<bool>(nt::shape_arg{3});
    nt::less(a, b, lt);
    CHECK(lt.to_vector() == std::vector<bool>{true, false, false});
    auto eq = nt::empty<bool>(nt::shape_arg{3});
    nt::equal(a, b, eq);
    CHECK(eq.to_vector() == std::vector<bool>{false, false, true});
    auto q = nt::empty<double>(nt::shape_arg{3});
    nt::divide(a, b, q);
    CHECK(q.to_vector() == std::vector<double>{0.5, 2.5, 1.0});
}

TEST_CASE("float to uint8 casts saturate like assign does", "[ops][cast]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto f = nt::tensor<float>({-1.5f, 300.0f, 1e10f, nan, 7.9f});
    const std::vector<std::uint8_t> expected{0, 255, 255, 0, 7};
    CHECK(f.astype<std::uint8_t>().to_vector() == expected);
    auto assigned = nt::zeros<std::uint8_t>({5});
    assigned.assign(f);
    CHECK(assigned.to_vector() == expected);
    CHECK(f.astype<std::int32_t>().to_vector() == std::vector<std::int32_t>{-1, 300, 2147483647, 0, 7});
}

TEST_CASE("broadcast_tensors follows the policy it is given", "[ops][broadcast]") {
    const auto nc = nt::ones<std::int32_t>({2, 3}, {"N", "C"});
    const auto c = nt::arange<std::int32_t>(3);
    const nt::spec specs[] = {nc.spec(), c.spec()};
    nt::match_options positional;
    positional.policy = nt::policy::positional;
    const nt::plan p = nt::match(specs, positional);
    auto [x, y] = nt::broadcast_tensors(nt::policy::positional, nc, c);
    CHECK(x.spec() == p.output);
    CHECK(y.spec() == p.output);
    CHECK(y.at(1, 2) == 2);
    // Under names the unnamed (3) has no counterpart among N, C: an error, not a guess.
    CHECK_THROWS_AS(nt::broadcast_tensors(nt::policy::names, nc, c), nt::error);
}

TEST_CASE("wrap refuses a null pointer even for one element", "[core][wrap]") {
    try {
        (void)nt::Tensor<float>::wrap(nullptr, {1}, {}, nullptr);
        FAIL("wrap of nullptr with one element did not throw");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::invalid_argument);
    }
    CHECK(nt::Tensor<float>::wrap(nullptr, {0, 3}, {}, nullptr).size() == 0);  // no element: fine
}

TEST_CASE("in-place forms compute in the promoted type and convert back", "[ops][in_place]") {
    // The operand was once converted to the destination's type first: 3 *= 0.5 gave 0.
    auto a = nt::tensor<std::int32_t>({3, 5});
    a *= 0.5;
    CHECK(a.to_vector() == std::vector<std::int32_t>{1, 2});
    auto b = nt::tensor<std::int32_t>({3, 5});
    b /= 0.5;
    CHECK(b.to_vector() == std::vector<std::int32_t>{6, 10});
    auto c = nt::tensor<std::int32_t>({3, -5});
    c += 0.7;
    CHECK(c.to_vector() == std::vector<std::int32_t>{3, -4});  // 3.7 and -4.3, truncated
    auto d = nt::tensor<std::int32_t>({3, 5});
    d *= nt::tensor<float>({0.5f, 2.5f});
    CHECK(d.to_vector() == std::vector<std::int32_t>{1, 12});
    auto e = nt::tensor<std::int32_t>({7, 9});
    e /= nt::tensor<std::int32_t>({2, 4});  // true division, truncated back
    CHECK(e.to_vector() == std::vector<std::int32_t>{3, 2});
    // Out of range and NaN convert as casts do: saturate, NaN to 0 (never UB).
    auto t = nt::tensor<std::int32_t>({1, -5});
    t += 1e20;
    CHECK(t.to_vector() == std::vector<std::int32_t>{2147483647, 2147483647});
    auto u = nt::tensor<std::int32_t>({4, 4});
    u -= std::numeric_limits<double>::quiet_NaN();
    CHECK(u.to_vector() == std::vector<std::int32_t>{0, 0});
    // Same type: unchanged semantics (wrap-around for integers).
    auto w = nt::tensor<std::uint8_t>({250, 1});
    w += nt::tensor<std::uint8_t>({10, 2});
    CHECK(w.to_vector() == std::vector<std::uint8_t>{4, 3});
}

TEST_CASE("outputs beyond the streaming threshold get every element right", "[ops][stream]") {
    // Outputs of >= 32 MiB are written with streaming stores in whole 64-byte lines
    // (unless an input is broadcast along the row, so `b` is materialised to (2, n));
    // an output starting mid-line (offset by one element) exercises the plain-store
    // head and tail. Compared element by element with a scalar loop.
    const std::int64_t n = (std::int64_t{33} << 20) / 4 + 7;  // > 32 MiB of floats, odd tail
    const auto a = nt::arange<float>(static_cast<double>(n)).reshape({1, n});
    const auto b = nt::tensor<float>({0.5f, -1.0f}).reshape({2, 1}) + nt::zeros<float>({1, n});
    auto storage = nt::zeros<float>({2 * n + 1});
    auto out = storage.slice(0, 1).reshape({2, n});  // a view starting 4 bytes into a line
    REQUIRE(out.shares_storage(storage));
    nt::add(a, b, out);
    const auto fresh = a + b;
    const std::vector<float> got = out.to_vector(), got_fresh = fresh.to_vector();
    std::int64_t wrong = 0;
    for (std::int64_t r = 0; r < 2; ++r)
        for (std::int64_t i = 0; i < n; ++i) {
            const float expected = static_cast<float>(i) + (r == 0 ? 0.5f : -1.0f);
            const auto k = static_cast<std::size_t>(r * n + i);
            wrong += got[k] != expected || got_fresh[k] != expected;
        }
    CHECK(wrong == 0);
    CHECK(storage.at(0) == 0.0f);  // the element before the view is untouched
    const auto roots = nt::sqrt(nt::full<float>({n}, 4.0f));
    CHECK(nt::min(roots).at() == 2.0f);
    CHECK(nt::max(roots).at() == 2.0f);
}

TEST_CASE("streamed outputs of the compiler's loops get every element right", "[ops][stream]") {
    // Casts and 64-bit division have no SIMD row kernel: outputs of >= 32 MiB go
    // through stream_row, which builds lines in a ring and streams each out three lines
    // later. Rows of odd lengths, and an output that starts one element into a line,
    // move where each row's lines start and end.
    const std::int64_t n = (std::int64_t{33} << 20) / 8 / 3 + 5;  // 3 rows: > 32 MiB of doubles
    const auto a = nt::arange<std::int64_t>(3 * n).reshape({3, n}) - n;
    const auto b = nt::arange<std::int64_t>(3 * n).reshape({3, n}) % 7 + 1;
    auto storage = nt::zeros<double>({3 * n + 1});
    auto out = storage.slice(0, 1).reshape({3, n});
    nt::divide(a, b, out);
    const std::vector<double> got = out.to_vector();
    const std::vector<std::int64_t> av = a.to_vector(), bv = b.to_vector();
    std::int64_t wrong = 0;
    for (std::size_t k = 0; k < av.size(); ++k)
        wrong += got[k] != static_cast<double>(av[k]) / static_cast<double>(bv[k]);
    CHECK(wrong == 0);
    const std::int64_t m = (std::int64_t{33} << 20) / 4 / 3 + 5;  // 3 rows: > 32 MiB of floats
    const auto i16 = nt::astype<std::int16_t>(nt::arange<std::int32_t>(3 * m).reshape({3, m}) % 60000 - 30000);
    const std::vector<float> got_cast = nt::astype<float>(i16).to_vector();
    const std::vector<std::int16_t> iv = i16.to_vector();
    std::int64_t wrong_cast = 0;
    for (std::size_t k = 0; k < iv.size(); ++k) wrong_cast += got_cast[k] != static_cast<float>(iv[k]);
    CHECK(wrong_cast == 0);
    CHECK(storage.at(0) == 0.0);  // the element before the view is untouched
}

TEST_CASE("uint8 sums over a long contiguous axis count every element", "[ops][reduce]") {
    // GCC 12 -O3 miscompiled the eight-accumulator fold for wrapping integer sums of
    // uint8: sum(ones<uint8>({24})) was 9 and {1000} gave 811 (mean and prod were right).
    for (const std::int64_t n : {8, 16, 23, 24, 25, 32, 48, 127, 128, 129, 1000}) {
        INFO("n = " << n);
        CHECK(nt::sum(nt::ones<std::uint8_t>({n})).at() == static_cast<std::uint64_t>(n));
        CHECK(nt::sum(nt::ones<std::uint8_t>({3, n}), 1).to_vector() == std::vector<std::uint64_t>(3, std::uint64_t(n)));
        CHECK(nt::sum(nt::ones<std::int8_t>({n})).at() == n);
    }
}

TEST_CASE("an operand stored in another axis order and reused over a broadcast axis gives the aligned result",
          "[ops][engine]") {
    // (?,W,H) against (?,C,H,W): large enough that the engine copies the permuted
    // operand into the output's order once instead of gathering it per channel; at two
    // sizes, with results of 1, 4 and 8 bytes.
    const std::vector<std::int64_t> sizes[2] = {{10, 3, 64, 48}, {4, 3, 128, 96}};
    for (const auto& s : sizes) {
        const std::int64_t n = s[0], c = s[1], h = s[2], w = s[3];
        const auto x = nt::arange<float>(n * c * h * w).reshape({n, c, h, w}, {"?", "C", "H", "W"}) * 0.25f;
        const auto y = nt::arange<float>(n * w * h).reshape({n, w, h}, {"?", "W", "H"}) - 5000.0f;
        const auto y_in_order = y.permute({0, 2, 1}).contiguous();  // (n,h,w | ?,H,W), no gather left
        for (const int threads : {1, 2}) {
            nt::set_num_threads(threads);
            CHECK((x + y).to_vector() == (x + y_in_order).to_vector());
            CHECK((y - x).to_vector() == (y_in_order - x).to_vector());
            const auto yi = nt::astype<std::int16_t>(y);
            CHECK((x * yi).to_vector() == (x * nt::astype<std::int16_t>(y_in_order)).to_vector());
            CHECK(nt::maximum(y.flip(1), x).to_vector() ==
                  nt::maximum(y.flip(1).permute({0, 2, 1}).contiguous(), x).to_vector());
            CHECK((x * 4.0f < y).to_vector() == (x * 4.0f < y_in_order).to_vector());
            const auto xd = nt::astype<double>(x);
            CHECK((y / xd).to_vector() == (y_in_order / xd).to_vector());
        }
        nt::set_num_threads(0);
        CHECK((x + y).spec() == x.spec());
    }
}
