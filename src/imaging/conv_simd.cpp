// The direct convolution kernels of conv_simd.hpp, compiled once per Highway target.
//
// Forward: a block of FB features times NV vectors of consecutive output positions is
// held in registers while the channels and taps go by; each tap loads NV input
// vectors and each weight is one broadcast. Weight gradient: a block of FB features
// times TB taps of one channel is held in registers while the positions go by, and
// each block ends in horizontal sums. The blocks are as large as the target's
// registers allow (32 vector registers with AVX-512, 16 below).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "conv_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>

#include "conv_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace nt::detail::imaging::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
constexpr bool kWideRegisters = true;
#else
constexpr bool kWideRegisters = false;
#endif

// --- forward --------------------------------------------------------------------------

/// FB features x NV vectors of outputs starting at output offset j of a row.
template <int FB, int NV, class D, class T>
HWY_INLINE void ForwardBlock(D d, const direct_conv_slice<T>& s, const T* HWY_RESTRICT w, std::int64_t base,
                             std::int64_t j, T* HWY_RESTRICT y) {
    using V = hn::Vec<D>;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    V acc[FB][NV];
    for (int f = 0; f < FB; ++f)
        for (int v = 0; v < NV; ++v) acc[f][v] = hn::Zero(d);
    const std::int64_t features = s.features;
    for (std::int64_t c = 0; c < s.channels; ++c) {
        const T* HWY_RESTRICT xc = s.x + c * s.in_volume + base + j;
        const T* HWY_RESTRICT wc = w + c * s.taps * features;
        for (std::int64_t t = 0; t < s.taps; ++t) {
            const T* HWY_RESTRICT xp = xc + s.tap_offset[t];
            V xv[NV];
            for (int v = 0; v < NV; ++v) xv[v] = hn::LoadU(d, xp + v * lanes);
            const T* HWY_RESTRICT wt = wc + t * features;
            for (int f = 0; f < FB; ++f) {
                const V wv = hn::Set(d, wt[f]);
                for (int v = 0; v < NV; ++v) acc[f][v] = hn::MulAdd(wv, xv[v], acc[f][v]);
            }
        }
    }
    for (int f = 0; f < FB; ++f)
        for (int v = 0; v < NV; ++v) hn::StoreU(acc[f][v], d, y + f * s.positions + j + v * lanes);
}

/// FB features of one row: whole NV-vector blocks, then single vectors, then the last
/// vector again over the row's end (its overlap recomputes equal values).
template <int FB, int NV, class D, class T>
HWY_INLINE void ForwardRow(D d, const direct_conv_slice<T>& s, const T* HWY_RESTRICT w, std::int64_t base,
                           T* HWY_RESTRICT y) {
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    const std::int64_t length = s.row_length;
    std::int64_t j = 0;
    for (; j + NV * lanes <= length; j += NV * lanes) ForwardBlock<FB, NV>(d, s, w, base, j, y);
    for (; j + lanes <= length; j += lanes) ForwardBlock<FB, 1>(d, s, w, base, j, y);
    if (j < length) ForwardBlock<FB, 1>(d, s, w, base, length - lanes, y);
}

/// A row shorter than a vector: plain sums.
template <class T>
void ForwardRowScalar(const direct_conv_slice<T>& s, const T* w, std::int64_t base, T* y) {
    for (std::int64_t f = 0; f < s.features; ++f)
        for (std::int64_t j = 0; j < s.row_length; ++j) {
            T sum = 0;
            for (std::int64_t c = 0; c < s.channels; ++c)
                for (std::int64_t t = 0; t < s.taps; ++t)
                    sum += w[(c * s.taps + t) * s.features + f] * s.x[c * s.in_volume + base + s.tap_offset[t] + j];
            y[f * s.positions + j] = sum;
        }
}

template <class T>
void Forward(const direct_conv_slice<T>& s, const T* HWY_RESTRICT w, std::int64_t row0, std::int64_t row1,
             T* HWY_RESTRICT y) {
    const hn::ScalableTag<T> d;
    constexpr int kNV = kWideRegisters ? 2 : 1;
    const bool vectors = s.row_length >= static_cast<std::int64_t>(hn::Lanes(d));
    for (std::int64_t r = row0; r < row1; ++r) {
        const std::int64_t base = s.row_base[r];
        T* yr = y + r * s.row_length;
        if (!vectors) {
            ForwardRowScalar(s, w, base, yr);
            continue;
        }
        std::int64_t f = 0;
        for (; f + 8 <= s.features; f += 8) ForwardRow<8, kNV>(d, s, w + f, base, yr + f * s.positions);
        if (f + 4 <= s.features) {
            ForwardRow<4, kNV>(d, s, w + f, base, yr + f * s.positions);
            f += 4;
        }
        if (f + 2 <= s.features) {
            ForwardRow<2, kNV>(d, s, w + f, base, yr + f * s.positions);
            f += 2;
        }
        if (f < s.features) ForwardRow<1, kNV>(d, s, w + f, base, yr + f * s.positions);
    }
}

// --- weight gradient ------------------------------------------------------------------

/// gw[c, t0 .. t0+TB, f0 .. f0+FB] += the products over rows [row0, row1). The last
/// vector of a row is loaded over the row's end with the lanes already counted zeroed.
template <int FB, int TB, class D, class T>
HWY_INLINE void WeightBlock(D d, const direct_conv_slice<T>& s, const T* HWY_RESTRICT gy, std::int64_t c,
                            std::int64_t t0, std::int64_t row0, std::int64_t row1, T* HWY_RESTRICT gw) {
    using V = hn::Vec<D>;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    const std::int64_t length = s.row_length;
    V acc[FB][TB];
    for (int f = 0; f < FB; ++f)
        for (int t = 0; t < TB; ++t) acc[f][t] = hn::Zero(d);
    const std::int64_t full = length / lanes * lanes, rest = length - full;
    // The tail vector starts at length - lanes; its first lanes - rest lanes were counted.
    const auto tail_mask = hn::Not(hn::FirstN(d, static_cast<std::size_t>(lanes - rest)));
    for (std::int64_t r = row0; r < row1; ++r) {
        const T* HWY_RESTRICT xr = s.x + c * s.in_volume + s.row_base[r];
        const T* HWY_RESTRICT gr = gy + r * length;
        auto step = [&](std::int64_t j, bool masked) HWY_ATTR {
            V xv[TB];
            for (int t = 0; t < TB; ++t) xv[t] = hn::LoadU(d, xr + s.tap_offset[t0 + t] + j);
            for (int f = 0; f < FB; ++f) {
                V g = hn::LoadU(d, gr + f * s.positions + j);
                if (masked) g = hn::IfThenElseZero(tail_mask, g);
                for (int t = 0; t < TB; ++t) acc[f][t] = hn::MulAdd(g, xv[t], acc[f][t]);
            }
        };
        for (std::int64_t j = 0; j < full; j += lanes) step(j, false);
        if (rest != 0) step(length - lanes, true);
    }
    for (int f = 0; f < FB; ++f)
        for (int t = 0; t < TB; ++t)
            gw[(c * s.taps + t0 + t) * s.features + f] += hn::GetLane(hn::SumOfLanes(d, acc[f][t]));
}

template <int FB, int TB, class D, class T>
HWY_INLINE void WeightTaps(D d, const direct_conv_slice<T>& s, const T* HWY_RESTRICT gy, std::int64_t c,
                           std::int64_t row0, std::int64_t row1, T* HWY_RESTRICT gw) {
    std::int64_t t = 0;
    for (; t + TB <= s.taps; t += TB) WeightBlock<FB, TB>(d, s, gy, c, t, row0, row1, gw);
    for (; t < s.taps; ++t) WeightBlock<FB, 1>(d, s, gy, c, t, row0, row1, gw);
}

template <class T>
void WeightRowsScalar(const direct_conv_slice<T>& s, const T* gy, std::int64_t row0, std::int64_t row1, T* gw) {
    for (std::int64_t c = 0; c < s.channels; ++c)
        for (std::int64_t t = 0; t < s.taps; ++t)
            for (std::int64_t f = 0; f < s.features; ++f) {
                T sum = 0;
                for (std::int64_t r = row0; r < row1; ++r)
                    for (std::int64_t j = 0; j < s.row_length; ++j)
                        sum += gy[f * s.positions + r * s.row_length + j] *
                               s.x[c * s.in_volume + s.row_base[r] + s.tap_offset[t] + j];
                gw[(c * s.taps + t) * s.features + f] += sum;
            }
}

template <class T>
void Weight(const direct_conv_slice<T>& s, const T* HWY_RESTRICT gy, std::int64_t row0, std::int64_t row1,
            T* HWY_RESTRICT gw) {
    const hn::ScalableTag<T> d;
    if (s.row_length < static_cast<std::int64_t>(hn::Lanes(d))) {
        WeightRowsScalar(s, gy, row0, row1, gw);
        return;
    }
    // Registers: FB * TB accumulators, TB inputs and one gradient vector.
    constexpr int kFB = kWideRegisters ? 8 : 4;
    constexpr int kTB = 3;
    for (std::int64_t c = 0; c < s.channels; ++c) {
        std::int64_t f = 0;
        for (; f + kFB <= s.features; f += kFB)
            WeightTaps<kFB, kTB>(d, s, gy + f * s.positions, c, row0, row1, gw + f);
        for (; f + 2 <= s.features; f += 2) WeightTaps<2, kTB>(d, s, gy + f * s.positions, c, row0, row1, gw + f);
        if (f < s.features) WeightTaps<1, kTB>(d, s, gy + f * s.positions, c, row0, row1, gw + f);
    }
}

void ForwardF32(const direct_conv_slice<float>& s, const float* w, std::int64_t row0, std::int64_t row1, float* y) {
    Forward(s, w, row0, row1, y);
}
void ForwardF64(const direct_conv_slice<double>& s, const double* w, std::int64_t row0, std::int64_t row1,
                double* y) {
    Forward(s, w, row0, row1, y);
}
void WeightF32(const direct_conv_slice<float>& s, const float* gy, std::int64_t row0, std::int64_t row1, float* gw) {
    Weight(s, gy, row0, row1, gw);
}
void WeightF64(const direct_conv_slice<double>& s, const double* gy, std::int64_t row0, std::int64_t row1,
               double* gw) {
    Weight(s, gy, row0, row1, gw);
}

}  // namespace nt::detail::imaging::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail::imaging {

HWY_EXPORT(ForwardF32);
HWY_EXPORT(ForwardF64);
HWY_EXPORT(WeightF32);
HWY_EXPORT(WeightF64);

void direct_conv_forward(const direct_conv_slice<float>& s, const float* w, std::int64_t row0, std::int64_t row1,
                         float* y) {
    HWY_DYNAMIC_DISPATCH(ForwardF32)(s, w, row0, row1, y);
}
void direct_conv_forward(const direct_conv_slice<double>& s, const double* w, std::int64_t row0, std::int64_t row1,
                         double* y) {
    HWY_DYNAMIC_DISPATCH(ForwardF64)(s, w, row0, row1, y);
}
void direct_conv_weight(const direct_conv_slice<float>& s, const float* gy, std::int64_t row0, std::int64_t row1,
                        float* gw) {
    HWY_DYNAMIC_DISPATCH(WeightF32)(s, gy, row0, row1, gw);
}
void direct_conv_weight(const direct_conv_slice<double>& s, const double* gy, std::int64_t row0, std::int64_t row1,
                        double* gw) {
    HWY_DYNAMIC_DISPATCH(WeightF64)(s, gy, row0, row1, gw);
}

}  // namespace nt::detail::imaging
#endif  // HWY_ONCE
