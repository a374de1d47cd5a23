// nt/filters.hpp: scipy.ndimage's smoothing, rank and edge filters over named
// spatial axes; every other axis is a batch axis, filtered slice by slice.
//
//     auto ct = nt::zeros<float>({2, 1, 128, 256, 256}, {"", "CHANNEL", "D", "H", "W"});
//     nt::gaussian_filter(ct, 2.0, {"D", "H", "W"});                   // scipy's default mode
//     nt::gaussian_filter(ct, {1.0, 2.0, 2.0}, {"D", "H", "W"}, {.mode = nt::boundary::nearest});
//     nt::uniform_filter(ct, 3, {"H", "W"});
//     nt::median_filter(ct, {3, 5}, {"H", "W"});
//     nt::sobel(ct, "W", {"D", "H", "W"});                               // d/dW, smoothed over D and H
//     nt::gaussian_gradient_magnitude(ct, 1.5, {"D", "H", "W"});
//
// Every function returns a new C-contiguous tensor (never a view) with x's shape,
// names and element type, as scipy.ndimage returns its input's dtype. Integer and
// bool inputs are computed in double and truncated toward zero (wrapping past the
// type's range) after each axis, as scipy does; float16 (which scipy refuses) is
// computed in float and rounded once. gaussian_filter and uniform_filter (and sobel,
// which is linear too) record backward rules (nt/autograd.hpp); the rank filters
// (median, minimum, maximum) record none: they are piecewise selections, and a
// gradient through them is refused (no_gradient) rather than guessed.
//
// Throws nt::error: axis_out_of_range (a spatial axis x lacks), duplicate_name (an
// axis given twice), invalid_argument (no axes, a sigma below 0, a size below 1, an
// origin outside the window, a list of sigmas or sizes whose length is neither 1 nor
// the number of axes, sobel's axis not among the spatial axes).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/boundary.hpp"
#include "nt/detail/list_arg.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/layout.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// Sigmas of a Gaussian: one for every spatial axis, or one per axis in the order of
/// the axes: `{1.0, 2.0, 2.0}`. Non-owning.
using sigmas_arg = detail::list_arg<double>;

/// Options of gaussian_filter and gaussian_gradient_magnitude (scipy's keywords).
struct gaussian_options {
    double truncate = 4.0;                ///< the kernel's radius is int(truncate * sigma + 0.5)
    boundary mode = boundary::reflect;    ///< how lines are read past their ends
    double cval = 0.0;                    ///< the value outside for boundary::constant
    std::vector<std::int64_t> order{};    ///< derivative order: empty (0), one for all axes, or one per axis
};

/// Options of uniform_filter and the rank filters (scipy's keywords).
struct filter_options {
    boundary mode = boundary::reflect;
    double cval = 0.0;
    /// Shift of the window: empty (0), one for all axes, or one per axis; each within
    /// [-(size / 2), (size - 1) / 2], as scipy's origin.
    std::vector<std::int64_t> origin{};
};

/// Options of sobel.
struct sobel_options {
    boundary mode = boundary::reflect;
    double cval = 0.0;
};

namespace detail {

enum class rank_filter_kind : std::uint8_t { minimum, maximum, median };

// The compiled core (src/imaging/filters.cpp), on any element type.
[[nodiscard]] tensor_base gaussian_filter(const tensor_base& x, std::span<const double> sigma,
                                          std::span<const Axis> axes, const gaussian_options& options);
[[nodiscard]] tensor_base uniform_filter(const tensor_base& x, std::span<const std::int64_t> size,
                                         std::span<const Axis> axes, const filter_options& options);
[[nodiscard]] tensor_base rank_filter(const tensor_base& x, rank_filter_kind kind, std::span<const std::int64_t> size,
                                      std::span<const Axis> axes, const filter_options& options);
[[nodiscard]] tensor_base sobel(const tensor_base& x, const Axis& axis, std::span<const Axis> axes,
                                const sobel_options& options);
[[nodiscard]] tensor_base gaussian_gradient_magnitude(const tensor_base& x, std::span<const double> sigma,
                                                      std::span<const Axis> axes, const gaussian_options& options);

}  // namespace detail

// ---------------------------------------------------------------------------------
// Smoothing: linear, separable, with backward rules.

/// scipy.ndimage.gaussian_filter over `axes`: a 1-D Gaussian of `sigma` along each
/// spatial axis in turn (sigma 0 leaves an axis as it is). `options.order` gives
/// derivatives of the Gaussian. A new tensor of x's type, shape and names.
///     nt::gaussian_filter(vol, 2.0, {"D", "H", "W"});
template <element T>
[[nodiscard]] Tensor<T> gaussian_filter(const Tensor<T>& x, double sigma, axes_arg axes,
                                        const gaussian_options& options = {}) {
    return Tensor<T>(detail::gaussian_filter(x.base(), std::span<const double>(&sigma, 1), axes.span(), options));
}
/// gaussian_filter with one sigma per axis, in the order of `axes`.
template <element T>
[[nodiscard]] Tensor<T> gaussian_filter(const Tensor<T>& x, sigmas_arg sigma, axes_arg axes,
                                        const gaussian_options& options = {}) {
    return Tensor<T>(detail::gaussian_filter(x.base(), sigma.span(), axes.span(), options));
}

/// scipy.ndimage.uniform_filter over `axes`: the mean over a box of `size` elements
/// along each spatial axis (size 1 leaves an axis as it is; even sizes reach one
/// element further before than after, as scipy's origin 0).
///     nt::uniform_filter(img, 3, {"H", "W"});
template <element T>
[[nodiscard]] Tensor<T> uniform_filter(const Tensor<T>& x, std::int64_t size, axes_arg axes,
                                       const filter_options& options = {}) {
    return Tensor<T>(detail::uniform_filter(x.base(), std::span<const std::int64_t>(&size, 1), axes.span(), options));
}
/// uniform_filter with one size per axis.
template <element T>
[[nodiscard]] Tensor<T> uniform_filter(const Tensor<T>& x, shape_arg size, axes_arg axes,
                                       const filter_options& options = {}) {
    return Tensor<T>(detail::uniform_filter(x.base(), size.span(), axes.span(), options));
}

// ---------------------------------------------------------------------------------
// Rank filters: no backward rule.

#define NT_RANK_FILTER(fn, kind)                                                                                  \
    template <element T>                                                                                          \
    [[nodiscard]] Tensor<T> fn(const Tensor<T>& x, std::int64_t size, axes_arg axes,                              \
                               const filter_options& options = {}) {                                              \
        return Tensor<T>(detail::rank_filter(x.base(), detail::rank_filter_kind::kind,                            \
                                             std::span<const std::int64_t>(&size, 1), axes.span(), options));     \
    }                                                                                                             \
    template <element T>                                                                                          \
    [[nodiscard]] Tensor<T> fn(const Tensor<T>& x, shape_arg size, axes_arg axes,                                 \
                               const filter_options& options = {}) {                                              \
        return Tensor<T>(detail::rank_filter(x.base(), detail::rank_filter_kind::kind, size.span(), axes.span(),   \
                                             options));                                                           \
    }                                                                                                             \
    [[nodiscard]] inline any_tensor fn(const any_tensor& x, shape_arg size, axes_arg axes,                        \
                                       const filter_options& options = {}) {                                      \
        return any_tensor(detail::rank_filter(x.base(), detail::rank_filter_kind::kind, size.span(), axes.span(),  \
                                              options));                                                          \
    }                                                                                                             \
    [[nodiscard]] inline any_tensor fn(const any_tensor& x, std::int64_t size, axes_arg axes,                     \
                                       const filter_options& options = {}) {                                      \
        return any_tensor(detail::rank_filter(x.base(), detail::rank_filter_kind::kind,                           \
                                              std::span<const std::int64_t>(&size, 1), axes.span(), options));    \
    }

/// scipy.ndimage.median_filter over a box of `size` (per axis): the element of rank
/// size_total / 2 of the box (for an even count, the upper of the two middle ones).
///     nt::median_filter(img, 3, {"H", "W"});
NT_RANK_FILTER(median_filter, median)
/// scipy.ndimage.minimum_filter over a box of `size` (per axis).
NT_RANK_FILTER(minimum_filter, minimum)
/// scipy.ndimage.maximum_filter over a box of `size` (per axis).
NT_RANK_FILTER(maximum_filter, maximum)
#undef NT_RANK_FILTER

// ---------------------------------------------------------------------------------
// Edges.

/// scipy.ndimage.sobel: the difference [-1, 0, 1] along `axis`, smoothed by
/// [1, 2, 1] along every other axis of `axes` (scipy smooths along every other axis
/// of the array: pass them all to match it). `axis` must be one of `axes`.
///     nt::sobel(img, "W", {"H", "W"});
template <element T>
[[nodiscard]] Tensor<T> sobel(const Tensor<T>& x, const Axis& axis, axes_arg axes, const sobel_options& options = {}) {
    return Tensor<T>(detail::sobel(x.base(), axis, axes.span(), options));
}
/// sobel along `axis` alone (a 1-D signal, or no smoothing across).
template <element T>
[[nodiscard]] Tensor<T> sobel(const Tensor<T>& x, const Axis& axis, const sobel_options& options = {}) {
    return Tensor<T>(detail::sobel(x.base(), axis, std::span<const Axis>(&axis, 1), options));
}

/// scipy.ndimage.gaussian_gradient_magnitude over `axes`: sqrt of the sum over the
/// axes of the squared first derivative of the Gaussian along it. For floating types
/// it is built from gaussian_filter and element-wise operations, so it has gradients.
///     nt::gaussian_gradient_magnitude(vol, 1.5, {"D", "H", "W"});
template <element T>
[[nodiscard]] Tensor<T> gaussian_gradient_magnitude(const Tensor<T>& x, double sigma, axes_arg axes,
                                                    const gaussian_options& options = {}) {
    return Tensor<T>(
        detail::gaussian_gradient_magnitude(x.base(), std::span<const double>(&sigma, 1), axes.span(), options));
}
template <element T>
[[nodiscard]] Tensor<T> gaussian_gradient_magnitude(const Tensor<T>& x, sigmas_arg sigma, axes_arg axes,
                                                    const gaussian_options& options = {}) {
    return Tensor<T>(detail::gaussian_gradient_magnitude(x.base(), sigma.span(), axes.span(), options));
}

// ---------------------------------------------------------------------------------
// any_tensor forms (the result has x's element type).

[[nodiscard]] inline any_tensor gaussian_filter(const any_tensor& x, sigmas_arg sigma, axes_arg axes,
                                                const gaussian_options& options = {}) {
    return any_tensor(detail::gaussian_filter(x.base(), sigma.span(), axes.span(), options));
}
[[nodiscard]] inline any_tensor gaussian_filter(const any_tensor& x, double sigma, axes_arg axes,
                                                const gaussian_options& options = {}) {
    return any_tensor(detail::gaussian_filter(x.base(), std::span<const double>(&sigma, 1), axes.span(), options));
}
[[nodiscard]] inline any_tensor uniform_filter(const any_tensor& x, std::int64_t size, axes_arg axes,
                                               const filter_options& options = {}) {
    return any_tensor(detail::uniform_filter(x.base(), std::span<const std::int64_t>(&size, 1), axes.span(), options));
}
[[nodiscard]] inline any_tensor uniform_filter(const any_tensor& x, shape_arg size, axes_arg axes,
                                               const filter_options& options = {}) {
    return any_tensor(detail::uniform_filter(x.base(), size.span(), axes.span(), options));
}
[[nodiscard]] inline any_tensor sobel(const any_tensor& x, const Axis& axis, axes_arg axes,
                                      const sobel_options& options = {}) {
    return any_tensor(detail::sobel(x.base(), axis, axes.span(), options));
}
[[nodiscard]] inline any_tensor sobel(const any_tensor& x, const Axis& axis, const sobel_options& options = {}) {
    return any_tensor(detail::sobel(x.base(), axis, std::span<const Axis>(&axis, 1), options));
}
[[nodiscard]] inline any_tensor gaussian_gradient_magnitude(const any_tensor& x, double sigma, axes_arg axes,
                                                            const gaussian_options& options = {}) {
    return any_tensor(
        detail::gaussian_gradient_magnitude(x.base(), std::span<const double>(&sigma, 1), axes.span(), options));
}
[[nodiscard]] inline any_tensor gaussian_gradient_magnitude(const any_tensor& x, sigmas_arg sigma, axes_arg axes,
                                                            const gaussian_options& options = {}) {
    return any_tensor(detail::gaussian_gradient_magnitude(x.base(), sigma.span(), axes.span(), options));
}

}  // namespace nt
