// conv_simd.hpp (private): the direct convolution kernels of conv.cpp, compiled once
// per Highway target (conv_simd.cpp) and picked when they first run.
//
// Both work on one (batch, group) slice of the canonical problem, with unit stride
// along the last spatial axis, where a vector of output positions reads a vector of
// consecutive input elements through each kernel tap. Nothing is unfolded: each
// input vector is loaded once per tap and multiplied by a block of features held in
// registers, so the operands stay in the first-level cache.
#pragma once

#include <cstdint>

namespace nt::detail::imaging {

/// One slice's geometry: x is (channels, input volume) and y or gy (features,
/// rows * row_length), both contiguous. Output row r starts at input offset
/// row_base[r]; kernel tap t adds tap_offset[t] (dilations included).
template <class T>
struct direct_conv_slice {
    const T* x = nullptr;
    std::int64_t channels = 0, in_volume = 0;
    const std::int64_t* tap_offset = nullptr;
    std::int64_t taps = 0;
    const std::int64_t* row_base = nullptr;
    std::int64_t row_length = 0, positions = 0;  // positions: the feature stride of y
    std::int64_t features = 0;
};

/// The forward product for output rows [row0, row1):
/// y[f, r * row_length + j] = sum over c, t of w[(c * taps + t) * features + f] *
///                            x[c * in_volume + row_base[r] + tap_offset[t] + j].
/// w is the kernel laid out (channel, tap, feature).
void direct_conv_forward(const direct_conv_slice<float>& s, const float* w, std::int64_t row0, std::int64_t row1,
                         float* y);
void direct_conv_forward(const direct_conv_slice<double>& s, const double* w, std::int64_t row0, std::int64_t row1,
                         double* y);

/// The weight gradient of rows [row0, row1), added into gw laid out (channel, tap,
/// feature): gw[(c * taps + t) * features + f] += sum over r, j of
/// gy[f, r * row_length + j] * x[c * in_volume + row_base[r] + tap_offset[t] + j].
void direct_conv_weight(const direct_conv_slice<float>& s, const float* gy, std::int64_t row0, std::int64_t row1,
                        float* gw);
void direct_conv_weight(const direct_conv_slice<double>& s, const double* gy, std::int64_t row0, std::int64_t row1,
                        double* gw);

}  // namespace nt::detail::imaging
