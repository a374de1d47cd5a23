// The compiled part of <nt/static.hpp>: the element-wise work of tensor_of operands
// by compile-time source maps, and the messages, out of the templates (and of every
// consumer's translation unit).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "nt/detail/static_core.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/elementwise.hpp"

#include "alignment.hpp"
#include "engine.hpp"

namespace nt::static_detail {

[[noreturn]] void throw_type_spec(errc code, std::span<const std::string_view> expected, std::string_view actual) {
    std::string want = "(";
    for (std::size_t a = 0; a < expected.size(); ++a)
        want += std::string(a ? "," : "") + (expected[a].empty() ? std::string("?") : std::string(expected[a]));
    want += ")";
    throw_error(code, "tensor_of: the tensor " + std::string(actual) + " does not have the type's " +
                          (code == errc::rank_mismatch ? "rank: the type names " + std::to_string(expected.size()) +
                                                             " axes " + want
                                                       : "names " + want) +
                          " (an unnamed axis fits only \"?\"). Fix: rename / refine_names the tensor, or name the "
                          "axes of the tensor_of type as the tensor has them");
}

namespace {

using detail::alignment;
using detail::tensor_base;

[[noreturn]] void throw_static_sizes(std::string_view op, std::size_t axis, std::string_view axis_name,
                                     std::span<const tensor_base* const> bases) {
    std::string listed;
    for (std::size_t i = 0; i < bases.size(); ++i)
        listed += (i ? ", " : "") + std::string("input ") + std::to_string(i) + " " + to_string(bases[i]->spec());
    throw_error(errc::incompatible_sizes,
                std::string(op) + ": output axis " + std::to_string(axis) + " ('" +
                    (axis_name.empty() ? std::string("?") : std::string(axis_name)) +
                    "', paired at compile time) has sizes that are neither equal nor 1: " + listed +
                    ". Fix: slice or resize the operands so the paired axes agree");
}

// Output spec and each operand's strides over it, from the compile-time source maps;
// the one run-time check left is that paired sizes fit (equal or 1).
void align_by_maps(std::string_view op, std::span<const tensor_base* const> bases,
                   std::span<const std::int32_t* const> maps, std::size_t rank, alignment& al) {
    const std::size_t k = bases.size();
    al.output.clear();
    for (std::size_t i = 0; i < k; ++i) al.strides[i].clear();
    for (std::size_t o = 0; o < rank; ++o) {
        std::int64_t size = 1;
        bool bad = false;
        name n;
        for (std::size_t i = 0; i < k; ++i) {
            const std::int32_t a = maps[i][o];
            if (a == inserted_axis) continue;
            const auto axis = static_cast<std::size_t>(a);
            const std::int64_t s = bases[i]->shape()[axis];
            if (!n && !bases[i]->names().empty()) n = bases[i]->names()[axis];
            if (s == 1) continue;
            if (size == 1) size = s;
            else if (s != size) bad = true;
        }
        if (bad) [[unlikely]]
            throw_static_sizes(op, o, n ? n.str() : std::string_view{}, bases);
        al.output.push_back({size, n});
        for (std::size_t i = 0; i < k; ++i) {
            const std::int32_t a = maps[i][o];
            const auto axis = static_cast<std::size_t>(a);
            al.strides[i].push_back(a == inserted_axis || bases[i]->shape()[axis] == 1 ? 0
                                                                                       : bases[i]->strides()[axis]);
        }
    }
}

// The last alignment of this thread by compile-time maps, as alignment_of keeps the
// matcher's (src/ops/elementwise.cpp): a loop over same-shaped operands pays a few
// comparisons, and the result's layout and row plan are derived once per layout.
// The maps' addresses stand for the plan (each is a static array of one plan).
struct maps_memo {
    bool valid = false;
    std::size_t count = 0;
    std::array<const std::int32_t*, 3> maps{};
    std::array<dims, 3> sizes, strides;
    std::array<name_list, 3> names;
    alignment result;

    [[nodiscard]] bool holds(std::span<const tensor_base* const> bases,
                             std::span<const std::int32_t* const> plan_maps) const noexcept {
        if (!valid || bases.size() != count) return false;
        for (std::size_t i = 0; i < count; ++i) {
            if (plan_maps[i] != maps[i]) return false;
            const std::span<const std::int64_t> sz = bases[i]->shape(), st = bases[i]->strides();
            const std::span<const name> nm = bases[i]->names();
            const std::size_t r = sz.size();
            if (r != sizes[i].size() || nm.size() != names[i].size()) return false;
            for (std::size_t d = 0; d < r; ++d)
                if (sz[d] != sizes[i][d] || st[d] != strides[i][d]) return false;
            for (std::size_t d = 0; d < nm.size(); ++d)
                if (!(nm[d] == names[i][d])) return false;
        }
        return true;
    }
};

const alignment& alignment_by_maps(std::string_view op, std::span<const tensor_base* const> bases,
                                   std::span<const std::int32_t* const> maps, std::size_t rank) {
    thread_local maps_memo memo;
    if (memo.holds(bases, maps)) return memo.result;
    memo.valid = false;  // a mismatch below throws with the memo empty
    alignment& al = memo.result;
    align_by_maps(op, bases, maps, rank, al);
    detail::plan_result(al, bases.size());
    for (std::size_t i = 0; i < bases.size(); ++i) {
        memo.maps[i] = maps[i];
        memo.sizes[i].assign(bases[i]->shape().begin(), bases[i]->shape().end());
        memo.strides[i].assign(bases[i]->strides().begin(), bases[i]->strides().end());
        memo.names[i].assign(bases[i]->names().begin(), bases[i]->names().end());
    }
    memo.count = bases.size();
    memo.valid = true;
    return al;
}

tensor_base allocate_aligned(dtype d, const alignment& al) {
    return tensor_base::allocate_result(d, al.result, al.result_names, al.result_count, "result");
}

bool is_floating_dtype(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

// Each result below is one named local returned (or a prvalue): a tensor_base moved
// on the way out was a visible part of a tiny add's time.

void record_if_floating(detail::binary_op op, std::string_view op_name, const tensor_base& a, const tensor_base& b,
                        tensor_base& out) {
    // Floating operands record, into a floating result (a comparison's bool does not).
    if (is_floating_dtype(a.type()) && out.type() == a.type() && detail::records(a, b)) [[unlikely]]
        detail::record_binary(op, op_name, a, b, out);
}

tensor_base binary_rows(detail::binary_op op, std::string_view op_name, dtype result, const tensor_base& a,
                        const tensor_base& b, const detail::row_plan& rows) {
    tensor_base out = tensor_base::allocate_like(result, detail::wider(a, b), rows.n0 * rows.n1, "result");
    detail::visit_dtype(a.type(), [&](auto type) {
        using C = typename decltype(type)::type;
        detail::run_binary_rows<C>(op, rows, out.data(), reinterpret_cast<const C*>(a.data()),
                                   reinterpret_cast<const C*>(b.data()));
    });
    record_if_floating(op, op_name, a, b, out);
    return out;
}

tensor_base binary_aligned(detail::binary_op op, std::string_view op_name, dtype result, const tensor_base& a,
                           const tensor_base& b, const std::int32_t* map_a, const std::int32_t* map_b,
                           std::size_t rank) {
    const tensor_base* bases[2] = {&a, &b};
    const std::int32_t* maps[2] = {map_a, map_b};
    const alignment& al = alignment_by_maps(op_name, bases, maps, rank);
    tensor_base out = allocate_aligned(result, al);
    detail::visit_dtype(a.type(), [&](auto type) {
        using C = typename decltype(type)::type;
        const C* pa = reinterpret_cast<const C*>(a.data());
        const C* pb = reinterpret_cast<const C*>(b.data());
        if (al.rows.valid && detail::rows_fit(al.rows.n0 * al.rows.n1))
            detail::run_binary_rows<C>(op, al.rows, out.data(), pa, pb);
        else
            detail::run_binary<C>(op, out.shape(), out.data(), out.strides(), pa, al.strides[0], pb, al.strides[1]);
    });
    record_if_floating(op, op_name, a, b, out);
    return out;
}

}  // namespace

tensor_base binary_by_maps(detail::binary_op op, std::string_view op_name, dtype result, const tensor_base& a,
                           const tensor_base& b, const std::int32_t* map_a, const std::int32_t* map_b,
                           std::size_t rank, bool trailing) {
    detail::row_plan rows;
    if (trailing && detail::identity_row_plan(a, b, nullptr, rows) && detail::rows_fit(rows.n0 * rows.n1))
        return binary_rows(op, op_name, result, a, b, rows);
    return binary_aligned(op, op_name, result, a, b, map_a, map_b, rank);
}

tensor_base where_by_maps(const tensor_base& cond, const tensor_base& a, const tensor_base& b,
                          const std::int32_t* map_cond, const std::int32_t* map_a, const std::int32_t* map_b,
                          std::size_t rank) {
    const tensor_base* bases[3] = {&cond, &a, &b};
    const std::int32_t* maps[3] = {map_cond, map_a, map_b};
    const alignment& al = alignment_by_maps("where", bases, maps, rank);
    tensor_base out = allocate_aligned(a.type(), al);
    detail::visit_dtype(a.type(), [&](auto type) {
        using C = typename decltype(type)::type;
        detail::run_where<C>(out.shape(), reinterpret_cast<C*>(out.data()), out.strides(),
                             reinterpret_cast<const bool*>(cond.data()), al.strides[0],
                             reinterpret_cast<const C*>(a.data()), al.strides[1], reinterpret_cast<const C*>(b.data()),
                             al.strides[2]);
    });
    if (is_floating_dtype(a.type()) && detail::records(a, b)) [[unlikely]]
        detail::record_where(cond, a, b, out);
    return out;
}

}  // namespace nt::static_detail
