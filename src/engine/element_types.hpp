// element_types.hpp (private): the element types as a Boost.Hana list, built from
// NT_FOR_EACH_ELEMENT_TYPE (nt/dtype.hpp), and the dispatcher from a runtime dtype to
// its static type (detail::visit_dtype, whose one home is nt/detail/visit_dtype.hpp;
// included here so that the compiled core finds it where it always did).
//
// Why Hana here and an X-macro in the public header: compile-time work over the
// types (every pair for the promotion table and the casts) reads best as algorithms
// on a type list, and Hana is heavy, so it stays in src/ and the tests (private
// include directory), never in include/nt/.
#pragma once

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <cstdint>
#include <utility>

#include "nt/detail/visit_dtype.hpp"
#include "nt/dtype.hpp"

namespace nt::detail {

namespace element_types_impl {
// The macro expands to ", bool, std::int8_t, ..."; the leading `void` absorbs the
// first comma.
template <class Void, class... Ts>
inline constexpr auto drop_void = boost::hana::tuple_t<Ts...>;
#define NT_HANA_ELEMENT(T, TAG, NAME) , T
inline constexpr auto list = drop_void<void NT_FOR_EACH_ELEMENT_TYPE(NT_HANA_ELEMENT)>;
#undef NT_HANA_ELEMENT
}  // namespace element_types_impl

/// Every element type nt::Tensor supports, in dtype order.
inline constexpr auto element_types = element_types_impl::list;

}  // namespace nt::detail
