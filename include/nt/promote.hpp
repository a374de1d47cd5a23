// nt/promote.hpp: result element types of mixed-type operations (NumPy's rules
// for ntensor's element types).
//
//            bool   uint8  int32  int64  float  double
//   bool     bool   uint8  int32  int64  float  double
//   uint8           uint8  int32  int64  float  double
//   int32                  int32  int64  double double
//   int64                         int64  double double
//   float                                float  double
//   double                                      double
#pragma once

#include <cstdint>
#include <type_traits>

namespace nt {

namespace detail {
template <class T>
inline constexpr int integer_rank = std::is_same_v<T, bool> ? 0 : static_cast<int>(sizeof(T));

template <class A, class B>
constexpr auto promote_impl() {
    if constexpr (std::is_same_v<A, B>) return A{};
    else if constexpr (std::is_same_v<A, bool>) return B{};
    else if constexpr (std::is_same_v<B, bool>) return A{};
    else if constexpr (std::is_integral_v<A> && std::is_integral_v<B>)
        return std::conditional_t<(integer_rank<A> >= integer_rank<B>), A, B>{};
    else if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>)
        return std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>{};
    else {
        using F = std::conditional_t<std::is_floating_point_v<A>, A, B>;
        using I = std::conditional_t<std::is_floating_point_v<A>, B, A>;
        // float holds every uint8 exactly; wider integers need double (NumPy).
        return std::conditional_t<std::is_same_v<F, float> && (sizeof(I) > 1), double, F>{};
    }
}

/// A tensor of T combined with a scalar S ("weak" scalar, NumPy's rule for Python
/// numbers): an integer scalar keeps T (bool becomes int64), a floating scalar keeps
/// a floating T and makes integers double.
template <class T, class S>
constexpr auto promote_scalar_impl() {
    if constexpr (std::is_floating_point_v<S>) return std::conditional_t<std::is_floating_point_v<T>, T, double>{};
    else if constexpr (std::is_same_v<T, bool> && !std::is_same_v<S, bool>) return std::int64_t{};
    else return T{};
}
}  // namespace detail

/// The common element type of two tensors' element types.
template <class A, class B>
using promote_t = decltype(detail::promote_impl<A, B>());

/// The element type of `Tensor<T> op scalar-of-S`.
template <class T, class S>
using promote_scalar_t = decltype(detail::promote_scalar_impl<T, S>());

}  // namespace nt
