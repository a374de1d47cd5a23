// nt/dtype.hpp and the Hana list of element types.
#include "core_testing.hpp"

#include "nt/detail/element_types.hpp"

#include <boost/hana/equal.hpp>
#include <boost/hana/integral_constant.hpp>
#include <boost/hana/length.hpp>

namespace hana = boost::hana;

TEST_CASE("dtype tags, spellings and sizes", "[dtype]") {
    static_assert(nt::dtype_of<float> == nt::dtype::f32);
    static_assert(nt::dtype_of<bool> == nt::dtype::b8);
    static_assert(nt::element<std::uint8_t> && !nt::element<char> && !nt::element<const float>);
    static_assert(decltype(hana::length(nt::detail::element_types))::value == 6);
    hana::for_each(nt::detail::element_types, [](auto t) {
        using T = typename decltype(t)::type;
        const nt::dtype d = nt::dtype_of<T>;
        CHECK(nt::size_of(d) == sizeof(T));
        nt::dtype parsed{};
        REQUIRE(nt::dtype_from_string(nt::to_string(d), parsed));
        CHECK(parsed == d);
        bool visited = false;
        nt::detail::visit_dtype(d, [&](auto u) { visited = std::is_same_v<typename decltype(u)::type, T>; });
        CHECK(visited);
        CHECK(nt::zeros<T>({1}).dtype() == d);
    });
    CHECK(nt::to_string(nt::dtype::i64) == "i64");
    nt::dtype d{};
    CHECK(nt::dtype_from_string("float64", d));
    CHECK(d == nt::dtype::f64);
    CHECK_FALSE(nt::dtype_from_string("complex", d));
}
