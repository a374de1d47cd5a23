// filters_simd.hpp (private): the inner loop of the separable filters, compiled once
// per Highway target (filters_simd.cpp) and picked when it first runs.
#pragma once

#include <cstdint>

namespace nt::detail::imaging {

/// How a 1-D kernel of odd length is summed, as scipy.ndimage's correlate1d tests it:
/// symmetric and antisymmetric kernels fold the two halves before multiplying.
enum class kernel_symmetry : std::int8_t { antisymmetric = -1, general = 0, symmetric = 1 };

/// out[i * width + j] = sum over k < taps of w[k] * ext[(i + k) * width + j], for
/// i < rows and j < width (a multiple of 16): `width` lines side by side, each
/// extended past its ends by the caller. double follows scipy's order of operations
/// (a product, then a sum, in correlate1d's order) so that integer results truncate
/// as scipy's do; float uses fused multiply-adds.
void correlate_rows(const float* ext, std::int64_t width, std::int64_t rows, const float* w, std::int64_t taps,
                    kernel_symmetry symmetry, float* out);
void correlate_rows(const double* ext, std::int64_t width, std::int64_t rows, const double* w, std::int64_t taps,
                    kernel_symmetry symmetry, double* out);

}  // namespace nt::detail::imaging
