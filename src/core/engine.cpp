// The element-wise engine's compiled half: loop planning and the type-erased copy.
#include "engine.hpp"
#include "simd.hpp"

#include "nt/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace nt::detail {
namespace {

std::int64_t iabs(std::int64_t v) noexcept { return v < 0 ? -v : v; }

std::string shape_text(std::span<const std::int64_t> s) {
    std::string t = "(";
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i) t += ", ";
        t += std::to_string(s[i]);
    }
    if (s.size() == 1) t += ",";
    return t + ")";
}

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

// Tile extents (elements) for the blocked walk: 32 x 32 (4 KiB per 4-byte operand) is
// the faster for element-wise operations with a transposed input (a 4096^2 a + b.T: 30
// ms, 37 at 64 x 64) and faster than 16 x 16; when the inner extent is short the tile
// grows along the other axis up to edge^2 elements.
constexpr std::int64_t tile_edge = 32;
// Copies whose tiles go through the register transpose (simd.hpp) take 64 x 64: 4096^2
// f32, 9.1 -> 7.6 ms.
constexpr std::int64_t transpose_tile_edge = 64;

// Tiles of a transposing copy into a buffer that stays in cache (run_reordered's
// slices): 64 destination columns by 512 rows, so that the source, in memory, is read
// in runs of up to 2 KiB by passes that take its lines whole (simd_transpose.cpp);
// smaller tiles cut those runs short (figures: docs/performance.md, "Figures behind the engine's thresholds").
constexpr std::int64_t cache_tile_inner = 64;
constexpr std::int64_t cache_tile_outer = 512;

void set_tiles(loop_plan& plan, std::int64_t edge) {
    const std::size_t nd = plan.size.size();
    plan.tile_inner = std::min(plan.size[nd - 1], edge);
    plan.tile_outer = std::min(plan.size[nd - 2], std::max(edge, edge * edge / plan.tile_inner));
}
// An input whose stride along the innermost axis is at least this many bytes gets a
// fresh cache line per element: worth blocking.
constexpr std::int64_t blocking_stride_bytes = 64;
constexpr std::int64_t min_tile_edge = 16;
// The columns of a chunk of rows that reread an input (make_loop_plan, step 6): 16 KiB
// of that input, which stays in L1 while the other rows read it, where whole rows of
// it (1 MiB in a (20,1,512,512) operand) leave L2 before the next channel reads them;
// 8 and 32 KiB measured the same (figures: docs/performance.md, "Figures behind the engine's thresholds").
constexpr std::int64_t reused_chunk_bytes = 16384;
// Contiguous runs shorter than this are copied by a typed loop rather than memcpy.
constexpr std::int64_t memcpy_min_bytes = 256;

void swap_plan_axes(loop_plan& plan, int a, int b) noexcept {
    std::swap(plan.size[a], plan.size[b]);
    for (int k = 0; k < plan.nops; ++k) std::swap(plan.stride[k][a], plan.stride[k][b]);
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

namespace {

// Short rows (1 to 4 elements) get fixed-length loops; longer ones a loop per access
// pattern, chosen once per call.
template <class T, int N>
void copy_short_rows(std::int64_t n0, char* const* p, const std::int64_t* s0, std::int64_t sd, std::int64_t ss) {
    for (std::int64_t r = 0; r < n0; ++r) {
        T* __restrict d = reinterpret_cast<T*>(p[0] + r * s0[0]);
        const T* __restrict s = reinterpret_cast<const T*>(p[1] + r * s0[1]);
        for (int i = 0; i < N; ++i) d[i * sd] = s[i * ss];
    }
}

template <class T>
void copy_rows(std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0, const std::int64_t* s1) {
    constexpr auto es = static_cast<std::int64_t>(sizeof(T));
    const std::int64_t sd = s1[0] / es, ss = s1[1] / es;
    switch (n1) {
        case 1: return copy_short_rows<T, 1>(n0, p, s0, sd, ss);
        case 2: return copy_short_rows<T, 2>(n0, p, s0, sd, ss);
        case 3: return copy_short_rows<T, 3>(n0, p, s0, sd, ss);
        case 4: return copy_short_rows<T, 4>(n0, p, s0, sd, ss);
        default: break;
    }
    auto rows = [&](auto body) {
        for (std::int64_t r = 0; r < n0; ++r)
            body(reinterpret_cast<T*>(p[0] + r * s0[0]), reinterpret_cast<const T*>(p[1] + r * s0[1]));
    };
    if (sd == 1 && ss == 0)
        rows([&](T* __restrict d, const T* __restrict s) {
            const T v = *s;
            for (std::int64_t i = 0; i < n1; ++i) d[i] = v;
        });
    else if (sd == 1)
        rows([&](T* __restrict d, const T* __restrict s) {
            for (std::int64_t i = 0; i < n1; ++i) d[i] = s[i * ss];
        });
    else if (ss == 1)
        rows([&](T* __restrict d, const T* __restrict s) {
            for (std::int64_t i = 0; i < n1; ++i) d[i * sd] = s[i];
        });
    else
        rows([&](T* __restrict d, const T* __restrict s) {
            for (std::int64_t i = 0; i < n1; ++i) d[i * sd] = s[i * ss];
        });
}

// Contiguous rows shorter than memcpy_min_bytes: 16-byte moves the compiler inlines.
void copy_small_runs(std::int64_t n0, std::int64_t bytes, char* const* p, const std::int64_t* s0) {
    for (std::int64_t r = 0; r < n0; ++r) {
        char* d = p[0] + r * s0[0];
        const char* s = p[1] + r * s0[1];
        std::int64_t b = 0;
        for (; b + 16 <= bytes; b += 16) std::memcpy(d + b, s + b, 16);
        for (; b < bytes; ++b) d[b] = s[b];
    }
}

struct bytes16 {
    std::uint64_t lo, hi;
};

}  // namespace

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

namespace {
// An image's channels taken apart from a crop ((h,w,C) -> (C,h,w) where the crop's rows
// do not merge into one run): the planner leaves the channel axis outside the kernel's
// rows x columns, and every element went alone. With the channels as the rows
// (2 to 4 of them, adjacent in the source, whose columns are a group of them apart),
// deinterleave_rows takes them together, as it does for an uncropped image, which was
// ten times faster. Crops narrower than 64 columns stay as they were: a kernel call
// per row of channels costs more than it saves there (figures: docs/performance.md,
// "Figures behind the engine's thresholds").
void put_channels_in_rows(loop_plan& plan, std::int64_t es) noexcept {
    constexpr std::int64_t min_columns = 64;
    const int nd = plan.ndim();
    if (plan.blocked || nd < 3 || plan.stride[0][nd - 1] != es || plan.size[nd - 1] < min_columns) return;
    for (int d = 0; d < nd - 2; ++d) {
        const std::int64_t k = plan.size[d];
        if (k < 2 || k > 4 || plan.stride[1][d] != es || plan.stride[1][nd - 1] != k * es) continue;
        for (int a = d; a < nd - 2; ++a) swap_plan_axes(plan, a, a + 1);
        plan.column_chunk = 0;
        return;
    }
}

// Copies that move an image's channels and swap its other two axes in one: channels
// together, (C,H,W) -> (W,H,C), and apart, (H,W,C) -> (C,W,H) (a Fortran-order
// flatten). Neither 2-D kernel sees all three axes: the copy went channel by channel,
// element by element, 12 bytes per destination row of 3 KiB. Here each block of the
// two swapped axes goes through a scratch buffer in L1: the channels' transposes, then
// one interleave (or a deinterleave, then the transposes), every step a vector kernel.
// Returns false, doing nothing, for other copies.
bool copy_channels_transposed(const loop_plan& plan, char* dst, const char* src, std::int64_t es) {
    constexpr std::int64_t scratch_bytes = 32768, min_extent = 16;
    const int nd = plan.ndim();
    if (nd < 3 || es > 8 || (es & (es - 1)) != 0) return false;
    const int x = nd - 3, y = nd - 2, z = nd - 1;
    const auto& size = plan.size;
    const auto& dst_stride = plan.stride[0];
    const auto& src_stride = plan.stride[1];
    auto is_k = [](std::int64_t n) { return n >= 2 && n <= 4; };
    // Together: z holds the channels, adjacent in dst; x follows them in dst, y is the
    // source's fastest axis. Apart: x holds the channels, adjacent in the source; y
    // follows them there, z is dst's fastest axis. `a` and `b` name the swapped axes,
    // `b` the one along whose cache lines the transpose reads or writes.
    const bool together = is_k(size[z]) && dst_stride[z] == es && dst_stride[x] == size[z] * es &&
                          src_stride[y] == es;
    const bool apart = !together && is_k(size[x]) && src_stride[x] == es && src_stride[y] == size[x] * es &&
                       dst_stride[z] == es;
    if (!together && !apart) return false;
    const int channel_axis = together ? z : x, a_axis = together ? x : z;
    const std::int64_t k = size[channel_axis], na_all = size[a_axis], nb_all = size[y];
    if (na_all < min_extent || nb_all < min_extent) return false;
    for (int d = 0; d < nd; ++d)
        if (dst_stride[d] % es != 0 || src_stride[d] % es != 0) return false;
    dst += plan.offset[0];
    src += plan.offset[1];
    if (reinterpret_cast<std::uintptr_t>(dst) % static_cast<std::uintptr_t>(es) != 0 ||
        reinterpret_cast<std::uintptr_t>(src) % static_cast<std::uintptr_t>(es) != 0)
        return false;
    // The transposes take a cache line (together) or two (apart) of the axis that steps
    // by one element on their side; the other extent fills the scratch, in steps of 8.
    // Apart, two lines were the fastest of one, two and four; together, one and two
    // measured the same (figures: docs/performance.md, "Figures behind the engine's thresholds").
    const std::int64_t lines = (together ? 1 : 2) * 64 / es;
    const std::int64_t fill = std::max<std::int64_t>(8, scratch_bytes / (k * lines * es) / 8 * 8);
    const std::int64_t block_a = together ? fill : lines, block_b = together ? lines : fill;
    const std::int64_t blocks_a = (na_all + block_a - 1) / block_a, blocks_b = (nb_all + block_b - 1) / block_b;
    const std::int64_t outer = plan.elements / (k * na_all * nb_all);
    const auto bytes = static_cast<std::size_t>(es);  // each kernel below takes 1, 2, 4 or 8
    auto body = [&](std::int64_t u0, std::int64_t u1) {
        alignas(64) char scratch[scratch_bytes];
        for (std::int64_t u = u0; u < u1; ++u) {
            std::int64_t o = u / (blocks_a * blocks_b);
            const std::int64_t a0 = (u / blocks_b) % blocks_a * block_a, b0 = u % blocks_b * block_b;
            const std::int64_t na = std::min(block_a, na_all - a0), nb = std::min(block_b, nb_all - b0);
            char* d = dst + a0 * dst_stride[a_axis] + b0 * dst_stride[y];
            const char* s = src + a0 * src_stride[a_axis] + b0 * src_stride[y];
            for (int ax = x - 1; ax >= 0; --ax) {
                const std::int64_t i = o % size[ax];
                o /= size[ax];
                d += i * dst_stride[ax];
                s += i * src_stride[ax];
            }
            const std::int64_t plane = na * nb * es;
            if (together) {  // scratch[c](b, a) = src(a, b, c); dst(a, b, c) from scratch[c](b, a)
                for (std::int64_t c = 0; c < k; ++c)
                    transpose_block(scratch + c * plane, na * es, s + c * src_stride[z], src_stride[x], nb, na, bytes);
                for (std::int64_t b = 0; b < nb; ++b)
                    interleave_rows(d + b * dst_stride[y], scratch + b * na * es, plane, na, k, bytes);
            } else {  // scratch[c](a, b) = src(a, b, c); dst(c, b, a) from scratch[c](a, b)
                for (std::int64_t a = 0; a < na; ++a)
                    deinterleave_rows(scratch + a * nb * es, plane, s + a * src_stride[z], nb, k, bytes);
                for (std::int64_t c = 0; c < k; ++c)
                    transpose_block(d + c * dst_stride[x], dst_stride[y], scratch + c * plane, nb * es, nb, na, bytes);
            }
        }
    };
    // The blocks run from L1, so a second thread pays off late, where the threshold
    // counts 64 bytes as one element (8 MiB by default): below that two threads were
    // slower than one (figures: docs/performance.md, "Figures behind the engine's thresholds").
    const std::int64_t units = outer * blocks_a * blocks_b;
    if (want_parallel(plan.elements * es / 64)) parallel_for(units, body);
    else body(0, units);
    return true;
}

// copy_strided, with tiles for a destination that stays in cache when `dst_in_cache`.
void copy_strided_to(void* dst, std::span<const std::int64_t> dst_strides, const void* src,
                     std::span<const std::int64_t> src_strides, std::span<const std::int64_t> shape,
                     std::size_t element_size, bool dst_in_cache) {
    const auto es = static_cast<std::int64_t>(element_size);
    const std::array<operand_layout, 2> ops{operand_layout{dst_strides, es}, operand_layout{src_strides, es}};
    loop_plan plan = make_loop_plan(shape, ops);
    if (plan.empty || element_size == 0) return;
    if (copy_channels_transposed(plan, static_cast<char*>(dst), static_cast<const char*>(src), es)) return;
    put_channels_in_rows(plan, es);
    if (plan.blocked && (es == 4 || es == 8)) set_tiles(plan, transpose_tile_edge);
    if (plan.blocked && dst_in_cache) {
        const std::size_t nd = plan.size.size();
        plan.tile_inner = std::min(plan.size[nd - 1], cache_tile_inner);
        plan.tile_outer = std::min(plan.size[nd - 2], cache_tile_outer);
    }
    const op_ptrs base{static_cast<char*>(dst), const_cast<char*>(static_cast<const char*>(src))};
    auto kernel = [es, element_size](std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0,
                       const std::int64_t* s1) {
        if (s1[0] == es && s1[1] == es) {  // contiguous runs
            if (n1 * es < memcpy_min_bytes) return copy_small_runs(n0, n1 * es, p, s0);
            for (std::int64_t r = 0; r < n0; ++r)
                std::memcpy(p[0] + r * s0[0], p[1] + r * s0[1], static_cast<std::size_t>(n1 * es));
            return;
        }
        const bool aligned = (s1[0] % es) == 0 && (s1[1] % es) == 0 && (s0[0] % es) == 0 && (s0[1] % es) == 0 &&
                             (reinterpret_cast<std::uintptr_t>(p[0]) % static_cast<std::uintptr_t>(es)) == 0 &&
                             (reinterpret_cast<std::uintptr_t>(p[1]) % static_cast<std::uintptr_t>(es)) == 0;
        // An image's channels apart or together ((H,W,C) <-> (C,H,W)): 2 to 4 rows
        // against as many interleaved elements: about 25 times faster than element by
        // element (figures: docs/performance.md, "Figures behind the engine's thresholds").
        if (aligned && n0 >= 2 && n0 <= 4 && s1[0] == es && s1[1] == n0 * es && s0[1] == es &&
            deinterleave_rows(p[0], s0[0], p[1], n1, n0, element_size))
            return;
        if (aligned && n1 >= 2 && n1 <= 4 && s1[0] == es && s0[0] == n1 * es && s0[1] == es &&
            interleave_rows(p[0], p[1], s1[1], n0, n1, element_size))
            return;
        if (aligned && n0 >= 8 && n1 >= 8) {
            // A transposing tile (one side contiguous along each axis): vector blocks.
            if (s1[0] == es && s0[1] == es && transpose_block(p[0], s0[0], p[1], s1[1], n0, n1, element_size))
                return;
            if (s0[0] == es && s1[1] == es && transpose_block(p[0], s1[0], p[1], s0[1], n1, n0, element_size))
                return;
        }
        if (aligned) {
            switch (es) {
                case 1: return copy_rows<std::uint8_t>(n0, n1, p, s0, s1);
                case 2: return copy_rows<std::uint16_t>(n0, n1, p, s0, s1);
                case 4: return copy_rows<std::uint32_t>(n0, n1, p, s0, s1);
                case 8: return copy_rows<std::uint64_t>(n0, n1, p, s0, s1);
                case 16: return copy_rows<bytes16>(n0, n1, p, s0, s1);
                default: break;
            }
        }
        for (std::int64_t r = 0; r < n0; ++r)
            for (std::int64_t i = 0; i < n1; ++i)
                std::memcpy(p[0] + r * s0[0] + i * s1[0], p[1] + r * s0[1] + i * s1[1], static_cast<std::size_t>(es));
    };
    run_plan(plan, base, kernel);
}
}  // namespace

void copy_strided(void* dst, std::span<const std::int64_t> dst_strides, const void* src,
                  std::span<const std::int64_t> src_strides, std::span<const std::int64_t> shape,
                  std::size_t element_size) {
    copy_strided_to(dst, dst_strides, src, src_strides, shape, element_size, false);
}

namespace {

// Operands whose copies' slices, together, are at most this large are copied a slice
// of the output's outermost axis at a time: the slice is read again from L2 or L3 for
// each broadcast over it, where a whole copy goes out to memory and is read back.
constexpr std::int64_t reorder_slice_bytes = std::int64_t{4} << 20;

// How run_reordered copies an input: the copy's strides over the shape (0 on
// broadcast axes; empty when the input is read as it is), the shape it copies (1 on
// broadcast axes) and its element count.
struct gather_copy {
    dims strides;
    dims shape;
    std::int64_t elements = 0;
    [[nodiscard]] bool copied() const noexcept { return !strides.empty(); }
};

gather_copy plan_gather_copy(std::span<const std::int64_t> shape, std::span<const std::int64_t> out_strides,
                             std::span<const std::int64_t> strides, std::int64_t es) {
    gather_copy plan;
    const std::size_t nd = shape.size();
    if (nd < 2 || strides.size() != nd || out_strides.size() != nd) return plan;
    std::int64_t own = 1, fastest = -1;
    bool reused = false;
    for (std::size_t d = 0; d < nd; ++d) {
        if (shape[d] <= 1) continue;
        if (strides[d] == 0) reused = true;
        else own *= shape[d];
        if (fastest < 0 || iabs(out_strides[d]) < iabs(out_strides[static_cast<std::size_t>(fastest)]))
            fastest = static_cast<std::int64_t>(d);
    }
    if (!reused || fastest < 0) return plan;
    if (iabs(strides[static_cast<std::size_t>(fastest)]) * es < blocking_stride_bytes) return plan;
    // The output's axis order, outermost first; the copy is C-contiguous in it. Only
    // axes of size 1, which the copy skips, can tie, so std::sort will do (stable_sort
    // allocates a buffer on every call).
    small_vector<std::size_t, 8> order;
    for (std::size_t d = 0; d < nd; ++d) order.push_back(d);
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return iabs(out_strides[x]) > iabs(out_strides[y]); });
    plan.strides = dims(nd, 0);
    plan.shape = dims(shape.begin(), shape.end());
    std::int64_t step = 1;
    for (std::size_t k = nd; k-- > 0;) {
        const std::size_t d = order[k];
        if (strides[d] == 0 || shape[d] <= 1) {
            plan.shape[d] = 1;
            continue;
        }
        plan.strides[d] = step;
        step *= shape[d];
    }
    plan.elements = own;
    return plan;
}

const char* advanced(const void* p, std::int64_t elements, std::int64_t es) noexcept {
    return static_cast<const char*>(p) + elements * es;
}

}  // namespace

void run_reordered(std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> out_strides,
                   std::size_t out_element_size, strided_input<void> a, strided_input<void> b,
                   std::size_t element_size, const binary_body& body) {
    const auto es = static_cast<std::int64_t>(element_size);
    const auto out_es = static_cast<std::int64_t>(out_element_size);
    const std::array<strided_input<void>, 2> inputs{a, b};
    std::array<gather_copy, 2> copies;
    bool any = false;
    if (element_count(shape) >= reorder_min_elements)
        for (std::size_t k = 0; k < 2; ++k) {
            copies[k] = plan_gather_copy(shape, out_strides, inputs[k].strides, es);
            any |= copies[k].copied();
        }
    if (!any) return body(shape, out, out_strides, a, b);

    // The output's outermost axis: slices along it when every copy changes along it
    // (a copy broadcast there is reused whole by every slice) and a slice fits in cache.
    std::size_t outer = 0;
    for (std::size_t d = 1; d < shape.size(); ++d)
        if (shape[d] > 1 && (shape[outer] <= 1 || iabs(out_strides[d]) > iabs(out_strides[outer]))) outer = d;
    const std::int64_t slices = shape[outer];
    bool sliced = slices > 1;
    std::int64_t slice_bytes = 0;
    for (std::size_t k = 0; k < 2; ++k)
        if (copies[k].copied()) {
            sliced = sliced && inputs[k].strides[outer] != 0;
            slice_bytes += copies[k].elements / std::max<std::int64_t>(slices, 1) * es;
        }
    sliced = sliced && slice_bytes <= reorder_slice_bytes;

    if (!sliced) {
        std::array<scratch_buffer, 2> scratch;
        std::array<strided_input<void>, 2> read = inputs;
        for (std::size_t k = 0; k < 2; ++k) {
            if (!copies[k].copied()) continue;
            scratch[k] = scratch_buffer(static_cast<std::size_t>(copies[k].elements * es));
            read[k] = {scratch[k].as<void>(), copies[k].strides.span()};
            copy_strided(scratch[k].as<void>(), copies[k].strides.span(), inputs[k].data, inputs[k].strides,
                         copies[k].shape.span(), element_size);
        }
        return body(shape, out, out_strides, read[0], read[1]);
    }

    // Threads take whole slices, each copying into its own scratch: splitting every
    // slice's copy and operation between them woke the pool twice per slice (a
    // (20,3,512,512) add took 4.7 ms on two threads against 3.3 with one whole copy).
    for (gather_copy& copy : copies)
        if (copy.copied()) copy.shape[outer] = 1;
    dims slice_shape(shape.begin(), shape.end());
    slice_shape[outer] = 1;
    const std::int64_t whole_bytes = element_count(shape) * out_es;
    auto run_slices = [&](std::int64_t first, std::int64_t last) {
        // The slices' stores follow the whole output's size: a 3 MiB slice of a 60 MiB
        // result would otherwise take plain stores, and read each output line first.
        struct whole_output {
            std::int64_t saved = sliced_output_bytes;
            explicit whole_output(std::int64_t bytes) noexcept { sliced_output_bytes = bytes; }
            ~whole_output() { sliced_output_bytes = saved; }
        } const scope(whole_bytes);
        std::array<scratch_buffer, 2> scratch;
        for (std::size_t k = 0; k < 2; ++k)
            if (copies[k].copied())
                scratch[k] = scratch_buffer(static_cast<std::size_t>(copies[k].elements / slices * es));
        for (std::int64_t i = first; i < last; ++i) {
            std::array<strided_input<void>, 2> slice;
            for (std::size_t k = 0; k < 2; ++k) {
                const void* source = advanced(inputs[k].data, i * inputs[k].strides[outer], es);
                if (!copies[k].copied()) {
                    slice[k] = {source, inputs[k].strides};
                    continue;
                }
                copy_strided_to(scratch[k].as<void>(), copies[k].strides.span(), source, inputs[k].strides,
                                copies[k].shape.span(), element_size, true);
                slice[k] = {scratch[k].as<void>(), copies[k].strides.span()};
            }
            body(slice_shape.span(), const_cast<char*>(advanced(out, i * out_strides[outer], out_es)), out_strides,
                 slice[0], slice[1]);
        }
    };
    if (want_parallel(element_count(shape))) parallel_for(slices, run_slices);
    else run_slices(0, slices);
}

void fill_strided(void* dst, std::span<const std::int64_t> dst_strides, std::span<const std::int64_t> shape,
                  const void* value, std::size_t element_size) {
    const dims zeros(shape.size(), 0);
    copy_strided(dst, dst_strides, value, zeros.span(), shape, element_size);
}

}  // namespace nt::detail
