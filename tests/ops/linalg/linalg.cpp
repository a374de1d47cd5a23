// nt/linalg.hpp: the typed forms, names and order of results, operand layouts
// (views, negative strides, broadcasts), the thread setting reaching the BLAS, and the
// errors (code and what the message names). Values against NumPy are in
// numpy_linalg.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gemm.hpp"  // private: blas_num_threads
#include "nt/nt.hpp"

namespace {

using i64 = std::int64_t;

std::vector<std::string> names_of(std::span<const nt::name> names) {
    std::vector<std::string> out;
    for (nt::name n : names) out.emplace_back(n ? std::string(n.str()) : "?");
    return out;
}

// The reference: a plain loop over (N,C) x (C,K) in double.
template <class T>
std::vector<double> naive_matmul(const nt::Tensor<T>& a, const nt::Tensor<T>& b) {
    const i64 n = a.shape()[0], k = a.shape()[1], m = b.shape()[1];
    std::vector<double> out(static_cast<std::size_t>(n * m), 0.0);
    for (i64 i = 0; i < n; ++i)
        for (i64 j = 0; j < m; ++j) {
            double s = 0;
            for (i64 q = 0; q < k; ++q) s += static_cast<double>(a.at(i, q)) * static_cast<double>(b.at(q, j));
            out[static_cast<std::size_t>(i * m + j)] = s;
        }
    return out;
}

template <class T>
std::vector<double> as_doubles(const nt::Tensor<T>& t) {
    const std::vector<T> v = t.to_vector();
    return std::vector<double>(v.begin(), v.end());
}

void require_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i);
        REQUIRE(std::fabs(got[i] - want[i]) <= tol);
    }
}

template <class F>
nt::error error_of(F&& f) {
    try {
        f();
    } catch (const nt::error& e) {
        return e;
    }
    FAIL("no nt::error thrown");
    return nt::error(nt::errc::invalid_argument, "");
}

bool mentions(const nt::error& e, std::initializer_list<const char*> parts) {
    for (const char* p : parts)
        if (e.message().find(p) == std::string::npos) {
            UNSCOPED_INFO("message lacks '" << p << "': " << e.message());
            return false;
        }
    return true;
}

}  // namespace

TEST_CASE("dot keeps the other axes, matched by name, in the matcher's order", "[linalg]") {
    const auto x = nt::arange<float>(2 * 3 * 2 * 2).reshape({2, 3, 2, 2}, {"N", "C", "H", "W"});
    const auto w = nt::arange<float>(3 * 4).reshape({3, 4}, {"C", "K"});
    const auto y = nt::dot(x, w, "C");
    static_assert(std::is_same_v<decltype(y), const nt::Tensor<float>>);
    CHECK(names_of(y.names()) == std::vector<std::string>{"N", "H", "W", "K"});
    CHECK(std::vector<i64>(y.shape().begin(), y.shape().end()) == std::vector<i64>{2, 2, 2, 4});
    // The same with the operand's axes in another order: the same values.
    const auto y2 = nt::dot(x.permute({"W", "C", "N", "H"}), w.transpose(), {"C"});
    CHECK(y2.align_to("N", "H", "W", "K").to_vector() == y.to_vector());
    // y[n, h, w, k] = sum_c x[n, c, h, w] * w[c, k]
    for (i64 n = 0; n < 2; ++n)
        for (i64 k = 0; k < 4; ++k) {
            float s = 0;
            for (i64 c = 0; c < 3; ++c) s += x.at(n, c, 1, 0) * w.at(c, k);
            CHECK(y.at(n, 1, 0, k) == s);
        }
    // Several axes, and none (a broadcast product).
    const auto full = nt::dot(x, x, {"N", "C", "H", "W"});
    CHECK(full.rank() == 0);
    CHECK(full.at() == Approx(nt::sum(x * x).at()));
    const auto outer = nt::dot(nt::ones<int>({2}, {"A"}), nt::ones<int>({3}, {"B"}), nt::axes_arg{});
    CHECK(names_of(outer.names()) == std::vector<std::string>{"A", "B"});
    // A result of the promoted type.
    const auto mixed = nt::dot(nt::ones<std::int32_t>({3}, {"C"}), nt::ones<float>({3}, {"C"}), "C");
    static_assert(std::is_same_v<decltype(mixed)::value_type, double>);
    CHECK(mixed.at() == 3.0);
}

TEST_CASE("einsum names the result by its right side and accepts any axis order", "[linalg]") {
    const auto x = nt::arange<double>(2 * 3 * 4 * 5).reshape({2, 3, 4, 5}, {"N", "C", "H", "W"});
    const auto k = nt::arange<double>(3 * 6).reshape({3, 6}, {"C", "K"});
    const auto y = nt::einsum("N C H W, C K -> N K H W", x, k);
    CHECK(names_of(y.names()) == std::vector<std::string>{"N", "K", "H", "W"});
    const auto y2 = nt::einsum("H N W C, K C -> N K H W", x.permute({"H", "N", "W", "C"}), k.transpose());
    CHECK(y2.to_vector() == y.to_vector());
    // Unnamed operands take any identifiers; multi-letter ones too.
    const auto a = nt::arange<float>(6).reshape({2, 3});
    const auto b = nt::arange<float>(12).reshape({3, 4});
    const auto ab = nt::einsum("row inner, inner col -> row col", a, b);
    require_near(as_doubles(ab), naive_matmul(a, b), 0);
    CHECK(names_of(ab.names()) == std::vector<std::string>{"row", "col"});
    // One operand: a transpose, a trace, a sum; three operands, left to right.
    CHECK(nt::einsum("i j -> j i", a).to_vector() == a.transpose().to_vector());
    const auto sq = nt::arange<int>(9).reshape({3, 3});
    CHECK(nt::einsum("i i ->", sq).at() == 0 + 4 + 8);
    CHECK(nt::einsum("i i -> i", sq).to_vector() == std::vector<int>{0, 4, 8});
    CHECK(nt::einsum("i j ->", sq).at() == 36);
    const auto abc = nt::einsum("i j, j k, k l -> i l", a, b, nt::ones<float>({4, 2}));
    CHECK(abc.at(1, 1) == Approx(nt::sum(ab.index(1)).at()));
    // Repeated calls with the same text reuse the parsed subscripts (and agree).
    CHECK(nt::einsum("N C H W, C K -> N K H W", x, k).to_vector() == y.to_vector());
}

TEST_CASE("einsum leaves '...' and '?' axes unnamed, so the result pairs by names next", "[linalg]") {
    // Regression: with every axis named in the subscripts, a batch axis came back
    // named N, and the next operation with the (?,H,W) labels failed with no_counterpart.
    const auto x = nt::ones<float>({2, 3, 4, 5}, {"?", "C", "H", "W"});
    const auto w = nt::ones<float>({3, 6}, {"C", "K"});
    const auto lbl = nt::ones<float>({2, 4, 5}, {"?", "H", "W"});
    const auto y = nt::einsum("? C H W, C K -> ? K H W", x, w);
    CHECK(y.spec() == nt::spec({2, 6, 4, 5}, {"?", "K", "H", "W"}));
    CHECK((y * lbl).spec() == y.spec());
    const auto y2 = nt::einsum("... C H W, C K -> ... K H W", x, w);
    CHECK(y2.spec() == y.spec());
    CHECK(y2.to_vector() == y.to_vector());
    // The k-th '?' of each part is one axis; '...' broadcasts right-aligned, as NumPy.
    const auto a = nt::arange<double>(2 * 3).reshape({2, 3});
    const auto b = nt::arange<double>(3 * 4).reshape({3, 4});
    CHECK(nt::einsum("? ?, ? ? -> ? ?", a, nt::ones<double>({2, 3})).to_vector() == a.to_vector());
    CHECK(nt::einsum("? j, j k -> ? k", a, b).to_vector() == nt::matmul(a, b).to_vector());
    const auto batched = nt::einsum("... i j, j k -> ... i k", nt::ones<double>({5, 2, 3}), b);
    CHECK(batched.spec() == nt::parse_spec("(5,2,4 | ?,i,k)"));
    CHECK(nt::einsum("i ..., i ... -> i ...", nt::ones<double>({3, 1, 4}), nt::ones<double>({3, 2, 1})).spec() ==
          nt::parse_spec("(3,2,4 | i,?,?)"));
}

TEST_CASE("matmul follows NumPy's rules and carries names", "[linalg]") {
    const auto a = nt::arange<float>(5 * 2 * 3).reshape({5, 2, 3});
    const auto b = nt::arange<float>(3 * 4).reshape({3, 4});
    const auto c = nt::matmul(a, b);
    CHECK(std::vector<i64>(c.shape().begin(), c.shape().end()) == std::vector<i64>{5, 2, 4});
    require_near(as_doubles(c.index(4)), naive_matmul(nt::Tensor<float>(a.index(4)), b), 1e-3);
    // 1-D operands: a row, a column, or both (a scalar).
    const auto v = nt::arange<float>(3);
    CHECK(nt::matmul(v, b).rank() == 1);
    CHECK(nt::matmul(a, v).rank() == 2);
    CHECK(nt::matmul(v, v).rank() == 0);
    CHECK(nt::matmul(v, v).at() == 5.0f);
    // Named: batch axes matched by name, rows and columns keep theirs.
    const auto na = nt::ones<float>({4, 2, 3}, {"B", "N", "C"});
    const auto nb = nt::ones<float>({3, 5}, {"C", "K"});
    const auto nc = nt::matmul(na, nb);
    CHECK(names_of(nc.names()) == std::vector<std::string>{"B", "N", "K"});
    CHECK(nc.at(3, 1, 4) == 3.0f);
}

TEST_CASE("tensordot: counts, axis lists and pairs", "[linalg]") {
    const auto a = nt::arange<std::int64_t>(2 * 3 * 4).reshape({2, 3, 4}, {"A", "B", "C"});
    const auto b = nt::arange<std::int64_t>(4 * 3 * 5).reshape({4, 3, 5}, {"C", "B", "D"});
    const auto r1 = nt::tensordot(a, b, {1, 2}, {1, 0});
    const auto r2 = nt::tensordot(a, b, {{"B", "B"}, {"C", "C"}});
    const auto r3 = nt::dot(a, b, {"B", "C"});
    CHECK(names_of(r1.names()) == std::vector<std::string>{"A", "D"});
    CHECK(r1.to_vector() == r2.to_vector());
    CHECK(r1.to_vector() == r3.to_vector());
    CHECK(nt::tensordot(a, b.permute({1, 0, 2}).rename({}), 0).rank() == 6);
    const auto m = nt::tensordot(a.rename({}), b.permute({1, 0, 2}).rename({}), 2);  // (2,3,4) . (3,4,5)
    CHECK(m.to_vector() == r1.to_vector());
}

TEST_CASE("products read views, negative strides and broadcasts correctly", "[linalg]") {
    const auto base = nt::arange<double>(8 * 9).reshape({8, 9});
    const auto a = base.slice(0, 1, 7, 2).flip(1);          // (3,9), strides (18,-1)
    const auto b = base.transpose().slice(0, 0, 9).index(nt::all, nt::range(0, 5));  // (9,5), strides (1,9)
    const auto want = naive_matmul(a.clone(), b.clone());
    require_near(nt::matmul(a, b).to_vector(), want, 1e-9);
    // A broadcast (stride 0) operand, and integer types through the loop kernel.
    const auto row = nt::arange<std::int32_t>(4).broadcast_to({3, 4});
    const auto col = nt::ones<std::int32_t>({4, 2});
    CHECK(nt::matmul(row, col).to_vector() == std::vector<std::int32_t>{6, 6, 6, 6, 6, 6});
    // A larger integer product (several blocks of the loop, the pool) against double.
    nt::detail::set_parallel_threshold(1);
    const auto ia = (nt::arange<std::int64_t>(70 * 600).reshape({70, 600}) % 7) - 3;
    const auto ib = (nt::arange<std::int64_t>(600 * 530).reshape({600, 530}) % 5) - 2;
    const auto ic = nt::matmul(ia, ib);
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
    const auto wantc = naive_matmul(ia, ib);
    const auto gotc = ic.to_vector();
    for (std::size_t i = 0; i < gotc.size(); i += 97) CHECK(static_cast<double>(gotc[i]) == wantc[i]);
    // Integer results wrap in their type, as NumPy's.
    const auto i8 = nt::full<std::int8_t>({2}, 100);
    CHECK(nt::matmul(i8, i8).at() == static_cast<std::int8_t>(32));  // 20000 mod 256
    // bool: any of the ands.
    const auto m1 = nt::tensor<bool>({{true, false}, {false, false}});
    CHECK(nt::matmul(m1, m1).to_vector() == std::vector<bool>{true, false, false, false});
    // half: computed in float, rounded once.
    const auto h = nt::full<nt::half>({4, 300}, nt::half(0.1));
    const auto hh = nt::matmul(h, h.transpose());
    static_assert(std::is_same_v<decltype(hh)::value_type, nt::half>);
    // 300 * 0.0999755859375^2 = 2.99853..., whose nearest half is 2.998046875.
    CHECK(static_cast<float>(hh.at(0, 3)) == 2.998046875f);
}

TEST_CASE("empty products: zero-size axes", "[linalg]") {
    const auto a = nt::ones<float>({2, 0});
    const auto b = nt::ones<float>({0, 3});
    CHECK(nt::matmul(a, b).to_vector() == std::vector<float>(6, 0.0f));
    CHECK(nt::matmul(b, nt::ones<float>({3, 4})).size() == 0);
    CHECK(nt::einsum("i j -> ", nt::ones<int>({0, 3})).at() == 0);
}

TEST_CASE("nt::set_num_threads bounds the BLAS's threads", "[linalg]") {
    const int before = nt::get_num_threads();
    const auto a = nt::ones<float>({64, 64});
    nt::set_num_threads(1);
    (void)nt::matmul(a, a);
    CHECK(nt::detail::blas_num_threads() == 1);
    nt::set_num_threads(2);
    (void)nt::matmul(a, a);
    CHECK(nt::detail::blas_num_threads() == 2);
    nt::set_num_threads(before);
}

TEST_CASE("contraction errors name the operands, axes and a fix", "[linalg]") {
    const auto x = nt::ones<float>({2, 3}, {"N", "C"});
    const auto w = nt::ones<float>({4, 5}, {"C", "K"});
    const auto w3 = nt::ones<float>({3, 5}, {"C", "K"});
    const auto u = nt::ones<float>({3, 5}, {"D", "K"});

    // dot: an axis an operand lacks, an index, a size mismatch on a contracted axis.
    auto e = error_of([&] { (void)nt::dot(x, u, "C"); });
    CHECK(e.code() == nt::errc::axis_out_of_range);
    CHECK(mentions(e, {"dot", "'C'", "operand b", "(3,5 | D,K)", "Fix", "rename", "leave 'C' out"}));
    // Both fixes it suggests, run: name that operand's axis 'C', or contract nothing.
    CHECK(nt::dot(x, u.rename(0, "C"), "C").spec() == nt::spec({2, 5}, {"N", "K"}));
    CHECK(nt::dot(x, u.rename(0, "C"), "C").to_vector() == std::vector<float>(10, 3.0f));
    CHECK(nt::dot(x, u, nt::axes_arg{}).spec() == nt::spec({2, 3, 3, 5}, {"N", "C", "D", "K"}));
    e = error_of([&] { (void)nt::dot(x, w3, {1}); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"dot", "tensordot(a, b, a_axes, b_axes)", "rename / refine_names"}));
    // The fixes it suggests, run: tensordot by positions, or names on unnamed operands.
    CHECK(nt::tensordot(x, w3, {1}, {0}).to_vector() == nt::dot(x, w3, "C").to_vector());
    CHECK(nt::dot(nt::ones<float>({2, 3}).rename({"N", "C"}), nt::ones<float>({3, 5}).refine_names({"C", "K"}), "C")
              .to_vector() == std::vector<float>(10, 3.0f));
    e = error_of([&] { (void)nt::dot(x, w, "C"); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"dot", "'C'", "(2,3 | N,C)", "(4,5 | C,K)", "size 3", "size 4", "Fix"}));
    e = error_of([&] { (void)nt::dot(x, w3, {"C", "C"}); });
    CHECK(e.code() == nt::errc::invalid_argument);

    // einsum: names that disagree with the subscripts, counts, syntax, sizes.
    e = error_of([&] { (void)nt::einsum("N D, C K -> N K", x, w3); });
    CHECK(e.code() == nt::errc::name_mismatch);
    CHECK(mentions(e, {"einsum", "'C'", "'D'", "(2,3 | N,C)", "Fix: use the operand's names in the subscripts",
                       "or rename the operand"}));
    // Both fixes it suggests, run: the operand's names, or the operand renamed to the subscripts'.
    CHECK(nt::einsum("N C, C K -> N K", x, w3).to_vector() == nt::dot(x, w3, "C").to_vector());
    // (renamed, D and C are two axes, each summed over alone, as the subscripts say: 3 * 3)
    CHECK(nt::einsum("N D, C K -> N K", x.rename(1, "D"), w3).to_vector() == std::vector<float>(10, 9.0f));
    e = error_of([&] { (void)nt::einsum("N C H, C K -> N K", x, w3); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"einsum", "rank 2", "3 axes"}));
    e = error_of([&] { (void)nt::einsum("N C, C K", x, w3); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"->", "N C H W, C K -> N K H W"}));
    e = error_of([&] { (void)nt::einsum("N C, C K -> N Z", x, w3); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"'Z'"}));
    e = error_of([&] { (void)nt::einsum("N C -> N", x, w3); });
    CHECK(e.code() == nt::errc::invalid_argument);
    e = error_of([&] { (void)nt::einsum("N C, C K -> N K", x, w); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"'C'", "size 3", "size 4", "operand 0", "operand 1"}));
    e = error_of([&] { (void)nt::einsum("N 1C -> N", x); });
    CHECK(e.code() == nt::errc::invalid_argument);
    // '...' and '?' stand for unnamed axes: a named one under them is refused, and the
    // fix the message gives (write its name) works.
    e = error_of([&] { (void)nt::einsum("N ... -> N ...", x); });
    CHECK(e.code() == nt::errc::name_mismatch);
    CHECK(mentions(e, {"axis 1", "'C'", "'...'", "unnamed", "write 'C'"}));
    CHECK(nt::einsum("N C -> N C", x).spec() == x.spec());
    CHECK_THAT(std::string(e.message()), Catch::Contains("or drop the name first (rename)"));
    CHECK(nt::einsum("N ... -> N ...", x.rename({"N", "?"})).spec() == nt::spec({2, 3}, {"N", "?"}));  // the other fix
    e = error_of([&] { (void)nt::einsum("? C -> C", x); });
    CHECK(e.code() == nt::errc::name_mismatch);
    CHECK(mentions(e, {"axis 0", "'N'", "'?'", "write 'N'"}));
    e = error_of([&] { (void)nt::einsum("... -> ", nt::ones<float>({2, 3})); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"'...' covers 2 axes", "right side has no '...'"}));
    CHECK(nt::einsum("... -> ...", nt::ones<float>({2, 3})).rank() == 2);   // the first fix
    CHECK(nt::einsum("i j -> ", nt::ones<float>({2, 3})).at() == 6.0f);   // the second
    e = error_of([&] { (void)nt::einsum("..., ... -> ...", nt::ones<float>({2, 3}), nt::ones<float>({4, 3})); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"axis 0 of '...'", "size 2", "size 4"}));
    e = error_of([&] { (void)nt::einsum("? ? -> ? ? ?", nt::ones<float>({2, 3})); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"'?' number 3", "no operand has that many '?'"}));
    e = error_of([&] { (void)nt::einsum("... ... -> ...", nt::ones<float>({2, 3})); });
    CHECK(e.code() == nt::errc::invalid_argument);

    // matmul: inner sizes, rank 0, differently named contracted axes, batches.
    const auto a = nt::ones<float>({2, 3});
    const auto b = nt::ones<float>({4, 5});
    e = error_of([&] { (void)nt::matmul(a, b); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"matmul", "(2,3)", "(4,5)", "inner", "Fix"}));
    // Its fix, transpose an operand, run where the operands share a size in the wrong place.
    const auto b2 = nt::arange<float>(8).reshape({2, 4});
    e = error_of([&] { (void)nt::matmul(a, b2); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"transpose an operand (transpose())"}));
    CHECK(nt::matmul(a.transpose(), b2).spec() == nt::spec({3, 4}));
    CHECK(nt::matmul(a.transpose(), b2).to_vector() == nt::tensordot(a, b2, {0}, {0}).to_vector());
    e = error_of([&] { (void)nt::matmul(nt::scalar(2.0f), b); });
    CHECK(e.code() == nt::errc::invalid_argument);
    CHECK(mentions(e, {"Fix: multiply by a scalar with operator*"}));
    CHECK((nt::scalar(2.0f) * b).to_vector() == std::vector<float>(20, 2.0f));  // the fix, run
    e = error_of([&] { (void)nt::matmul(x, u); });
    CHECK(e.code() == nt::errc::name_mismatch);
    CHECK(mentions(e, {"'C'", "'D'", "Fix", "b.rename(0, \"C\")", "nt::dot(a, b.rename(0, \"C\"), {\"C\"})"}));
    // Both fixes it suggests, run.
    CHECK(nt::matmul(x, u.rename(0, "C")).rank() == 2);
    CHECK(nt::dot(x, u.rename(0, "C"), {"C"}).to_vector() == nt::matmul(x, u.rename(0, "C")).to_vector());
    e = error_of([&] { (void)nt::matmul(nt::ones<float>({2, 2, 3}), nt::ones<float>({3, 3, 4})); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"matmul"}));

    // tensordot: counts, lengths, sizes, names on both sides of the result.
    e = error_of([&] { (void)nt::tensordot(a, b, 3); });
    CHECK(e.code() == nt::errc::invalid_argument);
    e = error_of([&] { (void)nt::tensordot(a, b, {1}, {0, 1}); });
    CHECK(e.code() == nt::errc::invalid_argument);
    e = error_of([&] { (void)nt::tensordot(a, b, 1); });
    CHECK(e.code() == nt::errc::incompatible_sizes);
    CHECK(mentions(e, {"tensordot", "(2,3)", "(4,5)", "size 3", "size 4"}));
    e = error_of([&] { (void)nt::tensordot(x, w3, 0); });  // N C C K: 'C' twice
    CHECK(e.code() == nt::errc::duplicate_name);
    e = error_of([&] { (void)nt::tensordot(x, w3, {"Q"}, {"C"}); });
    CHECK(e.code() == nt::errc::axis_out_of_range);
}

TEST_CASE("any_tensor forms decide the type at run time", "[linalg]") {
    const nt::any_tensor a = nt::ones<std::uint8_t>({2, 3}, {"N", "C"});
    const nt::any_tensor b = nt::ones<std::int8_t>({3, 4}, {"C", "K"});
    const nt::any_tensor c = nt::dot(a, b, "C");
    CHECK(c.dtype() == nt::dtype::i16);
    CHECK(nt::einsum("N C, C K -> K N", a, nt::ones<float>({3, 4}, {"C", "K"})).dtype() == nt::dtype::f32);
    CHECK(nt::matmul(a, b).as<std::int16_t>().at(1, 3) == 3);
    CHECK(nt::tensordot(a, b, 1).dtype() == nt::dtype::i16);
}

TEST_CASE("contractions too large for memory or the BLAS are refused, not crashed", "[linalg]") {
    // Broadcast views describe 2^40 elements each without memory; their outer sum
    // over both would need 2^80 products.
    const std::int64_t huge = std::int64_t{1} << 40;
    const auto a = nt::ones<float>({1}).broadcast_to({huge});
    const auto e = error_of([&] { (void)nt::einsum("i, j ->", a, a); });
    CHECK(e.code() == nt::errc::invalid_argument);
}
