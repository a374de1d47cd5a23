// The loop planner's and the strided copies' shared tuning: tile extents, the
// strides worth blocking, the shortest run for memcpy, and two small plan edits.
// Private to src/engine/ (engine_plan.cpp, strided_copy.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "engine.hpp"

namespace nt::detail::tuning {

inline std::int64_t iabs(std::int64_t v) noexcept { return v < 0 ? -v : v; }

// Tile extents (elements) for the blocked walk: 32 x 32 (4 KiB per 4-byte operand)
// keeps every operand's tile in L1 and measured faster than 16 x 16 and 64 x 64 for
// element-wise operations with a transposed input; when the inner extent is short the
// tile grows along the other axis up to edge^2 elements.
inline constexpr std::int64_t tile_edge = 32;
// Copies whose tiles go through the register transpose (simd.hpp) take 64 x 64: the
// transpose works on whole registers, and larger tiles amortise its set-up.
// (figures for both: docs/performance.md, "Figures behind the engine's thresholds")
inline constexpr std::int64_t transpose_tile_edge = 64;

// Tiles of a transposing copy into a buffer that stays in cache (run_reordered's
// slices): 64 destination columns by 512 rows, so that the source, in memory, is read
// in runs of up to 2 KiB by passes that take its lines whole (simd_transpose.cpp);
// smaller tiles cut those runs short (figures: docs/performance.md, "Figures behind the engine's thresholds").
inline constexpr std::int64_t cache_tile_inner = 64;
inline constexpr std::int64_t cache_tile_outer = 512;

inline void set_tiles(loop_plan& plan, std::int64_t edge) {
    const std::size_t nd = plan.size.size();
    plan.tile_inner = std::min(plan.size[nd - 1], edge);
    plan.tile_outer = std::min(plan.size[nd - 2], std::max(edge, edge * edge / plan.tile_inner));
}
// An input whose stride along the innermost axis is at least this many bytes gets a
// fresh cache line per element: worth blocking.
inline constexpr std::int64_t blocking_stride_bytes = 64;
inline constexpr std::int64_t min_tile_edge = 16;
// The columns of a chunk of rows that reread an input (make_loop_plan, step 6): 16 KiB
// of that input, which stays in L1 while the other rows read it, where whole rows of
// it (1 MiB in a (20,1,512,512) operand) leave L2 before the next channel reads them;
// 8 and 32 KiB measured the same (figures: docs/performance.md, "Figures behind the engine's thresholds").
inline constexpr std::int64_t reused_chunk_bytes = 16384;
// Contiguous runs shorter than this are copied by a typed loop rather than memcpy.
inline constexpr std::int64_t memcpy_min_bytes = 256;

inline void swap_plan_axes(loop_plan& plan, int a, int b) noexcept {
    std::swap(plan.size[a], plan.size[b]);
    for (int k = 0; k < plan.nops; ++k) std::swap(plan.stride[k][a], plan.stride[k][b]);
}

}  // namespace nt::detail::tuning
