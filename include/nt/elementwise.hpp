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
#pragma once

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "nt/detail/op_lists.hpp"
#include "nt/detail/ops_kernels.hpp"
#include "nt/match.hpp"
#include "nt/promote.hpp"
#include "nt/creation.hpp"
#include "nt/tensor.hpp"
#include "nt/threads.hpp"

namespace nt {

/// The elements converted to U (see Tensor::astype).
template <element U, element T>
[[nodiscard]] Tensor<U> astype(const Tensor<T>& t) {
    return t.template astype<U>();
}

namespace detail {

/// Operands aligned to a common output: its spec, and each operand's strides over it
/// (permuted, 0 on inserted and broadcast axes).
struct alignment {
    spec output;
    std::array<dims, 3> strides;
    /// A fresh result of `output`: its C-contiguous layout, names and element count
    /// (-1 when the count overflows), so that allocating it copies instead of deriving.
    nt::layout result;
    name_list result_names;
    std::int64_t result_count = 0;
    /// The same loop as n0 rows of n1 elements when the output is laid out as `result`
    /// needs no planning: alignment_of fills it once per layout, and small operations
    /// go straight to the kernel with it (run_binary_rows).
    row_plan rows{};
};

/// An operand as align_operands sees it: views of a tensor's shape, names and strides.
struct operand_view {
    std::span<const std::int64_t> sizes;
    std::span<const name> names;
    std::span<const std::int64_t> strides;
};

template <class T>
operand_view view_of(const Tensor<T>& t) noexcept {
    return {t.shape(), t.names(), t.strides()};
}

/// Aligns 1 to 3 operands for operation `op_name`. Unnamed operands take NumPy's
/// rule directly (no spec is built); named ones go through nt::match, with the
/// option `union` when `union_axes` (nt::with_union). The result is remembered per
/// thread: a call with the previous call's sizes, strides, names and option returns
/// it again without matching (a loop over same-shaped tensors pays a few
/// comparisons). Valid until this thread's next call.
[[nodiscard]] const alignment& alignment_of(std::string_view op_name, std::span<const operand_view> operands,
                                            bool union_axes = false);

/// Aligns `source` to a destination spec (broadcast_to semantics), for in-place
/// forms and assign: fills out.output with the destination spec, out.strides[0].
/// A non-empty `label` names the source in mismatch messages ("input 0 'mask'").
void align_to_destination(std::string_view op_name, const spec& destination, const spec& source,
                          std::span<const std::int64_t> source_strides, alignment& out,
                          std::string_view label = {});

[[noreturn]] void throw_read_only(std::string_view op_name, const spec& destination);

template <class T>
Tensor<T> empty_result(const spec& s) {
    return Tensor<T>(in_place_base, [&] { return tensor_base::allocate_result(dtype_of<T>, s, "result"); });
}
// The result of operands aligned by alignment_of (see alignment::result).
template <class T>
Tensor<T> empty_result(const alignment& al) {
    return Tensor<T>(in_place_base, [&] {
        return tensor_base::allocate_result(dtype_of<T>, al.result, al.result_names, al.result_count, "result");
    });
}

// The operand in the computation's type: a reference to the same handle when it
// already is (no reference-count traffic), else a converted copy. Bind the result to
// a const reference.
template <class To, class From>
decltype(auto) as_type(const Tensor<From>& t) {
    if constexpr (std::is_same_v<To, From>) return (t);
    else return nt::astype<To>(t);
}

// The typed API's form of binary_accepts_v: a compile error naming the operation
// and the fix (the compiler's note shows the types).
template <binary_op Op, class C>
constexpr void check_binary_types() {
    static_assert(Op != binary_op::floor_div || binary_accepts_v<Op, C>,
                  "nt::floor_divide is not defined on bool tensors (NumPy computes it in int8): convert first, "
                  "e.g. astype<std::int32_t>()");
    static_assert(!(Op == binary_op::bit_and || Op == binary_op::bit_or || Op == binary_op::bit_xor) ||
                      binary_accepts_v<Op, C>,
                  "nt::bitwise_and / bitwise_or / bitwise_xor (& | ^) take integer or bool tensors, and the operands' "
                  "common type is floating (u64 with a signed integer promotes to double): convert first, e.g. "
                  "astype<std::int64_t>(), or use logical_and / logical_or / logical_xor");
    static_assert(!(Op == binary_op::shl || Op == binary_op::shr) || binary_accepts_v<Op, C>,
                  "nt::left_shift / right_shift (<< >>) take integer tensors, and the operands' common type is bool "
                  "or floating: convert first, e.g. astype<std::int64_t>()");
}
template <unary_op Op, class T>
constexpr void check_unary_types() {
    static_assert(Op != unary_op::sign || unary_accepts_v<Op, T>,
                  "nt::sign is not defined on bool tensors (as in NumPy): convert first, e.g. astype<std::int8_t>()");
    static_assert(Op != unary_op::bit_not || unary_accepts_v<Op, T>,
                  "nt::bitwise_not (~) takes integer or bool tensors: convert to an integer type first, or use "
                  "logical_not (!) for truth values");
}

// Binary operations whose operands are not all of the type C they compute in: the
// kernel converts the operands as it reads them (run_binary_converting), without a
// converted copy (src/core/elementwise_converting.cpp). `compute` is C's dtype,
// `result` binary_result_t's.
[[nodiscard]] tensor_base binary_converting(binary_op op, std::string_view name, dtype compute, dtype result,
                                            const tensor_base& a, const tensor_base& b, bool union_axes);
/// The out= form (`out` has the result's type).
void binary_converting_into(binary_op op, std::string_view name, dtype compute, const tensor_base& a,
                            const tensor_base& b, const tensor_base& out, bool union_axes);
/// A tensor with a scalar: `value` points to one element of `compute`.
[[nodiscard]] tensor_base binary_scalar_converting(binary_op op, dtype compute, dtype result, const tensor_base& a,
                                                   const void* value, bool value_first);
/// dst op= src computed in dst's type (which is also the result's).
void in_place_converting(binary_op op, std::string_view name, const tensor_base& dst, const tensor_base& src);

/// Work of n elements small enough for a row plan: one call to the kernel on this thread.
[[nodiscard]] inline bool rows_fit(std::int64_t n) noexcept { return n <= row_plan_max_elements && !want_parallel(n); }

/// The operand of a and b with the higher rank (a when equal).
[[nodiscard]] inline const tensor_base& wider(const tensor_base& a, const tensor_base& b) noexcept {
    return a.rank() >= b.rank() ? a : b;
}

/// The row plan of the most common small operation, read from two operands before any
/// alignment: both with C order's strides (any offset), and the narrower one's sizes
/// and names those of the wider one's last axes, position by position (NumPy's (4,8) +
/// (8), or (R,C) + (C)). The matcher's rules then pair each axis with the one at its
/// position, and the loop is n0 rows of n1 elements: one pass over the axes, which
/// costs less than alignment_of's per-thread memo. With `out`, its shape is the wider
/// operand's and its strides C order's too. False otherwise (names elsewhere, views,
/// size-1 broadcasting, no elements): alignment_of decides. Always inlined: GCC kept it
/// out of line, and the call was a visible part of a tiny add's time (figures:
/// docs/performance.md, "Figures behind the engine's thresholds").
[[nodiscard, gnu::always_inline]] inline bool identity_row_plan(const tensor_base& a, const tensor_base& b,
                                                               const tensor_base* out, row_plan& rows) noexcept {
    const tensor_base& full = wider(a, b);
    const tensor_base& part = &full == &a ? b : a;
    const std::span<const std::int64_t> sizes = full.shape(), strides = full.strides();
    const std::span<const std::int64_t> part_sizes = part.shape(), part_strides = part.strides();
    const std::span<const name> names = full.names(), part_names = part.names();
    const std::size_t rank = sizes.size(), lead = rank - part_sizes.size();
    if (out && out->rank() != rank) return false;
    std::int64_t n = 1, n0 = 1, n1 = 1;
    for (std::size_t d = rank; d-- > 0;) {
        const std::int64_t size = sizes[d];
        if (strides[d] != n) return false;
        if (out && (out->shape()[d] != size || out->strides()[d] != n)) return false;
        if (d >= lead) {
            const std::size_t p = d - lead;
            if (part_sizes[p] != size || part_strides[p] != n || !(part_names[p] == names[d])) return false;
            n1 = n * size;
        } else {
            n0 *= size;
        }
        n *= size;
    }
    if (n == 0) return false;
    rows.valid = true;
    rows.n0 = n0;
    rows.n1 = n1;
    rows.s0[0] = n1;
    rows.s0[1] = &full == &a ? n1 : 0;
    rows.s0[2] = &full == &b ? n1 : 0;
    rows.s0[3] = 0;
    rows.s1[0] = rows.s1[1] = rows.s1[2] = 1;
    rows.s1[3] = 0;
    return true;
}

// Runs a binary operation aligned by alignment_of into `out`, which has the result's
// shape; `out_is_result` when it also has the result's layout (al.result). Small work
// with that layout takes the alignment's row plan: one call to the kernel, which is
// most of the fixed cost of a tiny operation.
template <class C, class R>
void run_aligned(binary_op op, const alignment& al, Tensor<R>& out, bool out_is_result, const C* a, const C* b) {
    if (out_is_result && al.rows.valid && rows_fit(al.rows.n0 * al.rows.n1))
        run_binary_rows<C>(op, al.rows, out.mutable_data(), a, b);
    else
        run_binary<C>(op, out.shape(), out.mutable_data(), out.strides(), a, al.strides[0], b, al.strides[1]);
}

// The typed operations are thin shells: each checks its types at compile time,
// converts the operands to the computation type C, and calls a body that depends on
// C and the result type R alone, with the operation a runtime value (the kernels
// take it so anyway). A program using thirty operations on ten type pairs compiles
// a body per (C, R), not per operation and pair: that is most of the compile time
// of code that uses many operations (and of the tests, which use all of them).
template <class C, class R>
Tensor<R> binary_same_type(binary_op op, std::string_view name, const Tensor<C>& a, const Tensor<C>& b,
                           bool union_axes) {
    // Operands the row plan reads as they are need no alignment (nor does union_axes
    // change their result: every axis has its counterpart). One named result for both
    // paths, so that it is returned without a move.
    row_plan rows;
    const bool plain = identity_row_plan(a.base(), b.base(), nullptr, rows) && rows_fit(rows.n0 * rows.n1);
    const alignment* al = nullptr;
    if (!plain) {
        const operand_view operands[2] = {view_of(a), view_of(b)};
        al = &alignment_of(name, operands, union_axes);
    }
    Tensor<R> out = plain ? Tensor<R>(in_place_base, [&] {
        return tensor_base::allocate_like(dtype_of<R>, wider(a.base(), b.base()), rows.n0 * rows.n1, "result");
    })
                          : empty_result<R>(*al);
    if (plain) run_binary_rows<C>(op, rows, out.mutable_data(), a.data(), b.data());
    else run_aligned<C>(op, *al, out, true, a.data(), b.data());
    return out;
}

template <binary_op Op, class A, class B>
auto binary(std::string_view name, const Tensor<A>& a, const Tensor<B>& b, bool union_axes = false) {
    using C = binary_operand_t<Op, A, B>;
    using R = binary_result_t<Op, C>;
    check_binary_types<Op, C>();
    if constexpr (std::is_same_v<A, C> && std::is_same_v<B, C>)
        return binary_same_type<C, R>(Op, name, a, b, union_axes);
    else
        return Tensor<R>(binary_converting(Op, name, dtype_of<C>, dtype_of<R>, a.base(), b.base(), union_axes));
}

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

[[noreturn]] void throw_out_shape(std::string_view op_name, const spec& out, const spec& expected);

// Whether out's elements start on an operand's with elements of one size, the first
// half of "out meets the operand element for element" (the strides are the other).
// Pointers compared as void: out's type may differ from the operand's (bool). The
// sizes must match: a / b of integers writes double, 8 bytes over each 4 not yet read.
template <class R, class C>
bool starts_on(const Tensor<R>& out, const Tensor<C>& operand) noexcept {
    return sizeof(R) == sizeof(C) && static_cast<const void*>(out.data()) == static_cast<const void*>(operand.data());
}

// The out= form: writes into an existing tensor of exactly the result's shape.
template <class C, class R>
void binary_into_same_type(binary_op op, std::string_view name, const Tensor<C>& ca, const Tensor<C>& cb,
                           Tensor<R>& out, bool union_axes) {
    if (out.is_read_only()) throw_read_only(name, out.spec());
    row_plan rows;
    if (identity_row_plan(ca.base(), cb.base(), &out.base(), rows) && rows_fit(rows.n0 * rows.n1)) {
        // All three have C order's strides: out meets an operand element for element when
        // they start together, unless that operand is a block repeated over several rows.
        auto meets = [&](const auto& operand, std::int64_t row_stride) {
            return !out.shares_storage(operand) || (starts_on(out, operand) && (row_stride != 0 || rows.n0 == 1));
        };
        if (meets(ca, rows.s0[1]) && meets(cb, rows.s0[2])) {
            run_binary_rows<C>(op, rows, out.mutable_data(), ca.data(), cb.data());
            return;
        }
    }
    const operand_view operands[2] = {view_of(ca), view_of(cb)};
    const alignment& al = alignment_of(name, operands, union_axes);
    if (!same_values(out.shape(), al.result.sizes())) throw_out_shape(name, out.spec(), al.output);
    // An out that overlaps an operand other than element for element: compute aside.
    auto same_elements = [&](const auto& operand, const dims& strides) {
        return starts_on(out, operand) && same_values(out.strides(), strides.span());
    };
    const bool aliased = (out.shares_storage(ca) && !same_elements(ca, al.strides[0])) ||
                         (out.shares_storage(cb) && !same_elements(cb, al.strides[1]));
    if (aliased) {
        out.assign(binary_same_type<C, R>(op, name, ca, cb, union_axes));
        return;
    }
    run_aligned<C>(op, al, out, same_values(out.strides(), al.result.strides()), ca.data(), cb.data());
}

template <binary_op Op, class A, class B, class R>
void binary_into(std::string_view name, const Tensor<A>& a, const Tensor<B>& b, Tensor<R>& out, bool union_axes) {
    using C = promote_t<A, B>;
    static_assert(std::is_same_v<R, binary_result_t<Op, C>>,
                  "the out tensor must have the operation's result type (nt::promote_t of the operands, "
                  "bool for comparisons, floating for division)");
    if constexpr (std::is_same_v<A, C> && std::is_same_v<B, C>)
        binary_into_same_type<C, R>(Op, name, a, b, out, union_axes);
    else
        binary_converting_into(Op, name, dtype_of<C>, a.base(), b.base(), out.base(), union_axes);
}

template <class C, class R>
Tensor<R> binary_scalar_same_type(binary_op op, const Tensor<C>& ca, C v, bool scalar_first) {
    Tensor<R> out = empty_result<R>(ca.spec());
    const dims zeros(ca.rank(), 0);
    const std::span<const std::int64_t> shape = ca.shape();
    if (scalar_first)
        run_binary<C>(op, shape, out.mutable_data(), out.strides(), &v, zeros, ca.data(), ca.strides());
    else
        run_binary<C>(op, shape, out.mutable_data(), out.strides(), ca.data(), ca.strides(), &v, zeros);
    return out;
}

template <binary_op Op, class T, class S>
auto binary_scalar(std::string_view /*name*/, const Tensor<T>& a, S value, bool scalar_first) {
    using C = binary_scalar_operand_t<Op, T, S>;
    using R = binary_result_t<Op, C>;
    check_binary_types<Op, C>();
    const C v = scalar_as<C>(value);
    if constexpr (std::is_same_v<T, C>)
        return binary_scalar_same_type<C, R>(Op, a, v, scalar_first);
    else
        return Tensor<R>(binary_scalar_converting(Op, dtype_of<C>, dtype_of<R>, a.base(), &v, scalar_first));
}

template <class T, class R>
Tensor<R> unary_typed(unary_op op, const Tensor<T>& a) {
    Tensor<R> out = empty_result<R>(a.spec());
    run_unary<T>(op, a.shape(), out.mutable_data(), out.strides(), a.data(), a.strides());
    return out;
}

template <unary_op Op, class T>
auto unary(const Tensor<T>& a) {
    check_unary_types<Op, T>();
    return unary_typed<T, unary_result_t<Op, T>>(Op, a);
}

// dst op= src, computed in dst's type: the source is aligned to dst (broadcast_to
// rules) and, if it overlaps dst's storage, copied first.
// In-place forms compute as the out-of-place operation would (in the promoted type
// C, result type R) and store the result back converted to T like a cast: saturating,
// NaN to 0. So `int_tensor *= 0.5` halves (3 -> 1), as in C++, rather than
// multiplying by a truncated 0. NumPy refuses such casts; C++ users expect them.
template <class T, class C, class R>
void store_back(binary_op op, Tensor<T>& dst, const Tensor<C>& lhs, const C* rhs,
                std::span<const std::int64_t> rhs_strides) {
    if constexpr (std::is_same_v<C, T> && std::is_same_v<R, T>) {
        run_binary<T>(op, dst.shape(), dst.mutable_data(), dst.strides(), lhs.data(), lhs.strides(), rhs, rhs_strides);
    } else {
        Tensor<R> tmp = empty_result<R>(dst.spec());
        run_binary<C>(op, dst.shape(), tmp.mutable_data(), tmp.strides(), lhs.data(), lhs.strides(), rhs, rhs_strides);
        if constexpr (std::is_same_v<R, T>) dst.assign(tmp);
        else run_cast<T, R>(dst.shape(), dst.mutable_data(), dst.strides(), tmp.data(), tmp.strides());
    }
}

template <class T, class C, class R>
void in_place_same_type(binary_op op, std::string_view name, Tensor<T>& dst, const Tensor<C>& src,
                        bool src_overlaps_dst) {
    // A source overlapping dst is read as it was before the write (copy first).
    const Tensor<C> source = src_overlaps_dst ? src.clone() : src;
    alignment al;
    align_to_destination(name, dst.spec(), source.spec(), source.strides(), al);
    const Tensor<C>& lhs = as_type<C>(dst);
    store_back<T, C, R>(op, dst, lhs, source.data(), al.strides[0].span());
}

template <binary_op Op, class T, class U>
void in_place(std::string_view name, Tensor<T>& dst, const Tensor<U>& src) {
    using C = promote_t<T, U>;
    using R = binary_result_t<Op, C>;
    check_binary_types<Op, C>();
    if (dst.is_read_only()) throw_read_only(name, dst.spec());
    if constexpr (!std::is_same_v<U, C> && std::is_same_v<T, C> && std::is_same_v<R, T>)
        in_place_converting(Op, name, dst.base(), src.base());
    else
        in_place_same_type<T, C, R>(Op, name, dst, as_type<C>(src), dst.shares_storage(src));
}

template <class T, class C, class R>
void in_place_scalar_same_type(binary_op op, Tensor<T>& dst, C v) {
    const dims zeros(dst.rank(), 0);
    const Tensor<C>& lhs = as_type<C>(dst);
    store_back<T, C, R>(op, dst, lhs, &v, zeros.span());
}

template <binary_op Op, class T, class S>
void in_place_scalar(std::string_view name, Tensor<T>& dst, S value) {
    using C = promote_scalar_t<T, S>;
    check_binary_types<Op, C>();
    if (dst.is_read_only()) throw_read_only(name, dst.spec());
    in_place_scalar_same_type<T, C, binary_result_t<Op, C>>(Op, dst, scalar_as<C>(value));
}

template <class S>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<S> || std::is_same_v<S, half>;

}  // namespace detail

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

namespace detail {
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
}  // namespace detail

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

namespace detail {
template <class C>
Tensor<C> where_same_type(const Tensor<bool>& cond, const Tensor<C>& a, const Tensor<C>& b, bool union_axes) {
    const operand_view operands[3] = {view_of(cond), view_of(a), view_of(b)};
    const alignment& al = alignment_of("where", operands, union_axes);
    Tensor<C> out = empty_result<C>(al);
    run_where<C>(out.shape(), out.mutable_data(), out.strides(), cond.data(), al.strides[0], a.data(), al.strides[1],
                 b.data(), al.strides[2]);
    return out;
}

/// The element type of a scalar type S of the same kind and size (long long is
/// std::int64_t, char is std::int8_t, ...), for where with two scalars.
template <class S>
using scalar_element_t = std::conditional_t<
    std::is_same_v<S, bool> || std::is_same_v<S, half>, S,
    std::conditional_t<std::is_floating_point_v<S>, std::conditional_t<(sizeof(S) <= 4), float, double>,
                       std::conditional_t<std::is_signed_v<S>, signed_of_size<sizeof(S)>,
                                          std::make_unsigned_t<signed_of_size<sizeof(S)>>>>>;

// where with one scalar operand: cond and the tensor are matched; the scalar, in the
// result type C, is read through stride 0.
template <class C>
Tensor<C> where_scalar(const Tensor<bool>& cond, const Tensor<C>& cx, C value, bool scalar_first, bool union_axes) {
    const operand_view operands[2] = {view_of(cond), view_of(cx)};
    const alignment& al = alignment_of("where", operands, union_axes);
    Tensor<C> out = empty_result<C>(al);
    const dims zeros(out.rank(), 0);
    if (scalar_first)
        run_where<C>(out.shape(), out.mutable_data(), out.strides(), cond.data(), al.strides[0], &value, zeros,
                     cx.data(), al.strides[1]);
    else
        run_where<C>(out.shape(), out.mutable_data(), out.strides(), cond.data(), al.strides[0], cx.data(),
                     al.strides[1], &value, zeros);
    return out;
}

/// A value operand of where: a tensor (marked or not) or a scalar.
template <class X>
concept where_value = tensor_operand<X> || is_scalar_v<X>;

template <class A, class B>
auto where_of(const Tensor<bool>& cond, const A& a, const B& b, bool union_axes) {
    if constexpr (is_tensor_v<A> && is_tensor_v<B>) {
        using C = promote_t<typename A::value_type, typename B::value_type>;
        return where_same_type<C>(cond, as_type<C>(a), as_type<C>(b), union_axes);
    } else if constexpr (is_tensor_v<B>) {
        using C = promote_scalar_t<typename B::value_type, A>;
        return where_scalar<C>(cond, as_type<C>(b), scalar_as<C>(a), true, union_axes);
    } else if constexpr (is_tensor_v<A>) {
        using C = promote_scalar_t<typename A::value_type, B>;
        return where_scalar<C>(cond, as_type<C>(a), scalar_as<C>(b), false, union_axes);
    } else {
        // Only cond has axes: nothing to match.
        using C = promote_t<scalar_element_t<A>, scalar_element_t<B>>;
        Tensor<C> out = empty_result<C>(cond.spec());
        const C va = scalar_as<C>(a), vb = scalar_as<C>(b);
        const dims zeros(cond.rank(), 0);
        run_where<C>(out.shape(), out.mutable_data(), out.strides(), cond.data(), cond.strides(), &va, zeros, &vb,
                     zeros);
        return out;
    }
}
}  // namespace detail

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

namespace detail {
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

// A clip operand in C: the tensor (converted if needed), or the scalar as a rank-0
// tensor, which broadcasts against anything.
template <class C, class X>
Tensor<C> clip_operand(const X& x) {
    if constexpr (is_tensor_v<X>) return as_type<C>(x);
    else return nt::scalar<C>(clip_bound_as<C>(x));
}

template <class C>
Tensor<C> clip_same_type(const Tensor<C>& x, const Tensor<C>& l, const Tensor<C>& h, bool union_axes) {
    const operand_view operands[3] = {view_of(x), view_of(l), view_of(h)};
    const alignment& al = alignment_of("clip", operands, union_axes);
    Tensor<C> out = empty_result<C>(al);
    run_clip<C>(out.shape(), out.mutable_data(), out.strides(), x.data(), al.strides[0], l.data(), al.strides[1],
                h.data(), al.strides[2]);
    return out;
}
}  // namespace detail

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

namespace detail {
template <class T>
Tensor<T> aligned_view(const Tensor<T>& t, const plan& p, std::size_t i) {
    // Permute into output order and insert the singletons: axis k of v now feeds
    // output axis k under any policy. Taking the output's names makes the final
    // broadcast pair axis k with axis k (a positional plan may pair differing names).
    const input_plan& in = p.inputs[i];
    small_vector<Axis, 8> order;
    for (std::int32_t a : in.permutation()) order.push_back(Axis(a));
    Tensor<T> v = t.permute(order);
    for (std::int32_t pos : in.inserted()) v = v.unsqueeze(pos);
    small_vector<name, 8> output_names;
    for (const axis_spec& ax : p.output) output_names.push_back(ax.name);
    return v.rename(output_names.span()).broadcast_to(p.output);
}
}  // namespace detail

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
