// nt/reduce.hpp: reductions over axes given by index or name.
//
//     auto prob = nt::ones<float>({20, 3, 64, 64}, {"?", "CLASS", "H", "W"});
//     nt::sum(prob, {"H", "W"});              // (20,3 | ?,CLASS)
//     nt::mean(prob, "CLASS", true);          // keepdims: (20,1,64,64 | ?,CLASS,H,W)
//     nt::max(prob);                          // every axis: rank 0
//
// Result types (NumPy's): sum and prod of unsigned integers give uint64, of signed
// integers and bool int64, of floating types the type itself (half accumulates in
// float); mean of integers and bool gives double; argmax/argmin give int64 (the
// row-major index over the reduced axes), any/all give bool. Floating sums are
// blocked and pairwise, and identical for any thread count.
// Throws axis_out_of_range (unknown axis), invalid_argument (an axis listed twice;
// min, max, argmax or argmin of an empty reduction).
#pragma once

#include <string_view>

#include "nt/axis.hpp"
#include "nt/index.hpp"
#include "nt/detail/grad_hooks.hpp"
#include "nt/detail/op_lists.hpp"
#include "nt/detail/ops_kernels.hpp"
#include "nt/creation.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {

/// The shape of a reduction: which input axes are reduced, the result spec, and the
/// result's strides seen from the input's axes (0 on reduced ones).
struct reduction_shape {
    small_vector<bool, 8> reduced;
    spec result;
    dims output_strides;  // filled by finish_reduction once the result exists
};

/// Resolves `axes` (every axis when `every_axis`) against `input`; throws as above.
void plan_reduction(std::string_view op_name, reduce_op op, const spec& input, axes_arg axes, bool every_axis,
                    bool keepdims, reduction_shape& out);
/// Input-rank strides of the result (the result may have dropped the reduced axes).
void finish_reduction(const reduction_shape& shape, std::span<const std::int64_t> result_strides,
                      reduction_shape& out);

template <reduce_op Op, class T>
Tensor<reduce_result_t<Op, T>> reduce(std::string_view name, const Tensor<T>& t, axes_arg axes, bool every_axis,
                                      bool keepdims) {
    using R = reduce_result_t<Op, T>;
    reduction_shape rs;
    plan_reduction(name, Op, t.spec(), axes, every_axis, keepdims, rs);
    Tensor<R> out = nt::empty<R>(rs.result);
    finish_reduction(rs, out.strides(), rs);
    run_reduce<T>(Op, t.shape(), std::span<const bool>(rs.reduced.data(), rs.reduced.size()), out.mutable_data(),
                  rs.output_strides, t.data(), t.strides());
    if constexpr (is_floating_element_v<R> && is_floating_element_v<T>)
        if (records(t.base())) [[unlikely]]
            record_reduce(Op, name, t.base(), std::span<const bool>(rs.reduced.data(), rs.reduced.size()), every_axis,
                          keepdims, out.mutable_base());
    return out;
}

}  // namespace detail

#define NT_REDUCTION(fn, op)                                                                        \
    /** Reduces over every axis (a rank-0 result). */                                               \
    template <class T>                                                                              \
    auto fn(const Tensor<T>& t) {                                                                   \
        return detail::reduce<detail::reduce_op::op>(#fn, t, {}, true, false);                      \
    }                                                                                               \
    /** Reduces over `axes` (indices or names, or one axis); keepdims keeps them with size 1. */    \
    template <class T>                                                                              \
    auto fn(const Tensor<T>& t, axes_arg axes, bool keepdims = false) {                             \
        return detail::reduce<detail::reduce_op::op>(#fn, t, axes, false, keepdims);                \
    }

NT_FOR_EACH_REDUCTION(NT_REDUCTION)
#undef NT_REDUCTION

/// The `all` reduction behind nt::all(t, ...). The call operator below finds it (and
/// the any_tensor overload of <nt/any_tensor.hpp>) by argument-dependent lookup.
template <class T>
auto reduce_all(const Tensor<T>& t, axes_arg axes, bool every_axis, bool keepdims) {
    return detail::reduce<detail::reduce_op::all>("all", t, axes, every_axis, keepdims);
}

// nt::all is also the whole-axis index tag (nt/index.hpp), so the reduction is its
// call operator: nt::all(t), nt::all(t, axes, keepdims), nt::all(t, axis, keepdims).
template <class Tensor>
auto all_t::operator()(const Tensor& t) const {
    return reduce_all(t, axes_arg{}, true, false);
}
template <class Tensor>
auto all_t::operator()(const Tensor& t, axes_arg axes, bool keepdims) const {
    return reduce_all(t, axes, false, keepdims);
}

}  // namespace nt
