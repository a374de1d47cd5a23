// nt/linalg.hpp: contraction: sums of products over axes, as one batched GEMM.
//
//     auto x = nt::ones<float>({8, 64, 32, 32}, {"N", "C", "H", "W"});
//     auto w = nt::ones<float>({64, 16}, {"C", "K"});
//     nt::dot(x, w, {"C"});                           // (8,32,32,16 | N,H,W,K)
//     nt::einsum("N C H W, C K -> N K H W", x, w);    // (8,16,32,32 | N,K,H,W)
//     nt::matmul(a, b);                               // NumPy's a @ b
//     nt::tensordot(a, b, 1);  nt::tensordot(a, b, {1, 0}, {0, 1});
//
// Every function returns a new C-contiguous tensor (never a view) of the operands'
// promoted type (nt::promote_t, NumPy's table). float and double go to the BLAS
// (OpenBLAS, linked privately by the compiled library); half is computed in float and
// rounded once; integer results wrap in the promoted type and bool is "any of the
// ands", as in NumPy. The operands are permuted and merged so that the work is one
// batched matrix product; an operand whose strides do not allow that is copied once.
//
// Throws nt::error: axis_out_of_range (a named axis an operand lacks),
// incompatible_sizes (a contracted axis whose sizes differ, kept axes that do not
// broadcast), name_mismatch (einsum subscripts that disagree with the operands'
// names, matmul's contracted axes named differently), invalid_argument (malformed
// subscripts, wrong counts), duplicate_name (a result that would carry a name twice).
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/detail/list_arg.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/promote.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// One pair of contracted axes for nt::tensordot: axis `a` of the first operand with
/// axis `b` of the second (each an index or a name).
struct axis_pair {
    Axis a;
    Axis b;
};

/// A list of axis pairs as a parameter: `{{1, 0}, {"C", "C"}}`, a std::vector or a
/// span. Non-owning; valid for the call it is passed to.
using axis_pairs = detail::list_arg<axis_pair>;

namespace detail {

// The compiled core (src/ops/linalg.cpp). Each takes untyped handles of any element
// types and returns the result in nt::promote_types of them.
[[nodiscard]] tensor_base dot(const tensor_base& a, const tensor_base& b, std::span<const Axis> axes);
[[nodiscard]] tensor_base einsum(std::string_view subscripts, std::span<const tensor_base* const> operands);
[[nodiscard]] tensor_base matmul(const tensor_base& a, const tensor_base& b);
[[nodiscard]] tensor_base tensordot(const tensor_base& a, const tensor_base& b, std::int64_t n);
[[nodiscard]] tensor_base tensordot(const tensor_base& a, const tensor_base& b, std::span<const Axis> a_axes,
                                    std::span<const Axis> b_axes);
[[nodiscard]] tensor_base tensordot(const tensor_base& a, const tensor_base& b, std::span<const axis_pair> pairs);

/// The promoted type of several element types, folded from the left (as einsum
/// contracts its operands: the first two, then the result with the next).
template <class T, class... Rest>
struct promote_all {
    using type = T;
};
template <class T, class U, class... Rest>
struct promote_all<T, U, Rest...> {
    using type = typename promote_all<promote_t<T, U>, Rest...>::type;
};
template <class... T>
using promote_all_t = typename promote_all<T...>::type;
}  // namespace detail

// ---------------------------------------------------------------------------------
// dot: contraction over named axes (xarray's xr.dot).

/// Sums a * b over the named `axes`, which both operands must have (equal sizes).
/// The other axes are matched as element-wise operations match them (names first,
/// unnamed right-aligned, size 1 broadcasts), with the option `union`: an axis of
/// either operand is kept in the result, in the matcher's order (the higher-rank
/// operand's axes, then the other's new ones). A new tensor of nt::promote_t<A, B>.
/// An empty list multiplies without summing.
/// Throws axis_out_of_range (an axis missing from an operand), invalid_argument (an
/// axis given by index or listed twice), incompatible_sizes (a contracted axis whose sizes differ, kept axes that do not
/// broadcast).
///     nt::dot(x, w, {"C"});   // x (N,C,H,W), w (C,K) -> (N,H,W,K); also nt::dot(x, w, "C")
template <element A, element B>
[[nodiscard]] Tensor<promote_t<A, B>> dot(const Tensor<A>& a, const Tensor<B>& b, axes_arg axes) {
    return Tensor<promote_t<A, B>>(detail::dot(a.base(), b.base(), axes.span()));
}

// ---------------------------------------------------------------------------------
// einsum: subscripts of axis names.

/// Einstein summation with axis names as subscripts: one space-separated identifier
/// per axis of each operand, operands separated by ',', then "->" and the result's
/// axes: "N C H W, C K -> N K H W". An identifier must agree with the operand's name
/// of that axis where it has one (unnamed axes take any identifier). Identifiers
/// missing on the right are summed; one repeated within an operand takes its
/// diagonal. Sizes of one identifier must be equal, or 1 (broadcast) where it is
/// kept. The result is named by the right side. Several operands are contracted
/// left to right. A new tensor of the operands' promoted type.
/// Throws invalid_argument (syntax, counts, an identifier on the right that no
/// operand has or that is repeated), name_mismatch, incompatible_sizes.
///     nt::einsum("N C H W, C K -> N K H W", x, w);
///     nt::einsum("i j, j k -> i k", a, b);   // unnamed operands: any identifiers
template <element... T>
    requires(sizeof...(T) >= 1)
[[nodiscard]] Tensor<detail::promote_all_t<T...>> einsum(std::string_view subscripts, const Tensor<T>&... operands) {
    const detail::tensor_base* list[] = {&operands.base()...};
    return Tensor<detail::promote_all_t<T...>>(detail::einsum(subscripts, list));
}

// ---------------------------------------------------------------------------------
// matmul and tensordot: NumPy's, positional.

/// NumPy's matmul (a @ b): the last axis of `a` with the second-to-last of `b` (a
/// 1-D operand is a row, resp. a column, whose axis is dropped from the result); the
/// leading (batch) axes are matched as element-wise operations match them, which for
/// unnamed operands is NumPy's broadcasting. The result's last two axes carry a's row
/// name and b's column name. A new tensor of nt::promote_t<A, B>.
/// Throws invalid_argument (a rank-0 operand), incompatible_sizes (inner sizes
/// differ, batch axes that do not broadcast), name_mismatch (the contracted axes
/// carry different names), duplicate_name, no_counterpart (named batch axes).
///     nt::matmul(nt::ones<float>({5, 2, 3}), nt::ones<float>({3, 4}));   // (5,2,4)
template <element A, element B>
[[nodiscard]] Tensor<promote_t<A, B>> matmul(const Tensor<A>& a, const Tensor<B>& b) {
    return Tensor<promote_t<A, B>>(detail::matmul(a.base(), b.base()));
}

/// NumPy's tensordot with an integer: the last `n` axes of `a` with the first `n` of
/// `b`, in order. The result has a's other axes then b's, with their names.
/// Throws invalid_argument (n < 0 or over a rank), incompatible_sizes,
/// duplicate_name (a name in both results parts).
///     nt::tensordot(a, b, 2);
template <element A, element B>
[[nodiscard]] Tensor<promote_t<A, B>> tensordot(const Tensor<A>& a, const Tensor<B>& b, std::int64_t n) {
    return Tensor<promote_t<A, B>>(detail::tensordot(a.base(), b.base(), n));
}
/// tensordot over axis lists (np.tensordot(a, b, axes=(a_axes, b_axes))): a_axes[i]
/// of `a` with b_axes[i] of `b` (indices or names). Also throws axis_out_of_range and
/// invalid_argument (lengths differ, an axis twice).
///     nt::tensordot(a, b, {1, 0}, {0, 1});
template <element A, element B>
[[nodiscard]] Tensor<promote_t<A, B>> tensordot(const Tensor<A>& a, const Tensor<B>& b, axes_arg a_axes,
                                                axes_arg b_axes) {
    return Tensor<promote_t<A, B>>(detail::tensordot(a.base(), b.base(), a_axes.span(), b_axes.span()));
}
/// tensordot over axis pairs: nt::tensordot(a, b, {{"C", "C"}, {2, 0}}).
template <element A, element B>
[[nodiscard]] Tensor<promote_t<A, B>> tensordot(const Tensor<A>& a, const Tensor<B>& b, axis_pairs pairs) {
    return Tensor<promote_t<A, B>>(detail::tensordot(a.base(), b.base(), pairs.span()));
}

// ---------------------------------------------------------------------------------
// any_tensor forms: the result type is decided at run time (nt::promote_types).

[[nodiscard]] inline any_tensor dot(const any_tensor& a, const any_tensor& b, axes_arg axes) {
    return any_tensor(detail::dot(a.base(), b.base(), axes.span()));
}
[[nodiscard]] inline any_tensor matmul(const any_tensor& a, const any_tensor& b) {
    return any_tensor(detail::matmul(a.base(), b.base()));
}
[[nodiscard]] inline any_tensor tensordot(const any_tensor& a, const any_tensor& b, std::int64_t n) {
    return any_tensor(detail::tensordot(a.base(), b.base(), n));
}
[[nodiscard]] inline any_tensor tensordot(const any_tensor& a, const any_tensor& b, axes_arg a_axes, axes_arg b_axes) {
    return any_tensor(detail::tensordot(a.base(), b.base(), a_axes.span(), b_axes.span()));
}
[[nodiscard]] inline any_tensor tensordot(const any_tensor& a, const any_tensor& b, axis_pairs pairs) {
    return any_tensor(detail::tensordot(a.base(), b.base(), pairs.span()));
}
/// einsum with at least one any_tensor operand (the others may be typed).
template <class... X>
    requires(sizeof...(X) >= 1 && (std::convertible_to<const X&, any_tensor> && ...) &&
             (std::same_as<X, any_tensor> || ...))
[[nodiscard]] any_tensor einsum(std::string_view subscripts, const X&... operands) {
    const detail::tensor_base* list[] = {&operands.base()...};
    return any_tensor(detail::einsum(subscripts, list));
}

}  // namespace nt
