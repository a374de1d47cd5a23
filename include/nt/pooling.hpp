// nt/pooling.hpp: pooling and resampling over named spatial axes.
//
//     auto x = nt::zeros<float>({2, 16, 64, 128, 128}, {"N", "C", "D", "H", "W"});
//     nt::max_pool(x, {"D", "H", "W"}, {2});                       // (2,16,32,64,64)
//     nt::avg_pool(x, {"H", "W"}, {3, 3}, {.stride = {2}, .padding = {1}});
//     auto [m, where] = nt::max_pool_with_indices(x, {"H", "W"}, {2});
//     nt::resize(x, {{"H", 256}, {"W", 256}}, nt::interp::linear);  // bilinear, torch's
//     nt::zoom(x, {0.5, 2.0}, {"H", "W"}, 3, nt::boundary::mirror); // scipy.ndimage.zoom
//
// The listed axes are spatial; every other axis is a batch axis, each of its slices
// pooled or resampled on its own. Results keep x's axis order and names; only the
// spatial axes change size. Per-axis options (sizes, strides, paddings, dilations,
// factors) follow the order the axes are listed in; a list of one value applies to
// every axis. Every function returns a new tensor (never a view).
//
// Anchors: max_pool/avg_pool as torch.nn.functional.max_pool{1,2,3}d/avg_pool{1,2,3}d,
// resize as torch.nn.functional.interpolate, zoom as scipy.ndimage.zoom.
//
// Gradients: max_pool (to the argmax; the first maximum in a window takes it, as in
// torch), avg_pool, resize (every mode) and zoom of order 0 and 1 record backward rules
// whose own backward is recorded too (double backward).
#pragma once

#include <cstdint>
#include <span>
#include <utility>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/boundary.hpp"
#include "nt/detail/list_arg.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/layout.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// Options of max_pool / avg_pool, torch's keywords and defaults. Each list is empty
/// (the default), one value for every spatial axis, or one per axis; the options own
/// their lists, so a named pool_options may be built once and reused.
struct pool_options {
    dims stride{};    ///< default: the window size
    dims padding{};   ///< implicit padding on both sides (-inf for max, 0 for avg); at most half the window
    dims dilation{};  ///< max_pool only: spacing of the window's elements (default 1)
    bool ceil_mode = false;   ///< ceil instead of floor for the output size (a window must start inside)
    bool count_include_pad = true;  ///< avg_pool only: padding counts in the divisor
};

/// The interpolation of nt::resize (torch's `mode`): nearest ('nearest', not
/// 'nearest-exact'), linear (linear/bilinear/trilinear over the listed axes), cubic
/// (bicubic, A = -0.75, taps clamped at the edges; over 1 or 3 axes it is applied
/// per axis exactly as torch's bicubic does over its two).
enum class interp : std::uint8_t { nearest, linear, cubic };

/// Options of nt::resize.
struct resize_options {
    bool align_corners = false;  ///< torch's align_corners (ignored by nearest, as torch ignores it)
};

/// One target size of nt::resize: `{"H", 512}`.
struct axis_target {
    Axis axis;
    std::int64_t size = 0;
};
using axis_targets = detail::list_arg<axis_target>;

/// Factors (per axis, or one for every axis) of the scale form of resize and of zoom.
using factors_arg = detail::list_arg<double>;

namespace detail {

// The compiled core (src/imaging/pooling.cpp).
[[nodiscard]] tensor_base max_pool(const tensor_base& x, std::span<const Axis> axes,
                                   std::span<const std::int64_t> sizes, const pool_options& options,
                                   tensor_base* indices);
[[nodiscard]] tensor_base avg_pool(const tensor_base& x, std::span<const Axis> axes,
                                   std::span<const std::int64_t> sizes, const pool_options& options);
[[nodiscard]] tensor_base resize(const tensor_base& x, std::span<const axis_target> targets, interp mode,
                                 const resize_options& options);
[[nodiscard]] tensor_base resize_scaled(const tensor_base& x, std::span<const Axis> axes,
                                        std::span<const double> factors, interp mode, const resize_options& options);
[[nodiscard]] tensor_base zoom(const tensor_base& x, std::span<const double> factors, std::span<const Axis> axes,
                               int order, boundary mode, double cval);

}  // namespace detail

// ---------------------------------------------------------------------------------
// Pooling (torch.nn.functional.max_pool{n}d / avg_pool{n}d).

/// The maximum of each window of `sizes` over the spatial `axes`, as torch's max_pool
/// over 1, 2 or 3 axes. Output size per axis: floor((n + 2p - d(k-1) - 1) / s) + 1
/// (ceil with ceil_mode, dropping a last window that would start in the right padding).
/// NaN propagates. Element types: every numeric type (torch: floating only).
/// Throws axis_out_of_range (an axis x lacks), duplicate_name, invalid_argument (more
/// than 3 axes, a list whose length is neither 1 nor the number of axes, a size,
/// stride or dilation below 1, a padding below 0 or over half the window, an output
/// size below 1: the window larger than the padded input).
///     nt::max_pool(x, {"H", "W"}, {2});   // x (N,C,H,W): (N,C,H/2,W/2)
template <element T>
[[nodiscard]] Tensor<T> max_pool(const Tensor<T>& x, axes_arg axes, shape_arg sizes, const pool_options& options = {}) {
    return Tensor<T>(detail::max_pool(x.base(), axes.span(), sizes.span(), options, nullptr));
}
[[nodiscard]] inline any_tensor max_pool(const any_tensor& x, axes_arg axes, shape_arg sizes,
                                         const pool_options& options = {}) {
    return any_tensor(detail::max_pool(x.base(), axes.span(), sizes.span(), options, nullptr));
}

/// max_pool and, for each output element, the position of its maximum (torch's
/// return_indices): an int64 tensor of the result's shape holding the row-major flat
/// index within the input's spatial block of that batch slice (spatial axes in x's
/// stored order, whatever the order listed).
template <element T>
[[nodiscard]] std::pair<Tensor<T>, Tensor<std::int64_t>> max_pool_with_indices(const Tensor<T>& x, axes_arg axes,
                                                                               shape_arg sizes,
                                                                               const pool_options& options = {}) {
    detail::tensor_base where;
    Tensor<T> m(detail::max_pool(x.base(), axes.span(), sizes.span(), options, &where));
    return {std::move(m), Tensor<std::int64_t>(std::move(where))};
}
[[nodiscard]] inline std::pair<any_tensor, Tensor<std::int64_t>> max_pool_with_indices(
    const any_tensor& x, axes_arg axes, shape_arg sizes, const pool_options& options = {}) {
    detail::tensor_base where;
    any_tensor m(detail::max_pool(x.base(), axes.span(), sizes.span(), options, &where));
    return {std::move(m), Tensor<std::int64_t>(std::move(where))};
}

/// The mean of each window, as torch's avg_pool{1,2,3}d (ceil_mode,
/// count_include_pad). Floating types only (type_mismatch otherwise). Errors as
/// max_pool.
///     nt::avg_pool(x, {"D", "H", "W"}, {2});
template <element T>
[[nodiscard]] Tensor<T> avg_pool(const Tensor<T>& x, axes_arg axes, shape_arg sizes, const pool_options& options = {}) {
    return Tensor<T>(detail::avg_pool(x.base(), axes.span(), sizes.span(), options));
}
[[nodiscard]] inline any_tensor avg_pool(const any_tensor& x, axes_arg axes, shape_arg sizes,
                                         const pool_options& options = {}) {
    return any_tensor(detail::avg_pool(x.base(), axes.span(), sizes.span(), options));
}

// ---------------------------------------------------------------------------------
// Resampling.

/// x resampled to the target sizes of the named axes, as
/// torch.nn.functional.interpolate(x, size=..., mode=..., align_corners=...).
/// Floating types; integer types with nearest only, as torch (type_mismatch otherwise). Throws axis_out_of_range,
/// duplicate_name, invalid_argument (a target below 1, an empty input axis).
///     nt::resize(ct, {{"H", 512}, {"W", 512}}, nt::interp::linear);
template <element T>
[[nodiscard]] Tensor<T> resize(const Tensor<T>& x, axis_targets targets, interp mode = interp::nearest,
                               const resize_options& options = {}) {
    return Tensor<T>(detail::resize(x.base(), targets.span(), mode, options));
}
[[nodiscard]] inline any_tensor resize(const any_tensor& x, axis_targets targets, interp mode = interp::nearest,
                                       const resize_options& options = {}) {
    return any_tensor(detail::resize(x.base(), targets.span(), mode, options));
}
/// The scale form: interpolate(x, scale_factor=factors): sizes floor(n * factor), and
/// the source positions computed from 1/factor, as torch does when
/// recompute_scale_factor is not set.
///     nt::resize(x, {"H", "W"}, {2.0}, nt::interp::linear);
template <element T>
[[nodiscard]] Tensor<T> resize(const Tensor<T>& x, axes_arg axes, factors_arg factors, interp mode = interp::nearest,
                               const resize_options& options = {}) {
    return Tensor<T>(detail::resize_scaled(x.base(), axes.span(), factors.span(), mode, options));
}
[[nodiscard]] inline any_tensor resize(const any_tensor& x, axes_arg axes, factors_arg factors,
                                       interp mode = interp::nearest, const resize_options& options = {}) {
    return any_tensor(detail::resize_scaled(x.base(), axes.span(), factors.span(), mode, options));
}

/// scipy.ndimage.zoom(x, factors, order=order, mode=mode, cval=cval) over the named
/// axes (grid_mode=False: the corner samples map onto each other). Sizes
/// round(n * factor). Orders 0 (nearest), 1 (linear), 3 (cubic B-spline, after
/// scipy's spline prefilter under `mode`). Every numeric type; integer results are
/// rounded and clipped as scipy rounds them; the result has x's type.
/// Throws axis_out_of_range, duplicate_name, invalid_argument (an order other than
/// 0, 1, 3, a factor that is not positive, a list length that fits no axis count).
///     nt::zoom(ct, {2.0}, {"D", "H", "W"}, 1);
template <element T>
[[nodiscard]] Tensor<T> zoom(const Tensor<T>& x, factors_arg factors, axes_arg axes, int order = 3,
                             boundary mode = boundary::constant, double cval = 0.0) {
    return Tensor<T>(detail::zoom(x.base(), factors.span(), axes.span(), order, mode, cval));
}
[[nodiscard]] inline any_tensor zoom(const any_tensor& x, factors_arg factors, axes_arg axes, int order = 3,
                                     boundary mode = boundary::constant, double cval = 0.0) {
    return any_tensor(detail::zoom(x.base(), factors.span(), axes.span(), order, mode, cval));
}

}  // namespace nt
