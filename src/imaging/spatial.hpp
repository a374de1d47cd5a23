// What the imaging operations share (private to src/imaging/): the spatial axes of a
// call resolved against its input, and where a position outside an axis reads from
// under each nt::boundary mode. One home for both rules: every filter, convolution,
// pool and resampler resolves its axes and extends its lines through these.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

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

// scipy's conversion of a double result to an integer output: a C cast, as GCC
// compiles it for x86-64 (scipy's wheels and Debian's build), so values past the
// type's range come out as they do there: toward zero, then the low bits of the
// 32-bit conversion (8-, 16- and 32-bit signed types) or the 64-bit one (uint32,
// int64); out of that conversion's range (and NaN), its "integer indefinite", the
// lowest value. uint64 converts values from 2^63 up by subtracting 2^63 first.
template <class S>
[[nodiscard]] S truncate_to(double v) noexcept {
    constexpr double two31 = 2147483648.0, two63 = 9223372036854775808.0;
    const double t = std::trunc(v);  // NaN stays NaN and fails every range test below
    if constexpr (sizeof(S) <= 2 || std::is_same_v<S, std::int32_t>) {
        const std::int32_t r = t >= -two31 && t < two31 ? static_cast<std::int32_t>(t)
                                                        : std::numeric_limits<std::int32_t>::min();
        return static_cast<S>(r);
    } else if constexpr (std::is_same_v<S, std::uint64_t>) {
        if (t >= two63) {
            const double low = t - two63;
            const std::uint64_t r = low < two63 ? static_cast<std::uint64_t>(low) : std::uint64_t{1} << 63;
            return r ^ (std::uint64_t{1} << 63);
        }
        return t >= -two63 ? static_cast<S>(static_cast<std::int64_t>(t)) : std::uint64_t{1} << 63;
    } else {
        const std::int64_t r = t >= -two63 && t < two63 ? static_cast<std::int64_t>(t)
                                                        : std::numeric_limits<std::int64_t>::min();
        return static_cast<S>(r);
    }
}

}  // namespace nt::detail::imaging
