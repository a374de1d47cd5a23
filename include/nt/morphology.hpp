// nt/morphology.hpp: masks and objects over named spatial axes, as scipy.ndimage 1.10.
//
//     auto m = nt::binary_opening(mask, {"H", "W"}, {.connectivity = 2});  // Tensor<bool>
//     auto [labels, count] = nt::label(mask, {"D", "H", "W"});            // int32, raster order
//     auto d = nt::distance_transform_edt(mask, {"D", "H", "W"}, {2.0, 0.8, 0.8});
//     auto stats = nt::region_stats(image, labels, {"D", "H", "W"});     // per label 1..n
//
// The axes named in `axes` are the spatial axes; every other axis is a batch axis and
// each slice along them is processed on its own. A mask is bool or any numeric type
// (nonzero is true). Every result is a new C-contiguous tensor with the input's axes
// and names (never a view). The structuring element is
// scipy.ndimage.generate_binary_structure(len(axes), connectivity): the neighbours
// whose offset along every axis is -1, 0 or 1 and differs from 0 along at most
// `connectivity` axes. Nothing here records gradients: the results are piecewise
// constant or integers.
//
// Errors (nt::error naming the operation): axis_out_of_range (an axis the input
// lacks), duplicate_name (an axis given twice), invalid_argument (no axes, a
// connectivity outside 1..len(axes), a spacing of the wrong length or not > 0, more
// objects than int32 holds), incompatible_sizes (values and labels of different
// shapes), type_mismatch (labels that are not integers).
//
// The work is in src/imaging/morphology.cpp (binary morphology, measurements),
// labels.cpp (label) and distance.cpp (distance_transform_edt).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/detail/list_arg.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// Options of the binary morphology: the structuring element's connectivity (1: the
/// axis neighbours only; len(axes): the full 3x3(x3) box) and how many times the
/// operation is repeated (< 1: until the result stops changing, as scipy).
struct morphology_options {
    int connectivity = 1;
    std::int64_t iterations = 1;
};

/// The bounding box of one object along the spatial axes, in the order the axes were
/// given: the half-open range [begin[i], end[i]) along axis i, scipy's slice(begin, end).
struct object_box {
    std::vector<std::int64_t> begin;
    std::vector<std::int64_t> end;
};

/// Per-label measurements for labels 1..n (index i holds label i + 1), scipy's
/// ndimage.sum / mean / minimum / maximum with index=range(1, n + 1): a label with no
/// element has count 0, sum 0, mean NaN, min 0 and max 0.
struct region_stats_result {
    Tensor<std::int64_t> count;
    Tensor<double> sum;
    Tensor<double> mean;
    Tensor<double> min;
    Tensor<double> max;
};

namespace detail {

enum class morph_op { erosion, dilation, opening, closing };

// The compiled core (src/imaging/). Each takes an untyped handle of any element type.
[[nodiscard]] tensor_base binary_morphology(const tensor_base& mask, std::span<const Axis> axes, morph_op op,
                                            const morphology_options& options);
[[nodiscard]] tensor_base binary_fill_holes(const tensor_base& mask, std::span<const Axis> axes, int connectivity);
[[nodiscard]] std::pair<tensor_base, std::int64_t> label(const tensor_base& mask, std::span<const Axis> axes,
                                                         int connectivity);
[[nodiscard]] tensor_base distance_transform_edt(const tensor_base& mask, std::span<const Axis> axes,
                                                 std::span<const double> spacing);
[[nodiscard]] tensor_base center_of_mass(const tensor_base& values, const tensor_base& labels,
                                         std::span<const Axis> axes);
[[nodiscard]] std::vector<std::optional<object_box>> find_objects(const tensor_base& labels,
                                                                   std::span<const Axis> axes);
[[nodiscard]] region_stats_result region_stats(const tensor_base& values, const tensor_base& labels,
                                               std::span<const Axis> axes);

}  // namespace detail

// ---------------------------------------------------------------------------------
// Binary morphology (scipy.ndimage.binary_*, border_value=0).

/// The pixels whose whole neighbourhood is true; outside the spatial axes counts as
/// false (scipy's border_value=0), so the edges erode.
///     nt::binary_erosion(mask, {"H", "W"}, {.connectivity = 2, .iterations = 3});
template <element T>
[[nodiscard]] Tensor<bool> binary_erosion(const Tensor<T>& mask, axes_arg axes, morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::erosion, options));
}
/// The pixels with a true pixel in their neighbourhood.
template <element T>
[[nodiscard]] Tensor<bool> binary_dilation(const Tensor<T>& mask, axes_arg axes, morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::dilation, options));
}
/// Erosion then dilation, each `iterations` times.
template <element T>
[[nodiscard]] Tensor<bool> binary_opening(const Tensor<T>& mask, axes_arg axes, morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::opening, options));
}
/// Dilation then erosion, each `iterations` times (the erosion's border is false, as
/// scipy's: objects touching an edge lose their rim there).
template <element T>
[[nodiscard]] Tensor<bool> binary_closing(const Tensor<T>& mask, axes_arg axes, morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::closing, options));
}
/// The mask with every false region that does not reach an edge of its slice made
/// true (regions connected with `connectivity`).
template <element T>
[[nodiscard]] Tensor<bool> binary_fill_holes(const Tensor<T>& mask, axes_arg axes, int connectivity = 1) {
    return Tensor<bool>(detail::binary_fill_holes(mask.base(), axes.span(), connectivity));
}

// ---------------------------------------------------------------------------------
// Objects.

/// Connected components of the true pixels: (labels, count), labels int32 with 0 for
/// the background and 1..count numbered in the raster order of each object's first
/// element, exactly as scipy.ndimage.label. Objects never connect across batch axes:
/// each slice is labelled on its own, and the numbering runs on through the whole
/// tensor in its stored order, so labels are unique over the batch and `count` is the
/// total (scipy.ndimage.label with a structure of size 1 along the batch axes).
///     auto [labels, count] = nt::label(mask, {"H", "W"}, 2);
template <element T>
[[nodiscard]] std::pair<Tensor<std::int32_t>, std::int64_t> label(const Tensor<T>& mask, axes_arg axes,
                                                                  int connectivity = 1) {
    auto [labels, count] = detail::label(mask.base(), axes.span(), connectivity);
    return {Tensor<std::int32_t>(std::move(labels)), count};
}

/// Exact Euclidean distance from each true element to the nearest false one along the
/// spatial axes (0 on false elements), f64, with `spacing` the element size along each
/// axis in the order of `axes` (empty: 1; one value: every axis). A slice with no false
/// element measures, as scipy does, to the point one step before its first element
/// along its first spatial axis (in stored order).
///     nt::distance_transform_edt(mask, {"D", "H", "W"}, {2.0, 0.5, 0.5});
template <element T>
[[nodiscard]] Tensor<double> distance_transform_edt(const Tensor<T>& mask, axes_arg axes,
                                                    detail::list_arg<double> spacing = {}) {
    return Tensor<double>(detail::distance_transform_edt(mask.base(), axes.span(), spacing.span()));
}

/// The centroid of `values` over each label 1..n (n the largest label): a (n,
/// len(axes)) f64 tensor of coordinates along the spatial axes in the order given,
/// NaN for a label without elements or of zero total weight. Label 0 and negative
/// labels are ignored; a label present in several slices averages over them.
template <element V, element L>
[[nodiscard]] Tensor<double> center_of_mass(const Tensor<V>& values, const Tensor<L>& labels, axes_arg axes) {
    return Tensor<double>(detail::center_of_mass(values.base(), labels.base(), axes.span()));
}

/// The bounding box of each label 1..n (n the largest label) along the spatial axes,
/// std::nullopt for a missing label, as scipy.ndimage.find_objects.
template <element L>
[[nodiscard]] std::vector<std::optional<object_box>> find_objects(const Tensor<L>& labels, axes_arg axes) {
    return detail::find_objects(labels.base(), axes.span());
}

/// Count, sum, mean, min and max of `values` over each label 1..n (n the largest label).
template <element V, element L>
[[nodiscard]] region_stats_result region_stats(const Tensor<V>& values, const Tensor<L>& labels, axes_arg axes) {
    return detail::region_stats(values.base(), labels.base(), axes.span());
}

// any_tensor forms.
[[nodiscard]] inline Tensor<bool> binary_erosion(const any_tensor& mask, axes_arg axes,
                                                 morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::erosion, options));
}
[[nodiscard]] inline Tensor<bool> binary_dilation(const any_tensor& mask, axes_arg axes,
                                                  morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::dilation, options));
}
[[nodiscard]] inline Tensor<bool> binary_opening(const any_tensor& mask, axes_arg axes,
                                                 morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::opening, options));
}
[[nodiscard]] inline Tensor<bool> binary_closing(const any_tensor& mask, axes_arg axes,
                                                 morphology_options options = {}) {
    return Tensor<bool>(detail::binary_morphology(mask.base(), axes.span(), detail::morph_op::closing, options));
}
[[nodiscard]] inline Tensor<bool> binary_fill_holes(const any_tensor& mask, axes_arg axes, int connectivity = 1) {
    return Tensor<bool>(detail::binary_fill_holes(mask.base(), axes.span(), connectivity));
}
[[nodiscard]] inline std::pair<Tensor<std::int32_t>, std::int64_t> label(const any_tensor& mask, axes_arg axes,
                                                                         int connectivity = 1) {
    auto [labels, count] = detail::label(mask.base(), axes.span(), connectivity);
    return {Tensor<std::int32_t>(std::move(labels)), count};
}
[[nodiscard]] inline Tensor<double> distance_transform_edt(const any_tensor& mask, axes_arg axes,
                                                           detail::list_arg<double> spacing = {}) {
    return Tensor<double>(detail::distance_transform_edt(mask.base(), axes.span(), spacing.span()));
}
[[nodiscard]] inline Tensor<double> center_of_mass(const any_tensor& values, const any_tensor& labels,
                                                   axes_arg axes) {
    return Tensor<double>(detail::center_of_mass(values.base(), labels.base(), axes.span()));
}
[[nodiscard]] inline std::vector<std::optional<object_box>> find_objects(const any_tensor& labels, axes_arg axes) {
    return detail::find_objects(labels.base(), axes.span());
}
[[nodiscard]] inline region_stats_result region_stats(const any_tensor& values, const any_tensor& labels,
                                                      axes_arg axes) {
    return detail::region_stats(values.base(), labels.base(), axes.span());
}

}  // namespace nt
