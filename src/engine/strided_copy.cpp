// The engine's type-erased strided copies: copy_strided (rows by size class,
// channel moves, register-transposed tiles), fill_strided, and run_reordered
// (inputs gathered into cache-sized slices before a binary kernel).
#include "engine.hpp"
#include "engine_tuning.hpp"
#include "simd.hpp"

#include <algorithm>
#include <cstring>

namespace nt::detail {
using namespace tuning;
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

// An image's channels taken apart from a crop ((h,w,C) -> (C,h,w) where the crop's rows
// do not merge into one run): the planner leaves the channel axis outside the kernel's
// rows x columns, and every element went alone. With the channels as the rows
// (2 to 4 of them, adjacent in the source, whose columns are a group of them apart),
// deinterleave_rows takes them together, as it does for an uncropped image, in
// vectors instead of one element at a time. Crops narrower than 64 columns stay as
// they were: a kernel call per row of channels costs more than it saves there
// (figures: docs/performance.md, "Figures behind the engine's thresholds").
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
        // against as many interleaved elements, in vectors rather than element by
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
    // slice's copy and operation between them woke the pool twice per slice, which cost
    // more than the second thread gave (figures: docs/performance.md, "Figures behind
    // the engine's thresholds").
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