// nt/any_tensor.hpp: nt::any_tensor, a tensor whose element type is known at run time.
//
// Code driven by files and configs often learns the element type only when it reads
// the data (nt::load_npy). any_tensor is the same cheap handle as Tensor<T> (shared
// storage, views, names) with the dtype as a runtime value: it converts from any
// Tensor<T> (sharing the storage), back with as<T>(), and nt::visit calls a generic
// function with the typed tensor.
//
//     nt::any_tensor a = nt::load_npy("ct.npy", {"D", "H", "W"});   // int16 on disk
//     auto mid = a.index(a.size("D") / 2);                          // a view, still any
//     auto hu = nt::maximum(a, -1000) * 0.5;                        // f64 (NumPy's rules)
//     nt::Tensor<std::int16_t> t = a.as<std::int16_t>();             // same storage
//     nt::visit([](const auto& t) { std::cout << t.at(0, 0, 0); }, a);
//
// Element-wise operations and reductions on any_tensor operands (mixed with typed
// tensors and scalars) return any_tensor; the result type is decided at run time by
// the same promotion table as Tensor<T> (nt::promote_types), and the work is done by
// the typed engine. Errors are those of the typed operations, plus type_mismatch
// from as<T>().
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "nt/axis.hpp"
#include "nt/detail/handle_ops.hpp"
#include "nt/detail/op_lists.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/dtype.hpp"
#include "nt/index.hpp"
#include "nt/layout.hpp"
#include "nt/names.hpp"
#include "nt/spec.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {
/// Throws type_mismatch from any_tensor::as: "holds i16 elements, not f32".
[[noreturn]] void throw_any_type_mismatch(dtype requested, dtype actual);
}  // namespace detail

/// A scalar operand of an any_tensor operation, with its C++ category kept: NumPy's
/// "weak" scalar rule depends on whether it is bool, integer or floating.
struct any_scalar {
    enum class kind : std::uint8_t { boolean, signed_integer, unsigned_integer, floating };
    kind k = kind::floating;
    bool b = false;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double f = 0.0;

    template <class S>
        requires std::is_arithmetic_v<S>
    static constexpr any_scalar of(S v) noexcept {
        any_scalar s;
        if constexpr (std::is_same_v<S, bool>) {
            s.k = kind::boolean;
            s.b = v;
        } else if constexpr (std::is_floating_point_v<S>) {
            s.k = kind::floating;
            s.f = static_cast<double>(v);
        } else if constexpr (std::is_signed_v<S>) {
            s.k = kind::signed_integer;
            s.i = static_cast<std::int64_t>(v);
        } else {
            s.k = kind::unsigned_integer;
            s.u = static_cast<std::uint64_t>(v);
        }
        return s;
    }
};

/// A tensor handle whose element type is a runtime value. Copying shares the
/// storage; every structural operation is a view with the same meaning, names rule
/// and errors as Tensor<T>'s (see <nt/tensor.hpp>).
class any_tensor : public detail::handle_ops<any_tensor> {
public:
    /// An empty f32 tensor of shape (0), without storage.
    any_tensor() = default;
    /// Shares `t`'s storage.
    template <element T>
    any_tensor(const Tensor<T>& t) : b_(t.base()) {}  // NOLINT(google-explicit-constructor): a typed tensor is an any_tensor
    /// Adopts an untyped handle.
    explicit any_tensor(detail::tensor_base base) noexcept : b_(std::move(base)) {}

    // --- queries (shape, strides, names, spec, ...: see detail::handle_ops) ---------

    /// The element at index 0..0, untyped (for reading).
    [[nodiscard]] const void* data() const noexcept { return b_.data(); }
    /// The untyped handle.
    [[nodiscard]] const detail::tensor_base& base() const noexcept { return b_; }
    /// The untyped handle, to attach a gradient node to a fresh result (library use).
    [[nodiscard]] detail::tensor_base& mutable_base() noexcept { return b_; }

    // --- types --------------------------------------------------------------------
    /// True when the elements are T.
    template <element T>
    [[nodiscard]] bool is() const noexcept {
        return dtype() == dtype_of<T>;
    }
    /// The Tensor<T> sharing this storage. Throws type_mismatch naming both dtypes
    /// when the elements are not T (use astype<T>() to convert).
    template <element T>
    [[nodiscard]] Tensor<T> as() const {
        if (!is<T>()) detail::throw_any_type_mismatch(dtype_of<T>, dtype());
        return Tensor<T>(b_);
    }
    /// The elements converted to U in a new C-contiguous tensor with the same shape
    /// and names (a copy even when U is the dtype). Conversions as Tensor::astype.
    template <element U>
    [[nodiscard]] Tensor<U> astype() const {
        return Tensor<U>(convert(dtype_of<U>));
    }
    /// astype with a runtime dtype.
    [[nodiscard]] any_tensor astype(nt::dtype d) const { return any_tensor(convert(d)); }

    // --- writes -------------------------------------------------------------------
    /// Copies `src` (any element type, converted as astype does) broadcast to this
    /// spec into this view. Throws read_only and the matcher's errors.
    any_tensor& assign(const any_tensor& src) {
        b_.assign(src.base());
        return *this;
    }
    /// Sets every element to `value`, converted as astype converts. Throws read_only.
    template <class S>
        requires std::is_arithmetic_v<S>
    any_tensor& fill(S value) {
        fill_scalar(any_scalar::of(value));
        return *this;
    }
    /// Same as fill(value).
    template <class S>
        requires std::is_arithmetic_v<S>
    any_tensor& assign(S value) {
        return fill(value);
    }
    /// Sets the elements where `mask` (bool) is true to `value`, converted as fill
    /// converts; the mask is matched to this tensor by names and broadcast to it (see
    /// Tensor::masked_fill). Throws read_only, type_mismatch and the matcher's errors.
    template <class S>
        requires std::is_arithmetic_v<S>
    any_tensor& masked_fill(const any_tensor& mask, S value) {
        masked_fill_scalar(mask, any_scalar::of(value));
        return *this;
    }
    /// Copies `src` (any element type, converted as assign converts) into the elements
    /// where `mask` (bool) is true (see Tensor::assign_where).
    any_tensor& assign_where(const any_tensor& mask, const any_tensor& src) {
        detail::assign_where(b_, mask.base(), src.base());
        return *this;
    }

    // --- structural operations (views unless stated): see detail::handle_ops --------
    // The same as Tensor<T>'s, each returning an any_tensor: index, reshape, view,
    // flatten, unflatten, squeeze, squeeze_all, unsqueeze, transpose, swap_axes,
    // permute, move_axis, move_axes, slice, unfold, broadcast_to, broadcast_like,
    // broadcast_left, expand_dims, align_to, align_as, rename, refine_names, clone,
    // contiguous.

private:
    [[nodiscard]] detail::tensor_base convert(nt::dtype d) const;
    void fill_scalar(const any_scalar& value) const;
    void masked_fill_scalar(const any_tensor& mask, const any_scalar& value) const;

    detail::tensor_base b_{};
};

/// Calls `f(t)` with `a` as the Tensor<T> of its element type (sharing storage) and
/// returns what f returns (the same type for every T, as std::visit requires).
///     nt::visit([](const auto& t) { return t.size(); }, a);
template <class F>
decltype(auto) visit(F&& f, const any_tensor& a) {
    return detail::visit_dtype(a.dtype(), [&](auto type) -> decltype(auto) {
        return std::forward<F>(f)(Tensor<typename decltype(type)::type>(a.base()));
    });
}

// ---------------------------------------------------------------------------------
// Operations on any_tensor operands (mixed with Tensor<T> and scalars): the result
// type follows the same promotion table as Tensor<T> (nt::promote_types at run time,
// scalars "weak"), the work is done by the typed operations, and the errors are
// theirs. See <nt/elementwise.hpp> and <nt/reduce.hpp> for each operation.

namespace detail {
[[nodiscard]] any_tensor any_binary(binary_op op, std::string_view name, const any_tensor& a, const any_tensor& b);
[[nodiscard]] any_tensor any_binary_scalar(binary_op op, std::string_view name, const any_tensor& a,
                                           const any_scalar& s, bool scalar_first);
[[nodiscard]] any_tensor any_unary(unary_op op, std::string_view name, const any_tensor& a);
[[nodiscard]] any_tensor any_reduce(reduce_op op, std::string_view name, const any_tensor& a, axes_arg axes,
                                    bool every_axis, bool keepdims);
void any_in_place(binary_op op, std::string_view name, const any_tensor& dst, const any_tensor& src);
void any_in_place_scalar(binary_op op, std::string_view name, const any_tensor& dst, const any_scalar& s);
[[nodiscard]] any_tensor any_where(const any_tensor& cond, const any_tensor& a, const any_tensor& b);
/// where with a scalar for a (scalar_first) or b; the scalar is weak, as in the
/// typed form.
[[nodiscard]] any_tensor any_where_scalar(const any_tensor& cond, const any_tensor& t, const any_scalar& s,
                                          bool scalar_first);
/// clip with each bound a tensor (non-null tensor pointer) or a scalar.
[[nodiscard]] any_tensor any_clip(const any_tensor& t, const any_tensor* lo_tensor, const any_scalar& lo,
                                  const any_tensor* hi_tensor, const any_scalar& hi);
[[nodiscard]] any_tensor any_nan_to_num(const any_tensor& t, double nan, std::optional<double> posinf,
                                        std::optional<double> neginf);
}  // namespace detail

#define NT_ANY_BINARY(fn, op, text)                                                                  \
    inline any_tensor fn(const any_tensor& a, const any_tensor& b) {                                 \
        return detail::any_binary(detail::binary_op::op, text, a, b);                               \
    }                                                                                                \
    template <class S>                                                                               \
        requires std::is_arithmetic_v<S>                                                             \
    any_tensor fn(const any_tensor& a, S b) {                                                        \
        return detail::any_binary_scalar(detail::binary_op::op, text, a, any_scalar::of(b), false); \
    }                                                                                                \
    template <class S>                                                                               \
        requires std::is_arithmetic_v<S>                                                             \
    any_tensor fn(S a, const any_tensor& b) {                                                        \
        return detail::any_binary_scalar(detail::binary_op::op, text, b, any_scalar::of(a), true);  \
    }
NT_FOR_EACH_BINARY_FUNCTION(NT_ANY_BINARY)
#undef NT_ANY_BINARY

/// min(a, b) and max(a, b) of two tensors are minimum and maximum.
inline any_tensor min(const any_tensor& a, const any_tensor& b) { return minimum(a, b); }
inline any_tensor max(const any_tensor& a, const any_tensor& b) { return maximum(a, b); }

// In-place forms: compute as the out-of-place operation, store back converted to
// dst's type (as Tensor<T>'s in-place forms do). `dst` may be a Tensor<T>.
#define NT_ANY_IN_PLACE(fn, op, text)                                                              \
    inline any_tensor& fn(any_tensor& a, const any_tensor& b) {                                    \
        detail::any_in_place(detail::binary_op::op, text, a, b);                                   \
        return a;                                                                                  \
    }                                                                                              \
    template <class S>                                                                             \
        requires std::is_arithmetic_v<S>                                                           \
    any_tensor& fn(any_tensor& a, S b) {                                                           \
        detail::any_in_place_scalar(detail::binary_op::op, text, a, any_scalar::of(b));            \
        return a;                                                                                  \
    }                                                                                              \
    template <element T>                                                                           \
    Tensor<T>& fn(Tensor<T>& a, const any_tensor& b) {                                             \
        detail::any_in_place(detail::binary_op::op, text, any_tensor(a), b);                       \
        return a;                                                                                  \
    }
NT_FOR_EACH_IN_PLACE(NT_ANY_IN_PLACE)
#undef NT_ANY_IN_PLACE

#define NT_ANY_UNARY(fn, op) \
    inline any_tensor fn(const any_tensor& a) { return detail::any_unary(detail::unary_op::op, #fn, a); }
NT_FOR_EACH_UNARY_FUNCTION(NT_ANY_UNARY)
#undef NT_ANY_UNARY
inline any_tensor operator-(const any_tensor& a) { return neg(a); }
inline any_tensor operator!(const any_tensor& a) { return logical_not(a); }
inline any_tensor operator~(const any_tensor& a) { return bitwise_not(a); }

/// The elements converted to U (see any_tensor::astype).
template <element U>
[[nodiscard]] Tensor<U> astype(const any_tensor& a) {
    return a.astype<U>();
}

/// where(cond, a, b) with any operand an any_tensor (a non-bool cond counts non-zero
/// as true, as NumPy's where).
[[nodiscard]] inline any_tensor where(const any_tensor& cond, const any_tensor& a, const any_tensor& b) {
    return detail::any_where(cond, a, b);
}
/// where with a scalar for a or b (weak, as for Tensor<T>).
template <class S>
    requires std::is_arithmetic_v<S>
[[nodiscard]] any_tensor where(const any_tensor& cond, S a, const any_tensor& b) {
    return detail::any_where_scalar(cond, b, any_scalar::of(a), true);
}
template <class S>
    requires std::is_arithmetic_v<S>
[[nodiscard]] any_tensor where(const any_tensor& cond, const any_tensor& a, S b) {
    return detail::any_where_scalar(cond, a, any_scalar::of(b), false);
}

/// clip(t, lo, hi) with any_tensor operands, each bound an any_tensor or a scalar
/// (see nt::clip in <nt/elementwise.hpp>).
[[nodiscard]] inline any_tensor clip(const any_tensor& t, const any_tensor& lo, const any_tensor& hi) {
    return detail::any_clip(t, &lo, {}, &hi, {});
}
template <class S1, class S2>
    requires std::is_arithmetic_v<S1> && std::is_arithmetic_v<S2>
[[nodiscard]] any_tensor clip(const any_tensor& t, S1 lo, S2 hi) {
    return detail::any_clip(t, nullptr, any_scalar::of(lo), nullptr, any_scalar::of(hi));
}
template <class S>
    requires std::is_arithmetic_v<S>
[[nodiscard]] any_tensor clip(const any_tensor& t, const any_tensor& lo, S hi) {
    return detail::any_clip(t, &lo, {}, nullptr, any_scalar::of(hi));
}
template <class S>
    requires std::is_arithmetic_v<S>
[[nodiscard]] any_tensor clip(const any_tensor& t, S lo, const any_tensor& hi) {
    return detail::any_clip(t, nullptr, any_scalar::of(lo), &hi, {});
}

/// nan_to_num for any_tensor (see nt::nan_to_num).
[[nodiscard]] inline any_tensor nan_to_num(const any_tensor& t, double nan = 0.0,
                                           std::optional<double> posinf = std::nullopt,
                                           std::optional<double> neginf = std::nullopt) {
    return detail::any_nan_to_num(t, nan, posinf, neginf);
}

/// masked_select for any_tensor: the elements where `mask` (bool) is true, 1-D.
[[nodiscard]] inline any_tensor masked_select(const any_tensor& t, const any_tensor& mask) {
    return any_tensor(detail::masked_select(t.base(), mask.base()));
}

#define NT_ANY_REDUCTION(fn, op)                                                                 \
    [[nodiscard]] inline any_tensor fn(const any_tensor& t) {                                    \
        return detail::any_reduce(detail::reduce_op::op, #fn, t, {}, true, false);               \
    }                                                                                            \
    [[nodiscard]] inline any_tensor fn(const any_tensor& t, axes_arg axes, bool keepdims = false) { \
        return detail::any_reduce(detail::reduce_op::op, #fn, t, axes, false, keepdims);         \
    }
NT_FOR_EACH_REDUCTION(NT_ANY_REDUCTION)
#undef NT_ANY_REDUCTION

/// nt::all(t, ...) for any_tensor: found by nt::all's call operator (<nt/reduce.hpp>).
[[nodiscard]] inline any_tensor reduce_all(const any_tensor& t, axes_arg axes, bool every_axis, bool keepdims) {
    return detail::any_reduce(detail::reduce_op::all, "all", t, axes, every_axis, keepdims);
}

/// Writes `a` as `tensor([...], shape=..., dtype=...)`, as for Tensor<T>.
std::ostream& operator<<(std::ostream& os, const any_tensor& a);
/// The text operator<< writes.
[[nodiscard]] std::string to_string(const any_tensor& a);

}  // namespace nt
