// Operations on any_tensor operands. No second engine: the common dtype is decided at
// run time by the typed promotion rules, the operands are converted with the
// library's casts, and one dispatch on that dtype calls the typed operation. So each
// operation is instantiated once per element type, never per pair of types.
#include <optional>
#include <string>
#include <utility>

#include "nt/any_tensor.hpp"
#include "element_types.hpp"
#include "nt/elementwise.hpp"
#include "nt/reduce.hpp"
#include "nt/segmentation.hpp"
#include "nt/statistics.hpp"

namespace nt::detail {

namespace {

template <class T>
using type_of = typename T::type;

/// Calls `f(std::type_identity<T>{})` for the T of `d` (detail::visit_dtype) and returns its any_tensor.
template <class F>
any_tensor dispatch(dtype d, F&& f) {
    any_tensor out;
    visit_dtype(d, [&](auto t) { out = f(t); });
    return out;
}

/// `a` holding `d` elements: itself, or a converted copy.
any_tensor converted(const any_tensor& a, dtype d) { return a.dtype() == d ? a : a.astype(d); }

template <class T>
Tensor<T> typed(const any_tensor& a) {
    return Tensor<T>(a.base());
}

/// Calls `f(std::integral_constant<E, op>)` for the runtime `op` among `Ops`.
template <auto... Ops, class E, class F>
any_tensor with_op(E op, F&& f) {
    any_tensor out;
    (void)((op == Ops ? (out = f(std::integral_constant<E, Ops>{}), true) : false) || ...);
    return out;
}

/// with_op over every enumerator of E from 0 to Last (the enum itself is the list).
template <auto Last, class F>
any_tensor with_every_op(decltype(Last) op, F&& f) {
    using E = decltype(Last);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return with_op<static_cast<E>(I)...>(op, std::forward<F>(f));
    }(std::make_index_sequence<static_cast<std::size_t>(Last) + 1>{});
}

template <class F>
any_tensor with_binary_op(binary_op op, F&& f) {
    return with_every_op<last_binary_op>(op, std::forward<F>(f));
}

/// The floating type float math computes in for `d` (float_result_t at run time).
dtype float_of(dtype d) {
    dtype out = d;
    visit_dtype(d, [&](auto type) { out = dtype_of<float_result_t<type_of<decltype(type)>>>; });
    return out;
}

/// The common dtype of a tensor of `t` with a scalar of kind `k` (NumPy's weak
/// scalars, nt::promote_scalar_t).
dtype promote_with_scalar(dtype t, any_scalar::kind k) {
    dtype out = t;
    visit_dtype(t, [&](auto type) {
        using T = type_of<decltype(type)>;
        switch (k) {
            case any_scalar::kind::boolean: out = dtype_of<promote_scalar_t<T, bool>>; break;
            case any_scalar::kind::signed_integer: out = dtype_of<promote_scalar_t<T, std::int64_t>>; break;
            case any_scalar::kind::unsigned_integer: out = dtype_of<promote_scalar_t<T, std::uint64_t>>; break;
            case any_scalar::kind::floating: out = dtype_of<promote_scalar_t<T, double>>; break;
        }
    });
    return out;
}

/// The scalar as a rank-0 tensor of `d`, converted as scalar operands are.
any_tensor scalar_tensor(const any_scalar& s, dtype d) {
    return dispatch(d, [&](auto type) {
        using T = type_of<decltype(type)>;
        T v{};
        switch (s.k) {
            case any_scalar::kind::boolean: v = scalar_as<T>(s.b); break;
            case any_scalar::kind::signed_integer: v = scalar_as<T>(s.i); break;
            case any_scalar::kind::unsigned_integer: v = scalar_as<T>(s.u); break;
            case any_scalar::kind::floating: v = scalar_as<T>(s.f); break;
        }
        return any_tensor(nt::scalar<T>(v));
    });
}

/// a op b computed in `c` (the operands' common type as the typed API decides it):
/// operands of other types are converted as the kernel reads them.
any_tensor binary_in(binary_op op, std::string_view name, dtype c, const any_tensor& a, const any_tensor& b) {
    return dispatch(c, [&](auto type) {
        using T = type_of<decltype(type)>;
        return with_binary_op(op, [&](auto o) -> any_tensor {
            if constexpr (binary_accepts_v<o.value, T>) {
                if (a.dtype() == c && b.dtype() == c)
                    return any_tensor(binary<o.value>(name, typed<T>(a), typed<T>(b)));
                return any_tensor(binary_converting(op, name, c, dtype_of<binary_result_t<o.value, T>>, a.base(),
                                                    b.base(), false));
            } else {
                const std::string what = "the operands (" + std::string(to_string(a.dtype())) + ", " +
                                         std::string(to_string(b.dtype())) + ") compute in a type that";
                throw_unsupported_type(name, what, c, accepted_types(op));
            }
        });
    });
}

}  // namespace

any_tensor any_binary(binary_op op, std::string_view name, const any_tensor& a, const any_tensor& b) {
    // The type the operation computes in, as binary_operand_t decides it statically.
    const dtype c = is_float_math(op) ? promote_types(float_of(a.dtype()), float_of(b.dtype()))
                                      : promote_types(a.dtype(), b.dtype());
    return binary_in(op, name, c, a, b);
}

any_tensor any_binary_scalar(binary_op op, std::string_view name, const any_tensor& a, const any_scalar& s,
                             bool scalar_first) {
    // The scalar becomes a rank-0 tensor of the common type: broadcasting it gives
    // what the typed tensor-with-scalar form computes.
    const dtype p = promote_with_scalar(a.dtype(), s.k);
    const dtype c = is_float_math(op) ? float_of(p) : p;
    const any_tensor v = scalar_tensor(s, c);
    return scalar_first ? binary_in(op, name, c, v, a) : binary_in(op, name, c, a, v);
}

any_tensor any_unary(unary_op op, std::string_view name, const any_tensor& a) {
    return dispatch(a.dtype(), [&](auto type) {
        using T = type_of<decltype(type)>;
        return with_every_op<last_unary_op>(op, [&](auto o) -> any_tensor {
            if constexpr (unary_accepts_v<o.value, T>) return any_tensor(unary<o.value>(typed<T>(a)));
            else throw_unsupported_type(name, "the tensor's element type", a.dtype(), accepted_types(op));
        });
    });
}

any_tensor any_reduce(reduce_op op, std::string_view name, const any_tensor& a, axes_arg axes, bool every_axis,
                      bool keepdims) {
    return dispatch(a.dtype(), [&](auto type) {
        using T = type_of<decltype(type)>;
        using enum reduce_op;
        return with_op<sum, mean, min, max, prod, argmax, argmin, any, all>(op, [&](auto o) {
            return any_tensor(reduce<o.value>(name, typed<T>(a), axes, every_axis, keepdims));
        });
    });
}

void any_in_place(binary_op op, std::string_view name, const any_tensor& dst, const any_tensor& src) {
    dst.base().check_writable(std::string(name).c_str());
    // src aligned to dst as the typed in-place forms align it (broadcast_to rules),
    // then dst op src computed aside and stored back with the casts of assign.
    alignment al;
    align_to_destination(name, dst.spec(), src.spec(), src.strides(), al);
    const tensor_base& s = src.base();
    const name_list names(dst.names().begin(), dst.names().end());
    const any_tensor aligned(
        s.with(nt::layout(dst.shape(), al.strides[0].span(), s.layout().offset()), names, true));
    any_tensor(dst).assign(any_binary(op, name, dst, aligned));
}

void any_in_place_scalar(binary_op op, std::string_view name, const any_tensor& dst, const any_scalar& s) {
    dst.base().check_writable(std::string(name).c_str());
    any_tensor(dst).assign(any_binary_scalar(op, name, dst, s, false));
}

any_tensor any_where_scalar(const any_tensor& cond, const any_tensor& t, const any_scalar& s, bool scalar_first) {
    // The scalar as a rank-0 tensor of the weak common type: broadcasting it gives
    // what the typed scalar form computes.
    const dtype c = promote_with_scalar(t.dtype(), s.k);
    const any_tensor v = scalar_tensor(s, c);
    const any_tensor ct = converted(t, c);
    return scalar_first ? any_where(cond, v, ct) : any_where(cond, ct, v);
}

any_tensor any_clip(const any_tensor& t, const any_tensor* lo_tensor, const any_scalar& lo,
                    const any_tensor* hi_tensor, const any_scalar& hi) {
    // The type as clip_type_t decides it: tensors promote, then scalars are weak.
    dtype c = t.dtype();
    if (lo_tensor) c = promote_types(c, lo_tensor->dtype());
    if (hi_tensor) c = promote_types(c, hi_tensor->dtype());
    if (!lo_tensor) c = promote_with_scalar(c, lo.k);
    if (!hi_tensor) c = promote_with_scalar(c, hi.k);
    return dispatch(c, [&](auto type) {
        using T = type_of<decltype(type)>;
        // A scalar bound converts as the typed form converts it (clip_bound_as).
        auto bound = [&](const any_tensor* tensor, const any_scalar& s) -> Tensor<T> {
            if (tensor) return typed<T>(converted(*tensor, c));
            switch (s.k) {
                case any_scalar::kind::boolean: return nt::scalar<T>(clip_bound_as<T>(s.b));
                case any_scalar::kind::signed_integer: return nt::scalar<T>(clip_bound_as<T>(s.i));
                case any_scalar::kind::unsigned_integer: return nt::scalar<T>(clip_bound_as<T>(s.u));
                case any_scalar::kind::floating: break;
            }
            return nt::scalar<T>(clip_bound_as<T>(s.f));
        };
        return any_tensor(nt::clip(typed<T>(converted(t, c)), bound(lo_tensor, lo), bound(hi_tensor, hi)));
    });
}

any_tensor any_nan_to_num(const any_tensor& t, double nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
    return dispatch(t.dtype(), [&](auto type) {
        using T = type_of<decltype(type)>;
        return any_tensor(nt::nan_to_num(typed<T>(t), nan, posinf, neginf));
    });
}

any_tensor any_where(const any_tensor& cond, const any_tensor& a, const any_tensor& b) {
    const dtype c = promote_types(a.dtype(), b.dtype());
    const any_tensor ca = converted(a, c), cb = converted(b, c);
    const Tensor<bool> mask = typed<bool>(converted(cond, dtype::b8));
    return dispatch(c, [&](auto type) {
        using T = type_of<decltype(type)>;
        return any_tensor(nt::where(mask, typed<T>(ca), typed<T>(cb)));
    });
}

// --- statistics and segmentation helpers ----------------------------------------------------

any_tensor any_statistics(any_statistic which, const any_tensor& t, axes_arg axes, bool every_axis, bool keepdims,
                          std::int64_t ddof, double q) {
    switch (which) {
        case any_statistic::var:
        case any_statistic::stddev:
            return any_tensor(variance(t.base(), axes, every_axis, ddof, keepdims, which == any_statistic::stddev,
                                       which == any_statistic::stddev ? "stddev" : "var"));
        case any_statistic::quantile:
            check_quantile(q, "quantile");
            return any_tensor(order_statistic(t.base(), q, axes, every_axis, keepdims, dtype::f64, "quantile"));
        default: break;
    }
    return dispatch(t.dtype(), [&](auto type) -> any_tensor {
        using T = type_of<decltype(type)>;
        const Tensor<T> x = typed<T>(t);
        switch (which) {
            case any_statistic::nansum: return any_tensor(nansum_impl(x, axes, keepdims, every_axis));
            case any_statistic::nanmean: return any_tensor(nanmean_impl(x, axes, keepdims, every_axis));
            case any_statistic::nanmin: return any_tensor(nanmin_impl(x, axes, keepdims, every_axis));
            case any_statistic::nanmax: return any_tensor(nanmax_impl(x, axes, keepdims, every_axis));
            case any_statistic::count_nonzero: return any_tensor(count_nonzero_impl(x, axes, keepdims, every_axis));
            default: return any_tensor(every_axis ? nt::median(x) : nt::median(x, axes, keepdims));
        }
    });
}

any_tensor any_cumulate(const any_tensor& t, const Axis& axis, bool product) {
    return dispatch(t.dtype(), [&](auto type) {
        using T = type_of<decltype(type)>;
        return product ? any_tensor(nt::cumprod(typed<T>(t), axis)) : any_tensor(nt::cumsum(typed<T>(t), axis));
    });
}

any_tensor any_one_hot(const any_tensor& labels, std::int64_t classes, std::int64_t pos, name n, dtype result) {
    return dispatch(labels.dtype(), [&](auto type) -> any_tensor {
        using T = type_of<decltype(type)>;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            const any_tensor hot(nt::one_hot<bool>(typed<T>(labels), classes, pos, n));
            return result == dtype::b8 ? hot : hot.astype(result);
        } else {
            check_labels(labels.base(), classes, "one_hot");  // type_mismatch, naming the type
            return {};
        }
    });
}

any_tensor any_bincount(const any_tensor& x, const any_tensor* weights, std::int64_t minlength) {
    if (weights == nullptr) return any_tensor(bincount(x.base(), minlength, nullptr));
    const any_tensor w = weights->astype(dtype::f64);
    return any_tensor(bincount(x.base(), minlength, &w.base()));
}

}  // namespace nt::detail
