// engine_reduce.hpp (private): strided reductions (sum, prod, min, max, any, all, ...).
//
// reduce() folds the input over every axis where the output stride is 0 (the output is
// laid out with keepdims: same rank as the input, stride 0 on reduced axes). The result
// is bitwise identical whatever the thread count: the reduced index space is cut into
// fixed blocks (not depending on threads), each block is folded in a fixed order, and
// block partials are combined pairwise in block order.
//
// Two traversals, picked by where the input is fastest:
//  - inner: the input's fastest axis is reduced. Each output element folds runs along
//    it with NumPy's pairwise scheme (8 accumulators, 128-element leaves; exact
//    reductions such as integer sums fold in order), the runs of
//    a block combined in order.
//  - outer: the input's fastest axis is kept. Rows of the input are folded into a row
//    of accumulators (vectorised across the kept axis), pairwise over rows with leaves
//    of 8 rows, so the error grows like log(rows) too.
#pragma once

#include "allocator.hpp"
#include "nt/small_vector.hpp"
#include "nt/threads.hpp"
#include "simd.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>

namespace nt::detail {

/// The loop structure of a reduction; byte strides, axes outer to inner.
struct reduce_plan {
    bool out_empty = false;     ///< the output has no elements: nothing to do
    bool in_empty = false;      ///< a reduced axis has size 0: fill with the identity
    bool inner_reduced = false; ///< the input's fastest axis is reduced (else kept)
    std::int64_t in_offset = 0, out_offset = 0;
    dims ksize, kin, kout;      ///< kept axes (outer -> inner), input and output strides
    dims rsize, rin;            ///< reduced axes (outer -> inner), input strides
    std::int64_t kept = 1, reduced = 1;
};

/// Plans a reduction of `shape`; reduced axes are those with out stride 0 and size > 1.
/// Throws nt::error (invalid_argument) on stride lists of the wrong length.
[[nodiscard]] reduce_plan make_reduce_plan(std::span<const std::int64_t> shape,
                                           std::span<const std::int64_t> out_strides, std::int64_t out_element_size,
                                           std::span<const std::int64_t> in_strides, std::int64_t in_element_size);

/// Reduced elements per block in the inner traversal, rows per block in the outer one.
inline constexpr std::int64_t reduce_block_inner = std::int64_t{1} << 15;
inline constexpr std::int64_t reduce_block_rows = 4096;
inline constexpr std::int64_t reduce_tile_width = 256;
/// The tile width when rows fold on SIMD vectors (has_simd_row_fold_v): a dispatched call
/// per row costs more than 256 elements take, and wider tiles spread that cost over
/// more of them (figures: docs/performance.md, "Figures behind the engine's
/// thresholds"). Narrower when that leaves threads without work.
inline constexpr std::int64_t reduce_simd_tile_width = 4096;

/// A reduction operation: identity(), reduce(acc, x) folds in one element, combine(a, b)
/// merges two partial results (for sums both are +).
template <class Acc>
struct sum_op {
    Acc identity() const { return Acc(0); }
    template <class T>
    Acc reduce(Acc a, const T& x) const { return a + static_cast<Acc>(x); }
    Acc combine(Acc a, Acc b) const { return a + b; }
};
template <class Acc>
struct prod_op {
    Acc identity() const { return Acc(1); }
    template <class T>
    Acc reduce(Acc a, const T& x) const { return a * static_cast<Acc>(x); }
    Acc combine(Acc a, Acc b) const { return a * b; }
};
/// min/max propagate NaN like NumPy (a NaN anywhere gives NaN).
template <class Acc>
struct max_op {
    Acc identity() const {
        if constexpr (std::numeric_limits<Acc>::has_infinity) return -std::numeric_limits<Acc>::infinity();
        else return std::numeric_limits<Acc>::lowest();
    }
    template <class T>
    Acc reduce(Acc a, const T& x) const { return combine(a, static_cast<Acc>(x)); }
    Acc combine(Acc a, Acc b) const { return (a >= b || a != a) ? a : b; }
};
template <class Acc>
struct min_op {
    Acc identity() const {
        if constexpr (std::numeric_limits<Acc>::has_infinity) return std::numeric_limits<Acc>::infinity();
        else return std::numeric_limits<Acc>::max();
    }
    template <class T>
    Acc reduce(Acc a, const T& x) const { return combine(a, static_cast<Acc>(x)); }
    Acc combine(Acc a, Acc b) const { return (a <= b || a != a) ? a : b; }
};
struct any_op {
    bool identity() const { return false; }
    template <class T>
    bool reduce(bool a, const T& x) const { return a || static_cast<bool>(x); }
    bool combine(bool a, bool b) const { return a || b; }
};
struct all_op {
    bool identity() const { return true; }
    template <class T>
    bool reduce(bool a, const T& x) const { return a && static_cast<bool>(x); }
    bool combine(bool a, bool b) const { return a && b; }
};

/// The operations whose folds run on SIMD vectors (simd.hpp) where the input is
/// contiguous: +1 for a maximum (any: the maximum of bool bytes), -1 for a minimum (all).
template <class Op>
inline constexpr int extreme_of_v = 0;
template <class Acc>
inline constexpr int extreme_of_v<max_op<Acc>> = 1;
template <class Acc>
inline constexpr int extreme_of_v<min_op<Acc>> = -1;
template <>
inline constexpr int extreme_of_v<any_op> = 1;
template <>
inline constexpr int extreme_of_v<all_op> = -1;

/// Integer sums (their wrapping ops are the kernels'), whose fold of a bool run counts
/// its true bytes (simd_count_nonzero).
template <class Op>
inline constexpr bool is_integer_sum_v = false;

/// The sum of squared deviations (x - c)^2, where c is the output element's own
/// centre (var's mean), read from `centre`, an array laid out as the output (same
/// base and strides). The engine binds c once per output element (`at`), or a row of
/// centres per tile of the outer traversal (`at_row`); one pass over the input,
/// without the tensor of centred values a two-step x - mean would write.
template <class Acc>
struct sq_dev_op {
    const char* centre = nullptr;
    Acc c{};
    const char* row = nullptr;  ///< centres of a tile's columns (outer traversal)
    std::int64_t row_stride = 0;

    Acc identity() const { return Acc(0); }
    template <class T>
    Acc reduce(Acc a, const T& x) const {
        const Acc d = static_cast<Acc>(x) - c;
        return a + d * d;
    }
    template <class T>
    Acc reduce_column(Acc a, const T& x, std::int64_t j) const {
        const Acc d = static_cast<Acc>(x) - *reinterpret_cast<const Acc*>(row + j * row_stride);
        return a + d * d;
    }
    Acc combine(Acc a, Acc b) const { return a + b; }
    sq_dev_op at(std::int64_t out_byte_offset) const {
        sq_dev_op r = *this;
        r.c = *reinterpret_cast<const Acc*>(centre + out_byte_offset);
        return r;
    }
    sq_dev_op at_row(std::int64_t out_byte_offset, std::int64_t byte_stride) const {
        sq_dev_op r = *this;
        r.row = centre + out_byte_offset;
        r.row_stride = byte_stride;
        return r;
    }
};

namespace reduce_impl {

template <class Op>
concept centred_op = requires(const Op& op) { op.at(std::int64_t{0}); };

/// The op for the output element at `out_byte_offset` (centred ops read their centre).
template <class Op>
Op bind_element(const Op& op, std::int64_t out_byte_offset) {
    if constexpr (centred_op<Op>) return op.at(out_byte_offset);
    else return op;
}

/// Folds x, the element of column j, into a.
template <class Acc, class In, class Op>
Acc reduce_column(const Op& op, Acc a, const In& x, std::int64_t j) {
    if constexpr (centred_op<Op>) return op.reduce_column(a, x, j);
    else return op.reduce(a, x);
}

/// Folds n >= 1 elements at p with stride s (elements) in order, one accumulator.
template <bool Contig, class Acc, class In, class Op>
Acc fold_in_order(const In* p, std::int64_t n, std::int64_t s, const Op& op) {
    Acc r = op.reduce(op.identity(), p[0]);
    for (std::int64_t i = 1; i < n; ++i) r = op.reduce(r, Contig ? p[i] : p[i * s]);
    return r;
}

/// NumPy's pairwise fold of n >= 1 elements at p with stride s (elements), for
/// floating accumulators. Other reductions (integer sums and products, which wrap,
/// min, max, any, all) are exact and associative, so they fold in order: the same
/// result, and GCC 12 at -O3 miscompiles the eight-accumulator loop for wrapping
/// int64 sums of uint8 (24 ones summed to 9).
template <bool Contig, class Acc, class In, class Op>
Acc pairwise(const In* p, std::int64_t n, std::int64_t s, const Op& op) {
    if constexpr (!std::is_floating_point_v<Acc>) {
        return fold_in_order<Contig, Acc>(p, n, s, op);
    } else {
        auto x = [&](std::int64_t i) -> const In& {
            if constexpr (Contig) return p[i];
            else return p[i * s];
        };
        if (n < 8) return fold_in_order<Contig, Acc>(p, n, s, op);
        if (n <= 128) {
            Acc r[8];
            for (int j = 0; j < 8; ++j) r[j] = op.reduce(op.identity(), x(j));
            std::int64_t i = 8;
            for (; i + 8 <= n; i += 8)
                for (int j = 0; j < 8; ++j) r[j] = op.reduce(r[j], x(i + j));
            Acc res = op.combine(op.combine(op.combine(r[0], r[1]), op.combine(r[2], r[3])),
                                 op.combine(op.combine(r[4], r[5]), op.combine(r[6], r[7])));
            for (; i < n; ++i) res = op.reduce(res, x(i));
            return res;
        }
        std::int64_t half = n / 2;
        half -= half % 8;
        const In* q = Contig ? p + half : p + half * s;
        return op.combine(pairwise<Contig, Acc>(p, half, s, op), pairwise<Contig, Acc>(q, n - half, s, op));
    }
}

/// Pairwise combine of n >= 1 partials at v with stride s.
template <class Acc, class Op>
Acc combine_partials(const Acc* v, std::int64_t n, std::int64_t s, const Op& op) {
    if (n == 1) return v[0];
    const std::int64_t half = n / 2;
    return op.combine(combine_partials(v, half, s, op), combine_partials(v + half * s, n - half, s, op));
}

/// Byte offsets (input, output) of kept element `flat` over the first `upto` kept axes,
/// and its index per axis into `index` when given.
inline void kept_offsets(const reduce_plan& plan, std::int64_t flat, std::size_t upto, std::int64_t& in_off,
                         std::int64_t& out_off, std::int64_t* index = nullptr) noexcept {
    in_off = 0;
    out_off = 0;
    for (std::size_t d = upto; d-- > 0;) {
        const std::int64_t i = flat % plan.ksize[d];
        flat /= plan.ksize[d];
        in_off += i * plan.kin[d];
        out_off += i * plan.kout[d];
        if (index) index[d] = i;
    }
}

/// Input byte offset of reduced element `flat`.
inline std::int64_t reduced_offset(const reduce_plan& plan, std::int64_t flat) noexcept {
    if (flat == 0) return 0;  // every run of a single reduced axis: no division
    std::int64_t off = 0;
    for (std::size_t d = plan.rsize.size(); d-- > 0;) {
        off += (flat % plan.rsize[d]) * plan.rin[d];
        flat /= plan.rsize[d];
    }
    return off;
}

/// Runs shorter than this fold in the loops above: a dispatched call costs more.
inline constexpr std::int64_t simd_fold_min_run = 64;

/// Folds the n >= 1 contiguous elements at p: an extreme on SIMD vectors where
/// simd_extreme has one for the type (the same element as the fold in order, see
/// simd.hpp for the runs it leaves to that fold), the sum of bool as a count, a float
/// sum pairwise on vectors (the same additions), else pairwise here.
template <class Acc, class In, class Op>
Acc fold_contiguous(const In* p, std::int64_t n, const Op& op) {
    constexpr int extreme = extreme_of_v<Op>;
    if (n >= simd_fold_min_run) {
        if constexpr (is_integer_sum_v<Op> && std::is_same_v<In, bool>) {
            return static_cast<Acc>(simd_count_nonzero(reinterpret_cast<const std::uint8_t*>(p), n));
        } else if constexpr (extreme != 0 && std::is_same_v<In, bool>) {
            std::uint8_t r = 0;
            if (simd_extreme(extreme > 0, reinterpret_cast<const std::uint8_t*>(p), n, r)) return r != 0;
        } else if constexpr (extreme != 0 && std::is_same_v<Acc, In> && is_simd_row_type_v<In>) {
            Acc r{};
            if (simd_extreme(extreme > 0, p, n, r)) return r;
        } else if constexpr (std::is_same_v<Op, sum_op<Acc>> && std::is_same_v<Acc, In> &&
                             std::is_floating_point_v<Acc>) {
            return simd_pairwise_sum(p, n);
        }
    }
    return pairwise<true, Acc>(p, n, 1, op);
}

/// Folds reduced elements [r0, r1) of one output element (inner traversal).
template <class Acc, class In, class Op>
Acc fold_range(const reduce_plan& plan, const char* base, std::int64_t r0, std::int64_t r1, const Op& op) {
    const std::size_t nr = plan.rsize.size();
    const std::int64_t run = plan.rsize[nr - 1];
    const std::int64_t rs = plan.rin[nr - 1];
    const std::int64_t es = rs / static_cast<std::int64_t>(sizeof(In));
    Acc acc{};
    bool first = true;
    std::int64_t r = r0;
    std::int64_t within = r0 == 0 ? 0 : r0 % run;  // after the first run, runs start whole
    while (r < r1) {
        const std::int64_t n = std::min(r1 - r, run - within);
        const In* p = reinterpret_cast<const In*>(base + reduced_offset(plan, r - within) + within * rs);
        const Acc part = es == 1 ? fold_contiguous<Acc>(p, n, op) : pairwise<false, Acc>(p, n, es, op);
        acc = first ? part : op.combine(acc, part);
        first = false;
        r += n;
        within = 0;
    }
    return acc;
}

template <class Acc, class In, class Op>
void reduce_inner(const reduce_plan& plan, Acc* out, const In* in, const Op& op) {
    const char* ibase = reinterpret_cast<const char*>(in) + plan.in_offset;
    char* obase = reinterpret_cast<char*>(out) + plan.out_offset;
    const std::int64_t blocks = (plan.reduced + reduce_block_inner - 1) / reduce_block_inner;
    const std::size_t nk = plan.ksize.size();
    const bool parallel = want_parallel(plan.kept * plan.reduced);
    if (blocks == 1) {
        // One output element per kept index: the offsets of the first by division, the
        // others by an odometer over the kept axes (a division per element cost a sum
        // over the last axis of (32,512,512) f32 as much as its additions).
        auto body = [&](std::int64_t k0, std::int64_t k1) {
            std::int64_t io, oo;
            dims index(nk, 0);
            kept_offsets(plan, k0, nk, io, oo, index.data());
            for (std::int64_t k = k0; k < k1; ++k) {
                *reinterpret_cast<Acc*>(obase + oo) =
                    fold_range<Acc, In>(plan, ibase + io, 0, plan.reduced, bind_element(op, plan.out_offset + oo));
                for (std::size_t d = nk; d-- > 0;) {
                    io += plan.kin[d];
                    oo += plan.kout[d];
                    if (++index[d] < plan.ksize[d]) break;
                    io -= plan.kin[d] * plan.ksize[d];
                    oo -= plan.kout[d] * plan.ksize[d];
                    index[d] = 0;
                }
            }
        };
        if (parallel) parallel_for(plan.kept, body);
        else body(0, plan.kept);
        return;
    }
    const scratch_buffer partials(static_cast<std::size_t>(plan.kept * blocks) * sizeof(Acc));
    Acc* const partial = partials.as<Acc>();
    // any and all: a block that decides its output element (a true for any, a false for
    // all) is repeated into the element's later blocks of this range instead of reading
    // them; the combined result is the same.
    constexpr bool decisive_blocks = extreme_of_v<Op> != 0 && std::is_same_v<In, bool>;
    auto body = [&](std::int64_t u0, std::int64_t u1) {
        for (std::int64_t u = u0; u < u1; ++u) {
            const std::int64_t k = u / blocks, b = u % blocks;
            if constexpr (decisive_blocks) {
                const auto before = static_cast<std::size_t>(u - 1);
                if (u > u0 && b > 0 && partial[before] == (extreme_of_v<Op> > 0)) {
                    partial[before + 1] = partial[before];
                    continue;
                }
            }
            std::int64_t io, oo;
            kept_offsets(plan, k, nk, io, oo);
            partial[static_cast<std::size_t>(u)] =
                fold_range<Acc, In>(plan, ibase + io, b * reduce_block_inner,
                                    std::min(plan.reduced, (b + 1) * reduce_block_inner),
                                    bind_element(op, plan.out_offset + oo));
        }
    };
    if (parallel) parallel_for(plan.kept * blocks, body);
    else body(0, plan.kept * blocks);
    for (std::int64_t k = 0; k < plan.kept; ++k) {
        std::int64_t io, oo;
        kept_offsets(plan, k, nk, io, oo);
        *reinterpret_cast<Acc*>(obase + oo) = combine_partials(partial + k * blocks, blocks, 1, op);
    }
}

/// Whether the outer traversal folds rows with simd_binary_rows: its element form of
/// max and min picks the element max_op and min_op pick (NaN and ties included), a
/// float sum adds as sum_op does, and any and all are the max and min of bool bytes.
template <class Acc, class In, class Op>
inline constexpr bool has_simd_row_fold_v =
    (extreme_of_v<Op> != 0 && ((std::is_same_v<In, bool> && std::is_same_v<Acc, bool>) ||
                               (std::is_same_v<Acc, In> && is_simd_row_type_v<In>))) ||
    (std::is_same_v<Op, sum_op<Acc>> && std::is_same_v<Acc, In> && std::is_floating_point_v<Acc>);

/// acc = op(a, x) over `rows` rows of w elements, row k of x at x + k * x_row
/// elements, into the same acc row (rows fold in order); a is one value (sa 0) or a row.
template <class Op, class T>
void simd_fold_rows(T* acc, const T* a, std::int64_t sa, const T* x, std::int64_t rows, std::int64_t x_row,
                    std::int64_t w) {
    constexpr simd_arith arith =
        extreme_of_v<Op> > 0 ? simd_arith::max : extreme_of_v<Op> < 0 ? simd_arith::min : simd_arith::add;
    if constexpr (std::is_same_v<T, bool>) {
        using U = std::uint8_t;
        simd_binary_rows(arith, simd_rows<U>{reinterpret_cast<U*>(acc), reinterpret_cast<const U*>(a),
                                             reinterpret_cast<const U*>(x), rows, w, 0, 0, x_row, sa, 1, false});
    } else {
        simd_binary_rows(arith, simd_rows<T>{acc, a, x, rows, w, 0, 0, x_row, sa, 1, false});
    }
}

/// Rows [r0, r1) (at most 8) of a contiguous w-wide tile folded into acc on SIMD
/// vectors: the first from the identity, the others in one call when they are equally
/// spaced (one reduced axis, or several that merge), else one call each.
template <class Acc, class In, class Op>
void simd_fold_leaf(const reduce_plan& plan, const char* base, std::int64_t w, std::int64_t r0, std::int64_t r1,
                    Acc* acc, const Op& op) {
    const Acc id = op.identity();
    auto row = [&](std::int64_t r) { return reinterpret_cast<const In*>(base + reduced_offset(plan, r)); };
    simd_fold_rows<Op>(acc, &id, 0, row(r0), 1, 0, w);
    if (r1 - r0 < 2) return;
    const std::int64_t first = reduced_offset(plan, r0 + 1), step = first - reduced_offset(plan, r0);
    bool even = step % static_cast<std::int64_t>(sizeof(In)) == 0;
    for (std::int64_t r = r0 + 2; even && r < r1; ++r) even = reduced_offset(plan, r) == first + (r - r0 - 1) * step;
    if (even) {
        simd_fold_rows<Op>(acc, acc, 1, row(r0 + 1), r1 - r0 - 1, step / static_cast<std::int64_t>(sizeof(In)), w);
    } else {
        for (std::int64_t r = r0 + 1; r < r1; ++r) simd_fold_rows<Op>(acc, acc, 1, row(r), 1, 0, w);
    }
}

/// Folds rows [r0, r1) of a w-wide tile into acc, pairwise over rows; `scratch` holds
/// one w-wide buffer per remaining recursion level.
template <bool Contig, class Acc, class In, class Op>
void fold_rows(const reduce_plan& plan, const char* base, std::int64_t es, std::int64_t w, std::int64_t r0,
               std::int64_t r1, Acc* __restrict acc, Acc* scratch, const Op& op) {
    if (r1 - r0 <= 8) {
        if constexpr (has_simd_row_fold_v<Acc, In, Op>) {
            if (Contig) return simd_fold_leaf<Acc, In>(plan, base, w, r0, r1, acc, op);
        }
        for (std::int64_t r = r0; r < r1; ++r) {
            const In* __restrict x = reinterpret_cast<const In*>(base + reduced_offset(plan, r));
            if (r == r0) {
                for (std::int64_t j = 0; j < w; ++j) acc[j] = reduce_column(op, op.identity(), x[Contig ? j : j * es], j);
            } else {
                for (std::int64_t j = 0; j < w; ++j) acc[j] = reduce_column(op, acc[j], x[Contig ? j : j * es], j);
            }
        }
        return;
    }
    std::int64_t half = (r1 - r0) / 2;
    if (half > 8) half -= half % 8;
    fold_rows<Contig, Acc, In>(plan, base, es, w, r0, r0 + half, acc, scratch, op);
    fold_rows<Contig, Acc, In>(plan, base, es, w, r0 + half, r1, scratch, scratch + w, op);
    Acc* __restrict other = scratch;
    if constexpr (has_simd_row_fold_v<Acc, In, Op>) {
        if (Contig) return simd_fold_rows<Op>(acc, acc, 1, other, 1, 0, w);
    }
    for (std::int64_t j = 0; j < w; ++j) acc[j] = op.combine(acc[j], other[j]);
}

template <class Acc, class In, class Op>
void reduce_outer(const reduce_plan& plan, Acc* out, const In* in, const Op& op) {
    const char* ibase = reinterpret_cast<const char*>(in) + plan.in_offset;
    char* obase = reinterpret_cast<char*>(out) + plan.out_offset;
    const std::size_t nk = plan.ksize.size();
    const std::int64_t nv = plan.ksize[nk - 1], vin = plan.kin[nk - 1], vout = plan.kout[nk - 1];
    const std::int64_t es = vin / static_cast<std::int64_t>(sizeof(In));
    const std::int64_t ko_count = plan.kept / nv;
    const std::int64_t blocks = (plan.reduced + reduce_block_rows - 1) / reduce_block_rows;
    const bool parallel = want_parallel(plan.kept * plan.reduced);
    std::int64_t tile_width = has_simd_row_fold_v<Acc, In, Op> ? reduce_simd_tile_width : reduce_tile_width;
    while (parallel && tile_width > reduce_tile_width &&
           ko_count * ((nv + tile_width - 1) / tile_width) * blocks < 4 * get_num_threads())
        tile_width /= 2;
    const std::int64_t tiles = (nv + tile_width - 1) / tile_width;
    // fold_rows' buffers: the accumulator row, and one row per level of its recursion
    // along the deepest path, each as wide as the widest tile.
    const std::int64_t row_width = std::min(tile_width, nv);
    std::int64_t buffer_rows = 2;
    for (std::int64_t n = std::min(plan.reduced, reduce_block_rows); n > 8; ++buffer_rows) {
        std::int64_t half = n / 2;
        if (half > 8) half -= half % 8;
        n = std::max(half, n - half);
    }
    scratch_buffer partials;
    if (blocks > 1) partials = scratch_buffer(static_cast<std::size_t>(plan.kept * blocks) * sizeof(Acc));
    Acc* const partial = partials.as<Acc>();
    auto body = [&](std::int64_t u0, std::int64_t u1) {
        std::unique_ptr<Acc[]> buf(new Acc[static_cast<std::size_t>(row_width * buffer_rows)]);
        for (std::int64_t u = u0; u < u1; ++u) {
            const std::int64_t b = u % blocks, rest = u / blocks;
            const std::int64_t t = rest % tiles, ko = rest / tiles;
            std::int64_t io, oo;
            kept_offsets(plan, ko, nk - 1, io, oo);
            const std::int64_t j0 = t * tile_width, w = std::min(tile_width, nv - j0);
            const char* base = ibase + io + j0 * vin;
            const std::int64_t r0 = b * reduce_block_rows, r1 = std::min(plan.reduced, r0 + reduce_block_rows);
            Acc* acc = buf.get();
            Op tile_op = op;
            if constexpr (centred_op<Op>) tile_op = op.at_row(plan.out_offset + oo + j0 * vout, vout);
            if (es == 1) fold_rows<true, Acc, In>(plan, base, es, w, r0, r1, acc, acc + row_width, tile_op);
            else fold_rows<false, Acc, In>(plan, base, es, w, r0, r1, acc, acc + row_width, tile_op);
            if (blocks == 1 && vout == std::int64_t{sizeof(Acc)}) {
                std::memcpy(obase + oo + j0 * vout, acc, static_cast<std::size_t>(w) * sizeof(Acc));
            } else if (blocks == 1) {
                for (std::int64_t j = 0; j < w; ++j) *reinterpret_cast<Acc*>(obase + oo + (j0 + j) * vout) = acc[j];
            } else {
                Acc* dst = partial + (b * ko_count + ko) * nv + j0;
                std::copy(acc, acc + w, dst);
            }
        }
    };
    const std::int64_t units = ko_count * tiles * blocks;
    if (parallel) parallel_for(units, body);
    else body(0, units);
    if (blocks == 1) return;
    for (std::int64_t ko = 0; ko < ko_count; ++ko) {
        std::int64_t io, oo;
        kept_offsets(plan, ko, nk - 1, io, oo);
        for (std::int64_t j = 0; j < nv; ++j)
            *reinterpret_cast<Acc*>(obase + oo + j * vout) =
                combine_partials(partial + ko * nv + j, blocks, ko_count * nv, op);
    }
}

}  // namespace reduce_impl

/// out = fold of `in` over the axes where out_strides is 0 (keepdims layout; both stride
/// lists have the rank of `shape`, in elements). `op` is a reduction operation (see
/// sum_op); Acc is both the accumulator and the output element type. An empty reduced
/// range writes op.identity(). The output must not overlap the input.
///     dims os{0, 1};   // sum over axis 0 of a (rows, cols) array into cols values
///     reduce<double, float>(shape, out, os, in, is, sum_op<double>{});
template <class Acc, class In, class Op>
void reduce(std::span<const std::int64_t> shape, Acc* out, std::span<const std::int64_t> out_strides, const In* in,
            std::span<const std::int64_t> in_strides, const Op& op) {
    const reduce_plan plan = make_reduce_plan(shape, out_strides, static_cast<std::int64_t>(sizeof(Acc)), in_strides,
                                              static_cast<std::int64_t>(sizeof(In)));
    if (plan.out_empty) return;
    if (plan.in_empty) {
        char* obase = reinterpret_cast<char*>(out) + plan.out_offset;
        for (std::int64_t k = 0; k < plan.kept; ++k) {
            std::int64_t io, oo;
            reduce_impl::kept_offsets(plan, k, plan.ksize.size(), io, oo);
            *reinterpret_cast<Acc*>(obase + oo) = op.identity();
        }
        return;
    }
    if (plan.inner_reduced) reduce_impl::reduce_inner<Acc, In>(plan, out, in, op);
    else reduce_impl::reduce_outer<Acc, In>(plan, out, in, op);
}

}  // namespace nt::detail
