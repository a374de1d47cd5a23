// The element-wise engine's planner: a call's shape and operand strides become a
// loop nest (make_loop_plan), memoised per thread (cached_loop_plan).
#include "engine.hpp"
#include "engine_tuning.hpp"

#include "core_errors.hpp"

#include "nt/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace nt::detail {
using namespace tuning;
namespace {

[[noreturn]] void bad_strides(const char* what, std::size_t operand, std::span<const std::int64_t> shape,
                              std::span<const std::int64_t> strides) {
    throw_error(errc::invalid_argument, std::string(what) + ": operand " + std::to_string(operand) + " has " +
                                            std::to_string(strides.size()) + " strides " + shape_text(strides) +
                                            " for the rank-" + std::to_string(shape.size()) + " shape " +
                                            shape_text(shape));
}

[[noreturn]] void bad_shape(const char* what, std::span<const std::int64_t> shape) {
    throw_error(errc::invalid_argument, std::string(what) + ": shape " + shape_text(shape) + " has a negative size");
}

}  // namespace

loop_plan make_loop_plan(std::span<const std::int64_t> shape, std::span<const operand_layout> operands) {
    const std::size_t nops = operands.size();
    if (nops == 0 || nops > static_cast<std::size_t>(max_operands))
        throw_error(errc::invalid_argument,
                    "elementwise engine: " + std::to_string(nops) + " operands (1 to 4 supported)");
    loop_plan plan;
    plan.nops = static_cast<int>(nops);
    for (std::size_t k = 0; k < nops; ++k)
        if (operands[k].strides.size() != shape.size()) bad_strides("elementwise engine", k, shape, operands[k].strides);
    plan.elements = 1;
    for (const std::int64_t n : shape) {
        if (n < 0) bad_shape("elementwise engine", shape);
        if (n == 0) plan.empty = true;
        plan.elements *= n;
    }
    if (plan.empty) {
        plan.elements = 0;
        return plan;
    }

    // 1. Keep the axes of size > 1, strides in bytes; 2. flip negative output strides.
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1) continue;
        plan.size.push_back(shape[d]);
        const bool flip = operands[0].strides[d] < 0;
        for (std::size_t k = 0; k < nops; ++k) {
            std::int64_t s = operands[k].strides[d] * operands[k].element_size;
            if (flip) {
                plan.offset[k] += s * (shape[d] - 1);
                s = -s;
            }
            plan.stride[k].push_back(s);
        }
    }
    int nd = plan.ndim();

    // 3. Order axes outer -> inner by decreasing |stride| of the output, ties broken by
    //    the inputs in turn (insertion sort: rank is small, and it is stable).
    auto outer_before = [&](int a, int b) {  // should axis a come before (outside) axis b?
        for (std::size_t k = 0; k < nops; ++k) {
            const std::int64_t x = iabs(plan.stride[k][a]), y = iabs(plan.stride[k][b]);
            if (x != y) return x > y;
        }
        return false;
    };
    for (int i = 1; i < nd; ++i)
        for (int j = i; j > 0 && outer_before(j, j - 1); --j) swap_plan_axes(plan, j, j - 1);

    // 4. Merge axis d into d+1 where every operand steps over d as one run of d+1.
    for (int d = nd - 2; d >= 0; --d) {
        bool mergeable = true;
        for (std::size_t k = 0; k < nops && mergeable; ++k)
            mergeable = plan.stride[k][d] == plan.stride[k][d + 1] * plan.size[d + 1];
        if (!mergeable) continue;
        plan.size[d + 1] *= plan.size[d];
        plan.size.erase(plan.size.begin() + d);
        for (std::size_t k = 0; k < nops; ++k) plan.stride[k].erase(plan.stride[k].begin() + d);
        --nd;
    }

    // 5. A transposed input: move its fastest axis next to the innermost and tile.
    if (nd >= 2) {
        for (std::size_t k = 1; k < nops && !plan.blocked; ++k) {
            const std::int64_t inner = iabs(plan.stride[k][nd - 1]);
            if (inner < blocking_stride_bytes) continue;
            // The input's fastest axis, preferring axes long enough to fill a tile edge
            // (a size-3 channel axis makes a poor tile).
            int fastest = -1;
            bool fastest_long = false;
            for (int d = 0; d < nd - 1; ++d) {
                const std::int64_t s = iabs(plan.stride[k][d]);
                if (s == 0 || s >= inner) continue;
                const bool is_long = plan.size[d] >= min_tile_edge;
                if (fastest < 0 || (is_long && !fastest_long) ||
                    (is_long == fastest_long && s < iabs(plan.stride[k][fastest]))) {
                    fastest = d;
                    fastest_long = is_long;
                }
            }
            if (fastest < 0) continue;
            for (int d = fastest; d < nd - 2; ++d) swap_plan_axes(plan, d, d + 1);
            plan.blocked = true;
        }
        if (plan.blocked) set_tiles(plan, tile_edge);
    }

    // Pad to two axes so that the walker always sees rows x columns.
    while (plan.ndim() < 2) {
        plan.size.insert(plan.size.begin(), 1);
        for (std::size_t k = 0; k < nops; ++k) plan.stride[k].insert(plan.stride[k].begin(), 0);
    }
    nd = plan.ndim();

    // 6. An input read again for every row (stride 0 across rows, not along them) of
    //    long rows: walk the rows a chunk of columns at a time, every row of a chunk
    //    before the next chunk, so that the input's chunk comes from memory once and
    //    from L1 for the other rows.
    if (!plan.blocked && plan.size[nd - 2] > 1)
        for (std::size_t k = 1; k < nops; ++k) {
            const std::int64_t step = iabs(plan.stride[k][nd - 1]);
            if (plan.stride[k][nd - 2] != 0 || step == 0) continue;
            const std::int64_t chunk = std::max<std::int64_t>(64, reused_chunk_bytes / step);
            if (plan.size[nd - 1] >= 2 * chunk) plan.column_chunk = chunk;
            break;
        }
    return plan;
}

namespace {

// The last plan made on this thread, with the shape and operand layouts it was made
// for. Code that repeats one operation on same-shaped tensors (a loop over tiles or
// batches) skips planning: comparing a few strides costs less than sorting and
// merging axes again.
struct plan_memo {
    bool valid = false;
    int nops = 0;
    dims shape;
    std::array<dims, max_operands> strides;
    std::array<std::int64_t, max_operands> element_size{};
    loop_plan plan;

    bool matches(std::span<const std::int64_t> shape_now, std::span<const operand_layout> ops) const noexcept {
        if (!valid || static_cast<std::size_t>(nops) != ops.size() || !same_values(shape.span(), shape_now))
            return false;
        for (std::size_t k = 0; k < ops.size(); ++k)
            if (element_size[k] != ops[k].element_size || !same_values(strides[k].span(), ops[k].strides))
                return false;
        return true;
    }
};

}  // namespace

const loop_plan& cached_loop_plan(std::span<const std::int64_t> shape, std::span<const operand_layout> operands) {
    thread_local plan_memo memo;
    if (memo.matches(shape, operands)) return memo.plan;
    memo.valid = false;
    memo.plan = make_loop_plan(shape, operands);
    memo.nops = static_cast<int>(operands.size());
    memo.shape.assign(shape.begin(), shape.end());
    for (std::size_t k = 0; k < operands.size(); ++k) {
        memo.strides[k].assign(operands[k].strides.begin(), operands[k].strides.end());
        memo.element_size[k] = operands[k].element_size;
    }
    memo.valid = true;
    return memo.plan;
}

}  // namespace nt::detail
