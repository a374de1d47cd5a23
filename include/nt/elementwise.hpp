// nt/elementwise.hpp: element-wise operations with axis matching.
//
// Binary operations combine their operands through the matcher (policy `names`):
// axes with equal names pair first, the remaining unnamed axes are right-aligned,
// and singleton axes broadcast. The result is a new contiguous tensor whose names
// come from the plan. Operands of different element types compute in their common
// type (nt::promote_t, NumPy's table), converted as the operation reads them.
//
//     auto img = nt::ones<float>({10, 3, 256, 384}, {"?", "CHANNEL", "H", "W"});
//     auto lbl = nt::ones<float>({10, 256, 384}, {"?", "H", "W"});
//     auto sum = img + lbl;   // (10,3,256,384 | ?,CHANNEL,H,W): lbl broadcast over CHANNEL
//
// Throws nt::error: incompatible_sizes / no_counterpart when the operands do not
// match (the message names the operation, both specs and the axes), read_only for
// in-place forms on a read-only view, type_mismatch for -, %, pow and neg on bool.
// Operations with a type rule (floor_divide, & | ^ ~ << >>, sign: see
// detail::binary_accepts_v) do not compile for the types they refuse.
//
// This header is the API: each function checks or forwards its operands and calls
// into nt/detail/elementwise_dispatch.hpp (alignment, conversions, the typed bodies)
// and nt/detail/elementwise_operands.hpp (what a scalar or a marked operand is, and
// the type rules of where and clip).
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "nt/detail/elementwise_dispatch.hpp"
#include "nt/detail/elementwise_operands.hpp"
#include "nt/detail/op_lists.hpp"
#include "nt/match.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// The elements converted to U (see Tensor::astype).
template <element U, element T>
[[nodiscard]] Tensor<U> astype(const Tensor<T>& t) {
    return t.template astype<U>();
}

/// An operand of a binary operation matched with the option `union`
/// (docs/matching.md): see nt::with_union.
template <class T>
struct union_operand {
    Tensor<T> tensor;
};

/// Marks `t` so that a binary operation with it matches with the option `union`: an
/// axis named in only one operand becomes an output axis (the other operand
/// broadcasts along it) instead of a no_counterpart error. Operators cannot take
/// match options, so this is the operator form of
/// nt::broadcast_tensors(list, nt::match_options{.union_axes = true}).
///     auto lbl = nt::zeros<std::int64_t>({2, 64, 64}, {"N", "H", "W"});
///     auto classes = nt::arange<std::int64_t>(4).rename({"CLASS"});
///     auto one_hot = nt::with_union(lbl) == classes;   // (2,64,64,4 | N,H,W,CLASS)
template <class T>
[[nodiscard]] union_operand<T> with_union(const Tensor<T>& t) {
    return {t};
}

// ---------------------------------------------------------------------------------
// Binary operators and functions: tensor with tensor, tensor with scalar.

#define NT_BINARY_FUNCTION(fn, op, text)                                                             \
    template <class A, class B>                                                                      \
    auto fn(const Tensor<A>& a, const Tensor<B>& b) {                                                \
        return detail::binary<detail::binary_op::op>(text, a, b);                                   \
    }                                                                                                \
    template <class A, class B>                                                                      \
    auto fn(const union_operand<A>& a, const Tensor<B>& b) {                                         \
        return detail::binary<detail::binary_op::op>(text, a.tensor, b, true);                      \
    }                                                                                                \
    template <class A, class B>                                                                      \
    auto fn(const Tensor<A>& a, const union_operand<B>& b) {                                         \
        return detail::binary<detail::binary_op::op>(text, a, b.tensor, true);                      \
    }                                                                                                \
    template <class A, class B>                                                                      \
    auto fn(const union_operand<A>& a, const union_operand<B>& b) {                                  \
        return detail::binary<detail::binary_op::op>(text, a.tensor, b.tensor, true);               \
    }                                                                                                \
    template <class T, class S, std::enable_if_t<detail::is_scalar_v<S>, int> = 0>                   \
    auto fn(const Tensor<T>& a, S b) {                                                               \
        return detail::binary_scalar<detail::binary_op::op>(text, a, b, false);                     \
    }                                                                                                \
    template <class T, class S, std::enable_if_t<detail::is_scalar_v<S>, int> = 0>                   \
    auto fn(S a, const Tensor<T>& b) {                                                               \
        return detail::binary_scalar<detail::binary_op::op>(text, b, a, true);                      \
    }

NT_FOR_EACH_BINARY_FUNCTION(NT_BINARY_FUNCTION)
#undef NT_BINARY_FUNCTION

// out= forms: write the result into `out`, which must have the result's shape and
// type and be writable (NumPy's `out=`): no allocation. Either operand may be
// marked by nt::with_union.
//     nt::add(img, lbl, result);
#define NT_BINARY_OUT(fn, op, text)                                                                          \
    template <detail::tensor_operand A, detail::tensor_operand B, class R>                                   \
    Tensor<R>& fn(const A& a, const B& b, Tensor<R>& out) {                                                  \
        detail::binary_into<detail::binary_op::op>(text, detail::unmarked(a), detail::unmarked(b), out,      \
                                                   detail::any_union_v<A, B>);                               \
        return out;                                                                                          \
    }
NT_BINARY_OUT(add, add, "add")
NT_BINARY_OUT(subtract, sub, "subtract")
NT_BINARY_OUT(multiply, mul, "multiply")
NT_BINARY_OUT(divide, div, "divide")
NT_BINARY_OUT(mod, mod, "mod")
NT_BINARY_OUT(minimum, min, "minimum")
NT_BINARY_OUT(maximum, max, "maximum")
NT_BINARY_OUT(pow, pow, "pow")
NT_BINARY_OUT(equal, eq, "equal")
NT_BINARY_OUT(less, lt, "less")
NT_BINARY_OUT(greater, gt, "greater")
NT_BINARY_OUT(logical_and, logical_and, "logical_and")
NT_BINARY_OUT(logical_or, logical_or, "logical_or")
#undef NT_BINARY_OUT

/// min(a, b) and max(a, b) of two tensors are minimum and maximum (with one tensor
/// and axes, min and max are reductions: see <nt/reduce.hpp>).
template <class A, class B>
auto min(const Tensor<A>& a, const Tensor<B>& b) {
    return minimum(a, b);
}
template <class A, class B>
auto max(const Tensor<A>& a, const Tensor<B>& b) {
    return maximum(a, b);
}

// ---------------------------------------------------------------------------------
// In-place forms: a op= b writes into a (b must broadcast to a's spec).

#define NT_IN_PLACE(fn, op, text)                                                             \
    template <class T, class U>                                                               \
    Tensor<T>& fn(Tensor<T>& a, const Tensor<U>& b) {                                         \
        detail::in_place<detail::binary_op::op>(text, a, b);                                  \
        return a;                                                                             \
    }                                                                                         \
    template <class T, class U>                                                               \
    Tensor<T>& fn(Tensor<T>&& a, const Tensor<U>& b) { return fn(a, b); }                     \
    template <class T, class S, std::enable_if_t<detail::is_scalar_v<S>, int> = 0>            \
    Tensor<T>& fn(Tensor<T>& a, S b) {                                                        \
        detail::in_place_scalar<detail::binary_op::op>(text, a, b);                           \
        return a;                                                                             \
    }

NT_FOR_EACH_IN_PLACE(NT_IN_PLACE)
#undef NT_IN_PLACE

// ---------------------------------------------------------------------------------
// Unary operations.

#define NT_UNARY_FUNCTION(fn, op)                  \
    template <class T>                             \
    auto fn(const Tensor<T>& a) {                  \
        return detail::unary<detail::unary_op::op>(a); \
    }
NT_FOR_EACH_UNARY_FUNCTION(NT_UNARY_FUNCTION)
#undef NT_UNARY_FUNCTION

template <class T>
auto operator-(const Tensor<T>& a) {
    return neg(a);
}
template <class T>
Tensor<bool> operator!(const Tensor<T>& a) {
    return logical_not(a);
}
/// ~t is bitwise_not(t): integer and bool tensors (on bool it is logical_not).
template <class T>
auto operator~(const Tensor<T>& a) {
    return bitwise_not(a);
}

/// where(cond, a, b): a where cond is true, else b, all three matched (policy names;
/// with the option `union` when any of them is marked by nt::with_union). `a` and
/// `b` are tensors or scalars. A scalar is "weak" (nt::promote_scalar_t, as for
/// t + 0.0f): the result type is the tensor's, or double for a floating scalar with
/// an integer tensor. Two scalars give a tensor shaped like cond in their common
/// type (np.where(mask, 1, 2.0) is f64).
///     nt::where(mask, 0.0f, t);
///     nt::where(nt::with_union(lbl == 1), classes, -1);   // cond's axes and classes' CLASS
template <class M, detail::where_value A, detail::where_value B>
    requires std::is_same_v<detail::unmarked_t<M>, Tensor<bool>>
auto where(const M& cond, const A& a, const B& b) {
    return detail::where_of(detail::unmarked(cond), detail::unmarked(a), detail::unmarked(b),
                            detail::any_union_v<M, A, B>);
}

// ---------------------------------------------------------------------------------
// clip and nan_to_num.

/// np.clip: min(max(t, lo), hi) element-wise, each bound a tensor or a scalar. Tensor
/// bounds are matched with t (policy names, as binary operations; with the option
/// `union` when t or a bound is marked by nt::with_union); the result type is their
/// common type, with scalar bounds weak (clip(u8, 0, 100) is u8; clip(i32, 0.5, 2.5)
/// is f64). NaN in t or a bound gives NaN; when lo > hi the result is hi (NumPy). A
/// new tensor. Throws the matcher's errors.
///     auto unit = nt::clip(x, 0.0f, 1.0f);
///     auto per_class = nt::clip(nt::with_union(x), lo_per_class, hi_per_class);
template <detail::tensor_operand X, detail::clip_bound L, detail::clip_bound H>
auto clip(const X& t, const L& lo, const H& hi) {
    using T = typename detail::unmarked_t<X>::value_type;
    using UL = detail::unmarked_t<L>;
    using UH = detail::unmarked_t<H>;
    using C = detail::clip_type_t<T, UL, UH>;
    return detail::clip_same_type<C>(detail::as_type<C>(detail::unmarked(t)),
                                     detail::clip_operand<C>(detail::unmarked(lo)),
                                     detail::clip_operand<C>(detail::unmarked(hi)), detail::any_union_v<X, L, H>);
}

/// np.nan_to_num: NaN becomes `nan`, +inf `posinf` and -inf `neginf`, by default the
/// type's largest and lowest finite values (65504 and -65504 for f16). The values
/// convert to T as scalar operands do (in f16, 1e6 is inf). Integer and bool tensors
/// are copied unchanged. A new tensor with t's spec and type.
///     nt::nan_to_num(x);              // NaN -> 0, inf -> max
///     nt::nan_to_num(x, -1.0, 1e9);
template <class T>
Tensor<T> nan_to_num(const Tensor<T>& t, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                     std::optional<double> neginf = std::nullopt) {
    Tensor<T> out = detail::empty_result<T>(t.spec());
    const T vn = detail::scalar_as<T>(nan);
    const T vp = posinf ? detail::scalar_as<T>(*posinf) : std::numeric_limits<T>::max();
    const T vm = neginf ? detail::scalar_as<T>(*neginf) : std::numeric_limits<T>::lowest();
    detail::run_nan_to_num<T>(t.shape(), out.mutable_data(), out.strides(), t.data(), t.strides(), vn, vp, vm);
    return out;
}

// ---------------------------------------------------------------------------------
// Masks (t.masked_fill and t.assign_where are members of Tensor).

/// The elements of t where `mask` is true, in t's row-major order: a new 1-D
/// unnamed tensor (NumPy's t[mask]). The mask is matched to t by names and broadcast
/// to it as assign broadcasts a source (no_counterpart, incompatible_sizes
/// otherwise), so a (H,W) mask selects from every channel of a (C,H,W) tensor.
///     auto positives = nt::masked_select(x, x > 0.0f);
template <class T>
[[nodiscard]] Tensor<T> masked_select(const Tensor<T>& t, const Tensor<bool>& mask) {
    return Tensor<T>(detail::masked_select(t.base(), mask.base()));
}

// ---------------------------------------------------------------------------------
// broadcast_tensors: the aligned views themselves.

/// The inputs viewed as the matched output (no copies; stride 0 on broadcast axes,
/// hence read-only wherever an axis is actually broadcast).
///     auto [x, y] = nt::broadcast_tensors(nt::policy::names, img, lbl);
template <class... Ts>
std::tuple<Tensor<Ts>...> broadcast_tensors(policy pol, const Tensor<Ts>&... ts) {
    const spec specs[] = {ts.spec()...};
    match_options options;
    options.policy = pol;
    const plan p = match(specs, options);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return std::tuple<Tensor<Ts>...>{detail::aligned_view(ts, p, I)...};
    }(std::index_sequence_for<Ts...>{});
}
template <class... Ts>
std::tuple<Tensor<Ts>...> broadcast_tensors(const Tensor<Ts>&... ts) {
    return broadcast_tensors(policy::names, ts...);
}

/// masked_select with t or the mask marked by nt::with_union: both are matched with
/// the option `union` and the selection runs over their common (larger) shape, so
/// an axis that only the mask has repeats t along it.
///     auto per_class = nt::masked_select(x, nt::with_union(masks));   // masks (CLASS,H,W), x (H,W)
template <detail::tensor_operand X, class M>
    requires(std::is_same_v<detail::unmarked_t<M>, Tensor<bool>> && detail::any_union_v<X, M>)
[[nodiscard]] auto masked_select(const X& t, const M& mask) {
    const auto& tt = detail::unmarked(t);
    const Tensor<bool>& mm = detail::unmarked(mask);
    const spec specs[2] = {tt.spec(), mm.spec()};
    match_options options;
    options.union_axes = true;
    const plan p = match(specs, options);
    using T = typename detail::unmarked_t<X>::value_type;
    return Tensor<T>(detail::masked_select(detail::aligned_view(tt, p, 0).base(), detail::aligned_view(mm, p, 1).base()));
}

}  // namespace nt
