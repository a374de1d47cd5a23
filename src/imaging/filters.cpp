// scipy.ndimage's filters over named spatial axes (nt/filters.hpp).
//
// The separable filters (gaussian, uniform, sobel, minimum, maximum) are a list of
// 1-D passes, each along one axis of a contiguous working buffer. A pass takes a block
// of up to `lanes` lines side by side (the next axis's neighbours when the axis is not
// the last, else consecutive lines, gathered transposed), extends them past their ends
// with imaging::boundary_index, filters the block with every lane of a vector on a
// different line (filters_simd.cpp), and writes it back. Blocks are independent: the
// threads share them out.
//
// Element types follow scipy.ndimage: integer (and bool) images are read as double,
// filtered in double and truncated toward zero after each pass (wrapping past the
// type's range, as scipy's conversion does), so a multi-axis result equals scipy's
// bit for bit; float is filtered in float (scipy uses double: the results agree to
// float rounding), double in double with scipy's order of operations; float16, which
// scipy refuses, in float, rounded once.
//
// gaussian_filter, uniform_filter and sobel are linear: each records one node whose
// rule applies the adjoint passes (the correlation with the mirrored kernel, plus the
// boundary's scatter back onto the line) in reverse order. That adjoint is itself an
// operation recorded the same way, whose adjoint is the forward passes: gradients of
// gradients follow.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "graph.hpp"
#include "filters_simd.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/elementwise.hpp"
#include "nt/error.hpp"
#include "nt/filters.hpp"
#include "nt/half.hpp"
#include "nt/threads.hpp"
#include "spatial.hpp"

namespace nt::detail {
namespace {

using imaging::kernel_symmetry;
using imaging::truncate_to;

// --- element types ---------------------------------------------------------------

// The type a pass computes in, and the type its result is stored in between passes.
template <class T>
using work_t = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, half>, float, double>;
template <class T>
using stage_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t,
                                   std::conditional_t<std::is_same_v<T, half>, float, T>>;

// --- passes ----------------------------------------------------------------------

enum class pass_kind : std::uint8_t { correlate, uniform, minimum, maximum };

/// One 1-D pass: output i of a line reads input positions i - before + k, k < taps.
struct pass {
    std::size_t axis = 0;
    pass_kind kind = pass_kind::correlate;
    std::vector<double> w;  // correlate: the taps
    std::int64_t taps = 1;
    std::int64_t before = 0;
};

// scipy's test (correlate1d): odd kernels whose halves agree (or are opposite) within
// DBL_EPSILON are folded before multiplying.
kernel_symmetry symmetry_of(const std::vector<double>& w) {
    const std::size_t n = w.size();
    if (n % 2 == 0) return kernel_symmetry::general;
    const std::size_t c = n / 2;
    bool sym = true, anti = true;
    for (std::size_t m = 1; m <= c; ++m) {
        sym = sym && std::fabs(w[c + m] - w[c - m]) <= DBL_EPSILON;
        anti = anti && std::fabs(w[c + m] + w[c - m]) <= DBL_EPSILON;
    }
    return sym ? kernel_symmetry::symmetric : anti ? kernel_symmetry::antisymmetric : kernel_symmetry::general;
}

// NumPy's pairwise sum of a contiguous double run (np.sum's order), so that the
// normalised kernel is scipy's to the bit.
double numpy_sum(const double* a, std::int64_t n) {
    if (n < 8) {
        double r = 0.0;  // NumPy starts its add reduction at the identity, -0.0 aside
        for (std::int64_t i = 0; i < n; ++i) r += a[i];
        return r;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; ++j) r[j] = a[j];
        std::int64_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; ++j) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += a[i];
        return res;
    }
    std::int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return numpy_sum(a, n2) + numpy_sum(a + n2, n - n2);
}

// scipy.ndimage._gaussian_kernel1d(sigma, order, radius): the normalised Gaussian on
// -radius..radius, times the polynomial that gives its order-th derivative.
std::vector<double> gaussian_kernel(double sigma, std::int64_t order, std::int64_t radius) {
    const double sigma2 = sigma * sigma;
    const std::int64_t n = 2 * radius + 1;
    std::vector<double> phi(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(i - radius);
        phi[i] = std::exp(-0.5 / sigma2 * (x * x));
    }
    const double total = numpy_sum(phi.data(), n);
    for (double& v : phi) v = v / total;
    if (order == 0) return phi;
    // q(x) with q'(x) + q(x) p'(x) applied `order` times, p'(x) = -x / sigma^2.
    std::vector<double> q(static_cast<std::size_t>(order + 1), 0.0);
    q[0] = 1.0;
    for (std::int64_t step = 0; step < order; ++step) {
        std::vector<double> next(q.size(), 0.0);
        for (std::size_t i = 0; i < q.size(); ++i) {
            double v = 0.0;
            if (i + 1 < q.size()) v += static_cast<double>(i + 1) * q[i + 1];
            if (i >= 1) v += (1.0 / -sigma2) * q[i - 1];
            next[i] = v;
        }
        q = next;
    }
    for (std::int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(i - radius);
        double poly = 0.0, power = 1.0;
        for (std::size_t j = 0; j < q.size(); ++j) {
            poly += power * q[j];
            power *= x;
        }
        phi[i] = poly * phi[i];
    }
    return phi;
}

/// The shape as (outer, n, inner) around `axis`.
struct line_geometry {
    std::int64_t outer = 1, n = 1, inner = 1;
};
line_geometry geometry(std::span<const std::int64_t> shape, std::size_t axis) {
    line_geometry g;
    for (std::size_t a = 0; a < shape.size(); ++a) {
        if (a < axis) g.outer *= shape[a];
        else if (a == axis) g.n = shape[a];
        else g.inner *= shape[a];
    }
    return g;
}

// One pass over the buffer `buf` (C-contiguous, `shape`), in place. W: the working
// type; S: the type results are stored in between passes (W, or an integer type whose
// truncation is applied to the block before it is written back). `adjoint`: the
// transpose of a correlate pass (cval is then 0: the constant is not a function of x).
template <class W, class S>
void run_pass(W* buf, std::span<const std::int64_t> shape, const pass& p, boundary mode, W cval, bool adjoint,
              bool final_pass) {
    const line_geometry g = geometry(shape, p.axis);
    const std::int64_t n = g.n, inner = g.inner;
    if (n == 0 || g.outer == 0 || inner == 0) return;
    constexpr std::int64_t lanes = std::is_same_v<W, float> ? 32 : 16;
    const std::int64_t ext_rows = n + p.taps - 1;
    std::vector<std::int64_t> source(static_cast<std::size_t>(ext_rows));
    for (std::int64_t r = 0; r < ext_rows; ++r) source[r] = imaging::boundary_index(mode, r - p.before, n);
    std::vector<W> w(p.w.begin(), p.w.end());
    const kernel_symmetry symmetry = symmetry_of(p.w);
    // Blocks of lanes: neighbours along the next axes (contiguous) when there are
    // enough of them, else consecutive lines gathered across.
    const bool side_by_side = inner >= lanes / 2;
    const std::int64_t per_outer = side_by_side ? (inner + lanes - 1) / lanes : 0;
    const std::int64_t blocks = side_by_side ? g.outer * per_outer : (g.outer * inner + lanes - 1) / lanes;

    auto run_blocks = [&](std::int64_t first, std::int64_t last) {
        std::vector<W> ext(static_cast<std::size_t>(ext_rows * lanes)), res(static_cast<std::size_t>(n * lanes));
        std::int64_t base[lanes];
        for (std::int64_t blk = first; blk < last; ++blk) {
            std::int64_t width;
            if (side_by_side) {
                const std::int64_t o = blk / per_outer, j0 = (blk % per_outer) * lanes;
                width = std::min(lanes, inner - j0);
                for (std::int64_t b = 0; b < width; ++b) base[b] = o * n * inner + j0 + b;
            } else {
                const std::int64_t l0 = blk * lanes;
                width = std::min(lanes, g.outer * inner - l0);
                for (std::int64_t b = 0; b < width; ++b) {
                    const std::int64_t l = l0 + b;
                    base[b] = (l / inner) * n * inner + l % inner;
                }
            }
            const auto read_row = [&](W* dst, std::int64_t src) {
                if (side_by_side) std::memcpy(dst, buf + base[0] + src * inner, sizeof(W) * width);
                else
                    for (std::int64_t b = 0; b < width; ++b) dst[b] = buf[base[b] + src * inner];
                std::fill(dst + width, dst + lanes, W(0));
            };
            if (!adjoint) {
                for (std::int64_t r = 0; r < ext_rows; ++r) {
                    if (source[r] < 0) std::fill(&ext[r * lanes], &ext[r * lanes] + lanes, cval);
                    else read_row(&ext[r * lanes], source[r]);
                }
                switch (p.kind) {
                    case pass_kind::correlate:
                        imaging::correlate_rows(ext.data(), lanes, n, w.data(), p.taps, symmetry, res.data());
                        break;
                    case pass_kind::uniform: {
                        // scipy's running sum: the first window, then one in and one out.
                        // In double for every type, as scipy; the lanes advance together.
                        const auto size = static_cast<double>(p.taps);
                        double t[lanes] = {};
                        for (std::int64_t k = 0; k < p.taps; ++k)
                            for (std::int64_t b = 0; b < lanes; ++b) t[b] += static_cast<double>(ext[k * lanes + b]);
                        for (std::int64_t b = 0; b < lanes; ++b) res[b] = static_cast<W>(t[b] / size);
                        for (std::int64_t i = 1; i < n; ++i) {
                            const W* in_row = &ext[(i + p.taps - 1) * lanes];
                            const W* out_row = &ext[(i - 1) * lanes];
                            W* r = &res[i * lanes];
                            for (std::int64_t b = 0; b < lanes; ++b) {
                                t[b] += static_cast<double>(in_row[b]) - static_cast<double>(out_row[b]);
                                r[b] = static_cast<W>(t[b] / size);
                            }
                        }
                        break;
                    }
                    case pass_kind::minimum:
                    case pass_kind::maximum: {
                        const bool mx = p.kind == pass_kind::maximum;
                        for (std::int64_t i = 0; i < n; ++i) {
                            W* o = &res[i * lanes];
                            std::copy(&ext[i * lanes], &ext[i * lanes] + lanes, o);
                            for (std::int64_t k = 1; k < p.taps; ++k) {
                                const W* e = &ext[(i + k) * lanes];
                                for (std::int64_t b = 0; b < lanes; ++b)
                                    o[b] = mx ? std::max(o[b], e[b]) : std::min(o[b], e[b]);
                            }
                        }
                        break;
                    }
                }
            } else {
                // The transpose: each output i spreads w[k] g[i] onto extended
                // position i + k, and each extended position lands where the
                // boundary rule read it from (nowhere for the constant).
                for (std::int64_t i = 0; i < n; ++i) read_row(&res[i * lanes], i);
                std::fill(ext.begin(), ext.end(), W(0));
                for (std::int64_t i = 0; i < n; ++i)
                    for (std::int64_t k = 0; k < p.taps; ++k) {
                        const W wk = w[k];
                        W* e = &ext[(i + k) * lanes];
                        const W* gi = &res[i * lanes];
                        for (std::int64_t b = 0; b < lanes; ++b) e[b] += wk * gi[b];
                    }
                std::fill(res.begin(), res.end(), W(0));
                for (std::int64_t r = 0; r < ext_rows; ++r) {
                    if (source[r] < 0) continue;
                    W* o = &res[source[r] * lanes];
                    const W* e = &ext[r * lanes];
                    for (std::int64_t b = 0; b < lanes; ++b) o[b] += e[b];
                }
            }
            // The last pass's results are truncated once, straight into the output:
            // through a double, a 64-bit one would round.
            if constexpr (!std::is_same_v<S, W>)
                if (!final_pass)
                    for (W& v : res) v = static_cast<W>(truncate_to<S>(static_cast<double>(v)));
            for (std::int64_t i = 0; i < n; ++i) {
                const W* src = &res[i * lanes];
                if (side_by_side) std::memcpy(buf + base[0] + i * inner, src, sizeof(W) * width);
                else
                    for (std::int64_t b = 0; b < width; ++b) buf[base[b] + i * inner] = src[b];
            }
        }
    };
    const std::int64_t cost = g.outer * inner * n * std::max<std::int64_t>(p.taps, 1);
    if (blocks > 1 && want_parallel(cost)) parallel_for(blocks, run_blocks);
    else run_blocks(0, blocks);
}

/// The passes applied to x: a new tensor of x's type. `adjoint`: the transposed
/// passes, in reverse order, with no constant.
tensor_base compute_passes(const tensor_base& x, const std::vector<pass>& passes, boundary mode, double cval,
                           bool adjoint, std::string_view op) {
    tensor_base out = tensor_base::allocate(x.type(), x.shape(), x.names(), op);
    if (x.size() == 0) return out;
    const tensor_base xc = x.contiguous();
    const auto shape = x.shape();
    const std::int64_t count = x.size();
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        using W = work_t<T>;
        using S = stage_t<T>;
        const auto run = [&](W* buf) {
            const W c = static_cast<W>(adjoint ? 0.0 : cval);
            const std::size_t k = passes.size();
            for (std::size_t i = 0; i < k; ++i)
                run_pass<W, S>(buf, shape, passes[adjoint ? k - 1 - i : i], mode, c, adjoint, i + 1 == k);
        };
        const T* in = reinterpret_cast<const T*>(xc.data());
        T* o = reinterpret_cast<T*>(out.data());
        if constexpr (std::is_same_v<T, W>) {
            std::memcpy(o, in, sizeof(T) * static_cast<std::size_t>(count));
            run(o);
        } else {
            std::vector<W> buf(static_cast<std::size_t>(count));
            for (std::int64_t i = 0; i < count; ++i) buf[i] = static_cast<W>(in[i]);
            run(buf.data());
            for (std::int64_t i = 0; i < count; ++i) {
                if constexpr (std::is_same_v<T, bool>) o[i] = truncate_to<S>(buf[i]) != 0;
                else if constexpr (std::is_integral_v<T>) o[i] = truncate_to<S>(buf[i]);
                else o[i] = static_cast<T>(buf[i]);
            }
        }
    });
    return out;
}

/// The linear form of the passes (uniform as a correlation with 1 / size), for the
/// backward rules.
std::vector<pass> linear_form(std::vector<pass> passes) {
    for (pass& p : passes)
        if (p.kind == pass_kind::uniform) {
            p.kind = pass_kind::correlate;
            p.w.assign(static_cast<std::size_t>(p.taps), 1.0 / static_cast<double>(p.taps));
        }
    return passes;
}

/// compute_passes, recorded: the rule of each direction is the other direction.
tensor_base linear_passes(const tensor_base& x, const std::vector<pass>& passes, boundary mode, double cval,
                          bool adjoint, std::string_view op) {
    tensor_base out = compute_passes(x, passes, mode, cval, adjoint, op);
    std::vector<pass> linear = linear_form(passes);
    std::string name = adjoint ? std::string(op) + "_backward" : std::string(op);
    const std::string base_op(op);
    attach_node(name, out, {&x}, [linear, mode, adjoint, base_op](const any_tensor& g) -> input_gradients {
        return {any_tensor(linear_passes(g.base(), linear, mode, 0.0, !adjoint, base_op))};
    });
    return out;
}

// --- arguments -------------------------------------------------------------------

std::string number_text(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

std::string axis_text(const tensor_base& x, std::size_t a) {
    const auto names = x.names();
    if (a < names.size() && names[a].has_value()) return "'" + std::string(names[a].str()) + "'";
    return std::to_string(a);
}

/// One value per spatial axis from a list of 1 or axes.size() values.
template <class V>
std::vector<V> per_axis(std::span<const V> values, std::size_t axes, std::string_view op, const char* what) {
    if (values.size() == 1) return std::vector<V>(axes, values[0]);
    if (values.size() != axes)
        throw_error(errc::invalid_argument, std::string(op) + ": " + std::to_string(values.size()) + " " + what +
                                                " for " + std::to_string(axes) +
                                                " spatial axes; give one for all or one per axis");
    return std::vector<V>(values.begin(), values.end());
}
template <class V>
std::vector<V> per_axis_or(const std::vector<V>& values, V fallback, std::size_t axes, std::string_view op,
                           const char* what) {
    if (values.empty()) return std::vector<V>(axes, fallback);
    return per_axis<V>(std::span<const V>(values), axes, op, what);
}

// scipy filters along the array's axes in their order; integer results are truncated
// after each, so the order shows in them.
void sort_by_axis(std::vector<pass>& passes) {
    std::stable_sort(passes.begin(), passes.end(), [](const pass& a, const pass& b) { return a.axis < b.axis; });
}

std::vector<pass> gaussian_passes(const tensor_base& x, std::span<const double> sigma, std::span<const Axis> axes,
                                  const gaussian_options& o, std::string_view op, std::int64_t derivative_axis = -1) {
    const auto pos = imaging::spatial_axes(x, axes_arg(axes), op);
    const std::vector<double> sig = per_axis<double>(sigma, pos.size(), op, "sigmas");
    std::vector<std::int64_t> order = per_axis_or<std::int64_t>(o.order, 0, pos.size(), op, "orders");
    if (derivative_axis >= 0)
        for (std::size_t i = 0; i < pos.size(); ++i) order[i] = static_cast<std::int64_t>(i) == derivative_axis;
    if (!(o.truncate >= 0.0) || !std::isfinite(o.truncate))
        throw_error(errc::invalid_argument, std::string(op) + ": truncate is " + number_text(o.truncate) +
                                                "; give a finite value >= 0 (the kernel's radius in sigmas)");
    std::vector<pass> passes;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (!(sig[i] >= 0.0) || !std::isfinite(sig[i]))
            throw_error(errc::invalid_argument, std::string(op) + ": sigma " + number_text(sig[i]) +
                                                    " along axis " + axis_text(x, pos[i]) + " (size " +
                                                    std::to_string(x.shape()[pos[i]]) +
                                                    "); give a finite sigma >= 0 (0 leaves the axis unfiltered)");
        if (order[i] < 0)
            throw_error(errc::invalid_argument, std::string(op) + ": derivative order " + std::to_string(order[i]) +
                                                    " along axis " + axis_text(x, pos[i]) + "; give an order >= 0");
        if (sig[i] <= 1e-15) continue;  // scipy skips such axes, whatever the order
        const auto radius = static_cast<std::int64_t>(o.truncate * sig[i] + 0.5);
        pass p;
        p.axis = pos[i];
        p.w = gaussian_kernel(sig[i], order[i], radius);
        std::reverse(p.w.begin(), p.w.end());  // gaussian_filter1d correlates with the reversed kernel
        p.taps = 2 * radius + 1;
        p.before = radius;
        passes.push_back(std::move(p));
    }
    sort_by_axis(passes);
    return passes;
}

/// Passes of a box filter of `size` (uniform, minimum, maximum); size 1 axes are left out.
std::vector<pass> box_passes(const tensor_base& x, pass_kind kind, std::span<const std::int64_t> size,
                             std::span<const Axis> axes, const filter_options& o, std::string_view op,
                             std::vector<std::size_t>* positions = nullptr, std::vector<std::int64_t>* sizes = nullptr,
                             std::vector<std::int64_t>* befores = nullptr) {
    const auto pos = imaging::spatial_axes(x, axes_arg(axes), op);
    const std::vector<std::int64_t> sz = per_axis<std::int64_t>(size, pos.size(), op, "sizes");
    const std::vector<std::int64_t> origin = per_axis_or<std::int64_t>(o.origin, 0, pos.size(), op, "origins");
    std::vector<pass> passes;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        if (sz[i] < 1)
            throw_error(errc::invalid_argument, std::string(op) + ": size " + std::to_string(sz[i]) + " along axis " +
                                                    axis_text(x, pos[i]) + " (size " +
                                                    std::to_string(x.shape()[pos[i]]) + "); give a size >= 1");
        const std::int64_t half = sz[i] / 2;
        if (origin[i] < -half || origin[i] > (sz[i] - 1) / 2)
            throw_error(errc::invalid_argument,
                        std::string(op) + ": origin " + std::to_string(origin[i]) + " along axis " +
                            axis_text(x, pos[i]) + " for a window of " + std::to_string(sz[i]) +
                            "; give an origin in [" + std::to_string(-half) + ", " + std::to_string((sz[i] - 1) / 2) +
                            "]");
        if (positions) {
            positions->push_back(pos[i]);
            sizes->push_back(sz[i]);
            befores->push_back(half + origin[i]);
        }
        if (sz[i] == 1) continue;
        pass p;
        p.axis = pos[i];
        p.kind = kind;
        p.taps = sz[i];
        p.before = half + origin[i];
        passes.push_back(std::move(p));
    }
    sort_by_axis(passes);
    return passes;
}

// --- the rank filter -------------------------------------------------------------

// The element of rank `size / 2` of each box (scipy's median_filter): every output
// gathers its box through the boundary rule and selects. O(box) per element.
template <class T>
void median_boxes(const tensor_base& xc, tensor_base& out, const std::vector<std::size_t>& pos,
                  const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& befores, boundary mode,
                  double cval) {
    // scipy selects among doubles: the input's values, and the constant converted to the
    // input's type first (toward zero, wrapping; bool as its byte), then the pick is
    // converted back as its outputs are (so a uint64 constant of 2^64 - 2, which is
    // 2^64 as a double, comes back as 0, as on scipy's x86).
    using S = stage_t<T>;
    using V = work_t<T>;
    const V outside_value = [&] {
        if constexpr (std::is_integral_v<T>) return static_cast<V>(truncate_to<S>(cval));
        else return static_cast<V>(cval);
    }();
    const auto store = [](V v) -> T {
        if constexpr (std::is_same_v<T, bool>) return truncate_to<S>(v) != 0;
        else if constexpr (std::is_integral_v<T>) return truncate_to<S>(v);
        else return static_cast<T>(v);
    };
    const auto shape = xc.shape();
    const std::size_t rank = shape.size(), k = pos.size();
    std::vector<std::int64_t> stride(rank, 1);
    for (std::size_t a = rank; a-- > 1;) stride[a - 1] = stride[a] * shape[a];
    std::int64_t box = 1;
    for (std::int64_t s : sizes) box *= s;
    // source[i][j][t]: where tap t of output j along spatial axis i reads (-1: cval).
    std::vector<std::vector<std::int64_t>> source(k);
    for (std::size_t i = 0; i < k; ++i) {
        const std::int64_t n = shape[pos[i]];
        source[i].resize(static_cast<std::size_t>(n * sizes[i]));
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t t = 0; t < sizes[i]; ++t)
                source[i][j * sizes[i] + t] = imaging::boundary_index(mode, j - befores[i] + t, n);
    }
    std::vector<bool> spatial(rank, false);
    for (std::size_t a : pos) spatial[a] = true;
    // Inside, where no tap crosses an edge, a box is fixed offsets from its element.
    std::vector<std::int64_t> offset;
    {
        std::vector<std::int64_t> tap(k, 0);
        for (std::int64_t v = 0; v < box; ++v) {
            std::int64_t at = 0;
            for (std::size_t i = 0; i < k; ++i) at += (tap[i] - befores[i]) * stride[pos[i]];
            offset.push_back(at);
            for (std::size_t i = k; i-- > 0;) {
                if (++tap[i] < sizes[i]) break;
                tap[i] = 0;
            }
        }
    }
    const T* in = reinterpret_cast<const T*>(xc.data());
    T* o = reinterpret_cast<T*>(out.data());
    const std::int64_t count = xc.size();
    auto run = [&](std::int64_t first, std::int64_t last) {
        std::vector<V> values(static_cast<std::size_t>(box));
        std::vector<std::int64_t> index(rank), tap(k);
        for (std::int64_t e = first; e < last; ++e) {
            std::int64_t rest = e, batch = 0;
            for (std::size_t a = rank; a-- > 0;) {
                index[a] = rest % shape[a];
                rest /= shape[a];
                if (!spatial[a]) batch += index[a] * stride[a];
            }
            bool inside = true;
            for (std::size_t i = 0; i < k; ++i) {
                const std::int64_t j = index[pos[i]] - befores[i];
                inside = inside && j >= 0 && j + sizes[i] <= shape[pos[i]];
            }
            if (inside) {
                for (std::int64_t v = 0; v < box; ++v) values[v] = static_cast<V>(in[e + offset[v]]);
                auto mid = values.begin() + box / 2;
                std::nth_element(values.begin(), mid, values.end());
                o[e] = store(*mid);
                continue;
            }
            std::fill(tap.begin(), tap.end(), 0);
            for (std::int64_t v = 0; v < box; ++v) {
                std::int64_t at = batch;
                bool outside = false;
                for (std::size_t i = 0; i < k; ++i) {
                    const std::int64_t s = source[i][index[pos[i]] * sizes[i] + tap[i]];
                    if (s < 0) outside = true;
                    at += s * stride[pos[i]];
                }
                values[v] = outside ? outside_value : static_cast<V>(in[at]);
                for (std::size_t i = k; i-- > 0;) {
                    if (++tap[i] < sizes[i]) break;
                    tap[i] = 0;
                }
            }
            auto mid = values.begin() + box / 2;
            std::nth_element(values.begin(), mid, values.end());
            o[e] = store(*mid);
        }
    };
    if (want_parallel(count * box)) parallel_for(count, run);
    else run(0, count);
}

/// The rank filters record a node whose rule refuses: a gradient through a selection
/// is not guessed (a silent zero would hide the mistake).
void refuse_gradient(tensor_base& out, const tensor_base& x, std::string_view op) {
    const std::string name(op);
    attach_node(op, out, {&x}, [name](const any_tensor&) -> input_gradients {
        throw_error(errc::no_gradient, name + " has no backward rule (a rank filter selects an element); "
                                              "detach its input, or use gaussian_filter or uniform_filter, which "
                                              "have one");
    });
}

// numpy's sqrt loop type for an integer T (gaussian_gradient_magnitude casts through it).
template <class T>
using numpy_sqrt_t = std::conditional_t<(sizeof(T) == 1), half, std::conditional_t<(sizeof(T) == 2), float, double>>;

}  // namespace

// --- the public entry points -------------------------------------------------------

tensor_base gaussian_filter(const tensor_base& x, std::span<const double> sigma, std::span<const Axis> axes,
                            const gaussian_options& options) {
    const std::vector<pass> passes = gaussian_passes(x, sigma, axes, options, "gaussian_filter");
    return linear_passes(x, passes, options.mode, options.cval, false, "gaussian_filter");
}

tensor_base uniform_filter(const tensor_base& x, std::span<const std::int64_t> size, std::span<const Axis> axes,
                           const filter_options& options) {
    const std::vector<pass> passes = box_passes(x, pass_kind::uniform, size, axes, options, "uniform_filter");
    return linear_passes(x, passes, options.mode, options.cval, false, "uniform_filter");
}

tensor_base rank_filter(const tensor_base& x, rank_filter_kind kind, std::span<const std::int64_t> size,
                        std::span<const Axis> axes, const filter_options& options) {
    const char* op = kind == rank_filter_kind::median    ? "median_filter"
                     : kind == rank_filter_kind::minimum ? "minimum_filter"
                                                         : "maximum_filter";
    std::vector<std::size_t> pos;
    std::vector<std::int64_t> sizes, befores;
    std::vector<pass> passes = box_passes(x, kind == rank_filter_kind::maximum ? pass_kind::maximum : pass_kind::minimum,
                                          size, axes, options, op, &pos, &sizes, &befores);
    std::int64_t box = 1;
    for (std::int64_t s : sizes) box *= s;
    // scipy's median of a box of 1 or 2 is its minimum or maximum filter (rank 0 or
    // the last), which reads the constant as a double, not converted to the type.
    const bool select = kind == rank_filter_kind::median && box > 2;
    if (kind == rank_filter_kind::median && !select)
        for (pass& p : passes) p.kind = box == 2 ? pass_kind::maximum : pass_kind::minimum;
    tensor_base out;
    if (!select) {
        out = compute_passes(x, passes, options.mode, options.cval, false, op);
    } else {
        out = tensor_base::allocate(x.type(), x.shape(), x.names(), op);
        if (x.size() != 0) {
            const tensor_base xc = x.contiguous();
            visit_dtype(x.type(), [&](auto type) {
                using T = typename decltype(type)::type;
                median_boxes<T>(xc, out, pos, sizes, befores, options.mode, options.cval);
            });
        }
    }
    refuse_gradient(out, x, op);
    return out;
}

tensor_base sobel(const tensor_base& x, const Axis& axis, std::span<const Axis> axes, const sobel_options& options) {
    constexpr std::string_view op = "sobel";
    const auto pos = imaging::spatial_axes(x, axes_arg(axes), op);
    const std::size_t a = resolve_axis(axis, x.names(), op, x.shape());
    if (std::find(pos.begin(), pos.end(), a) == pos.end())
        throw_error(errc::invalid_argument, "sobel: axis " + axis.str() +
                                                " is not among the spatial axes; list it in the axes to filter over");
    std::vector<pass> passes;
    pass diff;
    diff.axis = a;
    diff.w = {-1.0, 0.0, 1.0};
    diff.taps = 3;
    diff.before = 1;
    passes.push_back(diff);
    std::vector<std::size_t> others;
    for (std::size_t p : pos)
        if (p != a) others.push_back(p);
    std::sort(others.begin(), others.end());  // scipy smooths in the array's axis order
    for (std::size_t p : others) {
        pass smooth = diff;
        smooth.axis = p;
        smooth.w = {1.0, 2.0, 1.0};
        passes.push_back(smooth);
    }
    return linear_passes(x, passes, options.mode, options.cval, false, op);
}

tensor_base gaussian_gradient_magnitude(const tensor_base& x, std::span<const double> sigma,
                                        std::span<const Axis> axes, const gaussian_options& options) {
    constexpr std::string_view op = "gaussian_gradient_magnitude";
    const auto pos = imaging::spatial_axes(x, axes_arg(axes), op);
    // scipy sums the derivatives in the array's axis order.
    std::vector<std::size_t> order(pos.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) { return pos[l] < pos[r]; });
    std::vector<std::vector<pass>> derivatives;
    for (std::size_t i : order)
        derivatives.push_back(gaussian_passes(x, sigma, axes, options, op, static_cast<std::int64_t>(i)));
    if (x.type() == dtype::f16 || x.type() == dtype::f32 || x.type() == dtype::f64) {
        // Built from recorded operations: its gradient follows.
        std::optional<any_tensor> total;
        for (const auto& passes : derivatives) {
            const any_tensor d(linear_passes(x, passes, options.mode, options.cval, false, "gaussian_filter"));
            total = total ? *total + d * d : d * d;
        }
        return nt::sqrt(*total).base();
    }
    // Integer images: numpy's arithmetic in the input type (squares and sums wrap),
    // then its sqrt (in float16, float or double by the type's size), cast back.
    tensor_base out = tensor_base::allocate(x.type(), x.shape(), x.names(), op);
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (std::is_integral_v<T>) {
            const std::int64_t count = x.size();
            T* o = reinterpret_cast<T*>(out.data());
            std::vector<T> acc(static_cast<std::size_t>(count), T(0));
            // NumPy's integer arithmetic wraps (in 64 bits first: two promoted shorts
            // may overflow int); bool's product is "and", its sum "or".
            using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>>;
            const auto wrap = [](std::uint64_t v) { return static_cast<T>(static_cast<U>(v)); };
            bool first = true;
            for (const auto& passes : derivatives) {
                const tensor_base d = compute_passes(x, passes, options.mode, options.cval, false, op);
                const T* dv = reinterpret_cast<const T*>(d.data());
                for (std::int64_t e = 0; e < count; ++e) {
                    if constexpr (std::is_same_v<T, bool>) {
                        acc[e] = first ? dv[e] : (acc[e] || dv[e]);
                    } else {
                        const std::uint64_t u = static_cast<U>(dv[e]);
                        const T square = wrap(u * u);
                        acc[e] = first ? square : wrap(std::uint64_t{static_cast<U>(acc[e])} + static_cast<U>(square));
                    }
                }
                first = false;
            }
            for (std::int64_t e = 0; e < count; ++e) {
                if constexpr (std::is_same_v<T, bool>) {
                    o[e] = acc[e];
                } else {
                    // NumPy's sqrt of T: in R (float16's computes in float), cast back.
                    using R = numpy_sqrt_t<T>;
                    using C = std::conditional_t<std::is_same_v<R, double>, double, float>;
                    const R sum = static_cast<R>(acc[e]);
                    const double root = static_cast<double>(static_cast<R>(std::sqrt(static_cast<C>(sum))));
                    o[e] = truncate_to<T>(root);  // NaN, the root of a wrapped negative sum, included
                }
            }
        }
    });
    return out;
}

}  // namespace nt::detail
