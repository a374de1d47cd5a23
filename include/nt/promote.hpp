// nt/promote.hpp: result element types of mixed-type operations: NumPy's
// np.result_type for every pair of element types.
//
// The rule (docs/reference.md has the full 12 x 12 table, generated from NumPy):
//   - bool with any type gives that type;
//   - two integers of one signedness give the wider;
//   - a signed and an unsigned integer give the signed one if it is wider, else the
//     signed integer twice the unsigned one's width (u8, i8 -> i16; u32, i32 -> i64),
//     and double when there is none (u64 with any signed integer);
//   - an integer with a floating type gives the wider of that type and the smallest
//     floating type that holds the integer's values (8 bits: half, 16 bits: float,
//     32 and 64 bits: double), so f16, i16 -> f32 and f32, i32 -> f64;
//   - two floating types give the wider.
// nt::promote_types (nt/dtype.hpp) answers the same question at run time from a table
// built from promote_t, so the two cannot disagree.
#pragma once

#include <cstdint>
#include <type_traits>

#include "nt/dtype.hpp"

namespace nt {

namespace detail {

template <std::size_t Bytes>
using signed_of_size =
    std::conditional_t<Bytes == 1, std::int8_t,
                       std::conditional_t<Bytes == 2, std::int16_t, std::conditional_t<Bytes == 4, std::int32_t, std::int64_t>>>;
template <std::size_t Bytes>
using floating_of_size = std::conditional_t<Bytes <= 2, half, std::conditional_t<Bytes == 4, float, double>>;

template <class A, class B>
constexpr auto promote_impl() {
    static_assert(element<A> && element<B>, "nt::promote_t: both types must be element types (" NT_ELEMENT_TYPE_NAMES ")");
    if constexpr (std::is_same_v<A, B>) return A{};
    else if constexpr (std::is_same_v<A, bool>) return B{};
    else if constexpr (std::is_same_v<B, bool>) return A{};
    else if constexpr (!is_floating_element_v<A> && !is_floating_element_v<B>) {
        if constexpr (std::is_signed_v<A> == std::is_signed_v<B>)
            return std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>{};
        else {
            using S = std::conditional_t<std::is_signed_v<A>, A, B>;
            using U = std::conditional_t<std::is_signed_v<A>, B, A>;
            if constexpr (sizeof(S) > sizeof(U)) return S{};
            else if constexpr (sizeof(U) < 8) return signed_of_size<2 * sizeof(U)>{};
            else return double{};
        }
    } else if constexpr (is_floating_element_v<A> && is_floating_element_v<B>) {
        return std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>{};
    } else {
        using F = std::conditional_t<is_floating_element_v<A>, A, B>;
        using I = std::conditional_t<is_floating_element_v<A>, B, A>;
        // The smallest floating type that holds every value of I: its mantissa needs
        // more bits than I has (NumPy's rule; int64 -> double is the exception).
        using Holds = floating_of_size<2 * sizeof(I)>;
        return std::conditional_t<(sizeof(F) >= sizeof(Holds)), F, Holds>{};
    }
}

/// A tensor of T combined with a scalar S ("weak" scalar, NumPy's rule for Python
/// numbers): an integer scalar keeps T (bool becomes int64), a floating scalar keeps
/// a floating T and makes integers double.
template <class T, class S>
constexpr auto promote_scalar_impl() {
    if constexpr (is_floating_element_v<S>) return std::conditional_t<is_floating_element_v<T>, T, double>{};
    else if constexpr (std::is_same_v<T, bool> && !std::is_same_v<S, bool>) return std::int64_t{};
    else return T{};
}
}  // namespace detail

/// The common element type of two tensors' element types (np.result_type).
template <class A, class B>
using promote_t = decltype(detail::promote_impl<A, B>());

/// The element type of `Tensor<T> op scalar-of-S`.
template <class T, class S>
using promote_scalar_t = decltype(detail::promote_scalar_impl<T, S>());

}  // namespace nt
