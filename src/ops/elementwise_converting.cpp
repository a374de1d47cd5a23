// Binary operations on operands of other element types than the one they compute in
// (u16 - f32 computes in f32). The operands are aligned as for any binary operation;
// the kernel then converts them as it reads (run_binary_converting), so no converted
// copy of an operand is made. Untyped: one function per form, not one per type pair.
#include "element_types.hpp"
#include "nt/elementwise.hpp"

namespace nt::detail {

namespace {

operand_view view_of(const tensor_base& t) noexcept { return {t.shape(), t.names(), t.strides()}; }

/// The kernel of `compute` over `shape`: out = a op b.
void run_converting(binary_op op, dtype compute, std::span<const std::int64_t> shape, std::byte* out,
                    std::span<const std::int64_t> out_strides, const converted_input& a, const converted_input& b) {
    visit_dtype(compute, [&](auto type) {
        using T = typename decltype(type)::type;
        run_binary_converting<T>(op, shape, out, out_strides, a, b);
    });
}

}  // namespace

tensor_base binary_converting(binary_op op, std::string_view name, dtype compute, dtype result, const tensor_base& a,
                              const tensor_base& b, bool union_axes) {
    const operand_view operands[2] = {view_of(a), view_of(b)};
    const alignment& al = alignment_of(name, operands, union_axes);
    tensor_base out = tensor_base::allocate_result(result, al.result, al.result_names, al.result_count, "result");
    run_converting(op, compute, out.shape(), out.data(), out.strides(), {a.data(), a.type(), al.strides[0].span()},
                   {b.data(), b.type(), al.strides[1].span()});
    if (records(a, b)) [[unlikely]]
        record_binary(op, name, a, b, out);
    return out;
}

void binary_converting_into(binary_op op, std::string_view name, dtype compute, const tensor_base& a,
                            const tensor_base& b, const tensor_base& out, bool union_axes) {
    if (out.is_read_only()) throw_read_only(name, out.spec());
    const operand_view operands[2] = {view_of(a), view_of(b)};
    const alignment& al = alignment_of(name, operands, union_axes);
    if (!same_values(out.shape(), al.result.sizes())) throw_out_shape(name, out.spec(), al.output);
    // An input may be the output itself, element for element, if it is read without
    // conversion (`a += b` written as add(a, b, a)); any other overlap computes aside.
    auto in_place_ok = [&](const tensor_base& in, const dims& strides) {
        return !out.shares_storage(in) ||
               (in.type() == compute && in.data() == out.data() && same_values(out.strides(), strides.span()));
    };
    if (!in_place_ok(a, al.strides[0]) || !in_place_ok(b, al.strides[1])) {
        out.assign(binary_converting(op, name, compute, out.type(), a, b, union_axes));
        return;
    }
    run_converting(op, compute, out.shape(), out.data(), out.strides(), {a.data(), a.type(), al.strides[0].span()},
                   {b.data(), b.type(), al.strides[1].span()});
}

tensor_base binary_scalar_converting(binary_op op, std::string_view name, dtype compute, dtype result,
                                     const tensor_base& a, const void* value, bool value_first) {
    tensor_base out = tensor_base::allocate_result(result, a.spec(), "result");
    const dims zeros(a.rank(), 0);
    const converted_input tensor{a.data(), a.type(), a.strides()}, scalar{value, compute, zeros.span()};
    run_converting(op, compute, out.shape(), out.data(), out.strides(), value_first ? scalar : tensor,
                   value_first ? tensor : scalar);
    if (records(a)) [[unlikely]] {
        double v = 0;
        visit_dtype(compute, [&](auto type) {
            using C = typename decltype(type)::type;
            if constexpr (is_floating_element_v<C>) v = static_cast<double>(*static_cast<const C*>(value));
        });
        if (compute == dtype::f16 || compute == dtype::f32 || compute == dtype::f64)
            record_binary_scalar(op, name, a, v, value_first, out);
    }
    return out;
}

void in_place_converting(binary_op op, std::string_view name, const tensor_base& dst, const tensor_base& src) {
    // A source overlapping dst is read as it was before the write (copy first).
    const tensor_base source = dst.shares_storage(src) ? src.clone() : src;
    alignment al;
    align_to_destination(name, dst.spec(), source.spec(), source.strides(), al);
    run_converting(op, dst.type(), dst.shape(), dst.data(), dst.strides(), {dst.data(), dst.type(), dst.strides()},
                   {source.data(), source.type(), al.strides[0].span()});
}

}  // namespace nt::detail
