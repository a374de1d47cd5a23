// Masks: masked_fill, assign_where and masked_select over the untyped handle, so that
// Tensor<T> and any_tensor share one implementation. The mask (and assign_where's
// source) is matched to the destination by names and broadcast to it with the rules
// of assign (align_to_destination); the writes are the where kernel run in place.
#include "nt/detail/grad_hooks.hpp"
#include <algorithm>
#include <cstring>
#include <string>

#include "allocator.hpp"
#include "convert.hpp"
#include "copy.hpp"
#include "core_errors.hpp"
#include "element_types.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/elementwise.hpp"

namespace nt::detail {

namespace {

void check_mask(std::string_view op, const tensor_base& t, const tensor_base& mask) {
    if (mask.type() != dtype::b8)
        fail(errc::type_mismatch, op,
             "the mask " + mask.describe() + " holds " + std::string(to_string(mask.type())) +
                 " elements, not bool (for the tensor " + t.describe() +
                 "). Fix: build the mask with a comparison (t > 0) or convert it with astype<bool>()");
}

/// The strides of `operand` (named `label` in messages) over t's shape: matched by
/// names, broadcast (stride 0).
dims strides_over(std::string_view op, const tensor_base& t, const tensor_base& operand, std::string_view label) {
    alignment al;
    align_to_destination(op, t.spec(), operand.spec(), operand.strides(), al, label);
    return al.strides[0];
}

/// `src` converted to `d` (a fresh contiguous copy with the same spec).
tensor_base converted(const tensor_base& src, dtype d) {
    tensor_base out = tensor_base::allocate(d, src.shape(), src.names(), "assign_where");
    convert_elements(out.storage(), out.layout(), d, src.storage(), src.layout(), src.type());
    return out;
}

/// t = where(mask, a, t) in place: `a` points to t's type, with strides over t.
void where_in_place(const tensor_base& t, const tensor_base& mask, std::span<const std::int64_t> mask_strides,
                    const void* a, std::span<const std::int64_t> a_strides) {
    visit_dtype(t.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        // The output is also the third input, element for element (same pointer and
        // strides): the engine allows that, as for a += b.
        T* data = reinterpret_cast<T*>(t.data());
        run_where<T>(t.shape(), data, t.strides(), reinterpret_cast<const bool*>(mask.data()), mask_strides,
                     static_cast<const T*>(a), a_strides, data, t.strides());
    });
}

}  // namespace

void masked_fill(const tensor_base& t, const tensor_base& mask, const void* value) {
    constexpr std::string_view op = "masked_fill";
    t.check_writable("masked_fill");
    before_write(t, op);
    check_mask(op, t, mask);
    // A mask that overlaps t (t is bool) is read as it was before the write.
    const tensor_base m = t.may_overlap(mask) ? mask.clone() : mask;
    const dims ms = strides_over(op, t, m, "mask");
    const dims zeros(t.rank(), 0);
    where_in_place(t, m, ms.span(), value, zeros.span());
}

void assign_where(const tensor_base& t, const tensor_base& mask, const tensor_base& src) {
    constexpr std::string_view op = "assign_where";
    t.check_writable("assign_where");
    before_write(t, op);
    check_mask(op, t, mask);
    const tensor_base m = t.may_overlap(mask) ? mask.clone() : mask;
    // The source in t's type; one that overlaps t is copied first (a converted source
    // is a copy already).
    const tensor_base s = src.type() != t.type() ? converted(src, t.type()) : t.may_overlap(src) ? src.clone() : src;
    const dims ms = strides_over(op, t, m, "mask");
    const dims ss = strides_over(op, t, s, "source");
    where_in_place(t, m, ms.span(), s.data(), ss.span());
}

tensor_base masked_select(const tensor_base& t, const tensor_base& mask) {
    constexpr std::string_view op = "masked_select";
    check_mask(op, t, mask);
    const dims ms = strides_over(op, t, mask, "mask");
    // The mask over t's shape in row-major order, then one pass over t's elements in
    // that order (t itself when C-contiguous, else a contiguous copy).
    const std::int64_t n = t.size();
    const auto count = static_cast<std::size_t>(n);
    const scratch_buffer buffer(count);
    bool* const flags = buffer.as<bool>();
    copy_elements(flags, nt::layout::c_contiguous(t.shape()), mask.storage(),
                  nt::layout(t.shape(), ms.span(), mask.layout().offset()), sizeof(bool));
    const auto selected = std::count(flags, flags + count, true);
    const std::int64_t out_shape[1] = {static_cast<std::int64_t>(selected)};
    tensor_base out = tensor_base::allocate(t.type(), out_shape, {}, op);
    const tensor_base source = t.is_contiguous() ? t : t.clone();
    const std::size_t size = t.element_size();
    const std::byte* in = source.data();
    std::byte* o = out.data();
    for (std::size_t i = 0; i < count; ++i) {
        if (!flags[i]) continue;
        std::memcpy(o, in + i * size, size);
        o += size;
    }
    return out;
}

}  // namespace nt::detail
