// nt/statistics.hpp: statistics over axes given by index or name: variance and
// standard deviation, NaN-ignoring reductions, cumulative sums and products,
// median and quantiles, and counts of non-zero elements.
//
//     auto img = nt::ones<float>({8, 3, 64, 64}, {"N", "C", "H", "W"});
//     auto per_channel = nt::stddev(img, {"N", "H", "W"});      // (3 | C)
//     auto q = nt::quantile(img, 0.99, {"H", "W"}, true);        // (8,3,1,1 | N,C,H,W)
//
// Names follow the reductions' rule: reduced axes drop out with their names
// (keepdims keeps them with size 1); cumsum and cumprod keep every axis. Results are
// new tensors. Result types are NumPy's (see each function).
// Throws axis_out_of_range (unknown axis), invalid_argument (an axis listed twice, a
// quantile outside [0, 1], nanmin/nanmax of an empty reduction).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/elementwise.hpp"
#include "nt/reduce.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {

/// cumsum / cumprod along `axis` into a new tensor of type `result` (the input
/// converted first); integer results wrap, as NumPy's.
[[nodiscard]] tensor_base cumulate(const tensor_base& t, const Axis& axis, bool product, dtype result,
                                   std::string_view op);

/// Per reduced row: the median (quantile < 0) or the linear quantile `q`, as NumPy's
/// median and quantile (method "linear") compute them, into a new tensor of type
/// `result`. A row holding a NaN gives NaN.
[[nodiscard]] tensor_base order_statistic(const tensor_base& t, double q, axes_arg axes, bool every_axis,
                                          bool keepdims, dtype result, std::string_view op);

/// Throws invalid_argument unless 0 <= q <= 1 (naming the op and the value).
void check_quantile(double q, std::string_view op);
/// invalid_argument naming `p` unless 0 <= p <= 100.
void check_percentile(double p);

/// var (or, with `root`, stddev) over `axes` into a new tensor of the type nt::mean
/// gives: two passes over `t` (the mean, then the squared deviations from it).
[[nodiscard]] tensor_base variance(const tensor_base& t, axes_arg axes, bool every_axis, std::int64_t ddof,
                                   bool keepdims, bool root, std::string_view op);

template <class T>
Tensor<T> nan_as(const Tensor<T>& t, T value) {
    return nt::where(t != t, nt::scalar(value), t);
}

}  // namespace detail

// --- variance and standard deviation ------------------------------------------------------

/// Variance over `axes` (every axis when omitted): sum((x - mean)^2) / (n - ddof), by
/// two passes (numerically stable). Type: double for integers and bool, else the
/// element type (half computes in float). As np.var(t, axis, ddof=ddof, keepdims=...).
template <class T>
auto var(const Tensor<T>& t, axes_arg axes, std::int64_t ddof = 0, bool keepdims = false) {
    return Tensor<detail::reduce_result_t<detail::reduce_op::mean, T>>(
        detail::variance(t.base(), axes, false, ddof, keepdims, false, "var"));
}
/// Over every axis with ddof 0 (with another ddof: nt::var(t.flatten(), 0, ddof)).
template <class T>
auto var(const Tensor<T>& t) {
    return Tensor<detail::reduce_result_t<detail::reduce_op::mean, T>>(
        detail::variance(t.base(), {}, true, 0, false, false, "var"));
}

/// Standard deviation: sqrt(var(...)) (NumPy's np.std), same arguments and types.
template <class T>
auto stddev(const Tensor<T>& t, axes_arg axes, std::int64_t ddof = 0, bool keepdims = false) {
    return Tensor<detail::reduce_result_t<detail::reduce_op::mean, T>>(
        detail::variance(t.base(), axes, false, ddof, keepdims, true, "stddev"));
}
template <class T>
auto stddev(const Tensor<T>& t) {
    return Tensor<detail::reduce_result_t<detail::reduce_op::mean, T>>(
        detail::variance(t.base(), {}, true, 0, false, true, "stddev"));
}

// --- NaN-ignoring reductions ----------------------------------------------------------------

// Each NaN-aware reduction is written once as a body over (t, axes, keepdims,
// every_axis) in detail, with the two public forms of the reductions around it.
#define NT_NAN_REDUCTION(fn, ...)                                                                 \
    namespace detail {                                                                            \
    template <class T>                                                                            \
    auto fn##_impl(const Tensor<T>& t, axes_arg axes, bool keepdims, bool every_axis) {           \
        auto reduce = [&](const auto& x, auto op) { return op(x, axes, keepdims, every_axis); };  \
        __VA_ARGS__                                                                               \
    }                                                                                             \
    }                                                                                             \
    /** Over `axes` (or one axis); keepdims keeps them with size 1. */                            \
    template <class T>                                                                            \
    auto fn(const Tensor<T>& t, axes_arg axes, bool keepdims = false) {                           \
        return detail::fn##_impl(t, axes, keepdims, false);                                       \
    }                                                                                             \
    /** Over every axis (a rank-0 result). */                                                     \
    template <class T>                                                                            \
    auto fn(const Tensor<T>& t) {                                                                 \
        return detail::fn##_impl(t, axes_arg{}, false, true);                                     \
    }

namespace detail {
// The reductions with an every-axis flag, for NT_NAN_REDUCTION's bodies.
inline constexpr auto sum_of = [](const auto& x, axes_arg axes, bool keepdims, bool every) {
    return every ? nt::sum(x) : nt::sum(x, axes, keepdims);
};
inline constexpr auto mean_of = [](const auto& x, axes_arg axes, bool keepdims, bool every) {
    return every ? nt::mean(x) : nt::mean(x, axes, keepdims);
};
inline constexpr auto min_of = [](const auto& x, axes_arg axes, bool keepdims, bool every) {
    return every ? nt::min(x) : nt::min(x, axes, keepdims);
};
inline constexpr auto max_of = [](const auto& x, axes_arg axes, bool keepdims, bool every) {
    return every ? nt::max(x) : nt::max(x, axes, keepdims);
};
inline constexpr auto any_of = [](const auto& x, axes_arg axes, bool keepdims, bool every) {
    return every ? nt::any(x) : nt::any(x, axes, keepdims);
};
inline constexpr auto all_of = [](const auto& x, axes_arg axes, bool keepdims, bool every) {
    return every ? nt::all(x) : nt::all(x, axes, keepdims);
};
/// Whether a result of the plain reduction holds no NaN, so that it read none (a NaN
/// read propagates into sum, mean, min and max) and is the NaN-ignoring one's result.
template <class T>
bool read_no_nan(const Tensor<T>& plain) {
    return !nt::any(nt::isnan(plain)).at();
}
}  // namespace detail

// The NaN-ignoring reductions of floats first try the plain one: it propagates NaN, so
// a result without NaN read none, and it is then their result too (one pass, no copy
// with the NaNs replaced). Only results holding a NaN take the replacing path.

/// sum treating NaN as 0 (np.nansum); the type is sum's.
NT_NAN_REDUCTION(nansum, {
    if constexpr (is_floating_element_v<T>) {
        auto total = reduce(t, detail::sum_of);
        if (detail::read_no_nan(total)) return total;
        return reduce(detail::nan_as(t, T(0)), detail::sum_of);
    } else {
        return reduce(t, detail::sum_of);
    }
})

/// mean of the elements that are not NaN (np.nanmean): NaN where all are NaN; the
/// type is mean's.
NT_NAN_REDUCTION(nanmean, {
    using R = detail::reduce_result_t<detail::reduce_op::mean, T>;
    if constexpr (is_floating_element_v<T>) {
        // (mean of f16 divides before rounding to f16, unlike sums / counts: not tried.)
        if constexpr (std::is_floating_point_v<T>) {
            Tensor<R> mean = reduce(t, detail::mean_of);
            if (detail::read_no_nan(mean)) return mean;
        }
        const Tensor<R> sums = reduce(detail::nan_as(t, T(0)), detail::sum_of).template astype<R>();
        const Tensor<R> counts = reduce(t == t, detail::sum_of).template astype<R>();
        return sums / counts;
    } else {
        return every_axis ? nt::mean(t) : nt::mean(t, axes, keepdims);
    }
})

/// min ignoring NaN (np.nanmin): NaN where all are NaN. Throws invalid_argument for an
/// empty reduction, as min does.
NT_NAN_REDUCTION(nanmin, {
    if constexpr (is_floating_element_v<T>) {
        Tensor<T> low = reduce(t, detail::min_of);  // as nansum
        if (detail::read_no_nan(low)) return low;
        low = reduce(detail::nan_as(t, T(std::numeric_limits<float>::infinity())), detail::min_of);
        return Tensor<T>(
            nt::where(reduce(t != t, detail::all_of), nt::scalar(T(std::numeric_limits<float>::quiet_NaN())), low));
    } else {
        return reduce(t, detail::min_of);
    }
})

/// max ignoring NaN (np.nanmax): NaN where all are NaN. Throws invalid_argument for an
/// empty reduction, as max does.
NT_NAN_REDUCTION(nanmax, {
    if constexpr (is_floating_element_v<T>) {
        Tensor<T> high = reduce(t, detail::max_of);  // as nansum
        if (detail::read_no_nan(high)) return high;
        high = reduce(detail::nan_as(t, T(-std::numeric_limits<float>::infinity())), detail::max_of);
        return Tensor<T>(
            nt::where(reduce(t != t, detail::all_of), nt::scalar(T(std::numeric_limits<float>::quiet_NaN())), high));
    } else {
        return reduce(t, detail::max_of);
    }
})

/// The number of non-zero elements (NaN counts as non-zero), an int64 tensor
/// (np.count_nonzero). A bool tensor is summed as it is (no converted copy), numbers
/// through t != 0 (astype<bool>'s rule, on the comparison's SIMD rows).
NT_NAN_REDUCTION(count_nonzero, {
    if constexpr (std::is_same_v<T, bool>) return reduce(t, detail::sum_of);
    else if constexpr (std::is_arithmetic_v<T>) return reduce(t != T(0), detail::sum_of);
    else return reduce(t.template astype<bool>(), detail::sum_of);
})

#undef NT_NAN_REDUCTION

// --- cumulative sums and products -------------------------------------------------------------

/// Running sums along `axis` (np.cumsum): the shape and names of `t`, the type of
/// nt::sum's result (int64 / uint64 for integers and bool: the sums wrap there, as in
/// NumPy; floats accumulate in order in their own type).
template <class T>
auto cumsum(const Tensor<T>& t, const Axis& axis) {
    using R = detail::reduce_result_t<detail::reduce_op::sum, T>;
    return Tensor<R>(detail::cumulate(t.base(), axis, false, dtype_of<R>, "cumsum"));
}

/// Running products along `axis` (np.cumprod); types as cumsum.
template <class T>
auto cumprod(const Tensor<T>& t, const Axis& axis) {
    using R = detail::reduce_result_t<detail::reduce_op::prod, T>;
    return Tensor<R>(detail::cumulate(t.base(), axis, true, dtype_of<R>, "cumprod"));
}

// --- median and quantiles ----------------------------------------------------------------------

/// The median over `axes` (every axis when omitted), as np.median: the middle element,
/// or the mean of the two middle ones; NaN where a reduced row holds a NaN or is
/// empty. Type: double for integers and bool, else the element type.
template <class T>
auto median(const Tensor<T>& t, axes_arg axes, bool keepdims = false) {
    using R = detail::reduce_result_t<detail::reduce_op::mean, T>;
    return Tensor<R>(detail::order_statistic(t.base(), -1.0, axes, false, keepdims, dtype_of<R>, "median"));
}
template <class T>
auto median(const Tensor<T>& t) {
    using R = detail::reduce_result_t<detail::reduce_op::mean, T>;
    return Tensor<R>(detail::order_statistic(t.base(), -1.0, {}, true, false, dtype_of<R>, "median"));
}

/// The q-th quantile (0 <= q <= 1) over `axes` by NumPy's default method, "linear"
/// (np.quantile(t, q, axis, keepdims=...)): a double tensor, as NumPy's; NaN where a
/// reduced row holds a NaN. Throws invalid_argument for q outside [0, 1] or an
/// empty reduction.
template <class T>
Tensor<double> quantile(const Tensor<T>& t, double q, axes_arg axes, bool keepdims = false) {
    detail::check_quantile(q, "quantile");
    return Tensor<double>(detail::order_statistic(t.base(), q, axes, false, keepdims, dtype::f64, "quantile"));
}
template <class T>
Tensor<double> quantile(const Tensor<T>& t, double q) {
    detail::check_quantile(q, "quantile");
    return Tensor<double>(detail::order_statistic(t.base(), q, {}, true, false, dtype::f64, "quantile"));
}

/// quantile with q in percent (np.percentile): percentile(t, 99, ...) is
/// quantile(t, 0.99, ...).
template <class T>
Tensor<double> percentile(const Tensor<T>& t, double p, axes_arg axes, bool keepdims = false) {
    detail::check_percentile(p);
    return quantile(t, p / 100.0, axes, keepdims);
}
template <class T>
Tensor<double> percentile(const Tensor<T>& t, double p) {
    detail::check_percentile(p);
    return quantile(t, p / 100.0);
}

// --- any_tensor forms -------------------------------------------------------------------------
// The same functions for a tensor whose element type is known at run time (a file's
// data): the same result types (decided at run time), names rules and errors.

namespace detail {
/// The statistics with an axes list and keepdims, by name, for the any_tensor forms.
enum class any_statistic : std::uint8_t { var, stddev, nansum, nanmean, nanmin, nanmax, count_nonzero, median, quantile };
/// Runs `which` on `t`'s typed tensor (ddof for var and stddev, q for quantile).
[[nodiscard]] any_tensor any_statistics(any_statistic which, const any_tensor& t, axes_arg axes, bool every_axis,
                                        bool keepdims, std::int64_t ddof = 0, double q = 0);
[[nodiscard]] any_tensor any_cumulate(const any_tensor& t, const Axis& axis, bool product);
}  // namespace detail

// var and stddev (with ddof), then the reductions without parameters: the two forms
// (axes, which may be one axis; every axis) of each.
#define NT_ANY_STATISTIC(fn, ...)                                                                          \
    [[nodiscard]] inline any_tensor fn(const any_tensor& t, axes_arg axes __VA_OPT__(, std::int64_t __VA_ARGS__ = 0),   \
                                       bool keepdims = false) {                                           \
        return detail::any_statistics(detail::any_statistic::fn, t, axes, false,                           \
                                      keepdims __VA_OPT__(, __VA_ARGS__));                                 \
    }                                                                                                      \
    [[nodiscard]] inline any_tensor fn(const any_tensor& t) {                                              \
        return detail::any_statistics(detail::any_statistic::fn, t, axes_arg{}, true, false);              \
    }
NT_ANY_STATISTIC(var, ddof)
NT_ANY_STATISTIC(stddev, ddof)
NT_ANY_STATISTIC(nansum)
NT_ANY_STATISTIC(nanmean)
NT_ANY_STATISTIC(nanmin)
NT_ANY_STATISTIC(nanmax)
NT_ANY_STATISTIC(count_nonzero)
NT_ANY_STATISTIC(median)
#undef NT_ANY_STATISTIC

[[nodiscard]] inline any_tensor cumsum(const any_tensor& t, const Axis& axis) {
    return detail::any_cumulate(t, axis, false);
}
[[nodiscard]] inline any_tensor cumprod(const any_tensor& t, const Axis& axis) {
    return detail::any_cumulate(t, axis, true);
}

[[nodiscard]] inline Tensor<double> quantile(const any_tensor& t, double q, axes_arg axes, bool keepdims = false) {
    return detail::any_statistics(detail::any_statistic::quantile, t, axes, false, keepdims, 0, q).as<double>();
}
[[nodiscard]] inline Tensor<double> quantile(const any_tensor& t, double q) {
    return detail::any_statistics(detail::any_statistic::quantile, t, axes_arg{}, true, false, 0, q).as<double>();
}
[[nodiscard]] inline Tensor<double> percentile(const any_tensor& t, double p, axes_arg axes, bool keepdims = false) {
    detail::check_percentile(p);
    return quantile(t, p / 100.0, axes, keepdims);
}
[[nodiscard]] inline Tensor<double> percentile(const any_tensor& t, double p) {
    detail::check_percentile(p);
    return quantile(t, p / 100.0);
}

}  // namespace nt
