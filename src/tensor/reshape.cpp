// tensor_base: reshape, view, flatten and unflatten.
#include "core_errors.hpp"
#include "copy.hpp"
#include "nt/detail/tensor_base.hpp"

namespace nt::detail {

namespace {

// Resolves one -1 in `shape` against `count` elements. Throws invalid_argument;
// `describe()` names what is reshaped (only called to build a message).
template <class Describe>
dims infer_shape(std::span<const std::int64_t> shape, std::int64_t count, const Describe& describe,
                 std::string_view op) {
    if (shape.size() > max_rank)
        fail(errc::invalid_spec, op,
             "rank " + std::to_string(shape.size()) + " is over the limit of " + std::to_string(max_rank) + " axes");
    dims out(shape);
    std::int64_t known = 1;
    std::size_t inferred = shape.size();
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (inferred != shape.size())
                fail(errc::invalid_argument, op,
                     "shape " + shape_text(shape) + " has more than one -1; at most one size can be inferred");
            inferred = i;
            continue;
        }
        if (shape[i] < 0)
            fail(errc::invalid_argument, op,
                 "size " + std::to_string(shape[i]) + " in shape " + shape_text(shape) +
                     " is negative; sizes are >= 0, or -1 for one inferred size");
        if (__builtin_mul_overflow(known, shape[i], &known))
            fail(errc::invalid_argument, op, "shape " + shape_text(shape) + " has too many elements");
    }
    if (inferred != shape.size()) {
        if (known == 0 || count % known != 0)
            fail(errc::invalid_argument, op,
                 "cannot infer the -1 in " + shape_text(shape) + " for " + describe() + " of " + std::to_string(count) +
                     " elements" +
                     (known == 0 ? std::string("; the other sizes multiply to 0")
                                 : "; " + std::to_string(count) + " is not a multiple of " + std::to_string(known)));
        out[inferred] = count / known;
        known = count;
    }
    if (known != count)
        fail(errc::invalid_argument, op,
             "cannot reshape " + describe() + " of " + std::to_string(count) + " elements into shape " + shape_text(shape) +
                 " of " + std::to_string(known) + " elements; the element count must stay the same");
    if (!checked_element_count(out.span()))  // (0, MAX, MAX): NumPy refuses it too
        fail(errc::invalid_argument, op,
             "shape " + shape_text(out.span()) + " has too many elements for 64-bit sizes (its non-zero sizes multiply "
             "past 2^63 - 1, a 0 among them notwithstanding); use smaller sizes");
    return out;
}

}  // namespace

tensor_base tensor_base::reshape(std::span<const std::int64_t> shape, order o) const {
    const dims sizes = infer_shape(shape, size(), [this] { return "tensor " + describe(); }, "reshape");
    return reshape_inferred(sizes.span(), reshape_names(this->shape(), names(), sizes.span()), o);
}

tensor_base tensor_base::reshape(std::span<const std::int64_t> shape, std::span<const name> new_names,
                                 order o) const {
    const dims sizes = infer_shape(shape, size(), [this] { return "tensor " + describe(); }, "reshape");
    return reshape_inferred(sizes.span(), names_for_rank(new_names, sizes.size(), "reshape"), o);
}

tensor_base tensor_base::reshape_inferred(std::span<const std::int64_t> sizes, name_list n, order o) const {
    const bool fortran = o == order::fortran;
    if (auto strides = reshape_strides(layout_, sizes, fortran))
        return with(nt::layout(sizes, strides->span(), layout_.offset()), std::move(n), read_only_);
    // A copy: read the source in the requested order into a block laid out in that
    // order, then view the block with the new sizes in the same order.
    tensor_base out = allocate(dtype_, this->shape(), {}, "reshape");
    const nt::layout staging = fortran ? nt::layout::f_contiguous(this->shape()) : out.layout_;
    copy_elements(out.storage_, staging, storage_, layout_, element_size());
    out.layout_ = fortran ? nt::layout::f_contiguous(sizes) : nt::layout::c_contiguous(sizes);
    out.names_ = std::move(n);
    return out;
}

tensor_base tensor_base::view(std::span<const std::int64_t> shape) const {
    const dims sizes = infer_shape(shape, size(), [this] { return "tensor " + describe(); }, "view");
    auto strides = reshape_strides(layout_, sizes.span(), false);
    if (!strides)
        fail(errc::not_a_view, "view",
             "tensor " + describe() + " with strides " + list_text(this->strides()) + " cannot be viewed as shape " +
                 shape_text(sizes.span()) +
                 " without copying (its axes are not contiguous where they would merge); use reshape() to allow a "
                 "copy, or contiguous().view(...)");
    name_list n = reshape_names(this->shape(), names(), sizes.span());
    return with(nt::layout(sizes.span(), strides->span(), layout_.offset()), std::move(n), read_only_);
}

tensor_base tensor_base::flatten() const {
    const std::int64_t all[1] = {size()};
    return reshape(all, order::c);
}

tensor_base tensor_base::flatten(const Axis& first, const Axis& last, name nm) const {
    const std::size_t a = resolve_axis(first, names(), "flatten", shape());
    const std::size_t b = resolve_axis(last, names(), "flatten", shape());
    if (a > b)
        fail(errc::invalid_argument, "flatten",
             "first axis " + first.str() + " (position " + std::to_string(a) + ") comes after last axis " + last.str() +
                 " (position " + std::to_string(b) + ") in tensor " + describe() + "; swap them");
    dims sizes;
    name_list n;
    std::int64_t merged = 1;
    for (std::size_t k = 0; k < rank(); ++k) {
        if (k < a || k > b) {
            sizes.push_back(layout_.size(k));
            n.push_back(names_[k]);
        } else {
            merged *= layout_.size(k);
            if (k == b) {
                sizes.push_back(merged);
                n.push_back(nm);
            }
        }
    }
    check_unique_names(n.span(), "flatten");
    return reshape(sizes.span(), n.span(), order::c);
}

tensor_base tensor_base::unflatten(const Axis& axis, std::span<const std::int64_t> sizes,
                                   std::span<const name> new_names) const {
    const std::size_t a = resolve_axis(axis, names(), "unflatten", shape());
    const std::int64_t n = layout_.size(a);
    auto what = [&] {
        std::string out = "axis " + std::to_string(a);
        if (names_[a]) out += " '" + std::string(names_[a].str()) + "'";
        return out + " of tensor " + describe();
    };
    if (sizes.empty())
        fail(errc::invalid_argument, "unflatten", "no sizes given to split " + what() + " into; give at least one");
    const dims split = infer_shape(sizes, n, what, "unflatten");
    if (rank() - 1 + split.size() > max_rank)
        fail(errc::invalid_spec, "unflatten",
             "the result would have rank " + std::to_string(rank() - 1 + split.size()) + ", over the limit of " +
                 std::to_string(max_rank) + " axes");
    const name_list split_names = names_for_rank(new_names, split.size(), "unflatten");
    // The split axes are C-contiguous within the old axis's stride.
    dims split_strides(split.size(), 0);
    std::int64_t stride = layout_.stride(a);
    for (std::size_t k = split.size(); k-- > 0;) {
        split_strides[k] = stride;
        stride *= split[k];
    }
    nt::layout l = layout_.removed(a);
    name_list out = names_;
    out.erase(out.begin() + a);
    for (std::size_t k = 0; k < split.size(); ++k) {
        l = l.inserted(a + k, split[k], split_strides[k]);
        out.insert(out.begin() + a + k, split_names[k]);
    }
    check_unique_names(out.span(), "unflatten");
    return with(std::move(l), std::move(out), read_only_);
}

}  // namespace nt::detail
