// nt::any_tensor against Tensor<T>, the oracle: every structural view gives the same
// spec, strides, storage and elements; visit, as / astype / is; fill; printing; and
// every element-wise operation, in-place form and reduction on any_tensor operands
// gives the typed result's dtype and bytes (or the same error) for every pair of
// element types (nt::test::element_types, from NT_FOR_EACH_ELEMENT_TYPE).
#include <catch2/catch.hpp>

#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"
#include "nt_test_bytes.hpp"
#include "nt_test_types.hpp"

using nt::test::error_message;

namespace {

/// Calls f(std::type_identity<T>{}) for each element type (nt::test::element_types).
template <class F>
void for_each_type(F&& f) {
    nt::test::for_each_element_type(std::forward<F>(f));
}

using nt::test::bytes_of;

/// The typed result and the any_tensor result agree: dtype, spec, bytes.
void same_result(const nt::any_tensor& typed, const nt::any_tensor& any) {
    CHECK(nt::to_string(any.dtype()) == nt::to_string(typed.dtype()));
    CHECK(any.spec() == typed.spec());
    CHECK(bytes_of(any) == bytes_of(typed));
}

/// Runs the typed and the any form; both give the same result or the same error.
/// (Not a template: the ~1,500 lambdas of the pair checks share one same_outcome.)
void same_outcome(const std::string& what, nt::test::callback_ref<nt::any_tensor> typed,
                  nt::test::callback_ref<nt::any_tensor> any) {
    INFO(what);
    std::string typed_error, any_error;
    nt::any_tensor t, a;
    try {
        t = typed();
    } catch (const nt::error& e) {
        typed_error = e.what();
    }
    try {
        a = any();
    } catch (const nt::error& e) {
        any_error = e.what();
    }
    CHECK(any_error == typed_error);
    if (typed_error.empty() && any_error.empty()) same_result(t, a);
}

/// Test values of T: the same doubles converted by the library's cast.
template <class T>
nt::Tensor<T> values(std::initializer_list<std::int64_t> shape, nt::names_arg names, int shift) {
    const double pool[] = {-3.5, -1, 0, 0.5, 1, 2, 7, 100, 300, -120, 3, 64};
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = pool[(i + static_cast<std::size_t>(shift)) % std::size(pool)];
    return nt::from_vector(v, shape, names).template astype<T>();
}

/// A view through `op` of a typed tensor and of the same tensor as any_tensor agree.
template <class T, class Op>
void same_view(const std::string& what, const nt::Tensor<T>& t, Op&& op) {
    INFO(what);
    std::string typed_error, any_error;
    try {
        const nt::Tensor<T> v = op(t);
        const nt::any_tensor a = op(nt::any_tensor(t));
        CHECK(a.dtype() == v.dtype());
        CHECK(a.spec() == v.spec());
        CHECK(std::vector<std::int64_t>(a.strides().begin(), a.strides().end()) ==
              std::vector<std::int64_t>(v.strides().begin(), v.strides().end()));
        CHECK(a.shares_storage(v) == v.shares_storage(t));
        CHECK(a.is_read_only() == v.is_read_only());
        CHECK(a.is_contiguous() == v.is_contiguous());
        if (v.shares_storage(t)) CHECK(a.data() == static_cast<const void*>(v.data()));
        CHECK(a.as<T>().to_vector() == v.to_vector());
        return;
    } catch (const nt::error& e) {
        typed_error = e.what();
    }
    try {
        (void)op(nt::any_tensor(t));
    } catch (const nt::error& e) {
        any_error = e.what();
    }
    CHECK(any_error == typed_error);
}

}  // namespace

TEST_CASE("every structural view of any_tensor matches Tensor<T>'s", "[any_tensor]") {
    const auto t = nt::arange<std::int32_t>(120).reshape({2, 3, 4, 5}, {"N", "C", "H", "W"});
    const auto u = nt::arange<std::int32_t>(6).reshape({3, 1, 2});
    same_view("reshape", t, [](const auto& x) { return x.reshape({6, -1}); });
    same_view("reshape names", t, [](const auto& x) { return x.reshape({6, 20}, {"A", "B"}); });
    same_view("reshape fortran", t, [](const auto& x) { return x.reshape({20, 6}, nt::order::fortran); });
    same_view("view", t, [](const auto& x) { return x.view({2, 3, 20}); });
    same_view("view error", t, [](const auto& x) { return x.transpose().view({120}); });
    same_view("flatten", t, [](const auto& x) { return x.flatten(); });
    same_view("flatten range", t, [](const auto& x) { return x.flatten("C", "H", "CH"); });
    same_view("unflatten", t, [](const auto& x) { return x.unflatten("W", {5, 1}, {"W1", "W2"}); });
    same_view("squeeze", u, [](const auto& x) { return x.squeeze(1); });
    same_view("squeeze error", u, [](const auto& x) { return x.squeeze(0); });
    same_view("squeeze_all", u, [](const auto& x) { return x.squeeze_all(); });
    same_view("unsqueeze", t, [](const auto& x) { return x.unsqueeze(-1, "X"); });
    same_view("transpose", t, [](const auto& x) { return x.transpose(); });
    same_view("transpose(a, b)", t, [](const auto& x) { return x.transpose("N", -1); });
    same_view("swap_axes", t, [](const auto& x) { return x.swap_axes(0, 2); });
    same_view("permute", t, [](const auto& x) { return x.permute({"W", "N", "C", "H"}); });
    same_view("move_axis", t, [](const auto& x) { return x.move_axis("C", -1); });
    same_view("move_axes", t, [](const auto& x) { return x.move_axes({0, 1}, {-1, -2}); });
    same_view("move_axes positions", t, [](const auto& x) { return x.move_axes({3, 2, 1, 0}); });
    same_view("slice", t, [](const auto& x) { return x.slice("W", 1, -1, 2); });
    same_view("slice range", t, [](const auto& x) { return x.slice(1, nt::range(std::nullopt, std::nullopt, -1)); });
    same_view("unfold", t, [](const auto& x) { return x.unfold("W", 3, 1, "K"); });
    same_view("broadcast_to", u, [](const auto& x) { return x.broadcast_to({4, 3, 5, 2}); });
    same_view("broadcast_to spec", t, [](const auto& x) { return x.broadcast_to(nt::spec({7, 2, 3, 4, 5}, {"B", "N", "C", "H", "W"})); });
    same_view("broadcast_to error", t, [](const auto& x) { return x.broadcast_to({3, 3}); });
    same_view("broadcast_like", u, [&](const auto& x) { return x.broadcast_like(nt::zeros<float>({2, 3, 4, 2})); });
    same_view("broadcast_left", t, [](const auto& x) { return x.broadcast_left({2}); });
    same_view("expand_dims", t, [](const auto& x) { return x.expand_dims({0, -1}); });
    same_view("align_to", t, [](const auto& x) { return x.align_to("W", "...", "N"); });
    same_view("align_to list", t, [](const auto& x) { return x.align_to({"H", "X", "W", "N", "C"}); });
    same_view("align_as", t, [&](const auto& x) { return x.align_as(nt::zeros<float>({1, 1, 1, 1, 1}, {"W", "H", "Z", "C", "N"})); });
    same_view("rename", t, [](const auto& x) { return x.rename({"a", "b", "c", "d"}); });
    same_view("rename one", t, [](const auto& x) { return x.rename("C", "K"); });
    same_view("refine_names", u, [](const auto& x) { return x.refine_names({"A", "?", "B"}); });
    same_view("refine_names error", t, [](const auto& x) { return x.refine_names({"A", "B", "C", "D"}); });
    same_view("index", t, [](const auto& x) { return x.index(1, nt::all, nt::range(1, 4, 2), -1); });
    same_view("index error", t, [](const auto& x) { return x.index(5); });
    same_view("contiguous", t, [](const auto& x) { return x.transpose().contiguous(); });
    same_view("contiguous self", t, [](const auto& x) { return x.contiguous(); });
    same_view("clone", t, [](const auto& x) { return x.clone(); });
}

TEST_CASE("any_tensor queries, visit, as, is, astype", "[any_tensor]") {
    const auto t = nt::arange<float>(6).reshape({2, 3}, {"N", "C"});
    const nt::any_tensor a = t;
    CHECK(a.dtype() == nt::dtype::f32);
    CHECK(a.rank() == 2);
    CHECK(a.size() == 6);
    CHECK(a.size("C") == 3);
    CHECK(a.spec() == t.spec());
    CHECK(a.shares_storage(t));
    CHECK(a.is<float>());
    CHECK_FALSE(a.is<double>());

    const nt::Tensor<float> back = a.as<float>();
    CHECK(back.shares_storage(t));
    const std::string m = error_message(nt::errc::type_mismatch, [&] { (void)a.as<std::int32_t>(); });
    CHECK_THAT(m, Catch::Contains("f32") && Catch::Contains("i32") && Catch::Contains("astype"));

    const auto d = a.astype<double>();
    CHECK(d.to_vector() == t.astype<double>().to_vector());
    CHECK_FALSE(d.shares_storage(t));
    CHECK(d.spec() == t.spec());
    const nt::any_tensor i = a.astype(nt::dtype::i32);
    CHECK(i.dtype() == nt::dtype::i32);
    CHECK(i.as<std::int32_t>().to_vector() == t.astype<std::int32_t>().to_vector());
    const nt::any_tensor same = a.astype(nt::dtype::f32);
    CHECK_FALSE(same.shares_storage(a));  // astype always copies

    // visit hands over the typed tensor sharing storage.
    const auto size = nt::visit([](const auto& x) { return x.size(); }, a);
    CHECK(size == 6);
    for_each_type([&](auto type) {
        using T = typename decltype(type)::type;
        const nt::any_tensor x = a.astype(nt::dtype_of<T>);
        const bool right_type = nt::visit(
            [&](const auto& typed) {
                using U = typename std::decay_t<decltype(typed)>::value_type;
                return std::is_same_v<U, T> && x.shares_storage(typed) && typed.spec() == t.spec();
            },
            x);
        CHECK(right_type);
    });

    // Printing goes through the tensor printer.
    std::ostringstream os;
    os << a;
    CHECK(os.str() == nt::to_string(t));
    CHECK(nt::to_string(a) == nt::to_string(t));
}

TEST_CASE("any_tensor fill and assign convert as scalar operands do", "[any_tensor]") {
    for_each_type([&](auto type) {
        using T = typename decltype(type)::type;
        INFO(nt::to_string(nt::dtype_of<T>));
        for (const double v : {2.7, -3.0, 1e20, -1e20, 0.0}) {
            nt::any_tensor a = nt::zeros<T>({2, 2});
            a.fill(v);
            // The typed oracle: t = 0; t += v stores back with the cast rules.
            auto t = nt::zeros<T>({2, 2});
            t += v;
            CHECK(bytes_of(a) == bytes_of(t));
        }
        nt::any_tensor a = nt::zeros<T>({2, 3});
        a.index(nt::all, 1).assign(nt::any_tensor(nt::scalar<std::int32_t>(1)));
        auto t = nt::zeros<T>({2, 3});
        t.index(nt::all, 1).assign(nt::scalar<std::int32_t>(1));
        CHECK(bytes_of(a) == bytes_of(t));
    });
    nt::any_tensor b = nt::zeros<float>({3}).broadcast_to({2, 3});
    CHECK(error_message(nt::errc::read_only, [&] { b.fill(1); }).find("fill") != std::string::npos);
}

namespace {

template <class A, class B>
void check_pair() {
    const auto a = values<A>({2, 3}, {"N", "C"}, 0);
    const auto b = values<B>({3}, {"C"}, 5);
    const auto c = values<B>({2, 1}, {}, 2);
    const nt::any_tensor x = a, y = b, z = c;
    const std::string pair = std::string(nt::to_string(a.dtype())) + " " + std::string(nt::to_string(b.dtype()));
    same_outcome(pair + " +", [&] { return a + b; }, [&] { return x + y; });
    same_outcome(pair + " -", [&] { return a - c; }, [&] { return x - z; });
    same_outcome(pair + " *", [&] { return a * b; }, [&] { return x * b; });  // mixed any and typed
    same_outcome(pair + " /", [&] { return a / b; }, [&] { return a / y; });
    same_outcome(pair + " <", [&] { return a < b; }, [&] { return x < y; });
    same_outcome(pair + " maximum", [&] { return nt::maximum(a, c); }, [&] { return nt::maximum(x, z); });
    same_outcome(pair + " where", [&] { return nt::where(a > 0, a, c); },
                 [&] { return nt::where(x > 0, x, z); });
    same_outcome(pair + " +=", [&] {
        auto d = a.clone();
        d += b;
        return d;
    }, [&] {
        nt::any_tensor d = x.clone();
        d += y;
        return d;
    });
}

template <class T>
void check_one_type() {
    const auto a = values<T>({2, 3}, {"N", "C"}, 1);
    const nt::any_tensor x = a;
    const std::string type(nt::to_string(a.dtype()));
    for_each_type([&](auto other) { check_pair<T, typename decltype(other)::type>(); });

    // Scalars of every kind, both sides.
    same_outcome(type + " + 2", [&] { return a + 2; }, [&] { return x + 2; });
    same_outcome(type + " + 2u", [&] { return a + 2u; }, [&] { return x + 2u; });
    same_outcome(type + " * 0.5", [&] { return a * 0.5; }, [&] { return x * 0.5; });
    same_outcome(type + " + true", [&] { return a + true; }, [&] { return x + true; });
    same_outcome("3 - " + type, [&] { return 3 - a; }, [&] { return 3 - x; });
    same_outcome(type + " < 1.5f", [&] { return a < 1.5f; }, [&] { return x < 1.5f; });
    same_outcome(type + " %= 2", [&] {
        auto d = a.clone();
        d %= 2;
        return d;
    }, [&] {
        nt::any_tensor d = x.clone();
        d %= 2;
        return d;
    });
    same_outcome(type + " *= 0.5", [&] {
        auto d = a.clone();
        d *= 0.5;
        return d;
    }, [&] {
        nt::any_tensor d = x.clone();
        d *= 0.5;
        return d;
    });

    // Unary functions.
    same_outcome(type + " abs", [&] { return nt::abs(a); }, [&] { return nt::abs(x); });
    same_outcome(type + " neg", [&] { return -a; }, [&] { return -x; });
    same_outcome(type + " exp", [&] { return nt::exp(a); }, [&] { return nt::exp(x); });
    same_outcome(type + " sqrt", [&] { return nt::sqrt(a); }, [&] { return nt::sqrt(x); });
    same_outcome(type + " sigmoid", [&] { return nt::sigmoid(a); }, [&] { return nt::sigmoid(x); });
    same_outcome(type + " !", [&] { return !a; }, [&] { return !x; });

    // Reductions: every axis, by name, keepdims.
    same_outcome(type + " sum", [&] { return nt::sum(a); }, [&] { return nt::sum(x); });
    same_outcome(type + " sum C", [&] { return nt::sum(a, "C"); }, [&] { return nt::sum(x, "C"); });
    same_outcome(type + " mean", [&] { return nt::mean(a, {"N", "C"}, true); }, [&] { return nt::mean(x, {"N", "C"}, true); });
    same_outcome(type + " min", [&] { return nt::min(a, 1); }, [&] { return nt::min(x, 1); });
    same_outcome(type + " max", [&] { return nt::max(a); }, [&] { return nt::max(x); });
    same_outcome(type + " prod", [&] { return nt::prod(a, "N"); }, [&] { return nt::prod(x, "N"); });
    same_outcome(type + " argmax", [&] { return nt::argmax(a, "C"); }, [&] { return nt::argmax(x, "C"); });
    same_outcome(type + " argmin", [&] { return nt::argmin(a); }, [&] { return nt::argmin(x); });
    same_outcome(type + " any", [&] { return nt::any(a, "C"); }, [&] { return nt::any(x, "C"); });
    same_outcome(type + " all", [&] { return nt::all(a, "N", true); }, [&] { return nt::all(x, "N", true); });
    same_outcome(type + " all()", [&] { return nt::all(a); }, [&] { return nt::all(x); });
    same_outcome(type + " min empty", [&] { return nt::min(a.slice(0, 0, 0), 0); },
                 [&] { return nt::min(x.slice(0, 0, 0), 0); });
}

}  // namespace

TEST_CASE("operations on any_tensor match the typed ones for every dtype pair", "[any_tensor][ops]") {
    for_each_type([&](auto type) { check_one_type<typename decltype(type)::type>(); });
}

TEST_CASE("& | ^ on any_tensor take bool and integer tensors", "[any_tensor][ops]") {
    const nt::any_tensor m = nt::tensor<bool>({true, false, true});
    const auto n = nt::tensor<bool>({true, true, false});
    CHECK((m & n).as<bool>().to_vector() == std::vector<bool>{true, false, false});
    CHECK((n | m).as<bool>().to_vector() == std::vector<bool>{true, true, true});
    CHECK((m ^ m).as<bool>().to_vector() == std::vector<bool>{false, false, false});
    // bool with an integer: bitwise in the integer type (NumPy's bitwise_and).
    const nt::any_tensor i = nt::tensor<std::int32_t>({1, 3, 3});
    CHECK((i & m).as<std::int32_t>().to_vector() == std::vector<std::int32_t>{1, 0, 1});
    const nt::any_tensor f = nt::arange<float>(3);
    CHECK_THAT(error_message(nt::errc::type_mismatch, [&] { (void)(f & m); }), Catch::Contains("logical_and"));
}

TEST_CASE("in-place forms on any_tensor write through views and typed tensors", "[any_tensor][ops]") {
    // The same steps on a typed tensor are the oracle.
    auto t = nt::arange<std::int32_t>(6).reshape({2, 3}, {"N", "C"});
    auto expected = t.clone();
    nt::any_tensor col = nt::any_tensor(t).index(nt::all, 1);
    auto typed_col = expected.index(nt::all, 1);
    col += nt::any_tensor(nt::scalar<double>(0.5));  // computed in f64, stored back as i32
    typed_col += nt::scalar<double>(0.5);
    col *= 10;
    typed_col *= 10;
    CHECK(t.to_vector() == expected.to_vector());
    t += nt::any_tensor(nt::ones<std::uint8_t>({3}, {"C"}));  // a Tensor<T> destination
    expected += nt::ones<std::uint8_t>({3}, {"C"});
    CHECK(t.to_vector() == expected.to_vector());
    // The source overlaps the destination: read as it was before the write.
    nt::any_tensor whole = t;
    whole += whole.slice("C", std::nullopt, std::nullopt, -1);
    expected += expected.slice("C", std::nullopt, std::nullopt, -1);
    CHECK(t.to_vector() == expected.to_vector());
    CHECK(t.to_vector() != std::vector<std::int32_t>(6, 0));

    std::string typed_error;
    try {
        expected += nt::ones<float>({4});
    } catch (const nt::error& e) {
        typed_error = e.what();
    }
    try {
        whole += nt::any_tensor(nt::ones<float>({4}));
        FAIL("no error");
    } catch (const nt::error& e) {
        CHECK(std::string(e.what()) == typed_error);
    }
    nt::any_tensor ro = nt::zeros<float>({3}).broadcast_to({2, 3});
    CHECK_THAT(error_message(nt::errc::read_only, [&] { ro += 1; }), Catch::Contains("operator+="));
}
