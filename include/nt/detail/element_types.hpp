// nt/detail/element_types.hpp: the supported element types as a Boost.Hana list, and
// a dispatcher from a runtime dtype to its static type. Hana stays out of the public
// hot path: only .cpp files and tests include this header.
#pragma once

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <cstdint>
#include <utility>

#include "nt/dtype.hpp"

namespace nt::detail {

/// Every element type nt::Tensor supports, in dtype order.
inline constexpr auto element_types =
    boost::hana::tuple_t<float, double, std::int32_t, std::int64_t, std::uint8_t, bool>;

/// Calls `f(boost::hana::type_c<T>)` for the T whose dtype is `d`.
template <class F>
void visit_dtype(dtype d, F&& f) {
    boost::hana::for_each(element_types, [&](auto t) {
        using T = typename decltype(t)::type;
        if (dtype_of<T> == d) f(t);
    });
}

}  // namespace nt::detail
