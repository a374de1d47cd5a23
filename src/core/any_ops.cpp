// Operations on any_tensor operands. No second engine: the common dtype is decided at
// run time by the typed promotion rules, the operands are converted with the
// library's casts, and one dispatch on that dtype calls the typed operation. So each
// operation is instantiated once per element type, never per pair of types.
#include <utility>

#include "nt/any_tensor.hpp"
#include "element_types.hpp"
#include "nt/elementwise.hpp"
#include "nt/reduce.hpp"

namespace nt::detail {

namespace {

template <class T>
using type_of = typename T::type;

/// Calls `f(boost::hana::type_c<T>)` for the T of `d` and returns its any_tensor.
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

template <class F>
any_tensor with_binary_op(binary_op op, F&& f) {
    using enum binary_op;
    return with_op<add, sub, mul, div, mod, min, max, pow, eq, ne, lt, le, gt, ge, logical_and, logical_or,
                   logical_xor>(op, std::forward<F>(f));
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

}  // namespace

any_tensor any_binary(binary_op op, std::string_view name, const any_tensor& a, const any_tensor& b) {
    const dtype c = promote_types(a.dtype(), b.dtype());
    const any_tensor ca = converted(a, c), cb = converted(b, c);
    return dispatch(c, [&](auto type) {
        using T = type_of<decltype(type)>;
        return with_binary_op(op, [&](auto o) { return any_tensor(binary<o.value>(name, typed<T>(ca), typed<T>(cb))); });
    });
}

any_tensor any_binary_scalar(binary_op op, std::string_view name, const any_tensor& a, const any_scalar& s,
                             bool scalar_first) {
    // The scalar becomes a rank-0 tensor of the common type: broadcasting it gives
    // what the typed tensor-with-scalar form computes.
    const dtype c = promote_with_scalar(a.dtype(), s.k);
    const any_tensor v = scalar_tensor(s, c);
    const any_tensor ca = converted(a, c);
    return scalar_first ? any_binary(op, name, v, ca) : any_binary(op, name, ca, v);
}

any_tensor any_bool_binary(binary_op op, std::string_view name, const any_tensor& a, const any_tensor& b) {
    for (const any_tensor* t : {&a, &b})
        if (t->dtype() != dtype::b8)
            throw_error(errc::type_mismatch, std::string(name) + ": an operand holds " +
                                                 std::string(to_string(t->dtype())) +
                                                 " elements; & | ^ take bool tensors (use logical_and, logical_or, "
                                                 "logical_xor for truth values of other types)");
    return any_binary(op, name, a, b);
}

any_tensor any_unary(unary_op op, const any_tensor& a) {
    return dispatch(a.dtype(), [&](auto type) {
        using T = type_of<decltype(type)>;
        using enum unary_op;
        return with_op<abs, neg, exp, log, sqrt, sin, cos, tanh, sigmoid, logical_not>(
            op, [&](auto o) { return any_tensor(unary<o.value>(typed<T>(a))); });
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

any_tensor any_where(const any_tensor& cond, const any_tensor& a, const any_tensor& b) {
    const dtype c = promote_types(a.dtype(), b.dtype());
    const any_tensor ca = converted(a, c), cb = converted(b, c);
    const Tensor<bool> mask = typed<bool>(converted(cond, dtype::b8));
    return dispatch(c, [&](auto type) {
        using T = type_of<decltype(type)>;
        return any_tensor(nt::where(mask, typed<T>(ca), typed<T>(cb)));
    });
}

}  // namespace nt::detail
