// What the imaging operations share (private to src/imaging/): the spatial axes of a
// call resolved against its input, and where a position outside an axis reads from
// under each nt::boundary mode. One home for both rules: every filter, convolution,
// pool and resampler resolves its axes and extends its lines through these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nt/axis.hpp"
#include "nt/boundary.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/small_vector.hpp"

namespace nt::detail::imaging {

/// The positions in `x` of the spatial axes `axes`, in the order given (per-axis
/// options such as strides and sigmas follow that order). Throws axis_out_of_range
/// naming `op` for an axis `x` lacks, duplicate_name for an axis given twice, and
/// invalid_argument for an empty list.
[[nodiscard]] small_vector<std::size_t, 6> spatial_axes(const tensor_base& x, axes_arg axes, std::string_view op);

/// The position inside [0, n) that position `i` (any integer) reads under `mode`,
/// or -1 for boundary::constant outside the axis (the caller writes the constant).
/// n >= 1. As scipy.ndimage's filters extend their lines.
[[nodiscard]] std::int64_t boundary_index(boundary mode, std::int64_t i, std::int64_t n) noexcept;

}  // namespace nt::detail::imaging
