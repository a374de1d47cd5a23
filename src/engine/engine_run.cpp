// The element-wise engine's runner: walks a loop plan (rows, tiles, threads) and
// calls the kernel on each block.
#include "engine.hpp"
#include "simd.hpp"

#include <algorithm>

namespace nt::detail {

void run_plan_impl(const loop_plan& plan, const op_ptrs& base, plan_kernel_fn kernel_fn, const void* context) {
    auto kernel = [&](std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0,
                      const std::int64_t* s1) { kernel_fn(context, n0, n1, p, s0, s1); };
    if (plan.empty) return;
    const int nd = plan.ndim();
    const int nops = plan.nops;
    op_ptrs origin{};
    op_strides s0{}, s1{};
    for (int k = 0; k < nops; ++k) {
        origin[k] = base[k] + plan.offset[k];
        s0[k] = plan.stride[k][nd - 2];
        s1[k] = plan.stride[k][nd - 1];
    }
    const std::int64_t n0axis = plan.size[nd - 2];
    const std::int64_t n1 = plan.size[nd - 1];
    const bool parallel = want_parallel(plan.elements);
    if (nd == 2 && !plan.blocked && plan.column_chunk == 0 && !parallel) {  // small work on two axes: one call
        kernel(n0axis, n1, origin.data(), s0.data(), s1.data());
        return;
    }

    // Offsets (bytes) of the element at multi-index `flat` over axes [0, upto).
    auto offsets_of = [&](std::int64_t flat, int upto, op_strides& off) {
        off = op_strides{};
        for (int d = upto - 1; d >= 0; --d) {
            const std::int64_t i = flat % plan.size[d];
            flat /= plan.size[d];
            for (int k = 0; k < nops; ++k) off[k] += i * plan.stride[k][d];
        }
    };

    if (!plan.blocked) {
        const std::int64_t rows = plan.elements / n1;
        // A short row axis (an image's 2 to 4 channels) goes to threads in whole groups,
        // so that a kernel still sees the channels of a column together.
        const std::int64_t group = n0axis <= 4 ? n0axis : 1;
        // Few rows (one long contiguous run, an image's channels): split the columns
        // instead, each piece over every row, so that a kernel still sees the rows
        // together (deinterleave_rows needs an image's channels in one call).
        std::int64_t pieces = 1, piece = n1;
        if (parallel) {
            const std::int64_t want = std::int64_t{get_num_threads()} * 4;
            if (rows < want) {
                pieces = std::min<std::int64_t>(want, std::max<std::int64_t>(1, n1 / 4096));
                piece = ((n1 + pieces - 1) / pieces + 63) / 64 * 64;
                pieces = (n1 + piece - 1) / piece;
            }
        }
        auto walk_rows = [&](std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) {
            const std::int64_t chunk = plan.column_chunk > 0 ? plan.column_chunk : c1 - c0;
            op_strides off;
            offsets_of(r0, nd - 1, off);
            dims idx(static_cast<std::size_t>(nd - 1), 0);
            {
                std::int64_t flat = r0;
                for (int d = nd - 2; d >= 0; --d) {
                    idx[static_cast<std::size_t>(d)] = flat % plan.size[d];
                    flat /= plan.size[d];
                }
            }
            op_ptrs p{};
            std::int64_t r = r0;
            while (r < r1) {
                const std::int64_t n0 = std::min(r1 - r, n0axis - idx[static_cast<std::size_t>(nd - 2)]);
                for (std::int64_t c = c0; c < c1; c += chunk) {
                    for (int k = 0; k < nops; ++k) p[k] = origin[k] + off[k] + c * s1[k];
                    kernel(n0, std::min(chunk, c1 - c), p.data(), s0.data(), s1.data());
                }
                r += n0;
                if (r >= r1) break;
                // Advance the odometer past the rows just done, carrying outwards.
                int d = nd - 2;
                idx[static_cast<std::size_t>(d)] += n0;
                for (int k = 0; k < nops; ++k) off[k] += n0 * plan.stride[k][d];
                while (d > 0 && idx[static_cast<std::size_t>(d)] == plan.size[d]) {
                    for (int k = 0; k < nops; ++k) off[k] -= plan.size[d] * plan.stride[k][d];
                    idx[static_cast<std::size_t>(d)] = 0;
                    --d;
                    ++idx[static_cast<std::size_t>(d)];
                    for (int k = 0; k < nops; ++k) off[k] += plan.stride[k][d];
                }
            }
        };
        auto body = [&](std::int64_t u0, std::int64_t u1) {
            if (pieces == 1) {
                walk_rows(u0 * group, u1 * group, 0, n1);
                return;
            }
            for (std::int64_t u = u0; u < u1; ++u) walk_rows(0, rows, u * piece, std::min(n1, (u + 1) * piece));
        };
        const std::int64_t units = pieces == 1 ? rows / group : pieces;
        if (parallel)
            parallel_for(units, body);
        else
            body(0, units);
        return;
    }

    // Tiled: axes nd-2 (A) and nd-1 (B) in tile_outer x tile_inner tiles.
    const std::int64_t ta = plan.tile_outer, tb = plan.tile_inner;
    const std::int64_t tiles_a = (n0axis + ta - 1) / ta;
    const std::int64_t outer = plan.elements / (n0axis * n1);
    auto body = [&](std::int64_t u0, std::int64_t u1) {
        op_strides off;
        op_ptrs p{};
        for (std::int64_t u = u0; u < u1; ++u) {
            offsets_of(u / tiles_a, nd - 2, off);
            const std::int64_t a0 = (u % tiles_a) * ta;
            const std::int64_t na = std::min(ta, n0axis - a0);
            for (std::int64_t b0 = 0; b0 < n1; b0 += tb) {
                for (int k = 0; k < nops; ++k) p[k] = origin[k] + off[k] + a0 * s0[k] + b0 * s1[k];
                kernel(na, std::min(tb, n1 - b0), p.data(), s0.data(), s1.data());
            }
        }
    };
    if (parallel)
        parallel_for(outer * tiles_a, body);
    else
        body(0, outer * tiles_a);
}

}  // namespace nt::detail
