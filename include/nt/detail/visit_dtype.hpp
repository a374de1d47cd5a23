// nt/detail/visit_dtype.hpp: the one visitor from a runtime dtype to its static
// element type. nt::visit (any_tensor), the compiled library (src/) and the tests
// all dispatch through it; a new element type in NT_FOR_EACH_ELEMENT_TYPE reaches
// every one of them from here.
//
// A switch over the X-macro: a jump table, and no type-list library in a public
// header (the Boost.Hana list of src/engine/element_types.hpp stays for compile-time
// work over every type or pair, which is not a visit).
#pragma once

#include <type_traits>
#include <utility>

#include "nt/dtype.hpp"

namespace nt::detail {

/// Calls `f(std::type_identity<T>{})` for the T whose dtype is `d` and returns what f
/// returns (the same type for every T). A dtype outside the list (which no public
/// operation builds) calls nothing when f returns void, and f for float otherwise.
///     visit_dtype(t.type(), [&](auto type) { using T = typename decltype(type)::type; ... });
template <class F>
decltype(auto) visit_dtype(dtype d, F&& f) {
    switch (d) {
#define NT_VISIT_DTYPE_CASE(T, TAG, NAME) \
    case dtype::TAG: return std::forward<F>(f)(std::type_identity<T>{});
        NT_FOR_EACH_ELEMENT_TYPE(NT_VISIT_DTYPE_CASE)
#undef NT_VISIT_DTYPE_CASE
    }
    if constexpr (std::is_void_v<std::invoke_result_t<F, std::type_identity<float>>>) return;
    else return std::forward<F>(f)(std::type_identity<float>{});
}

}  // namespace nt::detail
