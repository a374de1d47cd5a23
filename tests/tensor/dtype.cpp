// nt/dtype.hpp, nt/half.hpp and the Hana list of element types.
#include "core_testing.hpp"

#include "element_types.hpp"

#include <boost/hana/equal.hpp>
#include <boost/hana/integral_constant.hpp>
#include <boost/hana/length.hpp>

namespace hana = boost::hana;

TEST_CASE("dtype tags, spellings and sizes", "[dtype]") {
    static_assert(nt::dtype_of<float> == nt::dtype::f32);
    static_assert(nt::dtype_of<bool> == nt::dtype::b8);
    static_assert(nt::dtype_of<nt::half> == nt::dtype::f16);
    static_assert(std::is_same_v<nt::element_type_t<nt::dtype::u16>, std::uint16_t>);
    static_assert(nt::element<std::uint8_t> && nt::element<nt::half> && !nt::element<char> &&
                  !nt::element<const float> && !nt::element<long double>);
    static_assert(decltype(hana::length(nt::detail::element_types))::value == nt::dtype_count);
    static_assert(nt::dtype_count == 12);
    std::size_t index = 0;
    hana::for_each(nt::detail::element_types, [&](auto t) {
        using T = typename decltype(t)::type;
        const nt::dtype d = nt::dtype_of<T>;
        INFO(nt::to_string(d));
        CHECK(static_cast<std::size_t>(d) == index++);
        CHECK(nt::size_of(d) == sizeof(T));
        CHECK(std::is_same_v<nt::element_type_t<nt::dtype_of<T>>, T>);
        nt::dtype parsed{};
        REQUIRE(nt::dtype_from_string(nt::to_string(d), parsed));
        CHECK(parsed == d);
        REQUIRE(nt::dtype_from_string(nt::numpy_name(d), parsed));
        CHECK(parsed == d);
        bool visited = false;
        nt::detail::visit_dtype(d, [&](auto u) { visited = std::is_same_v<typename decltype(u)::type, T>; });
        CHECK(visited);
        CHECK(nt::zeros<T>({1}).dtype() == d);
        // The run-time promotion agrees with the compile-time one for every pair.
        hana::for_each(nt::detail::element_types, [&](auto u) {
            using U = typename decltype(u)::type;
            CHECK(nt::promote_types(d, nt::dtype_of<U>) == nt::dtype_of<nt::promote_t<T, U>>);
        });
    });
    CHECK(nt::to_string(nt::dtype::i64) == "i64");
    CHECK(nt::to_string(nt::dtype::f16) == "f16");
    CHECK(nt::numpy_name(nt::dtype::f16) == "float16");
    CHECK(nt::numpy_name(nt::dtype::b8) == "bool");
    nt::dtype d{};
    CHECK(nt::dtype_from_string("float64", d));
    CHECK(d == nt::dtype::f64);
    CHECK(nt::dtype_from_string("uint16", d));
    CHECK(d == nt::dtype::u16);
    CHECK_FALSE(nt::dtype_from_string("complex", d));
    CHECK_FALSE(nt::dtype_from_string("float128", d));
}

TEST_CASE("nt::half: limits, conversions, arithmetic in float", "[dtype][half]") {
    static_assert(sizeof(nt::half) == 2);
    static_assert(nt::half(1.0f).bits() == 0x3c00);
    static_assert(float(nt::half::from_bits(0x7bff)) == 65504.0f);
    static_assert(float(std::numeric_limits<nt::half>::denorm_min()) == 0x1p-24f);
    static_assert(float(std::numeric_limits<nt::half>::epsilon()) == 0x1p-10f);
    static_assert(nt::half(65519.0).bits() == 0x7bff && nt::half(65520.0).bits() == 0x7c00);
    static_assert(nt::half(-1e9).bits() == 0xfc00);
    // Rounded once from double: 1 + 2^-11 + 2^-40 is above the tie, so it rounds up,
    // where a detour through float (1 + 2^-11, a tie) would round to even (down).
    static_assert(nt::half(1.0 + 0x1p-11 + 0x1p-40).bits() == 0x3c01);
    static_assert(nt::half(1.0f + 0x1p-11f).bits() == 0x3c00);
    const nt::half h = 0.1;
    CHECK(h.bits() == 0x2e66);
    const float twice = h * 2;  // float arithmetic
    CHECK(twice == 2 * 0.0999755859375f);
    CHECK(std::isnan(float(nt::half(std::numeric_limits<float>::quiet_NaN()))));
    CHECK(nt::half(3).bits() == nt::half(3.0f).bits());
    CHECK(static_cast<int>(nt::half(-2.75f)) == -2);
}
