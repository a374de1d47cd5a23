// Reduction shapes: which axes are reduced and what the result looks like.
#include "nt/reduce.hpp"

#include <string>

#include "nt/names.hpp"

namespace nt::detail {

namespace {
bool needs_elements(reduce_op op) {
    return op == reduce_op::min || op == reduce_op::max || op == reduce_op::argmax || op == reduce_op::argmin;
}
}  // namespace

void plan_reduction(std::string_view op_name, reduce_op op, const spec& input, axes_arg axes, bool every_axis,
                    bool keepdims, reduction_shape& out) {
    const std::size_t rank = input.rank();
    out.reduced.clear();
    out.reduced.resize(rank, every_axis);
    small_vector<name, 8> names;
    small_vector<std::int64_t, 8> sizes;
    for (const axis_spec& ax : input) {
        names.push_back(ax.name);
        sizes.push_back(ax.size);
    }
    const std::span<const name> name_span(names.data(), names.size());
    for (const Axis& axis : axes) {
        const std::size_t a = resolve_axis(axis, name_span, op_name, sizes.span());
        if (out.reduced[a])
            throw_error(errc::invalid_argument, std::string(op_name) + ": axis " + axis.str() +
                                                    " is listed twice for a tensor " + to_string(input) +
                                                    ". Fix: name each axis once");
        out.reduced[a] = true;
    }
    std::int64_t reduced_count = 1;
    for (std::size_t a = 0; a < rank; ++a)
        if (out.reduced[a]) reduced_count *= input.size(a);
    if (reduced_count == 0 && needs_elements(op))
        throw_error(errc::invalid_argument,
                    std::string(op_name) + " of " + to_string(input) +
                        " reduces over zero elements (a reduced axis has size 0) and has no identity. Fix: check "
                        "the tensor is not empty, or use sum/prod/any/all, which have one");
    out.result = spec();
    for (std::size_t a = 0; a < rank; ++a) {
        if (!out.reduced[a]) out.result.push_back(input[a]);
        else if (keepdims) out.result.push_back({1, input.name(a)});
    }
}

void finish_reduction(const reduction_shape& shape, std::span<const std::int64_t> result_strides,
                      reduction_shape& out) {
    const bool keepdims = result_strides.size() == shape.reduced.size();
    dims strides;
    std::size_t r = 0;
    for (std::size_t a = 0; a < shape.reduced.size(); ++a) {
        if (shape.reduced[a]) {
            strides.push_back(0);
            if (keepdims) ++r;
        } else {
            strides.push_back(result_strides[r++]);
        }
    }
    out.output_strides = std::move(strides);
}

}  // namespace nt::detail
