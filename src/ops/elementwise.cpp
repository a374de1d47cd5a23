// Operand alignment for element-wise operations: the matcher's plan turned into
// strides over the output shape.
#include <algorithm>
#include <array>
#include <string>

#include "nt/elementwise.hpp"

#include "alignment.hpp"
#include "engine.hpp"

namespace nt::detail {

void plan_result(alignment& al, std::size_t operand_count) {
    const dims sizes = al.output.sizes();
    al.result = nt::layout::c_contiguous(sizes.span());
    al.result_names.clear();
    for (const axis_spec& ax : al.output) al.result_names.push_back(ax.name);
    al.result_count = checked_element_count(sizes.span()).value_or(-1);
    const std::span<const std::int64_t> c_order = al.result.strides();
    std::array<operand_layout, 4> layouts{};
    layouts[0] = {c_order, 1};
    for (std::size_t i = 0; i < operand_count; ++i) layouts[i + 1] = {al.strides[i].span(), 1};
    for (std::size_t i = operand_count + 1; i < layouts.size(); ++i) layouts[i] = {c_order, 1};
    op_strides s0{}, s1{};
    // (A count that overflows fails when the result is allocated; the plan's products
    // would overflow first.)
    al.rows.valid = al.result_count >= 0 && row_major_plan(sizes.span(), layouts, al.rows.n0, al.rows.n1, s0, s1);
    std::copy_n(s0.begin(), al.rows.s0.size(), al.rows.s0.begin());
    std::copy_n(s1.begin(), al.rows.s1.size(), al.rows.s1.begin());
}


namespace {

bool all_unnamed(std::span<const operand_view> operands) noexcept {
    for (const operand_view& v : operands)
        for (name n : v.names)
            if (n) return false;
    return true;
}

// An operand's strides over the output: 0 on inserted and broadcast (size-1) axes.
void strides_from_map(std::span<const std::int32_t> map, const operand_view& operand, dims& out) {
    out.clear();
    for (std::int32_t a : map) {
        const auto axis = static_cast<std::size_t>(a);
        out.push_back(a == inserted_axis || operand.sizes[axis] == 1 ? 0 : operand.strides[axis]);
    }
}

// NumPy's rule for unnamed operands, which policy `names` reproduces exactly (the
// test suite checks both against np.broadcast_shapes): no plan, no allocation.
bool align_unnamed(std::span<const operand_view> operands, alignment& out) {
    std::array<std::span<const std::int64_t>, 3> shapes;
    const std::size_t n = std::min(operands.size(), shapes.size());
    for (std::size_t i = 0; i < n; ++i) shapes[i] = operands[i].sizes;
    dims common;
    if (!numpy_broadcast_shape(std::span(shapes.data(), n), common)) return false;
    out.output.clear();
    for (std::int64_t size : common) out.output.push_back({size, {}});
    small_vector<std::int32_t, 8> map;
    for (std::size_t i = 0; i < n; ++i) {
        numpy_broadcast_map(operands[i].sizes, common.span(), map);  // fits: common is their broadcast
        strides_from_map(map.span(), operands[i], out.strides[i]);
    }
    return true;
}

void strides_from_plan(const plan& p, std::span<const operand_view> operands, alignment& out) {
    for (std::size_t i = 0; i < p.inputs.size(); ++i)
        strides_from_map(p.inputs[i].source_axes.span(), operands[i], out.strides[i]);
}

[[noreturn]] void throw_for(std::string_view op_name, const mismatch& why) {
    throw_error(why.code, std::string(op_name) + ": " + why.message);
}

}  // namespace

namespace {

// The matching itself; alignment_of remembers its result.
void align_operands(std::string_view op_name, std::span<const operand_view> operands, alignment& out,
                    bool union_axes) {
    if (all_unnamed(operands) && align_unnamed(operands, out)) return;
    // Reused per thread: warm specs and plan make matching allocation-free.
    thread_local plan p;
    thread_local std::array<spec, 3> specs;
    const std::size_t n = std::min(operands.size(), specs.size());
    for (std::size_t i = 0; i < n; ++i) {
        specs[i].clear();
        const operand_view& v = operands[i];
        for (std::size_t a = 0; a < v.sizes.size(); ++a) specs[i].push_back({v.sizes[a], a < v.names.size() ? v.names[a] : name{}});
    }
    mismatch why;
    match_options options;
    options.union_axes = union_axes;
    options.union_settable = false;  // an operator cannot take union: suggest what it can do
    if (!try_match_into(std::span<const spec>(specs.data(), n), options, p, &why)) throw_for(op_name, why);
    out.output = p.output;
    strides_from_plan(p, operands, out);
}

// The last alignment of this thread and what it was computed from. Element-wise code
// in loops and pipelines repeats the same operand layouts, and matching named
// operands costs far more than the few comparisons that recognise a repeat.
struct alignment_memo {
    bool valid = false;
    bool union_axes = false;
    std::size_t count = 0;
    std::array<dims, 3> sizes, strides;
    std::array<name_list, 3> names;
    alignment result;

    [[nodiscard]] bool holds(std::span<const operand_view> operands, bool union_flag) const noexcept {
        if (!valid || union_flag != union_axes || operands.size() != count) return false;
        // One loop over the axes for sizes, strides and names: a tiny operation's
        // whole call costs a few times this test.
        for (std::size_t i = 0; i < count; ++i) {
            const operand_view& v = operands[i];
            const std::size_t rank = v.sizes.size();
            if (rank != sizes[i].size() || v.strides.size() != rank || v.names.size() != names[i].size())
                return false;
            const bool names_per_axis = v.names.size() == rank;
            for (std::size_t d = 0; d < rank; ++d)
                if (v.sizes[d] != sizes[i][d] || v.strides[d] != strides[i][d] ||
                    (names_per_axis && !(v.names[d] == names[i][d])))
                    return false;
            if (!names_per_axis && !same_values(v.names, names[i].span())) return false;
        }
        return true;
    }

    void remember(std::span<const operand_view> operands, bool union_flag) {
        for (std::size_t i = 0; i < operands.size(); ++i) {
            sizes[i].assign(operands[i].sizes.begin(), operands[i].sizes.end());
            strides[i].assign(operands[i].strides.begin(), operands[i].strides.end());
            names[i].assign(operands[i].names.begin(), operands[i].names.end());
        }
        count = operands.size();
        union_axes = union_flag;
        valid = true;
    }
};

}  // namespace

const alignment& alignment_of(std::string_view op_name, std::span<const operand_view> operands, bool union_axes) {
    thread_local alignment_memo memo;
    if (operands.size() > memo.sizes.size())
        throw_error(errc::invalid_argument, std::string(op_name) + ": at most 3 operands can be aligned, not " +
                                                std::to_string(operands.size()));
    if (memo.holds(operands, union_axes)) return memo.result;
    memo.valid = false;  // a mismatch below throws with the memo empty
    alignment& al = memo.result;
    align_operands(op_name, operands, al, union_axes);
    plan_result(al, operands.size());
    memo.remember(operands, union_axes);
    return memo.result;
}

void align_to_destination(std::string_view op_name, const spec& destination, const spec& source,
                          std::span<const std::int64_t> source_strides, alignment& out, std::string_view label) {
    out.output = destination;
    const dims sizes = source.sizes();
    const operand_view operand{sizes.span(), {}, source_strides};
    if (!destination.has_names() && !source.has_names()) {
        small_vector<std::int32_t, 8> map;
        const dims target = destination.sizes();
        if (numpy_broadcast_map(sizes.span(), target.span(), map)) {
            strides_from_map(map.span(), operand, out.strides[0]);
            return;
        }
    }
    // Reused per thread, as in alignment_of: a warm plan allocates nothing.
    thread_local plan p;
    mismatch why;
    const std::string_view labels[1] = {label};
    match_options options;
    if (!label.empty()) options.labels = labels;
    if (!try_broadcast_to_into(source, destination, options, p, &why)) throw_for(op_name, why);
    strides_from_map(p.inputs[0].source_axes.span(), operand, out.strides[0]);
}

void throw_out_shape(std::string_view op_name, const spec& out, const spec& expected) {
    throw_error(errc::invalid_argument, std::string(op_name) + ": the out tensor " + to_string(out) +
                                            " does not have the result's shape " + to_string(expected) +
                                            ". Fix: allocate out with that shape (nt::empty<T>(nt::parse_spec(\"" +
                                            to_string(expected) + "\")))");
}

std::string_view accepted_types(binary_op op) noexcept {
    switch (op) {
        case binary_op::floor_div:
            return "floor division is not defined on bool (NumPy computes it in int8). Fix: convert first, e.g. "
                   "astype<std::int32_t>()";
        case binary_op::bit_and:
        case binary_op::bit_or:
        case binary_op::bit_xor:
            return "bitwise operations take integer or bool tensors (u64 with a signed integer promotes to f64, as "
                   "in NumPy). Fix: convert to a common integer type first, e.g. astype<std::int64_t>(), or use "
                   "logical_and / logical_or / logical_xor for truth values";
        case binary_op::shl:
        case binary_op::shr:
            return "shifts take integer tensors (not bool or floating; u64 with a signed integer promotes to f64). "
                   "Fix: convert to an integer type first, e.g. astype<std::int64_t>()";
        default:
            return "this element type is not supported by the operation";
    }
}

std::string_view accepted_types(unary_op op) noexcept {
    switch (op) {
        case unary_op::sign:
            return "sign is not defined on bool (as in NumPy). Fix: convert first, e.g. astype<std::int8_t>()";
        case unary_op::bit_not:
            return "~ (bitwise_not) takes integer or bool tensors. Fix: convert to an integer type first, or use "
                   "logical_not (operator !) for truth values";
        default:
            return "this element type is not supported by the operation";
    }
}

void throw_unsupported_type(std::string_view op_name, std::string_view what, dtype d, std::string_view accepted) {
    throw_error(errc::type_mismatch, std::string(op_name) + ": " + std::string(what) + " is " +
                                         std::string(to_string(d)) + "; " + std::string(accepted));
}

void throw_read_only(std::string_view op_name, const spec& destination) {
    throw_error(errc::read_only,
                std::string(op_name) + ": the destination " + to_string(destination) +
                    " is a read-only view (a broadcast axis or overlapping windows make several indices share one "
                    "element). Fix: write into clone() or contiguous() of it instead");
}

}  // namespace nt::detail
