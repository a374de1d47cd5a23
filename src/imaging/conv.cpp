// Convolution by names (nt/conv.hpp).
//
// Every call is brought to one canonical problem: x as (B, G, C, spatial...), w as
// (G, F, C, kernel...), the result (B, G, F, output...), all C-contiguous: B the batch
// axes merged, G the kept ones, C the summed ones, F w's own. The name rule, padding
// and casts are done with ntensor's recorded operations (views, nt::pad, astype), so
// gradients reach x and w through them; the canonical problem is three operations,
// each recording a rule written with the other two:
//
//   forward       y = A(x, w)   y[b,g,f,o] = sum_{c,k} w[g,f,c,k] x[b,g,c, o*s + k*d]
//   input grad    B(y', w)      the adjoint of A in x (conv_transpose)
//   weight grad   C(x, y')      the adjoint of A in w
//
// which are the three bilinear faces of one trilinear form <A(x, w), y'>: A's rule is
// (B, C), B's is (A, C), C's is (B, A), so gradients of gradients follow.
//
// A is the one kernel. With unit stride along the last axis and rows of at least 16
// outputs it is direct (conv_simd.hpp): blocks of features times vectors of outputs
// accumulate in registers over channels and taps, and C the same way with blocks of
// features times taps. Otherwise, for a tile of output positions (contiguous in the flattened
// output, small enough for the unfolded tile to stay in cache) the unfolded input
// [C * kernel volume, positions] is packed and multiplied by w's [F, C * kernel
// volume] through the BLAS, straight into the result. Tiles go to the pool's
// threads, each product on its own thread. B is A on the zero-stuffed, padded
// gradient with the kernel mirrored and C and F exchanged; C multiplies the gradient's
// tiles by the transposed unfolded tiles, each thread adding into its own sum.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "gemm.hpp"
#include "graph.hpp"
#include "nt/conv.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/error.hpp"
#include "nt/names.hpp"
#include "nt/threads.hpp"
#include "conv_simd.hpp"
#include "spatial.hpp"

namespace nt::detail {
namespace {

using imaging::spatial_axes;

constexpr std::size_t max_spatial = 6;
using spatial_dims = small_vector<std::int64_t, max_spatial>;

/// The canonical problem's strides and dilations, one per spatial axis (in x's order).
struct conv_geometry {
    spatial_dims stride;
    spatial_dims dilation;
};

std::int64_t product(std::span<const std::int64_t> v) {
    return std::accumulate(v.begin(), v.end(), std::int64_t{1}, std::multiplies<>());
}

[[noreturn]] void conv_error(errc code, std::string_view op, const std::string& what) {
    throw_error(code, std::string(op) + ": " + what);
}

// --- the canonical kernels (no recording; contiguous f32 / f64 operands) -----------

/// The unfolding of one (batch, group) slice of X: for output positions [p0, p1)
/// (flattened), the rows (channel, kernel tap) of the windows, each row the input
/// elements those positions read through that tap. One home for the forward product
/// and the weight gradient, which multiply the same tiles from either side.
struct unfolding {
    std::size_t k = 0;
    std::int64_t channels = 0, in_volume = 0, kernel_volume = 0, positions = 0, rows = 0, tile = 0, tiles = 0;
    spatial_dims out_sizes, in_stride, stride;
    std::vector<std::int64_t> tap_offset;  // element offset of each kernel tap in one channel

    unfolding(std::span<const std::int64_t> x_shape, std::span<const std::int64_t> kernel,
              std::span<const std::int64_t> out, const conv_geometry& geo, std::size_t element_size)
        : k(kernel.size()), channels(x_shape[2]), out_sizes(out.begin(), out.end()), stride(geo.stride) {
        const std::span<const std::int64_t> in_sizes = x_shape.subspan(3);
        in_volume = product(in_sizes);
        kernel_volume = product(kernel);
        positions = product(out);
        rows = channels * kernel_volume;
        in_stride = spatial_dims(k, 1);
        for (std::size_t i = k - 1; i-- > 0;) in_stride[i] = in_stride[i + 1] * in_sizes[i + 1];
        tap_offset.resize(static_cast<std::size_t>(kernel_volume));
        for (std::int64_t t = 0; t < kernel_volume; ++t) {
            std::int64_t rest = t, off = 0;
            for (std::size_t i = k; i-- > 0;) {
                off += (rest % kernel[i]) * geo.dilation[i] * in_stride[i];
                rest /= kernel[i];
            }
            tap_offset[static_cast<std::size_t>(t)] = off;
        }
        // Positions per tile: the unfolded tile (rows x tile) in about 256 KiB, the
        // cache a core keeps to itself.
        const auto budget = static_cast<std::int64_t>(256 * 1024 / element_size);
        tile = std::min(std::max<std::int64_t>(64, budget / std::max<std::int64_t>(rows, 1)), positions);
        tiles = (positions + tile - 1) / tile;
    }

    /// Whether the direct kernels (conv_simd.hpp) apply: unit stride along the last
    /// axis and rows long enough to fill vectors. Otherwise the tiles are unfolded and
    /// multiplied through the BLAS.
    [[nodiscard]] bool direct() const { return stride[k - 1] == 1 && out_sizes[k - 1] >= 16; }

    /// The input offset of the first window of each output row (every output axis
    /// but the last).
    [[nodiscard]] std::int64_t row_base(std::int64_t row) const {
        std::int64_t rest = row, off = 0;
        for (std::size_t i = k - 1; i-- > 0;) {
            off += (rest % out_sizes[i]) * stride[i] * in_stride[i];
            rest /= out_sizes[i];
        }
        return off;
    }
    [[nodiscard]] std::vector<std::int64_t> row_bases() const {
        std::vector<std::int64_t> base(static_cast<std::size_t>(positions / out_sizes[k - 1]));
        for (std::size_t r = 0; r < base.size(); ++r) base[r] = row_base(static_cast<std::int64_t>(r));
        return base;
    }

    template <class T>
    [[nodiscard]] imaging::direct_conv_slice<T> slice(const T* x_slice, const std::vector<std::int64_t>& bases,
                                                      std::int64_t features) const {
        imaging::direct_conv_slice<T> s;
        s.x = x_slice;
        s.channels = channels;
        s.in_volume = in_volume;
        s.tap_offset = tap_offset.data();
        s.taps = kernel_volume;
        s.row_base = bases.data();
        s.row_length = out_sizes[k - 1];
        s.positions = positions;
        s.features = features;
        return s;
    }

    /// Output rows per unit of work of the direct kernels: about 2048 positions, whose
    /// gradient and input rows stay in a core's own cache.
    [[nodiscard]] std::int64_t rows_per_unit() const { return std::max<std::int64_t>(1, 2048 / out_sizes[k - 1]); }

    /// cols[row * (p1 - p0) + j] = the element position p0 + j reads through row.
    template <class T>
    void unfold(const T* x_slice, std::int64_t p0, std::int64_t p1, T* cols) const {
        const std::int64_t np = p1 - p0, last = out_sizes[k - 1], step_last = stride[k - 1];
        // A run of positions along the last output axis is one strided read per row.
        for (std::int64_t p = p0; p < p1;) {
            const std::int64_t o_last = p % last, base = row_base(p / last) + o_last * step_last;
            const std::int64_t run_length = std::min(last - o_last, p1 - p);
            T* dst = cols + (p - p0);
            for (std::int64_t c = 0; c < channels; ++c) {
                const T* src_c = x_slice + c * in_volume + base;
                for (std::int64_t t = 0; t < kernel_volume; ++t) {
                    const T* src = src_c + tap_offset[static_cast<std::size_t>(t)];
                    T* d = dst + (c * kernel_volume + t) * np;
                    if (step_last == 1) std::memcpy(d, src, sizeof(T) * static_cast<std::size_t>(run_length));
                    else
                        for (std::int64_t j = 0; j < run_length; ++j) d[j] = src[j * step_last];
                }
            }
            p += run_length;
        }
    }
};

/// A = the forward product: X (B,G,C,S...), W (G,F,C,K...) -> (B,G,F,O...).
template <class T>
void forward_kernel(const tensor_base& x, const tensor_base& w, const conv_geometry& geo, tensor_base& y) {
    const auto xs = x.shape(), ws = w.shape();
    const std::int64_t batches = xs[0], groups = xs[1], features = ws[1];
    const unfolding u(xs, ws.subspan(3), y.shape().subspan(3), geo, sizeof(T));
    const T* xd = reinterpret_cast<const T*>(x.data());
    const T* wd = reinterpret_cast<const T*>(w.data());
    T* yd = reinterpret_cast<T*>(y.data());
    if (u.direct()) {
        // The kernel laid out (group, channel, tap, feature): a block of features'
        // weights for one tap are neighbours.
        std::vector<T> w_ctf(static_cast<std::size_t>(groups * u.rows * features));
        for (std::int64_t g = 0; g < groups; ++g)
            for (std::int64_t f = 0; f < features; ++f)
                for (std::int64_t ct = 0; ct < u.rows; ++ct)
                    w_ctf[static_cast<std::size_t>((g * u.rows + ct) * features + f)] = wd[(g * features + f) * u.rows + ct];
        const std::vector<std::int64_t> bases = u.row_bases();
        const auto rows = static_cast<std::int64_t>(bases.size()), per_unit = u.rows_per_unit();
        const std::int64_t chunks = (rows + per_unit - 1) / per_unit, units = batches * groups * chunks;
        auto run = [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t unit = begin; unit < end; ++unit) {
                const std::int64_t bg = unit / chunks, r0 = (unit % chunks) * per_unit;
                const auto s = u.slice(xd + bg * u.channels * u.in_volume, bases, features);
                imaging::direct_conv_forward(s, w_ctf.data() + (bg % groups) * u.rows * features, r0,
                                             std::min(rows, r0 + per_unit), yd + bg * features * u.positions);
            }
        };
        if (units > 1 && want_parallel(u.positions * batches * groups * u.rows * features)) parallel_for(units, run);
        else run(0, units);
        return;
    }
    auto run = [&](std::int64_t begin, std::int64_t end) {
        std::vector<T> cols(static_cast<std::size_t>(u.rows * u.tile));
        for (std::int64_t unit = begin; unit < end; ++unit) {
            const std::int64_t bg = unit / u.tiles, p0 = (unit % u.tiles) * u.tile;
            const std::int64_t p1 = std::min(u.positions, p0 + u.tile), np = p1 - p0;
            u.unfold(xd + bg * u.channels * u.in_volume, p0, p1, cols.data());
            gemm_problem prob;  // y[F, tile] = w[F, rows] . cols[rows, tile]
            prob.m = features;
            prob.n = np;
            prob.k = u.rows;
            prob.ldl = u.rows;
            prob.ldr = np;
            prob.ldc = u.positions;
            gemm_batched(y.type(), prob, wd + (bg % groups) * features * u.rows, cols.data(),
                         yd + bg * features * u.positions + p0);
        }
    };
    const std::int64_t units = batches * groups * u.tiles;
    const single_threaded_blas one_thread_each;
    if (units > 1 && want_parallel(units * u.tile * u.rows * features)) parallel_for(units, run);
    else run(0, units);
}

/// C = the weight gradient: X (B,G,C,S...), Y' (B,G,F,O...) -> (G,F,C,K...).
template <class T>
void weight_kernel(const tensor_base& x, const tensor_base& gy, const conv_geometry& geo, tensor_base& gw) {
    const auto xs = x.shape(), gs = gy.shape();
    const std::int64_t batches = xs[0], groups = xs[1], features = gs[2];
    const unfolding u(xs, gw.shape().subspan(3), gs.subspan(3), geo, sizeof(T));
    const T* xd = reinterpret_cast<const T*>(x.data());
    const T* gd = reinterpret_cast<const T*>(gy.data());
    T* wd = reinterpret_cast<T*>(gw.data());
    const std::int64_t per_group = features * u.rows;
    std::fill(wd, wd + groups * per_group, T(0));
    std::mutex sum_mutex;
    if (u.direct()) {
        // Sums laid out (group, channel, tap, feature), as the kernel adds them; each
        // range of units sums into its own, added under the lock at its end.
        const std::vector<std::int64_t> bases = u.row_bases();
        const auto rows = static_cast<std::int64_t>(bases.size()), per_unit = u.rows_per_unit();
        const std::int64_t chunks = (rows + per_unit - 1) / per_unit, units = groups * batches * chunks;
        std::vector<T> total(static_cast<std::size_t>(groups * per_group), T(0));
        auto run = [&](std::int64_t begin, std::int64_t end) {
            std::vector<T> sum(static_cast<std::size_t>(groups * per_group), T(0));
            for (std::int64_t unit = begin; unit < end; ++unit) {
                const std::int64_t g = unit / (batches * chunks), b = (unit / chunks) % batches;
                const std::int64_t r0 = (unit % chunks) * per_unit, bg = b * groups + g;
                const auto s = u.slice(xd + bg * u.channels * u.in_volume, bases, features);
                imaging::direct_conv_weight(s, gd + bg * features * u.positions, r0, std::min(rows, r0 + per_unit),
                                            sum.data() + g * per_group);
            }
            const std::lock_guard lock(sum_mutex);
            for (std::size_t i = 0; i < sum.size(); ++i) total[i] += sum[i];
        };
        if (units > 1 && want_parallel(u.positions * batches * groups * u.rows * features)) {
            const std::int64_t ranges = std::min<std::int64_t>(units, 4 * get_num_threads());
            parallel_for(ranges, [&](std::int64_t b, std::int64_t e) {
                for (std::int64_t ch = b; ch < e; ++ch) run(ch * units / ranges, (ch + 1) * units / ranges);
            });
        } else {
            run(0, units);
        }
        for (std::int64_t g = 0; g < groups; ++g)
            for (std::int64_t ct = 0; ct < u.rows; ++ct)
                for (std::int64_t f = 0; f < features; ++f)
                    wd[(g * features + f) * u.rows + ct] = total[static_cast<std::size_t>((g * u.rows + ct) * features + f)];
        return;
    }
    // Units are (group, batch, tile) with the group slowest: a range of units adds
    // into few groups.
    auto run = [&](std::int64_t begin, std::int64_t end) {
        std::vector<T> cols(static_cast<std::size_t>(u.rows * u.tile));
        std::vector<T> part(static_cast<std::size_t>(per_group));
        std::vector<T> sum(static_cast<std::size_t>(groups * per_group), T(0));
        for (std::int64_t unit = begin; unit < end; ++unit) {
            const std::int64_t g = unit / (batches * u.tiles);
            const std::int64_t b = (unit / u.tiles) % batches, p0 = (unit % u.tiles) * u.tile;
            const std::int64_t p1 = std::min(u.positions, p0 + u.tile), np = p1 - p0;
            const std::int64_t bg = b * groups + g;
            u.unfold(xd + bg * u.channels * u.in_volume, p0, p1, cols.data());
            gemm_problem prob;  // part[F, rows] = gy_tile[F, tile] . cols[rows, tile]^T
            prob.m = features;
            prob.n = u.rows;
            prob.k = np;
            prob.trans_r = true;
            prob.ldl = u.positions;
            prob.ldr = np;
            prob.ldc = u.rows;
            gemm_batched(gw.type(), prob, gd + bg * features * u.positions + p0, cols.data(), part.data());
            T* s = sum.data() + g * per_group;
            for (std::int64_t i = 0; i < per_group; ++i) s[i] += part[static_cast<std::size_t>(i)];
        }
        const std::lock_guard lock(sum_mutex);
        for (std::size_t i = 0; i < sum.size(); ++i) wd[i] += sum[i];
    };
    const std::int64_t units = groups * batches * u.tiles;
    const single_threaded_blas one_thread_each;
    if (units > 1 && want_parallel(units * u.tile * u.rows * features)) {
        // A few ranges per thread: each range ends with one locked sum of its own.
        const std::int64_t chunks = std::min<std::int64_t>(units, 4 * get_num_threads());
        parallel_for(chunks, [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t ch = b; ch < e; ++ch) run(ch * units / chunks, (ch + 1) * units / chunks);
        });
    } else {
        run(0, units);
    }
}

tensor_base forward_values(const tensor_base& x0, const tensor_base& w0, const conv_geometry& geo) {
    const tensor_base x = x0.contiguous(), w = w0.contiguous();
    const auto xs = x.shape(), ws = w.shape();
    const std::size_t k = xs.size() - 3;
    dims out{xs[0], xs[1], ws[1]};
    for (std::size_t i = 0; i < k; ++i) out.push_back((xs[3 + i] - geo.dilation[i] * (ws[3 + i] - 1) - 1) / geo.stride[i] + 1);
    tensor_base y = tensor_base::allocate(x.type(), out.span(), {}, "conv");
    if (y.size() == 0) return y;
    if (xs[2] == 0) {
        const std::uint64_t zero = 0;
        y.fill(&zero);
        return y;
    }
    if (x.type() == dtype::f32) forward_kernel<float>(x, w, geo, y);
    else forward_kernel<double>(x, w, geo, y);
    return y;
}

tensor_base weight_values(const tensor_base& x0, const tensor_base& gy0, const conv_geometry& geo,
                          std::span<const std::int64_t> kernel) {
    const tensor_base x = x0.contiguous(), gy = gy0.contiguous();
    const auto xs = x.shape();
    dims out{xs[1], gy.shape()[2], xs[2]};
    for (std::int64_t s : kernel) out.push_back(s);
    tensor_base gw = tensor_base::allocate(x.type(), out.span(), {}, "conv");
    const std::uint64_t zero = 0;
    if (gw.size() == 0) return gw;
    if (gy.size() == 0 || x.size() == 0) {
        gw.fill(&zero);
        return gw;
    }
    if (x.type() == dtype::f32) weight_kernel<float>(x, gy, geo, gw);
    else weight_kernel<double>(x, gy, geo, gw);
    return gw;
}

/// B = the input gradient (conv_transpose): Y' (B,G,F,O...), W (G,F,C,K...) ->
/// (B,G,C,S...). A on the gradient stuffed with stride - 1 zeros between elements and
/// padded by dilation * (k - 1) (plus the positions no window reached), with the
/// kernel mirrored and F and C exchanged.
tensor_base input_values(const tensor_base& gy0, const tensor_base& w0, const conv_geometry& geo,
                         std::span<const std::int64_t> in_sizes) {
    const tensor_base gy = gy0.contiguous(), w = w0.contiguous();
    const auto gs = gy.shape(), ws = w.shape();
    const std::size_t k = gs.size() - 3;
    dims stuffed_shape{gs[0], gs[1], gs[2]};
    spatial_dims lead(k, 0);
    for (std::size_t i = 0; i < k; ++i) {
        lead[i] = geo.dilation[i] * (ws[3 + i] - 1);
        // in = (o - 1) s + d (k - 1) + 1 + tail: the tail's gradient is 0.
        stuffed_shape.push_back(in_sizes[i] + lead[i]);
    }
    const dtype type = gy.type();
    tensor_base stuffed = tensor_base::allocate(type, stuffed_shape.span(), {}, "conv_transpose");
    const std::uint64_t zero = 0;
    stuffed.fill(&zero);
    if (gy.size() != 0) {
        // The gradient's elements at lead + o * stride: a strided view written in one copy.
        tensor_base target = stuffed;
        for (std::size_t i = 0; i < k; ++i) {
            const std::int64_t start = lead[i], stop = lead[i] + (gs[3 + i] - 1) * geo.stride[i] + 1;
            target = target.slice(Axis(static_cast<std::int64_t>(3 + i)), range(start, stop, geo.stride[i]));
        }
        target.assign(gy);
    }
    // The kernel mirrored, (G, F, C, K) -> (G, C, F, K).
    small_vector<Axis, 8> swap{Axis(0), Axis(2), Axis(1)};
    small_vector<Axis, 8> spatial;
    for (std::size_t i = 0; i < k; ++i) {
        swap.push_back(Axis(static_cast<std::int64_t>(3 + i)));
        spatial.push_back(Axis(static_cast<std::int64_t>(3 + i)));
    }
    const tensor_base mirrored = flip(w, spatial.span()).permute(swap.span()).contiguous();
    conv_geometry unit{spatial_dims(k, 1), geo.dilation};
    return forward_values(stuffed, mirrored, unit);
}

// --- the recorded canonical operations ----------------------------------------------

tensor_base conv_forward(const tensor_base& x, const tensor_base& w, const conv_geometry& geo);
tensor_base conv_input_grad(const tensor_base& gy, const tensor_base& w, const conv_geometry& geo,
                            const dims& in_sizes);
tensor_base conv_weight_grad(const tensor_base& x, const tensor_base& gy, const conv_geometry& geo,
                             const dims& kernel);

dims spatial_of(const tensor_base& t) { return dims(t.shape().subspan(3)); }

/// x cut to the extent a forward product with `out` output positions reads (the
/// tail that stride and output_padding leave unread has a zero gradient): the
/// forward product of the cut tensor has exactly `out`'s sizes. Recorded.
tensor_base read_extent(const tensor_base& x, const conv_geometry& geo, std::span<const std::int64_t> kernel,
                        std::span<const std::int64_t> out) {
    any_tensor r(x);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::int64_t used = (out[i] - 1) * geo.stride[i] + geo.dilation[i] * (kernel[i] - 1) + 1;
        if (used < x.shape()[3 + i]) r = r.slice(Axis(static_cast<std::int64_t>(3 + i)), 0, used);
    }
    return r.base();
}

tensor_base conv_forward(const tensor_base& x, const tensor_base& w, const conv_geometry& geo) {
    if (!records(x, w)) [[likely]]
        return forward_values(x, w, geo);
    tensor_base out = forward_values(x.without_grad_node(), w.without_grad_node(), geo);
    const bool need_x = x.grad_node() != nullptr, need_w = w.grad_node() != nullptr;
    const saved_tensor vx = need_w ? saved_tensor::input(x) : saved_tensor();
    const saved_tensor vw = need_x ? saved_tensor::input(w) : saved_tensor();
    const dims in_sizes = spatial_of(x), kernel = spatial_of(w);
    attach_node("conv", out, {&x, &w}, [=](const any_tensor& g) -> input_gradients {
        input_gradients r(2);
        if (need_x) r[0] = any_tensor(conv_input_grad(g.base(), vw.get().base(), geo, in_sizes));
        if (need_w) r[1] = any_tensor(conv_weight_grad(vx.get().base(), g.base(), geo, kernel));
        return r;
    });
    return out;
}

tensor_base conv_input_grad(const tensor_base& gy, const tensor_base& w, const conv_geometry& geo,
                            const dims& in_sizes) {
    if (!records(gy, w)) [[likely]]
        return input_values(gy, w, geo, in_sizes.span());
    tensor_base out = input_values(gy.without_grad_node(), w.without_grad_node(), geo, in_sizes.span());
    const bool need_g = gy.grad_node() != nullptr, need_w = w.grad_node() != nullptr;
    const saved_tensor vg = need_w ? saved_tensor::input(gy) : saved_tensor();
    const saved_tensor vw = need_g ? saved_tensor::input(w) : saved_tensor();
    const dims kernel = spatial_of(w), positions = spatial_of(gy);
    attach_node("conv_transpose", out, {&gy, &w}, [=](const any_tensor& u) -> input_gradients {
        input_gradients r(2);
        if (need_g)
            r[0] = any_tensor(conv_forward(read_extent(u.base(), geo, kernel.span(), positions.span()), vw.get().base(), geo));
        if (need_w) r[1] = any_tensor(conv_weight_grad(u.base(), vg.get().base(), geo, kernel));
        return r;
    });
    return out;
}

tensor_base conv_weight_grad(const tensor_base& x, const tensor_base& gy, const conv_geometry& geo,
                             const dims& kernel) {
    if (!records(x, gy)) [[likely]]
        return weight_values(x, gy, geo, kernel.span());
    tensor_base out = weight_values(x.without_grad_node(), gy.without_grad_node(), geo, kernel.span());
    const bool need_x = x.grad_node() != nullptr, need_g = gy.grad_node() != nullptr;
    const saved_tensor vx = need_g ? saved_tensor::input(x) : saved_tensor();
    const saved_tensor vg = need_x ? saved_tensor::input(gy) : saved_tensor();
    const dims in_sizes = spatial_of(x), positions = spatial_of(gy);
    attach_node("conv weight gradient", out, {&x, &gy}, [=](const any_tensor& u) -> input_gradients {
        input_gradients r(2);
        if (need_x) r[0] = any_tensor(conv_input_grad(vg.get().base(), u.base(), geo, in_sizes));
        if (need_g)
            r[1] = any_tensor(conv_forward(read_extent(vx.get().base(), geo, kernel.span(), positions.span()), u.base(), geo));
        return r;
    });
    return out;
}

// --- the name rule ---------------------------------------------------------------------

/// Which axes of x and w play which part, and the canonical views of both.
struct conv_plan {
    std::vector<std::size_t> x_batch, x_kept, x_summed, x_spatial;  // positions in x (x_spatial in x's order)
    std::vector<std::size_t> w_kept, w_own, w_summed, w_spatial;     // positions in w, paired with x's
    std::vector<std::size_t> given_order;  // for each x_spatial entry, its index in the list the caller gave
};

bool all_unnamed(const tensor_base& t) {
    return std::ranges::none_of(t.names(), [](name n) { return n.has_value(); });
}

std::string axis_text(const tensor_base& t, std::size_t a) {
    const name n = t.names()[a];
    return n.has_value() ? "'" + std::string(n.str()) + "'" : "axis " + std::to_string(a);
}

conv_plan plan_conv(const tensor_base& x, const tensor_base& w, std::span<const Axis> axes,
                    std::span<const Axis> keep, bool transpose, std::string_view op) {
    conv_plan p;
    const auto given = spatial_axes(x, axes_arg(axes), op);
    const std::size_t k = given.size();
    if (k > max_spatial)
        conv_error(errc::invalid_argument, op, std::to_string(k) + " spatial axes given; at most " + std::to_string(max_spatial));
    if (w.rank() < k)
        conv_error(errc::invalid_argument, op, "the kernel " + w.describe() + " has fewer axes than the " +
                                                   std::to_string(k) + " spatial axes; it needs each of them");
    // x's spatial axes in x's order, each with its place in the caller's list.
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return given[a] < given[b]; });
    const bool by_name = std::ranges::all_of(axes, [](const Axis& a) { return a.is_name(); });
    std::vector<bool> w_taken(w.rank(), false), x_taken(x.rank(), false);
    for (std::size_t j = 0; j < k; ++j) {
        const std::size_t xa = given[order[j]];
        p.x_spatial.push_back(xa);
        p.given_order.push_back(order[j]);
        x_taken[xa] = true;
        std::size_t wa = 0;
        if (by_name) {
            const name n = x.names()[xa];
            const std::int64_t found = find_name(w.names(), n);
            if (found < 0)
                conv_error(errc::axis_out_of_range, op,
                           "the kernel " + w.describe() + " has no spatial axis '" + std::string(n.str()) +
                               "'; the kernel needs every spatial axis, sized as its window");
            wa = static_cast<std::size_t>(found);
        } else {
            wa = w.rank() - k + j;  // by index: the kernel's last axes, in x's order
        }
        p.w_spatial.push_back(wa);
        w_taken[wa] = true;
    }
    // Kept names must be in both.
    std::vector<name> kept_names;
    for (const Axis& a : keep) {
        if (!a.is_name())
            conv_error(errc::invalid_argument, op, ".keep lists names of axes in both x and w; got " + a.str());
        if (find_name(x.names(), a.name()) < 0 || find_name(w.names(), a.name()) < 0)
            conv_error(errc::axis_out_of_range, op,
                       ".keep names '" + std::string(a.name().str()) + "', which x " + x.describe() + " and w " +
                           w.describe() + " must both have");
        kept_names.push_back(a.name());
    }
    const bool torch_layout = all_unnamed(x) && all_unnamed(w);
    if (torch_layout) {
        if (w.rank() != k + 2 || p.x_spatial.front() == 0)
            conv_error(errc::invalid_argument, op,
                       "x " + x.describe() + " and w " + w.describe() +
                           " have no names, so they follow torch's layout: x (N, C, spatial...) and w " +
                           (transpose ? "(C, F, kernel...)" : "(F, C, kernel...)") +
                           "; name the axes (CHANNEL, FEATURE) for any other layout");
        const std::size_t channel = p.x_spatial.front() - 1;
        for (std::size_t a = 0; a < x.rank(); ++a)
            if (!x_taken[a]) (a == channel ? p.x_summed : p.x_batch).push_back(a);
        // torch's weights: conv's (out, in, kernel), conv_transpose's (in, out, kernel).
        p.w_summed.push_back(transpose ? 0 : 1);
        p.w_own.push_back(transpose ? 1 : 0);
    } else {
        for (std::size_t a = 0; a < w.rank(); ++a) {
            if (w_taken[a]) continue;
            const name n = w.names()[a];
            const std::int64_t in_x = n.has_value() ? find_name(x.names(), n) : -1;
            if (in_x >= 0 && x_taken[static_cast<std::size_t>(in_x)])
                conv_error(errc::invalid_argument, op, "the kernel's axis '" + std::string(n.str()) +
                                                           "' is a spatial axis of x that was not listed; list it "
                                                           "in the spatial axes or rename it");
            if (in_x < 0) p.w_own.push_back(a);
            else if (std::ranges::find(kept_names, n) != kept_names.end()) p.w_kept.push_back(a);
            else p.w_summed.push_back(a);
        }
        // Kept axes in x's order, summed axes in w's order: find each in x.
        for (std::size_t a = 0; a < x.rank(); ++a) {
            if (x_taken[a]) continue;
            const name n = x.names()[a];
            const bool kept = n.has_value() && std::ranges::find(kept_names, n) != kept_names.end();
            if (kept) p.x_kept.push_back(a);
            else if (!n.has_value() || !std::ranges::any_of(p.w_summed, [&](std::size_t wa) { return w.names()[wa] == n; }))
                p.x_batch.push_back(a);
        }
        for (std::size_t wa : p.w_summed)
            p.x_summed.push_back(static_cast<std::size_t>(find_name(x.names(), w.names()[wa])));
        // w's kept axes in x's order.
        p.w_kept.clear();
        for (std::size_t xa : p.x_kept)
            p.w_kept.push_back(static_cast<std::size_t>(find_name(w.names(), x.names()[xa])));
    }
    for (std::size_t i = 0; i < p.x_summed.size(); ++i)
        if (x.shape()[p.x_summed[i]] != w.shape()[p.w_summed[i]])
            conv_error(errc::incompatible_sizes, op,
                       "x's " + axis_text(x, p.x_summed[i]) + " has " + std::to_string(x.shape()[p.x_summed[i]]) +
                           " elements and w's " + std::to_string(w.shape()[p.w_summed[i]]) + " (x " + x.describe() +
                           ", w " + w.describe() + "); a summed axis has one size in both");
    for (std::size_t i = 0; i < p.x_kept.size(); ++i)
        if (x.shape()[p.x_kept[i]] != w.shape()[p.w_kept[i]])
            conv_error(errc::incompatible_sizes, op,
                       "the kept axis " + axis_text(x, p.x_kept[i]) + " has " + std::to_string(x.shape()[p.x_kept[i]]) +
                           " elements in x and " + std::to_string(w.shape()[p.w_kept[i]]) + " in w");
    return p;
}

/// A per-axis option list: empty (fill), one value for every axis, or one per axis in
/// the caller's order; returned in x's order.
spatial_dims per_axis(std::span<const std::int64_t> values, const conv_plan& p, std::int64_t fill,
                      std::int64_t minimum, std::string_view option, std::string_view op) {
    const std::size_t k = p.x_spatial.size();
    if (!values.empty() && values.size() != 1 && values.size() != k)
        conv_error(errc::invalid_argument, op,
                   std::string(option) + " has " + std::to_string(values.size()) + " values for " + std::to_string(k) +
                       " spatial axes; give one for every axis or one per axis");
    spatial_dims out(k, fill);
    for (std::size_t j = 0; j < k; ++j) {
        if (values.empty()) continue;
        out[j] = values.size() == 1 ? values[0] : values[p.given_order[j]];
        if (out[j] < minimum)
            conv_error(errc::invalid_argument, op,
                       std::string(option) + " " + std::to_string(out[j]) + " for a spatial axis; it must be at least " +
                           std::to_string(minimum));
    }
    return out;
}

std::vector<Axis> axes_of(std::initializer_list<const std::vector<std::size_t>*> groups) {
    std::vector<Axis> out;
    for (const auto* g : groups)
        for (std::size_t a : *g) out.emplace_back(static_cast<std::int64_t>(a));
    return out;
}

dims sizes_of(const tensor_base& t, const std::vector<std::size_t>& axes) {
    dims out;
    for (std::size_t a : axes) out.push_back(t.shape()[a]);
    return out;
}

/// The computation type of a convolution: the promoted floating type, half as float.
dtype compute_type(const tensor_base& x, const tensor_base& w, std::string_view op) {
    const dtype t = promote_types(x.type(), w.type());
    if (t != dtype::f16 && t != dtype::f32 && t != dtype::f64)
        conv_error(errc::type_mismatch, op,
                   "x " + x.describe() + " and w " + w.describe() + " give " + std::string(numpy_name(t)) +
                       "; convolutions take floating tensors (as torch's): convert first, e.g. x.astype<float>()");
    return t == dtype::f16 ? dtype::f32 : t;
}

/// x as (B, G, C, spatial...) and w as (G, F, C, kernel...) in the computation type.
struct canonical {
    any_tensor x, w;
};
canonical canonical_operands(const tensor_base& x, const tensor_base& w, const conv_plan& p, dtype type) {
    any_tensor cx = any_tensor(x).permute(axes_arg(axes_of({&p.x_batch, &p.x_kept, &p.x_summed, &p.x_spatial})));
    any_tensor cw = any_tensor(w).permute(axes_arg(axes_of({&p.w_kept, &p.w_own, &p.w_summed, &p.w_spatial})));
    dims xshape{product(sizes_of(x, p.x_batch).span()), product(sizes_of(x, p.x_kept).span()),
                product(sizes_of(x, p.x_summed).span())};
    dims wshape{product(sizes_of(w, p.w_kept).span()), product(sizes_of(w, p.w_own).span()),
                product(sizes_of(w, p.w_summed).span())};
    for (std::size_t j = 0; j < p.x_spatial.size(); ++j) {
        xshape.push_back(x.shape()[p.x_spatial[j]]);
        wshape.push_back(w.shape()[p.w_spatial[j]]);
    }
    if (cx.dtype() != type) cx = cx.astype(type);
    if (cw.dtype() != type) cw = cw.astype(type);
    cx = cx.contiguous().reshape(shape_arg(xshape.span()), names_arg{});
    cw = cw.contiguous().reshape(shape_arg(wshape.span()), names_arg{});
    return {cx, cw};
}

/// The canonical result (B, G, F, spatial...) as the named result: x's batch and kept
/// axes in x's order, w's own axes, the spatial axes in x's order.
tensor_base named_result(const any_tensor& y, const tensor_base& x, const tensor_base& w, const conv_plan& p,
                         const std::optional<any_tensor>& bias, dtype result_type, std::string_view op) {
    any_tensor r = y;
    const std::size_t k = p.x_spatial.size();
    if (bias) {
        // The bias over w's own axes (or its kept and own axes), as (1, G, F, 1...).
        const dims own = sizes_of(w, p.w_own), kept = sizes_of(w, p.w_kept);
        const std::int64_t features = product(own.span()), groups = product(kept.span());
        const std::int64_t n = bias->size();
        if (n != features && n != features * groups)
            conv_error(errc::incompatible_sizes, op,
                       "the bias " + bias->base().describe() + " has " + std::to_string(n) + " elements; it is one " +
                           "value per output feature (w's own axes, " + std::to_string(features) +
                           " values) or per kept and own axes (" + std::to_string(features * groups) + ")");
        dims shape{1, n == features ? 1 : groups, features};
        for (std::size_t j = 0; j < k; ++j) shape.push_back(1);
        any_tensor b = bias->dtype() == r.dtype() ? *bias : bias->astype(r.dtype());
        r = r + b.contiguous().reshape(shape_arg(shape.span()), names_arg{});
    }
    // Unmerge: (batch sizes..., kept sizes..., own sizes..., spatial...) with names.
    dims shape;
    name_list names;
    for (std::size_t a : p.x_batch) { shape.push_back(x.shape()[a]); names.push_back(x.names()[a]); }
    for (std::size_t a : p.x_kept) { shape.push_back(x.shape()[a]); names.push_back(x.names()[a]); }
    for (std::size_t a : p.w_own) { shape.push_back(w.shape()[a]); names.push_back(w.names()[a]); }
    for (std::size_t j = 0; j < k; ++j) {
        shape.push_back(r.shape()[3 + j]);
        names.push_back(x.names()[p.x_spatial[j]]);
    }
    check_unique_names(names.span(), op);
    r = r.reshape(shape_arg(shape.span()), names_arg(names.span()));
    // Batch and kept axes back in x's order.
    std::vector<std::size_t> lead(p.x_batch);
    lead.insert(lead.end(), p.x_kept.begin(), p.x_kept.end());
    std::vector<std::size_t> by_x(lead.size());
    std::iota(by_x.begin(), by_x.end(), 0);
    std::sort(by_x.begin(), by_x.end(), [&](std::size_t a, std::size_t b) { return lead[a] < lead[b]; });
    std::vector<Axis> perm;
    for (std::size_t i : by_x) perm.emplace_back(static_cast<std::int64_t>(i));
    for (std::size_t i = lead.size(); i < shape.size(); ++i) perm.emplace_back(static_cast<std::int64_t>(i));
    r = r.permute(axes_arg(perm)).contiguous();
    if (r.dtype() != result_type) r = r.astype(result_type);
    return r.base();
}

}  // namespace

tensor_base conv(const tensor_base& x, const tensor_base& w, std::span<const Axis> axes, const conv_options& options) {
    constexpr std::string_view op = "conv";
    const dtype result_type = promote_types(x.type(), w.type());
    const dtype type = compute_type(x, w, op);
    const conv_plan p = plan_conv(x, w, axes, options.keep, false, op);
    const std::size_t k = p.x_spatial.size();
    conv_geometry geo{per_axis(options.stride.span(), p, 1, 1, ".stride", op),
                      per_axis(options.dilation.span(), p, 1, 1, ".dilation", op)};
    canonical c = canonical_operands(x, w, p, type);
    // Padding, per spatial axis in x's order.
    std::vector<pad_width> widths;
    const auto kernel = c.w.shape().subspan(3);
    if (options.padding.kind() == padding::rule::same) {
        for (std::size_t j = 0; j < k; ++j) {
            if (geo.stride[j] != 1)
                conv_error(errc::invalid_argument, op,
                           "padding 'same' with a stride of " + std::to_string(geo.stride[j]) + " along " +
                               axis_text(x, p.x_spatial[j]) +
                               "; torch refuses it too: give the widths, or stride 1");
            const std::int64_t total = geo.dilation[j] * (kernel[j] - 1);
            widths.push_back({Axis(static_cast<std::int64_t>(3 + j)), {total / 2, total - total / 2}});
        }
    } else if (options.padding.kind() == padding::rule::widths) {
        const auto given = options.padding.widths();
        if (given.size() != 1 && given.size() != k)
            conv_error(errc::invalid_argument, op,
                       ".padding has " + std::to_string(given.size()) + " pairs for " + std::to_string(k) +
                           " spatial axes; give one for every axis or one per axis");
        for (std::size_t j = 0; j < k; ++j) {
            const pad_amount a = given.size() == 1 ? given[0] : given[p.given_order[j]];
            if (a.before < 0 || a.after < 0)
                conv_error(errc::invalid_argument, op, ".padding {" + std::to_string(a.before) + ", " +
                                                           std::to_string(a.after) + "} is negative");
            widths.push_back({Axis(static_cast<std::int64_t>(3 + j)), a});
        }
    }
    if (std::ranges::any_of(widths, [](const pad_width& pw) { return pw.widths.before + pw.widths.after > 0; })) {
        const std::uint64_t zero = 0;
        c.x = any_tensor(detail::pad(c.x.base(), widths, options.pad_mode, &zero));
    }
    for (std::size_t j = 0; j < k; ++j) {
        const std::int64_t span = geo.dilation[j] * (kernel[j] - 1) + 1, size = c.x.shape()[3 + j];
        if (kernel[j] < 1 || span > size)
            conv_error(errc::invalid_argument, op,
                       "along " + axis_text(x, p.x_spatial[j]) + " the kernel spans " + std::to_string(span) +
                           " elements (size " + std::to_string(kernel[j]) + ", dilation " +
                           std::to_string(geo.dilation[j]) + ") but the padded input has " + std::to_string(size) +
                           " (x " + x.describe() + "); pad more or use a smaller kernel");
    }
    const any_tensor y(conv_forward(c.x.base(), c.w.base(), geo));
    return named_result(y, x, w, p, options.bias, result_type, op);
}

tensor_base conv_transpose(const tensor_base& x, const tensor_base& w, std::span<const Axis> axes,
                           const conv_transpose_options& options) {
    constexpr std::string_view op = "conv_transpose";
    const dtype result_type = promote_types(x.type(), w.type());
    const dtype type = compute_type(x, w, op);
    const conv_plan p = plan_conv(x, w, axes, options.keep, true, op);
    const std::size_t k = p.x_spatial.size();
    conv_geometry geo{per_axis(options.stride.span(), p, 1, 1, ".stride", op),
                      per_axis(options.dilation.span(), p, 1, 1, ".dilation", op)};
    const spatial_dims pads = per_axis(options.padding.span(), p, 0, 0, ".padding", op);
    const spatial_dims extra = per_axis(options.output_padding.span(), p, 0, 0, ".output_padding", op);
    // The canonical kernel is (G, summed, own, K): the summed axis is the gradient's F.
    canonical c = canonical_operands(x, w, p, type);
    {
        // canonical_operands put w as (kept, own, summed, spatial): exchange own and summed.
        small_vector<Axis, 8> perm{Axis(0), Axis(2), Axis(1)};
        for (std::size_t j = 0; j < k; ++j) perm.push_back(Axis(static_cast<std::int64_t>(3 + j)));
        c.w = c.w.permute(axes_arg(perm.span())).contiguous();
    }
    const auto kernel = c.w.shape().subspan(3);
    dims full;
    for (std::size_t j = 0; j < k; ++j) {
        if (extra[j] >= std::max(geo.stride[j], geo.dilation[j]))
            conv_error(errc::invalid_argument, op,
                       ".output_padding " + std::to_string(extra[j]) + " along " + axis_text(x, p.x_spatial[j]) +
                           " must be smaller than the stride or the dilation (" +
                           std::to_string(std::max(geo.stride[j], geo.dilation[j])) + "), as torch requires");
        const std::int64_t n = c.x.shape()[3 + j];
        full.push_back((n - 1) * geo.stride[j] + geo.dilation[j] * (kernel[j] - 1) + 1 + extra[j]);
        if (n < 1 || full.back() - 2 * pads[j] < 1)
            conv_error(errc::invalid_argument, op,
                       "along " + axis_text(x, p.x_spatial[j]) + " the result would have " +
                           std::to_string(full.back() - 2 * pads[j]) + " elements (input " + std::to_string(n) +
                           ", padding " + std::to_string(pads[j]) + "); reduce the padding");
    }
    any_tensor y(conv_input_grad(c.x.base(), c.w.base(), geo, full));
    for (std::size_t j = 0; j < k; ++j)
        if (pads[j] > 0) y = y.slice(Axis(static_cast<std::int64_t>(3 + j)), pads[j], full[j] - pads[j]);
    // named_result reads w's own axes as the made ones: for the transpose they are w's
    // own axes too (the summed axis pairs with x's).
    return named_result(y.contiguous(), x, w, p, options.bias, result_type, op);
}

tensor_base correlate(const tensor_base& x, const tensor_base& kernel, std::span<const Axis> axes, boundary mode,
                      double cval, bool convolution) {
    const std::string_view op = convolution ? "convolve" : "correlate";
    const auto given = spatial_axes(x, axes_arg(axes), op);
    const std::size_t k = given.size();
    if (kernel.rank() != k)
        conv_error(errc::invalid_argument, op,
                   "the kernel " + kernel.describe() + " has " + std::to_string(kernel.rank()) + " axes for " +
                       std::to_string(k) + " spatial axes; it has exactly the spatial axes");
    // The kernel's axis for each given spatial axis: by name when the kernel is named.
    std::vector<std::size_t> k_axis(k);
    for (std::size_t i = 0; i < k; ++i) {
        if (!all_unnamed(kernel) && x.names()[given[i]].has_value()) {
            const std::int64_t found = find_name(kernel.names(), x.names()[given[i]]);
            if (found < 0)
                conv_error(errc::axis_out_of_range, op,
                           "the kernel " + kernel.describe() + " has no axis '" +
                               std::string(x.names()[given[i]].str()) + "'");
            k_axis[i] = static_cast<std::size_t>(found);
        } else {
            k_axis[i] = i;
        }
    }
    // x with its spatial axes last (in x's order), merged into (B, 1, 1, S...).
    std::vector<std::size_t> sorted(given.begin(), given.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<Axis> perm;
    dims batch_shape;
    for (std::size_t a = 0; a < x.rank(); ++a)
        if (std::ranges::find(sorted, a) == sorted.end()) {
            perm.emplace_back(static_cast<std::int64_t>(a));
            batch_shape.push_back(x.shape()[a]);
        }
    std::vector<Axis> kperm;
    dims cx_shape{product(batch_shape.span()), 1, 1}, ck_shape{1, 1, 1};
    std::vector<pad_width> widths;
    for (std::size_t j = 0; j < k; ++j) {
        perm.emplace_back(static_cast<std::int64_t>(sorted[j]));
        const std::size_t i = static_cast<std::size_t>(std::ranges::find(given, sorted[j]) - given.begin());
        kperm.emplace_back(static_cast<std::int64_t>(k_axis[i]));
        const std::int64_t n = kernel.shape()[k_axis[i]];
        if (n < 1)
            conv_error(errc::invalid_argument, op, "the kernel " + kernel.describe() + " is empty along " +
                                                       axis_text(x, sorted[j]));
        cx_shape.push_back(x.shape()[sorted[j]]);
        ck_shape.push_back(n);
        // scipy: the window of output i starts at i - n / 2 (origin 0); convolve mirrors
        // the kernel and, for an even size, starts one later.
        const std::int64_t before = n / 2 - (convolution && n % 2 == 0 ? 1 : 0);
        widths.push_back({Axis(static_cast<std::int64_t>(3 + j)), {before, n - 1 - before}});
    }
    const bool floating = x.type() == dtype::f16 || x.type() == dtype::f32 || x.type() == dtype::f64;
    any_tensor cx = any_tensor(x).permute(axes_arg(perm)).astype(dtype::f64);
    any_tensor ck = any_tensor(kernel).permute(axes_arg(kperm)).astype(dtype::f64);
    if (convolution) {
        std::vector<Axis> all;
        for (std::size_t j = 0; j < k; ++j) all.emplace_back(static_cast<std::int64_t>(j));
        ck = ck.flip(axes_arg(all));
    }
    cx = cx.contiguous().reshape(shape_arg(cx_shape.span()), names_arg{});
    ck = ck.contiguous().reshape(shape_arg(ck_shape.span()), names_arg{});
    if (cx.size() != 0) {
        static constexpr pad_mode as_pad[] = {pad_mode::symmetric, pad_mode::constant, pad_mode::edge,
                                              pad_mode::reflect, pad_mode::wrap};
        cx = any_tensor(detail::pad(cx.base(), widths, as_pad[static_cast<int>(mode)], &cval));
    }
    const conv_geometry geo{spatial_dims(k, 1), spatial_dims(k, 1)};
    any_tensor y = cx.size() == 0 ? cx : any_tensor(conv_forward(cx.base(), ck.base(), geo));
    // Back to x's layout: (batch..., spatial...) then x's order.
    dims shape(batch_shape);
    name_list names;
    for (const Axis& a : perm) names.push_back(x.names()[static_cast<std::size_t>(a.index())]);
    for (std::size_t j = 0; j < k; ++j) shape.push_back(x.shape()[sorted[j]]);
    y = y.reshape(shape_arg(shape.span()), names_arg(names.span()));
    std::vector<Axis> back(x.rank(), Axis(0));
    for (std::size_t i = 0; i < perm.size(); ++i) back[static_cast<std::size_t>(perm[i].index())] = Axis(static_cast<std::int64_t>(i));
    y = y.permute(axes_arg(back)).contiguous();
    if (floating) return y.dtype() == x.type() ? y.base() : y.astype(x.type()).base();
    // Integer images: scipy's conversion of each double result.
    tensor_base out = tensor_base::allocate(x.type(), x.shape(), x.names(), op);
    const double* src = reinterpret_cast<const double*>(y.base().data());
    visit_dtype(x.type(), [&](auto t) {
        using T = typename decltype(t)::type;
        T* dst = reinterpret_cast<T*>(out.data());
        for (std::int64_t i = 0; i < out.size(); ++i) {
            if constexpr (std::is_same_v<T, bool>) dst[i] = imaging::truncate_to<std::uint8_t>(src[i]) != 0;
            else if constexpr (std::is_integral_v<T>) dst[i] = imaging::truncate_to<T>(src[i]);
            else dst[i] = static_cast<T>(src[i]);
        }
    });
    return out;
}

}  // namespace nt::detail
