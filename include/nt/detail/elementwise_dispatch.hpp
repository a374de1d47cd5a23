// nt/detail/elementwise_dispatch.hpp (internal): the work behind <nt/elementwise.hpp>.
// Operands are aligned to a common output (alignment_of, through the matcher, or
// the row plan of the most common small case), converted to the computation type,
// and handed to the kernels (<nt/detail/ops_kernels.hpp>) or, for operands of mixed
// types, to the compiled core (src/ops/elementwise_converting.cpp). The bodies
// depend on the element types and not on the operation, which is a runtime value:
// see binary_same_type.
//
// Contents, in order: alignment (alignment_of, align_to_destination, the row plan),
// the compile-time type checks, binary (tensor with tensor, out=, with a scalar),
// unary, in-place, then where, clip and the aligned views of broadcast_tensors.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <type_traits>

#include "nt/creation.hpp"
#include "nt/detail/grad_hooks.hpp"
#include "nt/detail/elementwise_operands.hpp"
#include "nt/detail/ops_kernels.hpp"
#include "nt/match.hpp"
#include "nt/promote.hpp"
#include "nt/tensor.hpp"
#include "nt/threads.hpp"

namespace nt::detail {

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
    else return t.template astype<To>();
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
// converted copy (src/ops/elementwise_converting.cpp). `compute` is C's dtype,
// `result` binary_result_t's.
[[nodiscard]] tensor_base binary_converting(binary_op op, std::string_view name, dtype compute, dtype result,
                                            const tensor_base& a, const tensor_base& b, bool union_axes);
/// The out= form (`out` has the result's type).
void binary_converting_into(binary_op op, std::string_view name, dtype compute, const tensor_base& a,
                            const tensor_base& b, const tensor_base& out, bool union_axes);
/// A tensor with a scalar: `value` points to one element of `compute`.
[[nodiscard]] tensor_base binary_scalar_converting(binary_op op, std::string_view name, dtype compute, dtype result,
                                                   const tensor_base& a,
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
/// size-1 broadcasting, no elements): alignment_of decides. Always inlined: out of line
/// (GCC's choice) the call was a visible part of a tiny add's time (docs/performance.md).
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

/// True when `t`'s strides are C order's exactly (any offset): the layout that
/// allocate_like copies for a fresh result.
[[nodiscard, gnu::always_inline]] inline bool c_ordered(const tensor_base& t) noexcept {
    const std::span<const std::int64_t> sizes = t.shape(), strides = t.strides();
    std::int64_t n = 1;
    for (std::size_t d = sizes.size(); d-- > 0;) {
        if (strides[d] != n) return false;
        n *= sizes[d];
    }
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
    if constexpr (is_floating_element_v<R>)
        if (records(a.base(), b.base())) [[unlikely]]
            record_binary(op, name, a.base(), b.base(), out.mutable_base());
    return out;
}

template <binary_op Op, class A, class B>
auto binary(std::string_view name, const Tensor<A>& a, const Tensor<B>& b, bool union_axes = false) {
    using C = binary_operand_t<Op, A, B>;
    using R = binary_result_t<Op, C>;
    check_binary_types<Op, C>();
    // The results are prvalues (guaranteed elision): the nodes are attached where the
    // results are made. A named result here cost the tiny add a move and a destructor.
    if constexpr (std::is_same_v<A, C> && std::is_same_v<B, C>)
        return binary_same_type<C, R>(Op, name, a, b, union_axes);
    else
        return Tensor<R>(binary_converting(Op, name, dtype_of<C>, dtype_of<R>, a.base(), b.base(), union_axes));
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
    before_write(out.base(), name);
    if (records(a.base(), b.base())) [[unlikely]]
        refuse_out_in_graph(name, out.base());
    if constexpr (std::is_same_v<A, C> && std::is_same_v<B, C>)
        binary_into_same_type<C, R>(Op, name, a, b, out, union_axes);
    else
        binary_converting_into(Op, name, dtype_of<C>, a.base(), b.base(), out.base(), union_axes);
}

template <class C, class R>
Tensor<R> binary_scalar_same_type(binary_op op, std::string_view name, const Tensor<C>& ca, C v, bool scalar_first) {
    // Small C-ordered work is one row of n elements and one value: the row plan's kernel
    // call, as for two tensors, without building a spec and zero strides for the
    // general planner (which made a tensor-scalar operation slower than a tensor-tensor
    // one).
    const std::int64_t n = ca.size();
    const bool plain = n > 0 && rows_fit(n) && c_ordered(ca.base());
    Tensor<R> out = plain ? Tensor<R>(in_place_base,
                                      [&] { return tensor_base::allocate_like(dtype_of<R>, ca.base(), n, "result"); })
                          : empty_result<R>(ca.spec());
    if (plain) {
        row_plan rows;
        rows.valid = true;
        rows.n0 = 1;
        rows.n1 = n;
        rows.s0 = {n, scalar_first ? 0 : n, scalar_first ? n : 0, 0};
        rows.s1 = {1, scalar_first ? 0 : 1, scalar_first ? 1 : 0, 0};
        run_binary_rows<C>(op, rows, out.mutable_data(), scalar_first ? &v : ca.data(), scalar_first ? ca.data() : &v);
    } else {
        const dims zeros(ca.rank(), 0);
        const std::span<const std::int64_t> shape = ca.shape();
        if (scalar_first)
            run_binary<C>(op, shape, out.mutable_data(), out.strides(), &v, zeros, ca.data(), ca.strides());
        else
            run_binary<C>(op, shape, out.mutable_data(), out.strides(), ca.data(), ca.strides(), &v, zeros);
    }
    if constexpr (is_floating_element_v<R>)
        if (records(ca.base())) [[unlikely]]
            record_binary_scalar(op, name, ca.base(), static_cast<double>(v), scalar_first, out.mutable_base());
    return out;
}

template <binary_op Op, class T, class S>
auto binary_scalar(std::string_view name, const Tensor<T>& a, S value, bool scalar_first) {
    using C = binary_scalar_operand_t<Op, T, S>;
    using R = binary_result_t<Op, C>;
    check_binary_types<Op, C>();
    const C v = scalar_as<C>(value);
    if constexpr (std::is_same_v<T, C>)
        return binary_scalar_same_type<C, R>(Op, name, a, v, scalar_first);
    else
        return Tensor<R>(binary_scalar_converting(Op, name, dtype_of<C>, dtype_of<R>, a.base(), &v, scalar_first));
}

template <class T, class R>
Tensor<R> unary_typed(unary_op op, const Tensor<T>& a) {
    Tensor<R> out = empty_result<R>(a.spec());
    run_unary<T>(op, a.shape(), out.mutable_data(), out.strides(), a.data(), a.strides());
    if constexpr (is_floating_element_v<R>)
        if (records(a.base())) [[unlikely]]
            record_unary(op, a.base(), out.mutable_base());
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
    before_write(dst.base(), name);
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
    before_write(dst.base(), name);
    in_place_scalar_same_type<T, C, binary_result_t<Op, C>>(Op, dst, scalar_as<C>(value));
}

// where: cond and the value operands matched, the scalars read through stride 0.
template <class C>
Tensor<C> where_same_type(const Tensor<bool>& cond, const Tensor<C>& a, const Tensor<C>& b, bool union_axes) {
    const operand_view operands[3] = {view_of(cond), view_of(a), view_of(b)};
    const alignment& al = alignment_of("where", operands, union_axes);
    Tensor<C> out = empty_result<C>(al);
    run_where<C>(out.shape(), out.mutable_data(), out.strides(), cond.data(), al.strides[0], a.data(), al.strides[1],
                 b.data(), al.strides[2]);
    if constexpr (is_floating_element_v<C>)
        if (records(a.base(), b.base())) [[unlikely]]
            record_where(cond.base(), a.base(), b.base(), out.mutable_base());
    return out;
}

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
    if constexpr (is_floating_element_v<C>)
        if (records(cx.base())) [[unlikely]] {
            const Tensor<C> s = nt::scalar<C>(value);
            if (scalar_first) record_where(cond.base(), s.base(), cx.base(), out.mutable_base());
            else record_where(cond.base(), cx.base(), s.base(), out.mutable_base());
        }
    return out;
}

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
    if constexpr (is_floating_element_v<C>)
        if (records(x.base()) || records(l.base(), h.base())) [[unlikely]]
            record_clip(x.base(), l.base(), h.base(), out.mutable_base());
    return out;
}

// broadcast_tensors and masked_select with union: input i of plan p viewed as the output.
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

}  // namespace nt::detail
