// Pooling and resampling over named spatial axes (<nt/pooling.hpp>).
//
// Every operation here works on one layout: x's batch axes first, then its spatial
// axes in x's stored order, C-contiguous, seen as (B, S0, ..., Sk-1). The listed order
// of the axes only decides which per-axis option goes where, so the result does not
// depend on it; the result is brought back to x's axis order at the end.
//
// avg_pool, resize and zoom are separable linear maps: per spatial axis, each output
// position reads a few input positions with weights (a tap table). One kernel applies
// any product of tap tables (all the outer axes combined into one row, then a gather
// along the contiguous last axis); its adjoint scatters axis by axis. The backward of
// the map is its adjoint and the backward of the adjoint is the map, each recorded
// when its input is in a graph, so gradients of gradients follow. max_pool records
// the argmax scatter and its gather the same way.
#include "nt/pooling.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "graph.hpp"
#include "nt/detail/grad_hooks.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/error.hpp"
#include "nt/threads.hpp"
#include "spatial.hpp"

namespace nt::detail {
namespace {

bool floating(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

std::string axis_text(const tensor_base& x, std::size_t a) {
    const auto names = x.names();
    if (a < names.size() && names[a].has_value()) return "'" + std::string(names[a].str()) + "'";
    return std::to_string(a);
}

// ---------------------------------------------------------------------------------
// The working layout.

struct geometry {
    small_vector<std::size_t, 6> pos;     // spatial positions in x, ascending
    small_vector<std::size_t, 6> listed;  // listed[i]: the place of pos[i] in the caller's list
    small_vector<Axis, 8> perm;           // batch axes, then the spatial ones
    small_vector<Axis, 8> inverse;
    dims batch_shape;
    name_list work_names;  // the names in the working order
    std::int64_t batch = 1;
    dims in;  // spatial sizes, ascending order
};

geometry plan_geometry(const tensor_base& x, std::span<const Axis> axes, std::string_view op) {
    const auto given = imaging::spatial_axes(x, axes, op);
    geometry g;
    small_vector<std::size_t, 6> order(given.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return given[a] < given[b]; });
    for (std::size_t i : order) {
        g.pos.push_back(given[i]);
        g.listed.push_back(i);
        g.in.push_back(x.shape()[given[i]]);
    }
    const std::size_t r = x.rank();
    std::vector<bool> spatial(r, false);
    for (std::size_t p : g.pos) spatial[p] = true;
    const auto names = x.names();
    for (std::size_t a = 0; a < r; ++a)
        if (!spatial[a]) {
            g.perm.push_back(Axis(static_cast<std::int64_t>(a)));
            g.batch_shape.push_back(x.shape()[a]);
            g.batch *= x.shape()[a];
        }
    for (std::size_t p : g.pos) g.perm.push_back(Axis(static_cast<std::int64_t>(p)));
    dims inverse(r);
    for (std::size_t i = 0; i < r; ++i) {
        const auto a = static_cast<std::size_t>(g.perm[i].index());
        inverse[a] = static_cast<std::int64_t>(i);
        g.work_names.push_back(a < names.size() ? names[a] : name{});
    }
    for (std::int64_t i : inverse) g.inverse.push_back(Axis(i));
    return g;
}

// `t` (shaped as x or as the result, x's axis order) in the working layout, outside
// any graph.
tensor_base to_work(const tensor_base& t, const geometry& g) {
    tensor_base w = t.without_grad_node().permute(g.perm);
    if (!w.is_contiguous()) w = w.clone();
    return w;
}

tensor_base new_work(dtype d, const geometry& g, std::span<const std::int64_t> spatial, std::string_view op) {
    dims shape = g.batch_shape;
    for (std::int64_t s : spatial) shape.push_back(s);
    return tensor_base::allocate(d, shape.span(), g.work_names.span(), op);
}

tensor_base from_work(const tensor_base& w, const geometry& g) {
    tensor_base r = w.permute(g.inverse);
    if (!r.is_contiguous()) r = r.clone();
    return r;
}

// One value per spatial axis (ascending order) from a list of none (the default),
// one, or one per listed axis.
dims per_axis(std::span<const std::int64_t> v, const geometry& g, std::int64_t fallback, const char* what,
              std::string_view op) {
    const std::size_t k = g.pos.size();
    if (v.size() > 1 && v.size() != k)
        throw_error(errc::invalid_argument, std::string(op) + ": " + what + " has " + std::to_string(v.size()) +
                                                " values for " + std::to_string(k) +
                                                " spatial axes; give one value, or one per axis");
    dims out;
    for (std::size_t i = 0; i < k; ++i)
        out.push_back(v.empty() ? fallback : v.size() == 1 ? v[0] : v[g.listed[i]]);
    return out;
}

std::vector<double> per_axis_factors(std::span<const double> v, const geometry& g, std::string_view op) {
    const std::size_t k = g.pos.size();
    if (v.empty() || (v.size() > 1 && v.size() != k))
        throw_error(errc::invalid_argument, std::string(op) + ": " + std::to_string(v.size()) + " factors for " +
                                                std::to_string(k) +
                                                " spatial axes; give one factor, or one per axis");
    std::vector<double> out;
    for (std::size_t i = 0; i < k; ++i) out.push_back(v.size() == 1 ? v[0] : v[g.listed[i]]);
    return out;
}

// ---------------------------------------------------------------------------------
// Separable linear maps.

struct axis_taps {
    std::int64_t in = 0, out = 0, n = 0;  // sizes, taps per output
    std::vector<std::int64_t> idx;        // out * n input positions; -1: the constant
    std::vector<double> w;                // out * n weights
};

struct separable_map {
    std::string op;
    geometry geo;
    std::vector<axis_taps> taps;  // ascending spatial order
};
using map_ptr = std::shared_ptr<const separable_map>;

template <class C>
struct typed_taps {
    std::int64_t in, out, n;
    const std::int64_t* idx;
    std::vector<C> w;
};

// out (B, O...) = the map applied to in (B, S...), the constant reading `cval`.
template <class C>
void forward_kernel(const C* src, C* dst, const separable_map& m, C cval) {
    const std::size_t k = m.taps.size();
    std::vector<typed_taps<C>> t;
    for (const axis_taps& a : m.taps) {
        typed_taps<C> tt{a.in, a.out, a.n, a.idx.data(), {}};
        tt.w.assign(a.w.begin(), a.w.end());
        t.push_back(std::move(tt));
    }
    std::int64_t in_block = 1, out_rows = m.geo.batch;
    small_vector<std::int64_t, 6> in_stride(k);
    for (std::size_t a = k; a-- > 0;) {
        in_stride[a] = in_block;
        in_block *= t[a].in;
    }
    for (std::size_t a = 0; a + 1 < k; ++a) out_rows *= t[a].out;
    const typed_taps<C>& last = t[k - 1];
    const std::int64_t n_in = last.in, n_out = last.out, nt_last = last.n;
    if (out_rows == 0 || n_out == 0) return;
    std::int64_t combos = 1;
    for (std::size_t a = 0; a + 1 < k; ++a) combos *= t[a].n;
    auto rows = [&](std::int64_t r0, std::int64_t r1) {
        std::vector<C> temp(static_cast<std::size_t>(n_in));
        small_vector<std::int64_t, 6> o(k), tap(k);
        for (std::int64_t r = r0; r < r1; ++r) {
            std::int64_t rest = r;
            for (std::size_t a = k - 1; a-- > 0;) {
                o[a] = rest % t[a].out;
                rest /= t[a].out;
            }
            const C* base = src + rest * in_block;
            const C* row = nullptr;
            // The outer axes' taps combined into one input row.
            if (k == 1) {
                row = base;
            } else {
                std::fill(tap.begin(), tap.end(), 0);
                bool first = true;
                for (std::int64_t c = 0; c < combos; ++c) {
                    C weight = 1;
                    std::int64_t off = 0;
                    bool constant = false;
                    for (std::size_t a = 0; a + 1 < k; ++a) {
                        const std::int64_t e = o[a] * t[a].n + tap[a];
                        weight *= t[a].w[static_cast<std::size_t>(e)];
                        const std::int64_t i = t[a].idx[e];
                        if (i < 0) constant = true;
                        else off += i * in_stride[a];
                    }
                    if (combos == 1 && weight == C(1) && !constant) {
                        row = base + off;
                    } else {
                        C* tp = temp.data();
                        if (constant) {
                            const C v = weight * cval;
                            if (first) for (std::int64_t i = 0; i < n_in; ++i) tp[i] = v;
                            else for (std::int64_t i = 0; i < n_in; ++i) tp[i] += v;
                        } else {
                            const C* s = base + off;
                            if (first) for (std::int64_t i = 0; i < n_in; ++i) tp[i] = weight * s[i];
                            else for (std::int64_t i = 0; i < n_in; ++i) tp[i] += weight * s[i];
                        }
                        row = tp;
                    }
                    first = false;
                    for (std::size_t a = k - 1; a-- > 0;) {  // the next combination, odometer order
                        if (++tap[a] < t[a].n) break;
                        tap[a] = 0;
                    }
                }
            }
            C* out = dst + r * n_out;
            const std::int64_t* ix = last.idx;
            const C* w = last.w.data();
            if (nt_last == 1) {
                for (std::int64_t j = 0; j < n_out; ++j) out[j] = ix[j] < 0 ? cval * w[j] : w[j] * row[ix[j]];
            } else if (nt_last == 2 && cval == C(0)) {
                for (std::int64_t j = 0; j < n_out; ++j) {
                    const std::int64_t a = ix[2 * j], b = ix[2 * j + 1];
                    out[j] = (a < 0 ? C(0) : w[2 * j] * row[a]) + (b < 0 ? C(0) : w[2 * j + 1] * row[b]);
                }
            } else {
                for (std::int64_t j = 0; j < n_out; ++j) {
                    C acc = 0;
                    for (std::int64_t q = 0; q < nt_last; ++q) {
                        const std::int64_t i = ix[j * nt_last + q];
                        acc += w[j * nt_last + q] * (i < 0 ? cval : row[i]);
                    }
                    out[j] = acc;
                }
            }
        }
    };
    if (want_parallel(out_rows * n_out * (nt_last + combos))) parallel_for(out_rows, rows);
    else rows(0, out_rows);
}

// One axis of the adjoint: src (outer, out, inner) scattered into dst (outer, in, inner).
template <class C>
void adjoint_axis(const C* src, C* dst, std::int64_t outer, std::int64_t inner, const axis_taps& a) {
    std::vector<C> w(a.w.begin(), a.w.end());
    auto part = [&](std::int64_t o0, std::int64_t o1) {
        for (std::int64_t o = o0; o < o1; ++o) {
            C* d = dst + o * a.in * inner;
            std::fill(d, d + a.in * inner, C(0));
            const C* s = src + o * a.out * inner;
            for (std::int64_t j = 0; j < a.out; ++j)
                for (std::int64_t q = 0; q < a.n; ++q) {
                    const std::int64_t i = a.idx[j * a.n + q];
                    if (i < 0) continue;
                    const C wq = w[static_cast<std::size_t>(j * a.n + q)];
                    C* di = d + i * inner;
                    const C* sj = s + j * inner;
                    for (std::int64_t e = 0; e < inner; ++e) di[e] += wq * sj[e];
                }
        }
    };
    if (want_parallel(outer * a.out * a.n * inner) && outer > 1) parallel_for(outer, part);
    else part(0, outer);
}

// The compute type of a floating dtype: half is computed in float.
template <class F>
void on_compute_type(dtype d, F&& f) {
    if (d == dtype::f64) f(std::type_identity<double>{});
    else f(std::type_identity<float>{});
}

any_tensor map_adjoint(const any_tensor& g, const map_ptr& m);

// The map applied to `x` (shaped as the map's input, x's axis order, floating).
any_tensor map_forward(const any_tensor& x, const map_ptr& m, double cval) {
    const geometry& geo = m->geo;
    const dtype d = x.dtype();
    const dtype c = d == dtype::f64 ? dtype::f64 : dtype::f32;
    tensor_base in = to_work(x.base(), geo);
    if (in.type() != c) in = any_tensor(in).astype(c).base();
    dims outs;
    for (const axis_taps& a : m->taps) outs.push_back(a.out);
    tensor_base out = new_work(c, geo, outs.span(), m->op);
    on_compute_type(c, [&](auto type) {
        using C = typename decltype(type)::type;
        forward_kernel<C>(reinterpret_cast<const C*>(in.data()), reinterpret_cast<C*>(out.data()), *m,
                          static_cast<C>(cval));
    });
    if (out.type() != d) out = any_tensor(out).astype(d).base();
    tensor_base r = from_work(out, geo);
    if (records(x.base()) && floating(d))
        attach_node(m->op, r, {&x.base()}, [m](const any_tensor& gr) -> input_gradients { return {map_adjoint(gr, m)}; });
    return any_tensor(std::move(r));
}

any_tensor map_adjoint(const any_tensor& g, const map_ptr& m) {
    const geometry& geo = m->geo;
    const dtype d = g.dtype();
    const dtype c = d == dtype::f64 ? dtype::f64 : dtype::f32;
    tensor_base cur = to_work(g.base(), geo);
    if (cur.type() != c) cur = any_tensor(cur).astype(c).base();
    const std::size_t k = m->taps.size();
    dims sizes;
    for (const axis_taps& a : m->taps) sizes.push_back(a.out);
    for (std::size_t a = 0; a < k; ++a) {
        std::int64_t outer = geo.batch, inner = 1;
        for (std::size_t b = 0; b < a; ++b) outer *= sizes[b];
        for (std::size_t b = a + 1; b < k; ++b) inner *= sizes[b];
        sizes[a] = m->taps[a].in;
        tensor_base next = new_work(c, geo, sizes.span(), m->op);
        on_compute_type(c, [&](auto type) {
            using C = typename decltype(type)::type;
            adjoint_axis<C>(reinterpret_cast<const C*>(cur.data()), reinterpret_cast<C*>(next.data()), outer, inner,
                            m->taps[a]);
        });
        cur = std::move(next);
    }
    if (cur.type() != d) cur = any_tensor(cur).astype(d).base();
    tensor_base r = from_work(cur, geo);
    if (records(g.base()))
        attach_node(m->op + " backward", r, {&g.base()},
                    [m](const any_tensor& gg) -> input_gradients { return {map_forward(gg, m, 0.0)}; });
    return any_tensor(std::move(r));
}

// ---------------------------------------------------------------------------------
// Pooling.

struct pool_plan {
    geometry geo;
    dims size, stride, pad, dil, out;
};

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

pool_plan plan_pool(const tensor_base& x, std::span<const Axis> axes, std::span<const std::int64_t> sizes,
                    const pool_options& o, bool max, std::string_view op) {
    pool_plan p;
    p.geo = plan_geometry(x, axes, op);
    const std::size_t k = p.geo.pos.size();
    if (k > 3)
        throw_error(errc::invalid_argument, std::string(op) + ": " + std::to_string(k) +
                                                " spatial axes; pooling works over 1, 2 or 3 axes (as torch's "
                                                "pool1d/2d/3d)");
    if (sizes.empty())
        throw_error(errc::invalid_argument, std::string(op) + ": no window size given; give one size, or one per axis");
    p.size = per_axis(sizes, p.geo, 1, "the window size", op);
    p.stride = per_axis(o.stride.span(), p.geo, -1, "stride", op);
    p.pad = per_axis(o.padding.span(), p.geo, 0, "padding", op);
    if (!max && !o.dilation.empty())
        throw_error(errc::invalid_argument, std::string(op) + ": dilation is max_pool's option (torch's avg_pool has none)");
    p.dil = per_axis(o.dilation.span(), p.geo, 1, "dilation", op);
    for (std::size_t i = 0; i < k; ++i) {
        const std::string axis = axis_text(x, p.geo.pos[i]);
        if (o.stride.empty()) p.stride[i] = p.size[i];
        if (p.size[i] < 1)
            throw_error(errc::invalid_argument, std::string(op) + ": window size " + std::to_string(p.size[i]) +
                                                    " along axis " + axis + "; give a size of at least 1");
        if (p.stride[i] < 1)
            throw_error(errc::invalid_argument, std::string(op) + ": stride " + std::to_string(p.stride[i]) +
                                                    " along axis " + axis + "; give a stride of at least 1");
        if (p.dil[i] < 1)
            throw_error(errc::invalid_argument, std::string(op) + ": dilation " + std::to_string(p.dil[i]) +
                                                    " along axis " + axis + "; give a dilation of at least 1");
        const std::int64_t extent = (p.size[i] - 1) * p.dil[i] + 1;
        // torch bounds the padding by the window's size, not its dilated extent.
        const std::int64_t half = p.size[i] / 2;
        if (p.pad[i] < 0 || p.pad[i] > half)
            throw_error(errc::invalid_argument, std::string(op) + ": padding " + std::to_string(p.pad[i]) +
                                                    " along axis " + axis + " with a window of " +
                                                    std::to_string(p.size[i]) + "; padding must be between 0 and " +
                                                    std::to_string(half) + " (half the window)");
        const std::int64_t n = p.geo.in[i];
        // torch's avg_pool3d (alone) refuses an input smaller than the window, padding or not.
        if (!max && k == 3 && n < p.size[i])
            throw_error(errc::invalid_argument, std::string(op) + ": axis " + axis + " of size " + std::to_string(n) +
                                                    " is smaller than the window (" + std::to_string(p.size[i]) +
                                                    "), which torch's avg_pool3d refuses; use a smaller window");
        std::int64_t out =
            floor_div(n + 2 * p.pad[i] - extent + (o.ceil_mode ? p.stride[i] - 1 : 0), p.stride[i]) + 1;
        if (o.ceil_mode && (out - 1) * p.stride[i] >= n + p.pad[i]) --out;
        if (out < 1)
            throw_error(errc::invalid_argument,
                        std::string(op) + ": axis " + axis + " of size " + std::to_string(n) +
                            " is smaller than the window (size " + std::to_string(p.size[i]) + ", dilation " +
                            std::to_string(p.dil[i]) + ", padding " + std::to_string(p.pad[i]) +
                            "): the output would be empty; use a smaller window or more padding");
        p.out.push_back(out);
    }
    return p;
}

// Max pooling on (B, D, H, W) (unit axes in front for fewer than 3 spatial axes).
template <class T>
void max_pool_kernel(const T* src, T* dst, std::int64_t* where, std::int64_t B, const std::int64_t* in,
                     const std::int64_t* out, const std::int64_t* ks, const std::int64_t* st, const std::int64_t* pd,
                     const std::int64_t* dl) {
    const std::int64_t plane = in[0] * in[1] * in[2];
    const std::int64_t rows = B * out[0] * out[1];
    // Windows along W, precomputed: [start, end) with the dilation's step.
    std::vector<std::int64_t> w0(static_cast<std::size_t>(out[2])), w1(static_cast<std::size_t>(out[2]));
    for (std::int64_t ow = 0; ow < out[2]; ++ow) {
        std::int64_t s = ow * st[2] - pd[2];
        const std::int64_t e = std::min(s + (ks[2] - 1) * dl[2] + 1, in[2]);
        while (s < 0) s += dl[2];
        w0[static_cast<std::size_t>(ow)] = s;
        w1[static_cast<std::size_t>(ow)] = e;
    }
    constexpr T lowest =
        std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    // A NaN wins (torch's `v > best || isnan(v)`); written as a select so it vectorizes.
    auto pick = [](T best, T v) {
        if constexpr (std::is_floating_point_v<T>) return (v > best || v != v) ? v : best;
        else return v > best ? v : best;
    };
    if (!where) {
        // Without positions the window's maximum is separable: the D x H window's rows
        // combined element-wise (contiguous, vectorized), then the W windows of that row.
        auto rows_part = [&](std::int64_t r0, std::int64_t r1) {
            std::vector<T> temp(static_cast<std::size_t>(in[2]));
            for (std::int64_t r = r0; r < r1; ++r) {
                const std::int64_t oh = r % out[1], od = (r / out[1]) % out[0], b = r / (out[0] * out[1]);
                std::int64_t d0 = od * st[0] - pd[0];
                const std::int64_t d1 = std::min(d0 + (ks[0] - 1) * dl[0] + 1, in[0]);
                while (d0 < 0) d0 += dl[0];
                std::int64_t h0 = oh * st[1] - pd[1];
                const std::int64_t h1 = std::min(h0 + (ks[1] - 1) * dl[1] + 1, in[1]);
                while (h0 < 0) h0 += dl[1];
                const T* s = src + b * plane;
                T* tp = temp.data();
                std::fill(tp, tp + in[2], lowest);
                for (std::int64_t id = d0; id < d1; id += dl[0])
                    for (std::int64_t ih = h0; ih < h1; ih += dl[1]) {
                        const T* line = s + (id * in[1] + ih) * in[2];
                        for (std::int64_t i = 0; i < in[2]; ++i) tp[i] = pick(tp[i], line[i]);
                    }
                T* o = dst + r * out[2];
                if (ks[2] == 2 && st[2] == 2 && dl[2] == 1 && pd[2] == 0 && 2 * out[2] <= in[2]) {
                    for (std::int64_t ow = 0; ow < out[2]; ++ow) o[ow] = pick(tp[2 * ow], tp[2 * ow + 1]);
                } else {
                    for (std::int64_t ow = 0; ow < out[2]; ++ow) {
                        T best = lowest;
                        const std::int64_t we = w1[static_cast<std::size_t>(ow)];
                        for (std::int64_t iw = w0[static_cast<std::size_t>(ow)]; iw < we; iw += dl[2])
                            best = pick(best, tp[iw]);
                        o[ow] = best;
                    }
                }
            }
        };
        if (want_parallel(rows * in[2] * ks[0] * ks[1])) parallel_for(rows, rows_part);
        else rows_part(0, rows);
        return;
    }
    auto part = [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r) {
            const std::int64_t oh = r % out[1], od = (r / out[1]) % out[0], b = r / (out[0] * out[1]);
            std::int64_t d0 = od * st[0] - pd[0];
            const std::int64_t d1 = std::min(d0 + (ks[0] - 1) * dl[0] + 1, in[0]);
            while (d0 < 0) d0 += dl[0];
            std::int64_t h0 = oh * st[1] - pd[1];
            const std::int64_t h1 = std::min(h0 + (ks[1] - 1) * dl[1] + 1, in[1]);
            while (h0 < 0) h0 += dl[1];
            const T* s = src + b * plane;
            T* o = dst + r * out[2];
            std::int64_t* wo = where ? where + r * out[2] : nullptr;
            for (std::int64_t ow = 0; ow < out[2]; ++ow) {
                const std::int64_t ws = w0[static_cast<std::size_t>(ow)], we = w1[static_cast<std::size_t>(ow)];
                T best = lowest;
                std::int64_t at = (d0 * in[1] + h0) * in[2] + ws;
                for (std::int64_t id = d0; id < d1; id += dl[0])
                    for (std::int64_t ih = h0; ih < h1; ih += dl[1]) {
                        const std::int64_t line = (id * in[1] + ih) * in[2];
                        for (std::int64_t iw = ws; iw < we; iw += dl[2]) {
                            const T v = s[line + iw];
                            bool take = v > best;
                            if constexpr (std::is_floating_point_v<T>) take = take || std::isnan(v);
                            if (take) {
                                best = v;
                                at = line + iw;
                            }
                        }
                    }
                o[ow] = best;
                if (wo) wo[ow] = at;
            }
        }
    };
    std::int64_t window = ks[0] * ks[1] * ks[2];
    if (want_parallel(rows * out[2] * window)) parallel_for(rows, part);
    else part(0, rows);
}

struct argmax_map {
    std::string op;
    geometry geo;
    dtype type;
    dims in, out;          // spatial sizes (ascending)
    tensor_base where;     // int64, working layout (B, O...)
};
using argmax_ptr = std::shared_ptr<const argmax_map>;

any_tensor argmax_gather(const any_tensor& x, const argmax_ptr& m);

// The gradient of max_pool: each output's gradient added at its argmax.
any_tensor argmax_scatter(const any_tensor& g, const argmax_ptr& m) {
    const dtype c = g.dtype() == dtype::f64 ? dtype::f64 : dtype::f32;
    tensor_base gw = to_work(g.base(), m->geo);
    if (gw.type() != c) gw = any_tensor(gw).astype(c).base();
    tensor_base out = new_work(c, m->geo, m->in.span(), m->op + " backward");
    std::int64_t in_block = 1, out_block = 1;
    for (std::int64_t s : m->in) in_block *= s;
    for (std::int64_t s : m->out) out_block *= s;
    const auto* idx = reinterpret_cast<const std::int64_t*>(m->where.data());
    on_compute_type(c, [&](auto type) {
        using C = typename decltype(type)::type;
        const C* s = reinterpret_cast<const C*>(gw.data());
        C* d = reinterpret_cast<C*>(out.data());
        auto part = [&](std::int64_t b0, std::int64_t b1) {
            for (std::int64_t b = b0; b < b1; ++b) {
                C* db = d + b * in_block;
                std::fill(db, db + in_block, C(0));
                for (std::int64_t j = 0; j < out_block; ++j) db[idx[b * out_block + j]] += s[b * out_block + j];
            }
        };
        if (want_parallel(m->geo.batch * in_block)) parallel_for(m->geo.batch, part);
        else part(0, m->geo.batch);
    });
    if (out.type() != g.dtype()) out = any_tensor(out).astype(g.dtype()).base();
    tensor_base r = from_work(out, m->geo);
    if (records(g.base()))
        attach_node(m->op + " backward", r, {&g.base()},
                    [m](const any_tensor& gg) -> input_gradients { return {argmax_gather(gg, m)}; });
    return any_tensor(std::move(r));
}

// The values of `x` (shaped as max_pool's input) at the argmax positions.
any_tensor argmax_gather(const any_tensor& x, const argmax_ptr& m) {
    tensor_base xw = to_work(x.base(), m->geo);
    tensor_base out = new_work(xw.type(), m->geo, m->out.span(), m->op);
    std::int64_t in_block = 1, out_block = 1;
    for (std::int64_t s : m->in) in_block *= s;
    for (std::int64_t s : m->out) out_block *= s;
    const auto* idx = reinterpret_cast<const std::int64_t*>(m->where.data());
    visit_dtype(xw.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        const T* s = reinterpret_cast<const T*>(xw.data());
        T* d = reinterpret_cast<T*>(out.data());
        for (std::int64_t b = 0; b < m->geo.batch; ++b)
            for (std::int64_t j = 0; j < out_block; ++j) d[b * out_block + j] = s[b * in_block + idx[b * out_block + j]];
    });
    tensor_base r = from_work(out, m->geo);
    if (records(x.base()))
        attach_node(m->op, r, {&x.base()}, [m](const any_tensor& g) -> input_gradients { return {argmax_scatter(g, m)}; });
    return any_tensor(std::move(r));
}

// ---------------------------------------------------------------------------------
// Tap tables.

// avg_pool along one axis: the window's positions, each weighted by 1 / the divisor.
axis_taps avg_taps(std::int64_t n, std::int64_t out, std::int64_t k, std::int64_t s, std::int64_t p,
                   bool count_include_pad) {
    axis_taps t{n, out, k, {}, {}};
    for (std::int64_t o = 0; o < out; ++o) {
        std::int64_t start = o * s - p;
        std::int64_t end = std::min(start + k, n + p);
        const std::int64_t pool = end - start;
        start = std::max<std::int64_t>(start, 0);
        end = std::min(end, n);
        const std::int64_t count = std::max<std::int64_t>(end - start, 0);
        const double w = 1.0 / static_cast<double>(count_include_pad ? pool : std::max<std::int64_t>(count, 1));
        for (std::int64_t q = 0; q < k; ++q) {
            const std::int64_t i = start + q;
            t.idx.push_back(i < end ? i : 0);
            t.w.push_back(i < end ? w : 0.0);
        }
    }
    return t;
}

// torch's source position of an output index (area_pixel_compute_source_index), in
// torch's computation type A (float for float and half, double for double).
template <class A>
A torch_scale(std::int64_t in, std::int64_t out, bool align_corners, double factor) {
    if (align_corners) return out > 1 ? static_cast<A>(in - 1) / static_cast<A>(out - 1) : A(0);
    return factor > 0 ? static_cast<A>(1.0 / factor) : static_cast<A>(in) / static_cast<A>(out);
}

template <class A>
axis_taps resize_taps(std::int64_t in, std::int64_t out, interp mode, bool align_corners, double factor) {
    axis_taps t{in, out, 0, {}, {}};
    if (mode == interp::nearest) {
        t.n = 1;
        // torch's nearest_idx: two exact shortcuts, else a float product floored.
        const float scale = factor > 0 ? static_cast<float>(1.0 / factor)
                                       : static_cast<float>(in) / static_cast<float>(out);
        for (std::int64_t j = 0; j < out; ++j) {
            std::int64_t i;
            if (out == in) i = j;
            else if (out == 2 * in) i = j >> 1;
            else i = std::min(static_cast<std::int64_t>(std::floor(static_cast<float>(j) * scale)), in - 1);
            t.idx.push_back(i);
            t.w.push_back(1.0);
        }
        return t;
    }
    const A scale = torch_scale<A>(in, out, align_corners, factor);
    if (mode == interp::linear) {
        t.n = 2;
        for (std::int64_t j = 0; j < out; ++j) {
            if (in == out) {
                t.idx.insert(t.idx.end(), {j, j});
                t.w.insert(t.w.end(), {1.0, 0.0});
                continue;
            }
            A src = align_corners ? scale * static_cast<A>(j) : scale * (static_cast<A>(j) + A(0.5)) - A(0.5);
            if (!align_corners && src < 0) src = 0;
            const auto i0 = static_cast<std::int64_t>(src);
            const std::int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
            const A l1 = std::min(std::max(src - static_cast<A>(i0), A(0)), A(1));
            const A l0 = A(1) - l1;
            t.idx.insert(t.idx.end(), {i0, i1});
            t.w.insert(t.w.end(), {static_cast<double>(l0), static_cast<double>(l1)});
        }
        return t;
    }
    // Cubic convolution, A = -0.75, taps clamped into the axis.
    t.n = 4;
    const A a = A(-0.75);
    auto near = [&](A x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
    auto far = [&](A x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
    for (std::int64_t j = 0; j < out; ++j) {
        const A src = align_corners ? scale * static_cast<A>(j) : scale * (static_cast<A>(j) + A(0.5)) - A(0.5);
        const A fl = std::floor(src);
        const auto i = static_cast<std::int64_t>(fl);
        const A x = src - fl;
        const A w[4] = {far(x + 1), near(x), near(1 - x), far(2 - x)};
        for (int q = 0; q < 4; ++q) {
            t.idx.push_back(std::clamp<std::int64_t>(i - 1 + q, 0, in - 1));
            t.w.push_back(static_cast<double>(w[q]));
        }
    }
    return t;
}

// scipy.ndimage.zoom along one axis (grid_mode=False: corners onto corners) on a line
// of `n` samples (the spline coefficients for order 3) read under `mode`; `shift`
// positions the samples inside a padded line (scipy pads 12 for 'nearest').
axis_taps zoom_taps(std::int64_t in, std::int64_t n, std::int64_t out, int order, boundary mode, std::int64_t shift) {
    axis_taps t{n, out, order == 3 ? 4 : order + 1, {}, {}};
    const double z = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 1.0;
    auto at = [&](std::int64_t i) { return n == 1 ? 0 : imaging::boundary_index(mode, i, n); };
    for (std::int64_t j = 0; j < out; ++j) {
        const double cc = static_cast<double>(j) * z + static_cast<double>(shift);
        if (order == 0) {
            t.idx.push_back(at(static_cast<std::int64_t>(std::floor(cc + 0.5))));
            t.w.push_back(1.0);
        } else if (order == 1) {
            const double f = std::floor(cc);
            const auto s = static_cast<std::int64_t>(f);
            const double x = cc - f;
            t.idx.insert(t.idx.end(), {at(s), at(s + 1)});
            t.w.insert(t.w.end(), {1.0 - x, x});
        } else {
            const double f = std::floor(cc);
            const auto s = static_cast<std::int64_t>(f);
            const double x = cc - f;
            const double w[4] = {(1 - x) * (1 - x) * (1 - x) / 6, (3 * x * x * x - 6 * x * x + 4) / 6,
                                 (-3 * x * x * x + 3 * x * x + 3 * x + 1) / 6, x * x * x / 6};
            for (int q = 0; q < 4; ++q) {
                t.idx.push_back(at(s - 1 + q));
                t.w.push_back(w[q]);
            }
        }
    }
    return t;
}

// scipy's cubic B-spline prefilter of one line (ni_splines.c's apply_filter with the
// one pole of order 3), including the way its 'reflect' start reads the running c[0].
void spline_prefilter_line(double* c, std::int64_t n, std::int64_t step, bool reflect) {
    if (n == 1) return;
    const double z = std::sqrt(3.0) - 2.0;
    const double gain = (1 - z) * (1 - 1 / z);
    auto C = [&](std::int64_t i) -> double& { return c[i * step]; };
    for (std::int64_t i = 0; i < n; ++i) C(i) *= gain;
    if (reflect) {
        const double zn = std::pow(z, static_cast<double>(n)), c0 = C(0);
        double zi = z;
        C(0) = C(0) + zn * C(n - 1);
        for (std::int64_t i = 1; i < n; ++i) {
            C(0) += zi * (C(i) + zn * C(n - 1 - i));
            zi *= z;
        }
        C(0) = C(0) * (z / (1 - zn * zn)) + c0;
    } else {
        const double zn1 = std::pow(z, static_cast<double>(n - 1));
        double zi = z;
        C(0) = C(0) + zn1 * C(n - 1);
        for (std::int64_t i = 1; i < n - 1; ++i) {
            C(0) += zi * (C(i) + zn1 * C(n - 1 - i));
            zi *= z;
        }
        C(0) /= 1 - zn1 * zn1;
    }
    for (std::int64_t i = 1; i < n; ++i) C(i) += z * C(i - 1);
    if (reflect) C(n - 1) *= z / (z - 1);
    else C(n - 1) = (z * C(n - 2) + C(n - 1)) * z / (z * z - 1);
    for (std::int64_t i = n - 2; i >= 0; --i) C(i) = z * (C(i + 1) - C(i));
}

template <class T>
T round_like_scipy(double v) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
        return static_cast<T>(v);
    } else {
        if (std::isnan(v)) return T(0);
        v = std::round(v);
        const auto lo = static_cast<double>(std::numeric_limits<T>::lowest());
        const auto hi = static_cast<double>(std::numeric_limits<T>::max());
        if (v <= lo) return std::numeric_limits<T>::lowest();
        if (v >= hi) return std::numeric_limits<T>::max();
        return static_cast<T>(v);
    }
}

}  // namespace

// ---------------------------------------------------------------------------------
// Entry points.

tensor_base max_pool(const tensor_base& x, std::span<const Axis> axes, std::span<const std::int64_t> sizes,
                     const pool_options& options, tensor_base* indices) {
    const std::string_view op = indices ? "max_pool_with_indices" : "max_pool";
    if (x.type() == dtype::b8)
        throw_error(errc::type_mismatch, std::string(op) + ": bool elements; pool a numeric type (astype first)");
    const pool_plan p = plan_pool(x, axes, sizes, options, true, op);
    const std::size_t k = p.geo.pos.size();
    std::int64_t in3[3] = {1, 1, 1}, out3[3] = {1, 1, 1}, k3[3] = {1, 1, 1}, s3[3] = {1, 1, 1}, p3[3] = {0, 0, 0},
                 d3[3] = {1, 1, 1};
    for (std::size_t i = 0; i < k; ++i) {
        const std::size_t j = 3 - k + i;
        in3[j] = p.geo.in[i];
        out3[j] = p.out[i];
        k3[j] = p.size[i];
        s3[j] = p.stride[i];
        p3[j] = p.pad[i];
        d3[j] = p.dil[i];
    }
    const tensor_base xw = to_work(x, p.geo);
    tensor_base out = new_work(x.type(), p.geo, p.out.span(), op);
    const bool grad = records(x) && floating(x.type());
    tensor_base where;
    if (indices || grad) where = new_work(dtype::i64, p.geo, p.out.span(), op);
    if (out.size() > 0)
        visit_dtype(x.type(), [&](auto type) {
            using T = typename decltype(type)::type;
            if constexpr (!std::is_same_v<T, bool>) {
                if constexpr (std::is_same_v<T, half>) {
                    // Compared in float: the order of halves is the order of their floats.
                    const tensor_base xf = any_tensor(xw).astype(dtype::f32).base();
                    tensor_base of = new_work(dtype::f32, p.geo, p.out.span(), op);
                    max_pool_kernel<float>(reinterpret_cast<const float*>(xf.data()),
                                           reinterpret_cast<float*>(of.data()),
                                           where.size() ? reinterpret_cast<std::int64_t*>(where.data()) : nullptr,
                                           p.geo.batch, in3, out3, k3, s3, p3, d3);
                    out = any_tensor(of).astype(dtype::f16).base();
                } else {
                    max_pool_kernel<T>(reinterpret_cast<const T*>(xw.data()), reinterpret_cast<T*>(out.data()),
                                       where.size() ? reinterpret_cast<std::int64_t*>(where.data()) : nullptr,
                                       p.geo.batch, in3, out3, k3, s3, p3, d3);
                }
            }
        });
    tensor_base r = from_work(out, p.geo);
    if (indices) *indices = from_work(where, p.geo);
    if (grad) {
        auto m = std::make_shared<const argmax_map>(argmax_map{std::string(op), p.geo, x.type(), p.geo.in, p.out, where});
        attach_node(op, r, {&x}, [m](const any_tensor& g) -> input_gradients { return {argmax_scatter(g, m)}; });
    }
    return r;
}

tensor_base avg_pool(const tensor_base& x, std::span<const Axis> axes, std::span<const std::int64_t> sizes,
                     const pool_options& options) {
    const std::string_view op = "avg_pool";
    if (!floating(x.type()))
        throw_error(errc::type_mismatch, "avg_pool: " + std::string(to_string(x.type())) +
                                             " elements; torch's avg_pool takes floating types (astype first)");
    const pool_plan p = plan_pool(x, axes, sizes, options, false, op);
    auto m = std::make_shared<separable_map>();
    m->op = op;
    m->geo = p.geo;
    for (std::size_t i = 0; i < p.geo.pos.size(); ++i)
        m->taps.push_back(avg_taps(p.geo.in[i], p.out[i], p.size[i], p.stride[i], p.pad[i], options.count_include_pad));
    return map_forward(any_tensor(x), m, 0.0).base();
}

namespace {

// The nearest map on any element type: one tap of weight 1 per output and axis, so a
// gather (no arithmetic on the elements).
template <class T>
void nearest_gather(const T* src, T* dst, const separable_map& m) {
    const std::size_t k = m.taps.size();
    std::int64_t in_block = 1, out_block = 1;
    small_vector<std::int64_t, 6> in_stride(k);
    for (std::size_t a = k; a-- > 0;) {
        in_stride[a] = in_block;
        in_block *= m.taps[a].in;
        out_block *= m.taps[a].out;
    }
    const axis_taps& last = m.taps[k - 1];
    const std::int64_t rows = m.geo.batch * (last.out ? out_block / last.out : 0);
    for (std::int64_t r = 0; r < rows; ++r) {
        std::int64_t rest = r, off = 0;
        for (std::size_t a = k - 1; a-- > 0;) {
            off += m.taps[a].idx[rest % m.taps[a].out] * in_stride[a];
            rest /= m.taps[a].out;
        }
        const T* row = src + rest * in_block + off;
        T* d = dst + r * last.out;
        for (std::int64_t j = 0; j < last.out; ++j) d[j] = row[last.idx[j]];
    }
}

tensor_base resize_impl(const tensor_base& x, const geometry& geo, const dims& sizes, const std::vector<double>& factors,
                        interp mode, const resize_options& options, std::string_view op) {
    if (x.type() == dtype::b8 || (!floating(x.type()) && mode != interp::nearest))
        throw_error(errc::type_mismatch, std::string(op) + ": " + std::string(to_string(x.type())) +
                                             " elements; torch interpolates floating types (integers with nearest "
                                             "only; astype first)");
    auto m = std::make_shared<separable_map>();
    m->op = std::string(op);
    m->geo = geo;
    for (std::size_t i = 0; i < geo.pos.size(); ++i) {
        const std::string axis = axis_text(x, geo.pos[i]);
        if (geo.in[i] < 1)
            throw_error(errc::invalid_argument, std::string(op) + ": axis " + axis +
                                                    " is empty; an input of size 0 has nothing to interpolate");
        if (sizes[i] < 1)
            throw_error(errc::invalid_argument, std::string(op) + ": target size " + std::to_string(sizes[i]) +
                                                    " for axis " + axis + "; give a size of at least 1");
        const double f = factors.empty() ? 0.0 : factors[i];
        m->taps.push_back(x.type() == dtype::f64 ? resize_taps<double>(geo.in[i], sizes[i], mode, options.align_corners, f)
                                                 : resize_taps<float>(geo.in[i], sizes[i], mode, options.align_corners, f));
    }
    if (floating(x.type())) return map_forward(any_tensor(x), m, 0.0).base();
    // Integers, nearest: every weight is 1, so the kernel in the element type copies exactly.
    const tensor_base in = to_work(x, geo);
    tensor_base out = new_work(x.type(), geo, sizes.span(), op);
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
            nearest_gather<T>(reinterpret_cast<const T*>(in.data()), reinterpret_cast<T*>(out.data()), *m);
    });
    return from_work(out, geo);
}

}  // namespace

tensor_base resize(const tensor_base& x, std::span<const axis_target> targets, interp mode,
                   const resize_options& options) {
    small_vector<Axis, 6> axes;
    for (const axis_target& t : targets) axes.push_back(t.axis);
    const geometry geo = plan_geometry(x, axes.span(), "resize");
    dims sizes;
    for (std::size_t i = 0; i < geo.pos.size(); ++i) sizes.push_back(targets[geo.listed[i]].size);
    return resize_impl(x, geo, sizes, {}, mode, options, "resize");
}

tensor_base resize_scaled(const tensor_base& x, std::span<const Axis> axes, std::span<const double> factors,
                          interp mode, const resize_options& options) {
    const geometry geo = plan_geometry(x, axes, "resize");
    std::vector<double> f = per_axis_factors(factors, geo, "resize");
    dims sizes;
    for (std::size_t i = 0; i < geo.pos.size(); ++i) {
        if (!(f[i] > 0))
            throw_error(errc::invalid_argument, "resize: scale factor " + std::to_string(f[i]) + " for axis " +
                                                    axis_text(x, geo.pos[i]) + "; give a factor above 0");
        sizes.push_back(static_cast<std::int64_t>(std::floor(static_cast<double>(geo.in[i]) * f[i])));
    }
    // align_corners computes from the sizes alone, as torch does.
    if (options.align_corners) f.clear();
    return resize_impl(x, geo, sizes, f, mode, options, "resize");
}

tensor_base zoom(const tensor_base& x, std::span<const double> factors, std::span<const Axis> axes, int order,
                 boundary mode, double cval) {
    const std::string_view op = "zoom";
    if (x.type() == dtype::b8)
        throw_error(errc::type_mismatch, "zoom: bool elements; zoom a numeric type (astype first)");
    if (order != 0 && order != 1 && order != 3)
        throw_error(errc::invalid_argument,
                    "zoom: order " + std::to_string(order) + "; give 0 (nearest), 1 (linear) or 3 (cubic spline)");
    const geometry geo = plan_geometry(x, axes, op);
    const std::vector<double> f = per_axis_factors(factors, geo, op);
    const std::size_t k = geo.pos.size();
    dims sizes;
    for (std::size_t i = 0; i < k; ++i) {
        if (!(f[i] > 0))
            throw_error(errc::invalid_argument, "zoom: factor " + std::to_string(f[i]) + " for axis " +
                                                    axis_text(x, geo.pos[i]) + "; give a factor above 0");
        if (geo.in[i] < 1)
            throw_error(errc::invalid_argument, "zoom: axis " + axis_text(x, geo.pos[i]) + " is empty");
        sizes.push_back(static_cast<std::int64_t>(std::nearbyint(static_cast<double>(geo.in[i]) * f[i])));
    }
    // In double, as scipy computes; the result is converted back to x's type.
    tensor_base xd = to_work(x, geo);
    if (xd.type() != dtype::f64) xd = any_tensor(xd).astype(dtype::f64).base();
    const bool pad = order == 3 && mode == boundary::nearest;
    const std::int64_t npad = pad ? 12 : 0;
    if (order == 3) {
        // scipy pads 'nearest' by 12 edge samples before the prefilter (whose
        // 'nearest' start is 'reflect''s), so the coefficients differ near the edges.
        dims padded;
        padded.push_back(geo.batch);
        for (std::int64_t s : geo.in) padded.push_back(s + 2 * npad);
        tensor_base c = tensor_base::allocate(dtype::f64, padded.span(), {}, op);
        {
            std::int64_t block = 1, pblock = 1;
            for (std::size_t i = 0; i < k; ++i) {
                block *= geo.in[i];
                pblock *= padded[i + 1];
            }
            const auto* s = reinterpret_cast<const double*>(xd.data());
            auto* d = reinterpret_cast<double*>(c.data());
            small_vector<std::int64_t, 6> idx(k);
            for (std::int64_t b = 0; b < geo.batch; ++b)
                for (std::int64_t e = 0; e < pblock; ++e) {
                    std::int64_t rest = e, off = 0, stride = 1;
                    for (std::size_t a = k; a-- > 0;) {
                        const std::int64_t i = rest % padded[a + 1] - npad;
                        rest /= padded[a + 1];
                        off += std::clamp<std::int64_t>(i, 0, geo.in[a] - 1) * stride;
                        stride *= geo.in[a];
                    }
                    d[b * pblock + e] = s[b * block + off];
                }
        }
        const bool reflect = mode == boundary::reflect || mode == boundary::nearest;
        auto* d = reinterpret_cast<double*>(c.data());
        std::int64_t total = c.size();
        for (std::size_t a = 0; a < k; ++a) {
            std::int64_t inner = 1;
            for (std::size_t b = a + 1; b < k; ++b) inner *= padded[b + 1];
            const std::int64_t n = padded[a + 1];
            const std::int64_t lines = n ? total / n : 0;
            auto part = [&](std::int64_t l0, std::int64_t l1) {
                for (std::int64_t l = l0; l < l1; ++l) {
                    const std::int64_t o = l / inner, i = l % inner;
                    spline_prefilter_line(d + o * n * inner + i, n, inner, reflect);
                }
            };
            if (want_parallel(total * 4)) parallel_for(lines, part);
            else part(0, lines);
        }
        xd = c;
    }
    auto m = std::make_shared<separable_map>();
    m->op = std::string(op);
    m->geo = geo;
    // The coefficients' taps: scipy reads past the edges under 'reflect' for
    // reflect/nearest and 'mirror' otherwise, as its prefilter assumed.
    const boundary taps_mode =
        order == 3 ? (mode == boundary::reflect || mode == boundary::nearest ? boundary::reflect : boundary::mirror)
                   : mode;
    for (std::size_t i = 0; i < k; ++i)
        m->taps.push_back(zoom_taps(geo.in[i], geo.in[i] + 2 * npad, sizes[i], order, taps_mode, npad));
    tensor_base out = new_work(dtype::f64, geo, sizes.span(), op);
    if (out.size() > 0)
        forward_kernel<double>(reinterpret_cast<const double*>(xd.data()), reinterpret_cast<double*>(out.data()), *m,
                               cval);
    tensor_base typed = out;
    if (x.type() != dtype::f64) {
        typed = new_work(x.type(), geo, sizes.span(), op);
        const auto* s = reinterpret_cast<const double*>(out.data());
        const std::int64_t n = out.size();
        visit_dtype(x.type(), [&](auto type) {
            using T = typename decltype(type)::type;
            if constexpr (!std::is_same_v<T, bool>) {
                T* d = reinterpret_cast<T*>(typed.data());
                for (std::int64_t i = 0; i < n; ++i) d[i] = round_like_scipy<T>(s[i]);
            }
        });
    }
    tensor_base r = from_work(typed, geo);
    if (records(x) && floating(x.type()) && order != 3) {
        // Orders 0 and 1 read x directly: the map of their taps (the constant adds no gradient).
        auto lin = std::make_shared<separable_map>(*m);
        attach_node(op, r, {&x}, [lin](const any_tensor& g) -> input_gradients {
            return {map_adjoint(g, std::const_pointer_cast<const separable_map>(lin))};
        });
    }
    return r;
}

}  // namespace nt::detail
