// engine.hpp (private): the strided element-wise engine (layout level, type generic).
// Reductions are in engine_reduce.hpp.
//
// Operands are described by a base pointer and strides in elements over one common
// shape (strides may be 0 to broadcast, or negative). A compiled planner
// (make_loop_plan) turns them into a loop nest:
//   1. size-1 axes are dropped; a size-0 axis makes the whole operation a no-op;
//   2. axes where the output stride is negative are flipped (all operands together);
//   3. axes are sorted so that the innermost runs along the output's fastest axis;
//   4. adjacent axes contiguous in every operand are merged;
//   5. if an input is fastest along another axis (a transposed input), that axis is
//      moved next to the innermost one and the two are walked in tiles;
//   6. if an input is read again for every row of long rows (stride 0 across them),
//      the rows are walked a chunk of columns at a time, so that its chunk is read
//      from memory once and from L1 for the other rows.
// The walker (run_plan) then hands 2-D pieces (n0 rows of n1 elements, byte strides)
// to a typed kernel, which picks a loop specialised for contiguous, broadcast (stride
// 0) or strided inputs so that the compiler vectorises it. Work above
// detail::parallel_threshold() elements is split among the pool's threads.
//
// Aliasing: an input may be the output itself (same pointer and strides, as in
// `a += b`); inputs that partially overlap the output give unspecified results.
#pragma once

#include "allocator.hpp"
#include "nt/small_vector.hpp"
#include "nt/threads.hpp"

#include <algorithm>
#include <array>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <tuple>
#include <utility>
#include <type_traits>

namespace nt::detail {

inline constexpr int max_operands = 4;

/// One operand for the planner: strides in elements and the element size in bytes.
struct operand_layout {
    std::span<const std::int64_t> strides;
    std::int64_t element_size = 1;
};

/// The loop nest: axes outer to inner (always at least 2, padded with size-1 axes),
/// byte strides per operand, byte offsets to add to the base pointers.
struct loop_plan {
    int nops = 0;
    bool empty = false;             ///< some axis has size 0: nothing to do
    bool blocked = false;           ///< walk the two innermost axes in tiles
    std::int64_t tile_outer = 0;    ///< tile extent along axis ndim-2 (blocked only)
    std::int64_t tile_inner = 0;    ///< tile extent along axis ndim-1 (blocked only)
    std::int64_t column_chunk = 0;  ///< > 0: walk the rows this many columns at a time
    std::int64_t elements = 0;      ///< number of elements visited
    dims size;
    std::array<dims, max_operands> stride;
    std::array<std::int64_t, max_operands> offset{};
    [[nodiscard]] int ndim() const noexcept { return static_cast<int>(size.size()); }
};

/// Plans a loop over `shape` for the operands (operand 0 is the output). Throws
/// nt::error (invalid_argument) if a stride list's length differs from the rank, a
/// size is negative, or there are more than max_operands operands.
[[nodiscard]] loop_plan make_loop_plan(std::span<const std::int64_t> shape,
                                       std::span<const operand_layout> operands);

/// make_loop_plan through a one-entry per-thread memo: the same plan when the shape
/// and operand layouts equal the previous call's. Valid until this thread's next call.
[[nodiscard]] const loop_plan& cached_loop_plan(std::span<const std::int64_t> shape,
                                                std::span<const operand_layout> operands);

/// Below this many elements run_reordered never copies: the tiles stay in cache
/// anyway. Callers may skip the call on that test alone.
inline constexpr std::int64_t reorder_min_elements = std::int64_t{1} << 15;

/// The number of elements of `shape` (1 for rank 0). Sizes must not overflow.
[[nodiscard]] inline std::int64_t element_count(std::span<const std::int64_t> shape) noexcept {
    std::int64_t n = 1;
    for (std::int64_t s : shape) n *= s;
    return n;
}

/// Copies src to dst element by element (both over `shape`, strides in elements, any
/// element size); memcpy for runs contiguous in both. dst and src must not overlap.
///     copy_strided(out, out_strides, in, in_strides, shape, sizeof(float));
void copy_strided(void* dst, std::span<const std::int64_t> dst_strides, const void* src,
                  std::span<const std::int64_t> src_strides, std::span<const std::int64_t> shape,
                  std::size_t element_size);

/// Fills every element of dst (over `shape`) with the `element_size` bytes at `value`.
void fill_strided(void* dst, std::span<const std::int64_t> dst_strides, std::span<const std::int64_t> shape,
                  const void* value, std::size_t element_size);


// --------------------------------------------------------------------------------------
// The walker.

using op_ptrs = std::array<char*, max_operands>;
using op_strides = std::array<std::int64_t, max_operands>;

/// A 2-D kernel behind a plain function pointer: kernel(context, n0, n1, ptrs, s0, s1).
using plan_kernel_fn = void (*)(const void* context, std::int64_t n0, std::int64_t n1, char* const* p,
                                const std::int64_t* s0, const std::int64_t* s1);

/// run_plan's walk (engine.cpp): compiled once instead of once per kernel, which
/// keeps the per-type kernel files' build time down; the kernel is called once per
/// piece of rows, so the indirect call costs nothing measurable.
void run_plan_impl(const loop_plan& plan, const op_ptrs& base, plan_kernel_fn kernel, const void* context);

/// The plan_kernel_fn of a Kernel (run_plan's, and the converting kernels' call of an
/// operation's kernel piece by piece).
template <class Kernel>
[[gnu::noinline]] void call_plan_kernel(const void* context, std::int64_t n0, std::int64_t n1, char* const* p,
                                        const std::int64_t* s0, const std::int64_t* s1) {
    (*static_cast<const Kernel*>(context))(n0, n1, p, s0, s1);
}

/// Runs `kernel(n0, n1, ptrs, s0, s1)` over the plan: n0 rows of n1 elements, operand k
/// at ptrs[k] + i * s0[k] + j * s1[k] (byte strides). May run concurrently on disjoint
/// pieces; the kernel must be callable from several threads.
template <class Kernel>
void run_plan(const loop_plan& plan, const op_ptrs& base, const Kernel& kernel) {
    if (plan.empty) return;
    const int nd = plan.ndim();
    if (nd == 2 && !plan.blocked && plan.column_chunk == 0 && !want_parallel(plan.elements)) {  // one call
        op_ptrs origin{};
        op_strides s0{}, s1{};
        for (int k = 0; k < plan.nops; ++k) {
            origin[k] = base[k] + plan.offset[k];
            s0[k] = plan.stride[k][0];
            s1[k] = plan.stride[k][1];
        }
        kernel(plan.size[0], plan.size[1], origin.data(), s0.data(), s1.data());
        return;
    }
    run_plan_impl(plan, base, &call_plan_kernel<Kernel>, &kernel);
}

// --------------------------------------------------------------------------------------
// Typed inner loops.

enum class access { contig, scalar, strided };

[[nodiscard]] constexpr access access_of(std::int64_t element_stride) noexcept {
    return element_stride == 1 ? access::contig : element_stride == 0 ? access::scalar : access::strided;
}

template <access M, class T>
[[gnu::always_inline]] inline const T& at(const T* p, std::int64_t i, std::int64_t s) noexcept {
    if constexpr (M == access::contig)
        return p[i];
    else if constexpr (M == access::scalar)
        return p[0];
    else
        return p[i * s];
}

template <class Fn>
decltype(auto) with_access(access m, Fn&& fn) {
    switch (m) {
        case access::contig: return fn(std::integral_constant<access, access::contig>{});
        case access::scalar: return fn(std::integral_constant<access, access::scalar>{});
        default: return fn(std::integral_constant<access, access::strided>{});
    }
}

// Output contiguous, inputs with the given access: the loops the compiler vectorises.
template <class O, class F>
void loop_n(std::int64_t n, O* __restrict o, const F& f) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<O>(f());
}
template <access MA, class O, class A, class F>
void loop_n(std::int64_t n, O* __restrict o, const A* __restrict a, std::int64_t sa, const F& f) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<O>(f(at<MA>(a, i, sa)));
}
template <access MA, access MB, class O, class A, class B, class F>
void loop_n(std::int64_t n, O* __restrict o, const A* __restrict a, std::int64_t sa, const B* __restrict b,
            std::int64_t sb, const F& f) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<O>(f(at<MA>(a, i, sa), at<MB>(b, i, sb)));
}
template <access MA, access MB, access MC, class O, class A, class B, class C, class F>
void loop_n(std::int64_t n, O* __restrict o, const A* __restrict a, std::int64_t sa, const B* __restrict b,
            std::int64_t sb, const C* __restrict c, std::int64_t sc, const F& f) {
    for (std::int64_t i = 0; i < n; ++i)
        o[i] = static_cast<O>(f(at<MA>(a, i, sa), at<MB>(b, i, sb), at<MC>(c, i, sc)));
}

// Streaming (non-temporal) stores for outputs much larger than the caches: a plain
// store first reads the destination line (read for ownership), so a large a + b moves
// 4 bytes per output element instead of 3; memcpy avoids that read, and so do we.
// Below the threshold the result likely stays in cache for the next operation, where
// streaming it out would hurt, so the threshold sits well above the last-level cache
// (figures: docs/performance.md, "Figures behind the engine's thresholds").
inline constexpr std::int64_t stream_min_bytes = std::int64_t{32} << 20;
// The SIMD rows of a binary operation whose output has its inputs' type (a + b) stream
// from 8 MiB: above it streaming stores were faster than plain ones, and no slower when
// the operands stayed in L3 or the next operation read the result. Casts did not gain,
// nor did the compiler's loops at 32 MiB (figures: docs/performance.md, "Figures behind the engine's thresholds").
inline constexpr std::int64_t simd_stream_min_bytes = std::int64_t{8} << 20;
inline constexpr std::int64_t stream_min_row_bytes = 1024;

/// Whether an output of `bytes` written over the operands at `base` (operand 0 the
/// output) goes out with streaming stores: large (or a slice of a large output), and
/// not also an input. When an input
/// is the output itself (`acc += x`), its lines are in cache when they are written, and
/// streaming them out evicts them for nothing (figures: docs/performance.md, "Figures
/// behind the engine's thresholds").
/// The bytes of the whole output while an operation runs a slice at a time on this
/// thread (run_reordered), else 0: a slice is stored as its whole output would be.
inline thread_local std::int64_t sliced_output_bytes = 0;

[[nodiscard]] inline bool streaming_pays(std::int64_t bytes, const op_ptrs& base, int nops,
                                         std::int64_t min_bytes = stream_min_bytes) noexcept {
    if (bytes < min_bytes && sliced_output_bytes < min_bytes) return false;
    for (int k = 1; k < nops; ++k)
        if (base[static_cast<std::size_t>(k)] == base[0]) return false;
    return true;
}

/// o[i] = value_at(i) for i < n, writing whole 64-byte lines with streaming stores.
/// Unaligned heads and tails use plain stores; an output not aligned to its element
/// size is written with plain stores only.
template <class O, class Fn>
void stream_row(std::int64_t n, O* __restrict o, const Fn& value_at) {
    std::int64_t i = 0;
#if defined(__SSE2__)
    constexpr std::int64_t per_line = 64 / static_cast<std::int64_t>(sizeof(O));
    if constexpr (64 % sizeof(O) == 0) {
        if (reinterpret_cast<std::uintptr_t>(o) % sizeof(O) == 0) {
            for (; i < n && reinterpret_cast<std::uintptr_t>(o + i) % 64 != 0; ++i) o[i] = value_at(i);
            // Lines are built in a ring of four and each is streamed out three lines later.
            // Streamed right after it was built, a line's vector loads waited for its
            // element stores, which store forwarding cannot combine; the ring lets the
            // stores retire first. Building a whole 1 KiB block first also avoided that,
            // but its burst of streaming stores no longer overlapped the computation
            // (figures: docs/performance.md, "Figures behind the engine's thresholds").
            constexpr std::int64_t ring_lines = 4;
            alignas(64) O ring[ring_lines * per_line];
            const std::int64_t lines = (n - i) / per_line;
            auto stream_line = [&](std::int64_t j) {
                auto* dst = reinterpret_cast<__m128i*>(o + i + j * per_line);
                const auto* src = reinterpret_cast<const __m128i*>(ring + j % ring_lines * per_line);
                _mm_stream_si128(dst + 0, _mm_load_si128(src + 0));
                _mm_stream_si128(dst + 1, _mm_load_si128(src + 1));
                _mm_stream_si128(dst + 2, _mm_load_si128(src + 2));
                _mm_stream_si128(dst + 3, _mm_load_si128(src + 3));
            };
            for (std::int64_t j = 0; j < lines; ++j) {
                O* slot = ring + j % ring_lines * per_line;
                const std::int64_t first = i + j * per_line;
                for (std::int64_t k = 0; k < per_line; ++k) slot[k] = value_at(first + k);
                if (j >= ring_lines - 1) stream_line(j - (ring_lines - 1));
            }
            for (std::int64_t j = std::max<std::int64_t>(0, lines - (ring_lines - 1)); j < lines; ++j) stream_line(j);
            i += lines * per_line;
        }
    }
#endif
    for (; i < n; ++i) o[i] = value_at(i);
}

/// Orders streaming stores before anything that follows (a thread joining the
/// work, a reader): they are weakly ordered.
inline void stream_fence() noexcept {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

template <class T>
[[gnu::always_inline]] inline T* row_ptr(char* const* p, const std::int64_t* s0, int k, std::int64_t r) noexcept {
    return reinterpret_cast<T*>(p[k] + r * s0[k]);
}

/// A function object of one or two inputs that also computes whole 2-D pieces on SIMD
/// vectors (simd_row_fn and simd_unary_fn in the kernels): f.rows(n0, n1, o, o_row,
/// a, b, a_row, b_row, a_step, b_step, stream) (without b, b_row, b_step for one
/// input): n0 rows of n1 elements, rows *_row elements apart, steps 0 (one value for
/// the row) or 1 (contiguous).
template <class F, class Out, class... Ins>
concept row_kernel = (sizeof...(Ins) == 1 || sizeof...(Ins) == 2) &&
                     requires(const F& f, Out* o, const Ins*... in, std::int64_t k) {
                         f.rows(k, k, o, k, in..., ((void)in, k)..., ((void)in, k)..., true);
                     };

/// Whether a kernel's SIMD rows stream from simd_stream_min_bytes: two inputs and an
/// output of their type (arithmetic; not comparisons or casts).
template <class F, class Out, class... Ins>
inline constexpr bool simd_streams_early =
    row_kernel<F, Out, Ins...> && sizeof...(Ins) == 2 && (std::is_same_v<Out, Ins> && ...);

/// Rows shorter than this take the plain loop even with a row kernel: the dispatched
/// call and the kernel's set-up would cost more than they save on a few elements
/// (figures: docs/performance.md, "Figures behind the engine's thresholds").
inline constexpr std::int64_t simd_min_row = 32;

/// The typed 2-D kernel for elementwise(): Out = f(Ins...).
template <class F, class Out, class... Ins>
struct elementwise_kernel {
    static_assert(sizeof...(Ins) <= 3);
    const F& f;
    bool stream = false;       ///< the whole output is large: stream contiguous rows out
    bool stream_simd = false;  ///< stream the rows of the SIMD kernels (simd_stream_min_bytes)

    void operator()(std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0,
                    const std::int64_t* s1) const {
        run(n0, n1, p, s0, s1, std::index_sequence_for<Ins...>{});
    }

private:
    using ins = std::tuple<Ins...>;

    template <std::size_t... I>
    void strided_rows(std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0,
                      const std::array<std::int64_t, sizeof...(Ins) + 1>& es) const {
        for (std::int64_t r = 0; r < n0; ++r) {
            Out* o = row_ptr<Out>(p, s0, 0, r);
            const std::tuple<const Ins*...> in{row_ptr<const Ins>(p, s0, static_cast<int>(I) + 1, r)...};
            for (std::int64_t i = 0; i < n1; ++i) o[i * es[0]] = static_cast<Out>(f(std::get<I>(in)[i * es[I + 1]]...));
        }
    }

    // n0 rows of n1 elements with a contiguous output and input access modes M...:
    // streamed out for large outputs (see stream_row), else the plain loop.
    template <access... M>
    void rows(std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0,
              const std::array<std::int64_t, sizeof...(Ins) + 1>& es) const {
        rows_impl<M...>(n0, n1, p, s0, es, std::index_sequence_for<Ins...>{});
    }
    template <access... M, std::size_t... I>
    void rows_impl(std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0,
                   const std::array<std::int64_t, sizeof...(Ins) + 1>& es, std::index_sequence<I...>) const {
        // Not with an input broadcast along the row: there plain stores already run at
        // memcpy's pace and streaming only adds its cost (figures: docs/performance.md,
        // "Figures behind the engine's thresholds").
        const bool long_rows = n1 * std::int64_t{sizeof(Out)} >= stream_min_row_bytes && ((M != access::scalar) && ...);
        const bool streaming = stream && long_rows;
        if constexpr (row_kernel<F, Out, Ins...>) {
            if (((M != access::strided) && ...) && n1 >= simd_min_row) {
                const bool simd_streaming = (stream || stream_simd) && long_rows;
                f.rows(n0, n1, row_ptr<Out>(p, s0, 0, 0), s0[0] / std::int64_t{sizeof(Out)},
                       row_ptr<const Ins>(p, s0, static_cast<int>(I) + 1, 0)...,
                       (s0[I + 1] / std::int64_t{sizeof(Ins)})..., std::int64_t{M == access::contig}...,
                       simd_streaming);
                if (simd_streaming) stream_fence();
                return;
            }
        }
        for (std::int64_t r = 0; r < n0; ++r) {
            const std::tuple<const Ins*...> in{row_ptr<const Ins>(p, s0, static_cast<int>(I) + 1, r)...};
            Out* o = row_ptr<Out>(p, s0, 0, r);
            if (streaming)
                stream_row(n1, o, [&](std::int64_t i) {
                    return static_cast<Out>(f(at<M>(std::get<I>(in), i, es[I + 1])...));
                });
            else if constexpr (sizeof...(Ins) == 1)
                loop_n<M...>(n1, o, std::get<0>(in), es[1], f);
            else
                loop_n<M...>(n1, o, std::get<0>(in), es[1], std::get<1>(in), es[2], f);
        }
        if (streaming) stream_fence();
    }

    template <std::size_t... I>
    void run(std::int64_t n0, std::int64_t n1, char* const* p, const std::int64_t* s0, const std::int64_t* s1,
             std::index_sequence<I...>) const {
        const std::int64_t so = s1[0] / static_cast<std::int64_t>(sizeof(Out));
        const std::array<std::int64_t, sizeof...(Ins) + 1> es{
            so, (s1[I + 1] / static_cast<std::int64_t>(sizeof(std::tuple_element_t<I, ins>)))...};
        if (so != 1) {  // strided output: one generic loop
            strided_rows<I...>(n0, n1, p, s0, es);
            return;
        }
        if constexpr (sizeof...(Ins) == 0) {
            for (std::int64_t r = 0; r < n0; ++r) loop_n(n1, row_ptr<Out>(p, s0, 0, r), f);
        } else if constexpr (sizeof...(Ins) == 1) {
            // Contiguous input: the loop the compiler vectorises; a strided or
            // broadcast one: the generic loop (stride 0 reads one value). Each variant
            // is compiled per operation and type, so only the ones that pay are kept.
            if (access_of(es[1]) == access::contig) rows<access::contig>(n0, n1, p, s0, es);
            else rows<access::strided>(n0, n1, p, s0, es);
        } else if constexpr (sizeof...(Ins) == 2) {
            // Both contiguous, or one of them broadcast (a tensor with a scalar, a row
            // over a matrix): specialised, vectorised loops. A strided input (its
            // gathers do not vectorise profitably) or two broadcast ones: the generic
            // loop, still with a contiguous output.
            const access ma = access_of(es[1]), mb = access_of(es[2]);
            if (ma == access::contig && mb == access::contig) rows<access::contig, access::contig>(n0, n1, p, s0, es);
            else if (ma == access::contig && mb == access::scalar) rows<access::contig, access::scalar>(n0, n1, p, s0, es);
            else if (ma == access::scalar && mb == access::contig) rows<access::scalar, access::contig>(n0, n1, p, s0, es);
            else rows<access::strided, access::strided>(n0, n1, p, s0, es);
        } else {
            using A = std::tuple_element_t<0, ins>;
            using B = std::tuple_element_t<1, ins>;
            using C = std::tuple_element_t<2, ins>;
            // Three inputs: specialise contiguous / broadcast only, else the strided loop.
            if (access_of(es[1]) == access::strided || access_of(es[2]) == access::strided ||
                access_of(es[3]) == access::strided) {
                strided_rows<I...>(n0, n1, p, s0, es);
                return;
            }
            auto two = [&](access m, auto fn) {
                if (m == access::contig) return fn(std::integral_constant<access, access::contig>{});
                return fn(std::integral_constant<access, access::scalar>{});
            };
            two(access_of(es[1]), [&](auto ma) {
                two(access_of(es[2]), [&](auto mb) {
                    two(access_of(es[3]), [&](auto mc) {
                        for (std::int64_t r = 0; r < n0; ++r)
                            loop_n<decltype(ma)::value, decltype(mb)::value, decltype(mc)::value>(n1, row_ptr<Out>(p, s0, 0, r), row_ptr<const A>(p, s0, 1, r),
                                                     es[1], row_ptr<const B>(p, s0, 2, r), es[2],
                                                     row_ptr<const C>(p, s0, 3, r), es[3], f);
                    });
                });
            });
        }
    }
};

/// An input operand: pointer and strides in elements over the common shape.
template <class T>
struct strided_input {
    const T* data;
    std::span<const std::int64_t> strides;
};

/// The operation run_reordered runs: over `shape`, into `out` (strides `out_strides`),
/// from inputs a and b.
using binary_body = std::function<void(std::span<const std::int64_t> shape, void* out,
                                        std::span<const std::int64_t> out_strides, strided_input<void> a,
                                        strided_input<void> b)>;

/// Runs `body` over `shape` after putting in the output's axis order each input
/// that is gathered across the output's fastest axis (a stride of a cache line or more
/// there) and broadcast over another axis: read as it is, it would be read in
/// scattered tiles once per broadcast slice. Such inputs are copied C-contiguous in the
/// output's order (broadcast axes left out), from the allocator's cache of blocks.
/// When every copied input changes along the output's outermost axis and one slice of
/// the copies fits in cache, they are copied a slice at a time and `body` runs per
/// slice, reading each copy again from cache for its broadcast; otherwise each is
/// copied whole, once. `element_size` is the inputs' element size, `out_element_size`
/// the output's (a comparison writes bool, an integer division double).
void run_reordered(std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> out_strides,
                   std::size_t out_element_size, strided_input<void> a, strided_input<void> b,
                   std::size_t element_size, const binary_body& body);

/// The plan of the common case, recognised in a few comparisons instead of by the
/// planner and its memo: the output row-major contiguous, and each input either the
/// same (contiguous in the output's order), one value broadcast everywhere, or one
/// contiguous block broadcast over the leading axes (NumPy's (4,8) + (8)), with one
/// block length for all such inputs. That is n0 rows of n1 elements with byte strides
/// s0, s1: the 2-D piece run_plan would hand the kernel for this layout. Returns false
/// otherwise (strided, permuted, inner broadcast, empty): the planner's cases.
template <std::size_t N>
[[nodiscard]] bool row_major_plan(std::span<const std::int64_t> shape, const std::array<operand_layout, N>& ops,
                                  std::int64_t& n0, std::int64_t& n1, op_strides& s0, op_strides& s1) noexcept {
    // The elements of the contiguous suffix of `strides` (block) and of the axes
    // before it (lead), or false when one of those is not broadcast (stride 0).
    // (No divisions: one costs more than this whole test.)
    auto split = [&](std::span<const std::int64_t> strides, std::int64_t& block, std::int64_t& lead) {
        block = 1;
        lead = 1;
        std::size_t d = shape.size();
        for (; d > 0; --d) {
            const std::int64_t n = shape[d - 1];
            if (n == 1) continue;
            if (n < 1) return false;  // empty (or invalid): the planner's case
            if (strides[d - 1] != block) break;
            block *= n;
        }
        for (; d > 0; --d) {
            const std::int64_t n = shape[d - 1];
            if (n != 1 && strides[d - 1] != 0) return false;
            lead *= n;
        }
        return true;
    };
    std::int64_t total = 0, lead = 0;
    if (!split(ops[0].strides, total, lead) || lead != 1) return false;
    std::array<std::int64_t, N> block{};
    n0 = 1;
    n1 = total;
    for (std::size_t k = 1; k < N; ++k) {
        std::int64_t lead_k = 0;
        if (!split(ops[k].strides, block[k], lead_k)) return false;
        if (block[k] == 1 || block[k] == total) continue;  // one value, or the whole
        if (n0 != 1 && n1 != block[k]) return false;       // two different blocks
        n0 = lead_k;
        n1 = block[k];
    }
    for (std::size_t k = 0; k < N; ++k) {
        const std::int64_t es = ops[k].element_size;
        const bool whole = k == 0 || block[k] == total;
        s0[k] = whole ? n1 * es : 0;
        s1[k] = whole || (block[k] == n1 && n1 != 1) ? es : 0;
    }
    return true;
}

/// out[i] = f(ins[i]...) over `shape` for 0 to 3 inputs (the general form).
template <class Out, class... Ins, class F>
void elementwise_n(std::span<const std::int64_t> shape, Out* out, std::span<const std::int64_t> out_strides,
                   const F& f, strided_input<Ins>... ins) {
    const std::array<operand_layout, sizeof...(Ins) + 1> ops{
        operand_layout{out_strides, static_cast<std::int64_t>(sizeof(Out))},
        operand_layout{ins.strides, static_cast<std::int64_t>(sizeof(Ins))}...};
    const op_ptrs base{reinterpret_cast<char*>(out),
                       const_cast<char*>(reinterpret_cast<const char*>(ins.data))...};
    // The fixed cost of small operations: their common layouts skip the memo and the
    // planner, and go to the kernel in one call.
    std::int64_t n0 = 0, n1 = 0;
    op_strides s0{}, s1{};
    auto kernel_for = [&](std::int64_t elements) {
        const std::int64_t bytes = elements * std::int64_t{sizeof(Out)};
        constexpr int nops = sizeof...(Ins) + 1;
        // The SIMD rows' lower threshold is asked only when every row does not stream.
        const bool all = streaming_pays(bytes, base, nops);
        const bool simd = !all && simd_streams_early<F, Out, Ins...> &&
                          streaming_pays(bytes, base, nops, simd_stream_min_bytes);
        return elementwise_kernel<F, Out, Ins...>{f, all, simd};
    };
    if (row_major_plan(shape, ops, n0, n1, s0, s1) && !want_parallel(n0 * n1)) {
        kernel_for(n0 * n1)(n0, n1, base.data(), s0.data(), s1.data());
        return;
    }
    const loop_plan& plan = cached_loop_plan(shape, ops);
    run_plan(plan, base, kernel_for(plan.elements));
}

/// out[i] = f() for every element (f must be pure).
template <class Out, class F>
void elementwise(std::span<const std::int64_t> shape, Out* out, std::span<const std::int64_t> out_strides, F f) {
    elementwise_n<Out>(shape, out, out_strides, f);
}

/// out[i] = f(a[i]).
template <class Out, class A, class F>
void elementwise(std::span<const std::int64_t> shape, Out* out, std::span<const std::int64_t> out_strides,
                 const A* a, std::span<const std::int64_t> a_strides, F f) {
    elementwise_n<Out, A>(shape, out, out_strides, f, strided_input<A>{a, a_strides});
}

/// out[i] = f(a[i], b[i]); e.g. an add with broadcasting (b_strides has 0 on broadcast axes):
///     elementwise<float, float, float>(shape, o, os, a, as, b, bs, std::plus<>{});
template <class Out, class A, class B, class F>
void elementwise(std::span<const std::int64_t> shape, Out* out, std::span<const std::int64_t> out_strides,
                 const A* a, std::span<const std::int64_t> a_strides, const B* b,
                 std::span<const std::int64_t> b_strides, F f) {
    elementwise_n<Out, A, B>(shape, out, out_strides, f, strided_input<A>{a, a_strides},
                             strided_input<B>{b, b_strides});
}

/// out[i] = f(a[i], b[i], c[i]) (e.g. where(cond, x, y)).
template <class Out, class A, class B, class C, class F>
void elementwise(std::span<const std::int64_t> shape, Out* out, std::span<const std::int64_t> out_strides,
                 const A* a, std::span<const std::int64_t> a_strides, const B* b,
                 std::span<const std::int64_t> b_strides, const C* c, std::span<const std::int64_t> c_strides, F f) {
    elementwise_n<Out, A, B, C>(shape, out, out_strides, f, strided_input<A>{a, a_strides},
                                strided_input<B>{b, b_strides}, strided_input<C>{c, c_strides});
}

}  // namespace nt::detail

