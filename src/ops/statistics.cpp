// The line-wise algorithms of nt/statistics.hpp: cumulative sums and products,
// variance, median and quantiles. Each works on a contiguous copy whose processed
// axis (or reduced axes) comes last, so every line is a contiguous run; the element
// type is dispatched once per call. The sorts are in sort.cpp.
#include <algorithm>
#include <charconv>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "allocator.hpp"
#include "element_types.hpp"
#include "graph.hpp"
#include "nt/any_tensor.hpp"
#include "nt/elementwise.hpp"
#include "line_algorithms.hpp"
#include "engine_reduce.hpp"
#include "nt/error.hpp"
#include "nt/names.hpp"
#include "nt/reduce.hpp"
#include "nt/sort.hpp"
#include "nt/statistics.hpp"

namespace nt::detail {
using namespace lines;

namespace {

// Integer running sums and products wrap (two's complement), as NumPy's.
template <class T>
T wrapping_add(T a, T b) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
        return static_cast<T>(a + b);
    }
}
template <class T>
T wrapping_mul(T a, T b) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    } else {
        return static_cast<T>(a * b);
    }
}

// --- the values-only sort: LSD radix on order-preserving unsigned keys ----------------

}  // namespace

// --- cumsum / cumprod ------------------------------------------------------------------

namespace {

/// Running sums (or products) along the middle axis of a C-contiguous (outer, n, inner)
/// block, from `in` into `p` (in == p: in place): each line accumulates in order, as
/// NumPy's. Lines are independent,
/// so several advance together (eight interleaved rows when inner == 1, whole rows of
/// columns otherwise), which hides the add's latency, and the pool takes line groups.
template <class T>
void scan_lines(T* p, const T* in, std::int64_t outer, std::int64_t n, std::int64_t inner, bool product) {
    auto step = [product](T prev, T x) { return product ? wrapping_mul<T>(prev, x) : wrapping_add<T>(prev, x); };
    if (inner == 1) {
        constexpr std::int64_t group = 8, tile_width = 64;
        auto rows = [&](std::int64_t r0, std::int64_t r1) {
            std::int64_t r = r0;
            for (; r + group <= r1; r += group) {
                T* q = p + r * n;
                const T* x = in + r * n;
                // Eight rows advance together through a transposed tile: the rows are
                // read and written in contiguous runs (rows a power of two apart would
                // share cache sets, element by element), and the eight running values
                // sit in one vector.
                T acc[group];  // from each row's first element (0 + -0.0 would lose the sign)
                for (std::int64_t k = 0; k < group; ++k) q[k * n] = acc[k] = x[k * n];
                alignas(64) T tile[tile_width][group];
                for (std::int64_t i0 = 1; i0 < n; i0 += tile_width) {
                    const std::int64_t w = std::min(tile_width, n - i0);
                    for (std::int64_t k = 0; k < group; ++k)
                        for (std::int64_t i = 0; i < w; ++i) tile[i][k] = x[k * n + i0 + i];
                    for (std::int64_t i = 0; i < w; ++i)
                        for (std::int64_t k = 0; k < group; ++k) tile[i][k] = acc[k] = step(acc[k], tile[i][k]);
                    for (std::int64_t k = 0; k < group; ++k)
                        for (std::int64_t i = 0; i < w; ++i) q[k * n + i0 + i] = tile[i][k];
                }
            }
            for (; r < r1; ++r) {
                T* q = p + r * n;
                const T* x = in + r * n;
                T acc = q[0] = x[0];
                for (std::int64_t i = 1; i < n; ++i) q[i] = acc = step(acc, x[i]);
            }
        };
        if (want_parallel(outer * n) && outer >= 2 * group) {
            const std::int64_t groups = (outer + group - 1) / group;
            parallel_for(groups, [&](std::int64_t g0, std::int64_t g1) { rows(g0 * group, std::min(outer, g1 * group)); });
        } else {
            rows(0, outer);
        }
        return;
    }
    // Columns in blocks, so two threads can share one (n, inner) plane.
    constexpr std::int64_t block = 2048;
    const std::int64_t blocks = (inner + block - 1) / block;
    auto planes = [&](std::int64_t u0, std::int64_t u1) {
        for (std::int64_t u = u0; u < u1; ++u) {
            const std::int64_t o = u / blocks, j0 = (u % blocks) * block, j1 = std::min(inner, j0 + block);
            T* q = p + o * n * inner;
            const T* x = in + o * n * inner;
            if (x != q) std::copy(x + j0, x + j1, q + j0);
            for (std::int64_t i = 1; i < n; ++i) {
                T* cur = q + i * inner;
                const T* prev = cur - inner;
                const T* add = x + i * inner;
                for (std::int64_t j = j0; j < j1; ++j) cur[j] = step(prev[j], add[j]);
            }
        }
    };
    if (want_parallel(outer * n * inner) && outer * blocks > 1) parallel_for(outer * blocks, planes);
    else planes(0, outer * blocks);
}

}  // namespace

tensor_base cumulate_values(const tensor_base& t, const Axis& axis, bool product, dtype result, std::string_view op) {
    const std::size_t a = axis_index(t, axis, op);
    // The scan reads a C-contiguous input of the result's type where it lies; any other
    // is first converted into the result by the library's casts (bool -> 0/1, integers
    // widen) and scanned there.
    tensor_base out = tensor_base::allocate(result, t.shape(), t.names(), op);
    const bool direct = t.type() == result && t.is_contiguous();
    if (!direct) out.assign(t);
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < t.rank(); ++d) {
        if (d < a) outer *= t.shape()[d];
        if (d > a) inner *= t.shape()[d];
    }
    const std::int64_t n = t.rank() ? t.shape()[a] : 1;
    if (out.size() > 0) {
        on_type(out, [&](auto type) {
            using T = typename decltype(type)::type;
            if constexpr (!std::is_same_v<T, bool>)
                scan_lines(elements<T>(out), direct ? elements<const T>(t) : elements<const T>(out), outer, n, inner,
                           product);
        });
    }
    return out;
}

// --- median and quantiles ----------------------------------------------------------------

namespace {

/// The shortest text that reads back as `v` ("101", "1.01", "nan").
std::string number_text(double v) {
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
    return ec == std::errc() ? std::string(text, end) : std::to_string(v);
}

}  // namespace

void check_quantile(double q, std::string_view op) {
    if (!(q >= 0.0 && q <= 1.0))
        throw_error(errc::invalid_argument,
                    std::string(op) + ": the quantile " + number_text(q) +
                        " is outside [0, 1]. Fix: pass a fraction in [0, 1] (quantile), or a percentage in "
                        "[0, 100] to percentile");
}

void check_percentile(double p) {
    // Checked as given, not as p / 100: the message names the caller's number.
    if (!(p >= 0.0 && p <= 100.0))
        throw_error(errc::invalid_argument,
                    "percentile: the percentile " + number_text(p) +
                        " is outside [0, 100]. Fix: pass a percentage in [0, 100] (percentile), or a fraction in "
                        "[0, 1] to quantile");
}

tensor_base variance_values(const tensor_base& t, axes_arg axes, bool every_axis, std::int64_t ddof, bool keepdims,
                            bool root, std::string_view op) {
    reduction_shape rs;
    plan_reduction(op, reduce_op::sum, t.spec(), axes, every_axis, keepdims, rs);
    std::int64_t n = 1;
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (rs.reduced[a]) n *= t.shape()[a];
    const dims out_shape = rs.result.sizes();
    small_vector<name, 8> out_names;
    for (const axis_spec& ax : rs.result) out_names.push_back(ax.name);
    dtype result = dtype::f64;
    on_type(t, [&](auto type) { result = dtype_of<reduce_result_t<reduce_op::mean, typename decltype(type)::type>>; });
    // half computes in float (as NumPy's float16 loops), everything else in the result type.
    const dtype compute = result == dtype::f16 ? dtype::f32 : result;
    tensor_base out = tensor_base::allocate(compute, out_shape.span(), out_names.span(), op);
    finish_reduction(rs, out.strides(), rs);
    const std::int64_t count = out.size();
    on_type(t, [&](auto type) {
        using T = typename decltype(type)::type;
        auto run = [&](auto* dst) {
            using F = std::remove_pointer_t<decltype(dst)>;
            const T* src = elements<const T>(t);
            // Two passes (NumPy's method), so a large mean does not cancel the variance
            // away as E[x^2] - E[x]^2 would: the mean first, then the squared deviations
            // from it, folded straight from the input.
            reduce<F, T>(t.shape(), dst, rs.output_strides, src, t.strides(), sum_op<F>{});
            const F items = static_cast<F>(n);
            for (std::int64_t i = 0; i < count; ++i) dst[i] /= items;
            const scratch_buffer centre(static_cast<std::size_t>(count) * sizeof(F));  // laid out as dst
            std::copy(dst, dst + count, centre.as<F>());
            sq_dev_op<F> deviations;
            deviations.centre = centre.as<const char>();
            reduce<F, T>(t.shape(), dst, rs.output_strides, src, t.strides(), deviations);
            // NumPy clamps the divisor at 0: n <= ddof gives inf, or NaN for a zero sum.
            const F divisor = static_cast<F>(std::max<std::int64_t>(n - ddof, 0));
            for (std::int64_t i = 0; i < count; ++i) {
                dst[i] /= divisor;
                if (root && compute == result) dst[i] = std::sqrt(dst[i]);
            }
        };
        if (compute == dtype::f64) run(elements<double>(out));
        else run(elements<float>(out));
    });
    if (compute == result) return out;
    tensor_base narrowed = tensor_base::allocate(result, out_shape.span(), out_names.span(), op);
    narrowed.assign(out);
    // half rounds the variance first, as sqrt(var(t)) would.
    return root ? nt::sqrt(Tensor<half>(narrowed)).base() : narrowed;
}

namespace {

/// np.median of one sorted row (NaN last): NaN for an empty row or one with a NaN.
template <class T>
double median_of_sorted(const T* row, std::int64_t n) {
    if (n == 0 || is_nan(row[n - 1])) return std::nan("");
    const std::int64_t h = n / 2;
    if (n % 2) return static_cast<double>(row[h]);
    // NumPy takes the mean of the two middle elements: their sum, halved.
    return (static_cast<double>(row[h - 1]) + static_cast<double>(row[h])) / 2.0;
}

/// The ranks np.quantile(q, method="linear") reads in n sorted values: lo and hi =
/// lo or lo + 1, and the weight of hi (NumPy 1.24's virtual index (n - 1) * q).
struct quantile_ranks {
    std::int64_t lo = 0, hi = 0;
    double previous = 0, gamma = 0;
};
quantile_ranks ranks_of(std::int64_t n, double q) {
    quantile_ranks k;
    const double virtual_index = static_cast<double>(n - 1) * q;
    k.previous = std::floor(virtual_index);
    k.lo = static_cast<std::int64_t>(k.previous);
    k.hi = k.lo + 1;
    if (virtual_index >= static_cast<double>(n - 1)) {
        k.previous = -1;
        k.lo = k.hi = n - 1;
    } else if (virtual_index < 0) {
        k.previous = 0;
        k.lo = k.hi = 0;
    }
    k.gamma = virtual_index - k.previous;
    return k;
}

/// np.quantile(row, q) by method "linear", step by step as NumPy 1.24 computes it
/// (NumPy's _lerp), so that results agree to the bit. Reads ranks lo and hi only.
template <class T>
double quantile_of_sorted(const T* row, std::int64_t n, double q) {
    if (is_nan(row[n - 1])) return std::nan("");
    const quantile_ranks k = ranks_of(n, q);
    // The difference is taken in the element type (as NumPy's subtract), then widened.
    double diff;
    if constexpr (is_float_like<T>) diff = static_cast<double>(static_cast<T>(row[k.hi] - row[k.lo]));
    else diff = static_cast<double>(row[k.hi]) - static_cast<double>(row[k.lo]);
    const double a = static_cast<double>(row[k.lo]), b = static_cast<double>(row[k.hi]);
    return k.gamma >= 0.5 ? b - diff * (1.0 - k.gamma) : a + diff * k.gamma;
}

/// Whether row[0, n) holds a NaN: blocks without a branch per element, which the
/// compiler turns into vector compares.
template <class T>
bool holds_nan(const T* row, std::int64_t n) {
    if constexpr (!is_float_like<T>) {
        return false;
    } else if constexpr (std::is_same_v<T, half>) {
        return std::any_of(row, row + n, [](T x) { return is_nan(x); });
    } else {
        constexpr std::int64_t block = 1024;
        for (std::int64_t i = 0; i < n; i += block) {
            const std::int64_t end = std::min(n, i + block);
            bool nan = false;
            for (std::int64_t j = i; j < end; ++j) nan |= row[j] != row[j];
            if (nan) return true;
        }
        return false;
    }
}

/// Puts the values of ranks lo and lo + 1 (hi) of row[0, n), which holds no NaN, at
/// those positions, as a sort would, in O(n): a selection, then the smallest of the rest.
template <class T>
void select_ranks(T* row, std::int64_t n, std::int64_t lo, std::int64_t hi) {
    std::nth_element(row, row + lo, row + n, ascending_numbers<T>);
    if (hi > lo) std::iter_swap(row + hi, std::min_element(row + hi, row + n, ascending_numbers<T>));
}

}  // namespace

tensor_base order_statistic_values(const tensor_base& t, double q, axes_arg axes, bool every_axis, bool keepdims,
                                   dtype result, std::string_view op) {
    reduction_shape rs;
    plan_reduction(op, reduce_op::sum, t.spec(), axes, every_axis, keepdims, rs);
    // Kept axes first, reduced ones last: each result element is one contiguous row.
    std::vector<Axis> order;
    std::int64_t n = 1;
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (!rs.reduced[a]) order.push_back(static_cast<std::int64_t>(a));
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (rs.reduced[a]) {
            order.push_back(static_cast<std::int64_t>(a));
            n *= t.shape()[a];
        }
    if (q >= 0 && n == 0)
        throw_error(errc::invalid_argument, std::string(op) + " of " + t.describe() +
                                                " reduces over zero elements. Fix: check that the reduced axes "
                                                "are not empty");
    tensor_base rows = t.permute(std::span<const Axis>(order.data(), order.size())).clone();
    const dims out_shape = rs.result.sizes();
    small_vector<name, 8> out_names;
    for (const axis_spec& ax : rs.result) out_names.push_back(ax.name);
    tensor_base out = tensor_base::allocate(dtype::f64, out_shape.span(), out_names.span(), op);
    const std::int64_t count = out.size();
    double* dst = elements<double>(out);
    on_type(rows, [&](auto type) {
        using T = typename decltype(type)::type;
        T* row = elements<T>(rows);
        for (std::int64_t r = 0; r < count; ++r, row += n) {
            // A NaN anywhere gives NaN; otherwise only the ranks read are selected
            // (no full sort), and the formulas read them where a sort puts them.
            if (holds_nan(row, n)) {
                dst[r] = std::nan("");
                continue;
            }
            if (q < 0) {
                if (n > 0) select_ranks(row, n, n % 2 ? n / 2 : n / 2 - 1, n / 2);
                dst[r] = median_of_sorted(row, n);
            } else {
                const quantile_ranks k = ranks_of(n, q);
                select_ranks(row, n, k.lo, k.hi);
                dst[r] = quantile_of_sorted(row, n, q);
            }
        }
    });
    if (result == dtype::f64) return out;
    tensor_base narrowed = tensor_base::allocate(result, out_shape.span(), out_names.span(), op);
    narrowed.assign(out);
    return narrowed;
}

// --- the backward rules ---------------------------------------------------------------------
// Written with ntensor's own operations, so that they record when the backward pass
// does (second derivatives). An operation on a tensor outside any graph takes the
// first test of each function and nothing else.

namespace {

bool floating(dtype d) { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

/// The reduced axes of `rs` as a list, and a reduction result's gradient reshaped back
/// to the input's rank (size 1 on the reduced axes, the input's names).
std::vector<Axis> reduced_axes(const reduction_shape& rs, std::size_t rank) {
    std::vector<Axis> out;
    for (std::size_t a = 0; a < rank; ++a)
        if (rs.reduced[a]) out.emplace_back(static_cast<std::int64_t>(a));
    return out;
}
any_tensor with_reduced_axes(const any_tensor& g, const spec& input, const std::vector<Axis>& axes) {
    dims sizes;
    name_list names;
    for (std::size_t a = 0; a < input.rank(); ++a) {
        const auto at = static_cast<std::int64_t>(a);
        const bool reduced = std::any_of(axes.begin(), axes.end(), [&](const Axis& x) { return x.index() == at; });
        sizes.push_back(reduced ? 1 : input.size(a));
        names.push_back(input.name(a));
    }
    return g.reshape(sizes.span(), names.span());
}

}  // namespace

tensor_base cumulate(const tensor_base& t, const Axis& axis, bool product, dtype result, std::string_view op) {
    if (!records(t) || !floating(result)) [[likely]]
        return cumulate_values(t, axis, product, result, op);
    tensor_base out = cumulate_values(t.without_grad_node(), axis, product, result, op);
    const std::int64_t a = static_cast<std::int64_t>(axis_index(t, axis, op));
    const dtype input_type = t.type();
    // The node first: the saved result refers to it.
    attach_node(op, out, {&t}, nullptr);
    const saved_tensor x = product ? saved_tensor::input(t) : saved_tensor();
    const saved_tensor y = product ? saved_tensor::output(out) : saved_tensor();
    out.grad_node()->rule = [=](const any_tensor& g) -> input_gradients {
        const Axis ax(a);
        // The sum of g over the positions at and after each one: a reversed cumsum.
        auto from_here = [&](const any_tensor& v) { return nt::cumsum(v.flip({ax}), ax).flip({ax}); };
        if (!product) {
            const any_tensor r = from_here(g);
            return {r.dtype() == input_type ? r : r.astype(input_type)};
        }
        // cumprod: before a row's first zero, sum_{j >= k} g_j y_j / x_k. At the first
        // zero, the products that skip it: y_{k-1} times the running product of what
        // follows (the cumprod of the row with that zero replaced by 1). After it, 0.
        const any_tensor xv = x.get(), yv = y.get();
        const any_tensor is_zero = xv == 0.0;
        const any_tensor zeros_so_far = nt::cumsum(is_zero.astype(xv.dtype()), ax);
        const any_tensor before = zeros_so_far == 0.0;
        const any_tensor first_zero = is_zero & (zeros_so_far == 1.0);
        const any_tensor plain = nt::where(before, from_here(g * yv) / nt::where(before, xv, 1.0), 0.0);
        const any_tensor skipped = nt::cumprod(nt::where(first_zero, 1.0, xv), ax);
        const any_tensor at_zero = nt::sum(nt::where(zeros_so_far >= 1.0, g * skipped, 0.0), axes_arg({ax}), true);
        const any_tensor r = plain + nt::where(first_zero, at_zero, 0.0);
        return {r.dtype() == input_type ? r : r.astype(input_type)};
    };
    return out;
}

tensor_base variance(const tensor_base& t, axes_arg axes, bool every_axis, std::int64_t ddof, bool keepdims, bool root,
                     std::string_view op) {
    if (!records(t)) [[likely]]
        return variance_values(t, axes, every_axis, ddof, keepdims, root, op);
    tensor_base out = variance_values(t.without_grad_node(), axes, every_axis, ddof, keepdims, root, op);
    if (!floating(out.type())) return out;
    reduction_shape rs;
    plan_reduction(op, reduce_op::sum, t.spec(), axes, every_axis, keepdims, rs);
    const std::vector<Axis> reduced = reduced_axes(rs, t.rank());
    std::int64_t n = 1;
    for (const Axis& a : reduced) n *= t.shape()[static_cast<std::size_t>(a.index())];
    const spec input = t.spec();
    const dtype input_type = t.type();
    attach_node(op, out, {&t}, nullptr);  // the node first: the saved result refers to it
    const saved_tensor x = saved_tensor::input(t);
    const saved_tensor y = root ? saved_tensor::output(out) : saved_tensor();
    const double divisor = static_cast<double>(std::max<std::int64_t>(n - ddof, 0));
    out.grad_node()->rule = [=](const any_tensor& g) -> input_gradients {
        // d var / d x = 2 (x - mean) / (n - ddof); d std / d x = (x - mean) / ((n - ddof) std).
        const any_tensor xv = x.get();
        const any_tensor centred = reduced.empty() ? xv - xv : xv - nt::mean(xv, axes_arg(reduced), true);
        const any_tensor ge = with_reduced_axes(g, input, reduced);
        const any_tensor r = root ? ge * centred / (with_reduced_axes(y.get(), input, reduced) * divisor)
                                  : ge * centred * (2.0 / divisor);
        return {r.dtype() == input_type ? r : r.astype(input_type)};
    };
    return out;
}

tensor_base order_statistic(const tensor_base& t, double q, axes_arg axes, bool every_axis, bool keepdims,
                            dtype result, std::string_view op) {
    if (!records(t) || !floating(result)) [[likely]]
        return order_statistic_values(t, q, axes, every_axis, keepdims, result, op);
    const tensor_base plain = t.without_grad_node();
    tensor_base out = order_statistic_values(plain, q, axes, every_axis, keepdims, result, op);
    reduction_shape rs;
    plan_reduction(op, reduce_op::sum, t.spec(), axes, every_axis, keepdims, rs);
    // The rows as the forward pass reads them: kept axes, then the reduced ones merged.
    std::vector<Axis> axis_order;
    dims row_sizes, split_sizes;
    std::int64_t n = 1;
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (!rs.reduced[a]) {
            axis_order.emplace_back(static_cast<std::int64_t>(a));
            row_sizes.push_back(t.shape()[a]);
            split_sizes.push_back(t.shape()[a]);
        }
    const std::size_t kept = axis_order.size();
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (rs.reduced[a]) {
            axis_order.emplace_back(static_cast<std::int64_t>(a));
            n *= t.shape()[a];
            split_sizes.push_back(t.shape()[a]);
        }
    if (n == 0) return out;  // NaN results (median of nothing): no element to send a gradient to
    row_sizes.push_back(n);
    const name_list unnamed_rows(row_sizes.size(), name{});
    const tensor_base rows = plain.permute(std::span<const Axis>(axis_order.data(), axis_order.size()))
                                 .clone()
                                 .reshape(row_sizes.span(), unnamed_rows.span(), order::c);
    // The ranks the value reads, their weights (the value is lo + (hi - lo) w, NumPy's
    // linear interpolation; the median is the quantile 1/2), and where they sit in each
    // row: a stable argsort, so that among ties the element of that rank in the stable
    // order takes the gradient, the one torch.median(dim) and torch.quantile pick.
    const quantile_ranks k = ranks_of(n, q < 0 ? 0.5 : q);
    const std::int64_t lo = k.lo, hi = k.hi;
    const double w_hi = hi == lo ? 0.0 : k.gamma, w_lo = hi == lo ? 1.0 : 1.0 - k.gamma;
    const tensor_base sorted_at = sort_along(rows, Axis(-1), true, op);
    dims pick_sizes(row_sizes);
    pick_sizes.back() = 1;
    tensor_base at_lo = tensor_base::allocate(dtype::i64, pick_sizes.span(), unnamed_rows.span(), op);
    tensor_base at_hi = tensor_base::allocate(dtype::i64, pick_sizes.span(), unnamed_rows.span(), op);
    {
        const std::int64_t* src = elements<const std::int64_t>(sorted_at);
        std::int64_t* dlo = elements<std::int64_t>(at_lo);
        std::int64_t* dhi = elements<std::int64_t>(at_hi);
        for (std::int64_t r = 0; r < at_lo.size(); ++r) {
            dlo[r] = src[r * n + lo];
            dhi[r] = src[r * n + hi];
        }
    }
    // The median of the whole tensor, where it is one of the elements: PyTorch 1.13
    // shares its gradient evenly among the elements equal to it (torch.median()).
    tensor_base share;
    bool sharing = false;
    if (q < 0 && every_axis) {
        on_type(rows, [&](auto type) {
            using T = typename decltype(type)::type;
            const T* x = elements<const T>(rows);
            const std::int64_t* lo_at = elements<const std::int64_t>(at_lo);
            const std::int64_t* hi_at = elements<const std::int64_t>(at_hi);
            const double value = static_cast<double>(x[lo_at[0]]);
            if (hi != lo && w_hi != 0.0 && static_cast<double>(x[hi_at[0]]) != value) return;
            if (std::isnan(value)) return;
            share = tensor_base::allocate(out.type(), row_sizes.span(), unnamed_rows.span(), op);
            sharing = true;
            std::int64_t count = 0;
            for (std::int64_t i = 0; i < n; ++i) count += static_cast<double>(x[i]) == value ? 1 : 0;
            visit_dtype(out.type(), [&](auto out_type) {
                using R = typename decltype(out_type)::type;
                R* w = elements<R>(share);
                for (std::int64_t i = 0; i < n; ++i)
                    w[i] = static_cast<R>(static_cast<double>(x[i]) == value ? 1.0 / static_cast<double>(count) : 0.0);
            });
        });
    }
    std::vector<std::int64_t> inverse(axis_order.size());
    for (std::size_t p = 0; p < axis_order.size(); ++p)
        inverse[static_cast<std::size_t>(axis_order[p].index())] = static_cast<std::int64_t>(p);
    const name_list input_names(t.names());
    const dtype input_type = t.type();
    const std::string op_name(op);
    attach_node(op, out, {&t}, [=](const any_tensor& g) -> input_gradients {
        const std::size_t last = kept;
        const any_tensor ge = g.reshape(pick_sizes.span(), unnamed_rows.span());
        any_tensor r;
        if (sharing) {
            r = ge * any_tensor(share);
        } else {
            r = any_tensor(put_along((w_lo == 1.0 ? ge : ge * w_lo).base(), at_lo, last, n, op_name));
            if (w_hi != 0.0) r = r + any_tensor(put_along((ge * w_hi).base(), at_hi, last, n, op_name));
        }
        const name_list unnamed_split(split_sizes.size(), name{});
        r = r.reshape(split_sizes.span(), unnamed_split.span()).permute(inverse).rename(input_names.span());
        return {r.dtype() == input_type ? r : r.astype(input_type)};
    });
    return out;
}

// --- sort, argsort, top-k, unique --------------------------------------------------------------

}  // namespace nt::detail
