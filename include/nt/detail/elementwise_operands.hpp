// nt/detail/elementwise_operands.hpp (internal): what an operand of an element-wise
// operation is, and the type rules that read it:
// - scalars: is_scalar_v, and scalar_as, the conversion of a scalar to an element
//   type as casts convert elements;
// - tensors marked by nt::with_union: tensor_operand, unmarked, any_union_v;
// - the computation types of where (scalar_element_t) and clip (clip_type_t, with
//   clip_bound_as for its scalar bounds).
// Types and conversions only, no work on tensors: the operations are in
// elementwise_dispatch.hpp, the API in <nt/elementwise.hpp>.
#pragma once

#include <limits>
#include <type_traits>
#include <utility>

#include "nt/dtype.hpp"
#include "nt/half.hpp"
#include "nt/promote.hpp"
#include "nt/tensor.hpp"

namespace nt {
template <class T>
struct union_operand;  // <nt/elementwise.hpp>: an operand marked by nt::with_union
namespace detail {

/// An arithmetic scalar operand (or nt::half).
template <class S>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<S> || std::is_same_v<S, half>;

template <class X>
inline constexpr bool is_tensor_v = false;
template <class U>
inline constexpr bool is_tensor_v<Tensor<U>> = true;
template <class X>
inline constexpr bool is_union_v = false;
template <class U>
inline constexpr bool is_union_v<union_operand<U>> = true;

/// A tensor operand of a function of several operands: a tensor, or one marked by
/// nt::with_union, which makes the whole call match with the option `union`.
template <class X>
concept tensor_operand = is_tensor_v<X> || is_union_v<X>;
template <class... X>
inline constexpr bool any_union_v = (is_union_v<X> || ...);

/// The tensor of an operand (the marked one for with_union), a scalar as it is.
template <class X>
const auto& unmarked(const X& x) noexcept {
    if constexpr (is_union_v<X>) return x.tensor;
    else return x;
}
template <class X>
using unmarked_t = std::remove_cvref_t<decltype(unmarked(std::declval<const X&>()))>;

// A scalar converted to an element type as casts convert elements: a floating value
// saturates at an integer type's limits and NaN becomes 0 (static_cast would be
// undefined behaviour out of range: `int_tensor += 1e20`).
template <class T, class S>
T scalar_as(S value) noexcept {
    if constexpr (is_floating_element_v<S> && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (value != value) return T(0);
        if (value <= static_cast<S>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
        if (value >= static_cast<S>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(value);
    } else {
        return static_cast<T>(value);
    }
}

/// The element type of a scalar type S of the same kind and size (long long is
/// std::int64_t, char is std::int8_t, ...), for where with two scalars.
template <class S>
using scalar_element_t = std::conditional_t<
    std::is_same_v<S, bool> || std::is_same_v<S, half>, S,
    std::conditional_t<std::is_floating_point_v<S>, std::conditional_t<(sizeof(S) <= 4), float, double>,
                       std::conditional_t<std::is_signed_v<S>, signed_of_size<sizeof(S)>,
                                          std::make_unsigned_t<signed_of_size<sizeof(S)>>>>>;

/// A value operand of where: a tensor (marked or not) or a scalar.
template <class X>
concept where_value = tensor_operand<X> || is_scalar_v<X>;

/// A bound of clip: a tensor (marked or not) or an arithmetic scalar.
template <class X>
concept clip_bound = tensor_operand<X> || is_scalar_v<X>;

// The type clip computes in: the tensors' common type (promote_t), then the scalar
// bounds as weak scalars (promote_scalar_t), as NumPy 2 does for Python numbers.
template <class C, class X, bool = is_tensor_v<X>>
struct with_tensor_bound {
    using type = C;
};
template <class C, class X>
struct with_tensor_bound<C, X, true> {
    using type = promote_t<C, typename X::value_type>;
};
template <class C, class X, bool = is_tensor_v<X>>
struct with_scalar_bound {
    using type = promote_scalar_t<C, X>;
};
template <class C, class X>
struct with_scalar_bound<C, X, true> {
    using type = C;
};
template <class T, class L, class H>
using clip_type_t = typename with_scalar_bound<
    typename with_scalar_bound<typename with_tensor_bound<typename with_tensor_bound<T, L>::type, H>::type, L>::type,
    H>::type;

/// A scalar bound in C. Integer bounds beyond an integer C's range saturate at its
/// limits (a bound outside the range clips nothing, where a wrapped one would clip
/// at a wrong value: clip(u8, -5, 300) is the identity); others convert as scalar
/// operands do.
template <class C, class S>
C clip_bound_as(S value) noexcept {
    if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool> && std::is_integral_v<S> &&
                  !std::is_same_v<S, bool>) {
        if (std::cmp_less(value, std::numeric_limits<C>::min())) return std::numeric_limits<C>::min();
        if (std::cmp_greater(value, std::numeric_limits<C>::max())) return std::numeric_limits<C>::max();
        return static_cast<C>(value);
    } else {
        return scalar_as<C>(value);
    }
}

}  // namespace detail
}  // namespace nt
