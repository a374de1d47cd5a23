// The element types as a type list for TEMPLATE_LIST_TEST_CASE, from the one list
// NT_FOR_EACH_ELEMENT_TYPE (tests of the tensor core; the matcher's tests do not see
// nt/dtype.hpp).
#pragma once

#include <tuple>
#include <type_traits>

#include "nt/dtype.hpp"

namespace nt::test {

namespace detail {
template <class Void, class... Ts>
struct drop_void {
    using type = std::tuple<Ts...>;
};
}  // namespace detail

/// Every element type, from NT_FOR_EACH_ELEMENT_TYPE, as a std::tuple for
/// TEMPLATE_LIST_TEST_CASE (a type added to the list is tested everywhere).
#define NT_TEST_ELEMENT_TYPE(T, TAG, NAME) , T
using element_types = typename detail::drop_void<void NT_FOR_EACH_ELEMENT_TYPE(NT_TEST_ELEMENT_TYPE)>::type;
#undef NT_TEST_ELEMENT_TYPE

namespace detail {
template <class F, class... T>
void for_each_type_in(std::tuple<T...>*, F&& f) {
    (f(std::type_identity<T>{}), ...);
}
}  // namespace detail

/// Calls f(std::type_identity<T>{}) for each element type, in element_types order
/// (run-time dispatch in the oracle replays: compare nt::dtype_of<T> inside f).
template <class F>
void for_each_element_type(F&& f) {
    detail::for_each_type_in(static_cast<element_types*>(nullptr), f);
}

}  // namespace nt::test
