// The structure ops for every element type. The NumPy oracle (numpy_structure_ops.cpp)
// runs in f64; these ops move elements by their size, so for each type T the law
//     op(x.astype<T>()) == op(x).astype<T>()
// checks the movement of 1, 2, 4 and 8-byte elements (and fold's adds in T). The
// values are small integers, exact in every type.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_types.hpp"

namespace {

/// (2,3,4 | N,?,W) holding i % 4.
nt::Tensor<double> sample() {
    return nt::arange<double>(24).reshape({2, 3, 4}, {"N", "?", "W"}) % 4.0;
}

template <class T>
void same(const std::string& what, const nt::Tensor<T>& got, const nt::Tensor<double>& want_f64) {
    INFO(what << " for " << nt::to_string(nt::dtype_of<T>));
    const nt::Tensor<T> want = want_f64.template astype<T>();
    REQUIRE(got.spec() == want.spec());
    CHECK(got.template astype<double>().to_vector() == want.template astype<double>().to_vector());
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("structure ops move elements of every type", "[structure][dtype]",
                        nt::test::element_types) {
    using T = TestType;
    const nt::Tensor<double> x = sample();
    const nt::Tensor<T> t = x.template astype<T>();
    const nt::Tensor<double> y = x.slice(0, 0, 1) + 1.0;
    const nt::Tensor<T> u = y.template astype<T>();

    same("concatenate", nt::concatenate({t, u}, "N"), nt::concatenate({x, y}, "N"));
    same("stack", nt::stack({t, t}, 1, "S"), nt::stack({x, x}, 1, "S"));
    const auto parts = nt::split(t, "W", 2);
    const auto parts_f64 = nt::split(x, "W", 2);
    REQUIRE(parts.size() == parts_f64.size());
    for (std::size_t i = 0; i < parts.size(); ++i) same("split", parts[i], parts_f64[i]);
    for (const nt::pad_mode mode : {nt::pad_mode::constant, nt::pad_mode::edge, nt::pad_mode::reflect,
                                    nt::pad_mode::symmetric, nt::pad_mode::wrap})
        same("pad " + std::to_string(static_cast<int>(mode)), nt::pad(t, {{"W", {2, 1}}, {1, {1, 2}}}, mode, T(1)),
             nt::pad(x, {{"W", {2, 1}}, {1, {1, 2}}}, mode, 1.0));
    same("flip", nt::flip(t, {"W", 0}), nt::flip(x, {"W", 0}));
    same("roll", nt::roll(t, -3, "W"), nt::roll(x, -3, "W"));
    same("repeat", nt::repeat(t, 3, 1), nt::repeat(x, 3, 1));
    same("tile", nt::tile(t, {2, 1, 3}), nt::tile(x, {2, 1, 3}));
    same("rearrange", nt::rearrange(t, "N a (W w) -> (N w) a W", {{"w", 2}}),
         nt::rearrange(x, "N a (W w) -> (N w) a W", {{"w", 2}}));
    same("unfold", t.unfold({"W", 1}, {2, 2}, {1, 1}).contiguous(), x.unfold({"W", 1}, {2, 2}, {1, 1}).contiguous());
    if constexpr (!std::is_same_v<T, bool>) {
        const auto patches = t.unfold({"W", 1}, {2, 2}, {1, 1});
        const auto patches_f64 = x.unfold({"W", 1}, {2, 2}, {1, 1});
        same("fold", nt::fold(patches, {"W", 1}, {4, 3}, {1, 1}), nt::fold(patches_f64, {"W", 1}, {4, 3}, {1, 1}));
        same("fold_counts", nt::fold_counts(patches, {"W", 1}, {4, 3}, {1, 1}),
             nt::fold_counts(patches_f64, {"W", 1}, {4, 3}, {1, 1}));
    }
}
