// nt::sliding_window (nt/sliding_window.hpp): MONAI's sliding_window_inference in
// bounded memory. The windows are copied out of x one batch at a time into one
// reused buffer, the predictions are added into the result as they come, and the
// normalisation needs no per-voxel map for constant blending (the number of windows
// covering a voxel is a product of one count per axis, the windows being a grid).
#include "nt/sliding_window.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core_errors.hpp"
#include "nt/autograd.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/threads.hpp"
#include "spatial.hpp"

namespace nt::detail {

namespace {

constexpr std::string_view op = "sliding_window";

// One spatial axis: where its windows start, in x's coordinates (negative or past
// the end where x is padded up to the window).
struct axis_plan {
    std::size_t x_pos = 0;
    std::size_t pred_pos = 0;  // in a prediction, leading window axis included
    std::int64_t n = 0;        // x's size
    std::int64_t roi = 0;
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> cover;  // constant blending: windows covering each of x's positions
};

std::string axis_label(const tensor_base& x, std::size_t pos) {
    const auto names = x.names();
    std::string s = "axis " + std::to_string(pos);
    if (pos < names.size() && names[pos]) s += " '" + std::string(names[pos].str()) + "'";
    return s;
}

// MONAI's _get_scan_interval and dense_patch_slices for one axis of size n, padded
// first to `roi` when smaller (before: half of the difference, rounded down).
std::vector<std::int64_t> window_starts(std::int64_t n, std::int64_t roi, double overlap) {
    const std::int64_t image = std::max(n, roi);
    const std::int64_t pad_before = (image - n) / 2;
    const auto shifted = static_cast<std::int64_t>(static_cast<double>(roi) * (1.0 - overlap));
    const std::int64_t interval = roi == image ? roi : std::max<std::int64_t>(shifted, 1);
    // The first window reaching the end is the last; it is then moved back flush
    // with the end, so the last two may overlap more than the others.
    std::int64_t count = 1;
    while ((count - 1) * interval + roi < image) ++count;
    std::vector<std::int64_t> starts(static_cast<std::size_t>(count));
    for (std::int64_t d = 0; d < count; ++d) {
        std::int64_t s = d * interval;
        s -= std::max<std::int64_t>(s + roi - image, 0);
        starts[static_cast<std::size_t>(d)] = s - pad_before;
    }
    return starts;
}

// The region of x a window starting at `start` covers on one axis, and where that
// region begins inside the window.
struct span1 {
    std::int64_t lo, hi, local;
};
span1 clip(std::int64_t start, std::int64_t roi, std::int64_t n) {
    const std::int64_t lo = std::max<std::int64_t>(start, 0);
    const std::int64_t hi = std::min(start + roi, n);
    return {lo, hi, lo - start};
}

pad_mode check_options(const sliding_window_options& o) {
    if (!(o.overlap >= 0.0 && o.overlap < 1.0))
        fail(errc::invalid_argument, op,
             "overlap " + std::to_string(o.overlap) + " is outside [0, 1); 0.25 shares a quarter of each window");
    if (o.batch < 1)
        fail(errc::invalid_argument, op,
             "batch " + std::to_string(o.batch) + " windows per call; give at least 1 (the default is 4)");
    if (o.blend == blend::gaussian && !(o.sigma_scale > 0.0))
        fail(errc::invalid_argument, op,
             "sigma_scale " + std::to_string(o.sigma_scale) +
                 " for gaussian blending; give a positive fraction of the window (the default is 0.125)");
    return o.pad_mode;
}

// The Gaussian importance map of MONAI's compute_importance_map over the window (in
// the order of the spatial axes, C order), clamped below at max(its minimum, 1e-3).
std::vector<double> importance_map(std::span<const axis_plan> plan, double sigma_scale) {
    std::vector<double> map{1.0};
    for (const axis_plan& a : plan) {
        const double sigma = sigma_scale * static_cast<double>(a.roi);
        std::vector<double> next;
        next.reserve(map.size() * static_cast<std::size_t>(a.roi));
        for (double m : map)
            for (std::int64_t t = 0; t < a.roi; ++t) {
                const double u = static_cast<double>(t) - static_cast<double>(a.roi - 1) / 2.0;
                next.push_back(m * std::exp(u * u / (-2.0 * sigma * sigma)));
            }
        map = std::move(next);
    }
    const double floor = std::max(*std::min_element(map.begin(), map.end()), 1e-3);
    for (double& m : map) m = std::max(m, floor);
    return map;
}

// Strided walks over a region: `size` per dimension and, per operand, a stride per
// dimension (in elements). Rows are the last dimension; the rows are split among
// threads (a row is written by one thread only).
struct region {
    int rank = 0;
    std::int64_t size[max_rank + 1] = {};
    std::int64_t out[max_rank + 1] = {};
    std::int64_t pred[max_rank + 1] = {};
    std::int64_t weight[max_rank + 1] = {};

    [[nodiscard]] std::int64_t rows() const {
        std::int64_t r = 1;
        for (int d = 0; d + 1 < rank; ++d) r *= size[d];
        return r;
    }
    [[nodiscard]] std::int64_t count() const { return rank == 0 ? 1 : rows() * size[rank - 1]; }
    // Offsets of row `r` (row-major over the leading dimensions).
    void row_offsets(std::int64_t r, std::int64_t& o, std::int64_t& p, std::int64_t& w) const {
        o = p = w = 0;
        for (int d = rank - 2; d >= 0; --d) {
            const std::int64_t i = r % size[d];
            r /= size[d];
            o += i * out[d];
            p += i * pred[d];
            w += i * weight[d];
        }
    }
    template <class Row>
    void for_rows(Row&& row) const {
        if (rank == 0) {
            row(0, 0, 0, 1, 1, 1, 1);
            return;
        }
        const std::int64_t n = size[rank - 1], so = out[rank - 1], sp = pred[rank - 1], sw = weight[rank - 1];
        const std::int64_t rows_ = rows();
        auto run = [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t r = b; r < e; ++r) {
                std::int64_t o = 0, p = 0, w = 0;
                row_offsets(r, o, p, w);
                row(o, p, w, n, so, sp, sw);
            }
        };
        if (want_parallel(count()) && rows_ > 1) parallel_for(rows_, run);
        else run(0, rows_);
    }
};

// out += pred (* weight) over a region.
template <class A>
void accumulate(const region& g, A* out, const A* pred, const A* weight) {
    g.for_rows([&](std::int64_t o, std::int64_t p, std::int64_t w, std::int64_t n, std::int64_t so, std::int64_t sp,
                   std::int64_t sw) {
        A* dst = out + o;
        const A* src = pred + p;
        if (weight == nullptr) {
            if (so == 1 && sp == 1)
                for (std::int64_t t = 0; t < n; ++t) dst[t] += src[t];
            else
                for (std::int64_t t = 0; t < n; ++t) dst[t * so] += src[t * sp];
            return;
        }
        const A* wt = weight + w;
        if (so == 1 && sp == 1 && sw == 1)
            for (std::int64_t t = 0; t < n; ++t) dst[t] += src[t] * wt[t];
        else if (so == 1 && sp == 1 && sw == 0)
            for (std::int64_t t = 0; t < n; ++t) dst[t] += src[t] * wt[0];
        else
            for (std::int64_t t = 0; t < n; ++t) dst[t * so] += src[t * sp] * wt[t * sw];
    });
}

// One batch of windows, copied out of x (padded where a window passes x's edge).
void fill_windows(const tensor_base& x, std::span<const axis_plan> plan, std::int64_t first, std::int64_t count,
                  const tensor_base& windows, pad_mode mode, const void* pad_value) {
    for (std::int64_t j = 0; j < count; ++j) {
        std::int64_t index = first + j;
        tensor_base view = x;
        std::vector<pad_width> widths;
        // C order over the spatial axes as given: the last one varies fastest.
        for (std::size_t k = plan.size(); k-- > 0;) {
            const axis_plan& a = plan[k];
            const auto m = static_cast<std::int64_t>(a.starts.size());
            const std::int64_t start = a.starts[static_cast<std::size_t>(index % m)];
            index /= m;
            const span1 s = clip(start, a.roi, a.n);
            view = view.slice(static_cast<std::int64_t>(a.x_pos), range(s.lo, s.hi));
            if (s.local > 0 || s.hi - s.lo < a.roi)
                widths.push_back({static_cast<std::int64_t>(a.x_pos), {s.local, a.roi - s.local - (s.hi - s.lo)}});
        }
        if (!widths.empty()) view = pad(view, widths, mode, pad_value);
        windows.slice(0, range(j, j + 1)).squeeze(0).assign(view);
    }
}

// Where each spatial axis is in a prediction: by name, or for an unnamed axis of x,
// at the same distance from the end.
void locate_spatial(const tensor_base& x, const tensor_base& pred, const tensor_base& windows,
                    std::vector<axis_plan>& plan) {
    const auto pnames = pred.names();
    for (axis_plan& a : plan) {
        const name n = a.x_pos < x.names().size() ? x.names()[a.x_pos] : name{};
        std::int64_t pos = -1;
        if (n) {
            for (std::size_t i = 1; i < pnames.size(); ++i)
                if (pnames[i] == n) pos = static_cast<std::int64_t>(i);
        } else {
            pos = static_cast<std::int64_t>(pred.rank()) - static_cast<std::int64_t>(x.rank() - a.x_pos);
            if (pos < 1) pos = -1;
        }
        if (pos < 0)
            fail(errc::axis_out_of_range, op,
                 "the predictor returned " + pred.describe() + " for windows " + windows.describe() + ": it lacks " +
                     axis_label(x, a.x_pos) + "; a prediction must keep the spatial axes");
        a.pred_pos = static_cast<std::size_t>(pos);
    }
}

}  // namespace

tensor_base sliding_window(const tensor_base& x, std::span<const Axis> axes, std::span<const std::int64_t> roi,
                           window_predictor predictor, const sliding_window_options& options) {
    // Inference: nothing is recorded, the predictor's operations included (a model
    // whose weights are marked with_grad would otherwise keep each batch's graph).
    const nt::no_grad inference;
    const auto positions = imaging::spatial_axes(x, axes_arg(axes), op);
    if (roi.size() != positions.size())
        fail(errc::invalid_argument, op,
             "roi " + list_text(roi) + " has " + std::to_string(roi.size()) + " sizes for " +
                 std::to_string(positions.size()) + " spatial axes; give one window size per axis, in the order of "
                 "the axes");
    const pad_mode mode = check_options(options);

    std::vector<axis_plan> plan(positions.size());
    std::int64_t total = 1;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        axis_plan& a = plan[k];
        a.x_pos = positions[k];
        a.n = x.shape()[a.x_pos];
        a.roi = roi[k];
        if (a.roi < 1)
            fail(errc::invalid_argument, op,
                 "window size " + std::to_string(a.roi) + " for " + axis_label(x, a.x_pos) + " (size " +
                     std::to_string(a.n) + "); give a size >= 1");
        a.starts = window_starts(a.n, a.roi, options.overlap);
        total *= static_cast<std::int64_t>(a.starts.size());
    }

    // The pad value in x's element type.
    alignas(16) unsigned char pad_value[16] = {};
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        *reinterpret_cast<T*>(pad_value) = static_cast<T>(options.pad_value);
    });

    // The windows' spec: a leading unnamed axis, then x's axes, spatial ones at roi.
    small_vector<std::int64_t, 8> window_shape;
    name_list window_names;
    const bool named = !x.names().empty();
    window_shape.push_back(std::min(options.batch, total));
    window_names.push_back(name{});
    for (std::size_t i = 0; i < x.rank(); ++i) {
        window_shape.push_back(x.shape()[i]);
        window_names.push_back(named ? x.names()[i] : name{});
    }
    for (const axis_plan& a : plan) window_shape[a.x_pos + 1] = a.roi;

    tensor_base buffer(x.type());
    bool have_buffer = false;
    tensor_base out;
    bool started = false;
    dtype acc = dtype::f32;
    small_vector<std::int64_t, 8> pred_rest;  // a prediction's shape after the window axis
    name_list pred_names;
    std::vector<double> weights;  // gaussian: the importance map, C order over the spatial axes
    tensor_base weight_map;       // in the accumulation type
    tensor_base weight_sum;       // gaussian: over x's spatial axes, in the order given

    for (std::int64_t first = 0; first < total; first += options.batch) {
        const std::int64_t count = std::min(options.batch, total - first);
        // The buffer is reused unless the predictor kept a handle on it.
        if (!have_buffer || buffer.owner().use_count() > 1) {
            buffer = tensor_base::allocate(x.type(), window_shape, named ? std::span<const name>(window_names)
                                                                         : std::span<const name>(),
                                           op);
            have_buffer = true;
        }
        tensor_base windows = count == window_shape[0] ? buffer : buffer.slice(0, range(0, count));
        fill_windows(x, plan, first, count, windows, mode, pad_value);
        tensor_base pred = predictor.call(predictor.context, windows);

        if (pred.rank() < 1 || pred.shape()[0] != count)
            fail(errc::invalid_argument, op,
                 "the predictor returned " + pred.describe() + " for windows " + windows.describe() +
                     "; it must return one prediction per window along a leading axis of " + std::to_string(count));
        if (!started) {
            locate_spatial(x, pred, windows, plan);
            acc = pred.type() == dtype::f64 ? dtype::f64 : dtype::f32;
        }
        for (const axis_plan& a : plan)
            if (pred.shape()[a.pred_pos] != a.roi)
                fail(errc::incompatible_sizes, op,
                     "the predictor changed " + axis_label(x, a.x_pos) + " from " + std::to_string(a.roi) + " to " +
                         std::to_string(pred.shape()[a.pred_pos]) + " (windows " + windows.describe() +
                         ", prediction " + pred.describe() + "); a prediction must keep the window's spatial sizes");
        if (!started) {
            started = true;
            const bool pnamed = !pred.names().empty();
            for (std::size_t i = 1; i < pred.rank(); ++i) {
                pred_rest.push_back(pred.shape()[i]);
                pred_names.push_back(pnamed ? pred.names()[i] : name{});
            }
            small_vector<std::int64_t, 8> out_shape = pred_rest;
            for (const axis_plan& a : plan) out_shape[a.pred_pos - 1] = a.n;
            out = tensor_base::allocate(acc, out_shape, pnamed ? std::span<const name>(pred_names)
                                                               : std::span<const name>(),
                                        op);
            visit_dtype(acc, [&](auto type) {
                using A = typename decltype(type)::type;
                if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double>) {
                    const A zero{};
                    out.fill(&zero);
                    if (options.blend == blend::gaussian) {
                        weights = importance_map(plan, options.sigma_scale);
                        small_vector<std::int64_t, 8> roi_shape, spatial_shape;
                        for (const axis_plan& a : plan) {
                            roi_shape.push_back(a.roi);
                            spatial_shape.push_back(a.n);
                        }
                        weight_map = tensor_base::allocate(acc, roi_shape, {}, op);
                        auto* w = reinterpret_cast<A*>(weight_map.data());
                        for (std::size_t i = 0; i < weights.size(); ++i) w[i] = static_cast<A>(weights[i]);
                        weight_sum = tensor_base::allocate(acc, spatial_shape, {}, op);
                        weight_sum.fill(&zero);
                    }
                }
            });
        } else {
            bool same = pred.rank() == pred_rest.size() + 1;
            for (std::size_t i = 1; same && i < pred.rank(); ++i) {
                const bool spatial = std::any_of(plan.begin(), plan.end(),
                                                 [&](const axis_plan& a) { return a.pred_pos == i; });
                same = spatial || pred.shape()[i] == pred_rest[i - 1];
            }
            if (!same)
                fail(errc::incompatible_sizes, op,
                     "the predictor returned " + pred.describe() + " for windows " + windows.describe() +
                         ", after " + spec_text(pred_rest, pred_names) +
                         " per window before; every call must return the same axes");
        }
        windows = tensor_base(x.type());

        // The predictions as contiguous values of the accumulation type (a copy only
        // when the predictor returned another type or a strided view).
        if (pred.type() != acc) pred = any_tensor(pred).astype(acc).base();
        else if (!pred.is_contiguous()) pred = pred.clone();

        visit_dtype(acc, [&](auto type) {
            using A = typename decltype(type)::type;
            if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double>) {
                const auto* p = reinterpret_cast<const A*>(pred.data());
                auto* o = reinterpret_cast<A*>(out.data());
                const A* w = options.blend == blend::gaussian ? reinterpret_cast<const A*>(weight_map.data()) : nullptr;
                const std::int64_t per_window = pred.size() / std::max<std::int64_t>(count, 1);
                const auto out_strides = out.strides();
                const auto pred_strides = pred.strides();
                // The weight map's strides, per spatial axis (C order, axes as given).
                std::vector<std::int64_t> wstride(plan.size(), 1);
                for (std::size_t k = plan.size(); k-- > 1;) wstride[k - 1] = wstride[k] * plan[k].roi;
                std::vector<std::int64_t> sstride(plan.size(), 1);
                for (std::size_t k = plan.size(); k-- > 1;) sstride[k - 1] = sstride[k] * plan[k].n;
                for (std::int64_t j = 0; j < count; ++j) {
                    std::int64_t index = first + j;
                    region g;
                    g.rank = static_cast<int>(out.rank());
                    for (int d = 0; d < g.rank; ++d) {
                        g.size[d] = out.shape()[d];
                        g.out[d] = out_strides[d];
                        g.pred[d] = pred_strides[d + 1];
                        g.weight[d] = 0;
                    }
                    region s;  // the same window over the weight sum
                    s.rank = static_cast<int>(plan.size());
                    std::int64_t o_off = 0, p_off = j * per_window, w_off = 0, s_off = 0;
                    for (std::size_t k = plan.size(); k-- > 0;) {
                        const axis_plan& a = plan[k];
                        const auto m = static_cast<std::int64_t>(a.starts.size());
                        const span1 c = clip(a.starts[static_cast<std::size_t>(index % m)], a.roi, a.n);
                        index /= m;
                        const auto d = static_cast<int>(a.pred_pos - 1);
                        g.size[d] = c.hi - c.lo;
                        g.weight[d] = wstride[k];
                        o_off += c.lo * out_strides[static_cast<std::size_t>(d)];
                        p_off += c.local * pred_strides[static_cast<std::size_t>(d) + 1];
                        w_off += c.local * wstride[k];
                        s.size[k] = c.hi - c.lo;
                        s.out[k] = sstride[k];
                        s.pred[k] = wstride[k];
                        s_off += c.lo * sstride[k];
                    }
                    if (w == nullptr) {
                        accumulate<A>(g, o + o_off, p + p_off, nullptr);
                    } else {
                        accumulate<A>(g, o + o_off, p + p_off, w + w_off);
                        accumulate<A>(s, reinterpret_cast<A*>(weight_sum.data()) + s_off, w + w_off, nullptr);
                    }
                }
            }
        });
    }

    // Each element divided by the weight of the windows covering it: for constant
    // blending a product of per-axis window counts, for gaussian the weight sum.
    if (options.blend == blend::constant)
        for (axis_plan& a : plan) {
            a.cover.assign(static_cast<std::size_t>(a.n), 0);
            for (std::int64_t s : a.starts) {
                const span1 c = clip(s, a.roi, a.n);
                for (std::int64_t i = c.lo; i < c.hi; ++i) ++a.cover[static_cast<std::size_t>(i)];
            }
        }
    visit_dtype(acc, [&](auto type) {
        using A = typename decltype(type)::type;
        if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double>) {
            if (!started) return;
            auto* o = reinterpret_cast<A*>(out.data());
            const int rank = static_cast<int>(out.rank());
            // Per dimension of the result: the spatial axis there, or -1.
            std::vector<int> spatial_at(static_cast<std::size_t>(rank), -1);
            for (std::size_t k = 0; k < plan.size(); ++k) spatial_at[plan[k].pred_pos - 1] = static_cast<int>(k);
            std::vector<std::int64_t> sstride(plan.size(), 1);
            for (std::size_t k = plan.size(); k-- > 1;) sstride[k - 1] = sstride[k] * plan[k].n;
            const A* wsum = options.blend == blend::gaussian ? reinterpret_cast<const A*>(weight_sum.data()) : nullptr;
            region g;
            g.rank = rank;
            for (int d = 0; d < rank; ++d) {
                g.size[d] = out.shape()[static_cast<std::size_t>(d)];
                g.out[d] = out.strides()[static_cast<std::size_t>(d)];
                g.weight[d] = spatial_at[static_cast<std::size_t>(d)] >= 0
                                  ? sstride[static_cast<std::size_t>(spatial_at[static_cast<std::size_t>(d)])]
                                  : 0;
            }
            const int last_spatial = rank > 0 ? spatial_at[static_cast<std::size_t>(rank - 1)] : -1;
            g.for_rows([&](std::int64_t off, std::int64_t, std::int64_t woff, std::int64_t n, std::int64_t so,
                           std::int64_t, std::int64_t sw) {
                A* dst = o + off;
                if (wsum != nullptr) {
                    for (std::int64_t t = 0; t < n; ++t) dst[t * so] /= wsum[woff + t * sw];
                    return;
                }
                // The row's count from its spatial indices, decoded from the weight-sum
                // offset (the spatial axes' C-order position over x's spatial sizes).
                A factor = 1;
                std::int64_t rest = woff;
                for (std::size_t k = 0; k < plan.size(); ++k) {
                    const std::int64_t i = rest / sstride[k];
                    rest %= sstride[k];
                    if (static_cast<int>(k) != last_spatial)
                        factor *= static_cast<A>(plan[k].cover[static_cast<std::size_t>(i)]);
                }
                if (last_spatial < 0) {
                    for (std::int64_t t = 0; t < n; ++t) dst[t * so] /= factor;
                } else {
                    const auto& cover = plan[static_cast<std::size_t>(last_spatial)].cover;
                    for (std::int64_t t = 0; t < n; ++t)
                        dst[t * so] /= factor * static_cast<A>(cover[static_cast<std::size_t>(t)]);
                }
            });
        }
    });
    return out;
}

}  // namespace nt::detail
