// The rows kernel of filters_simd.hpp, compiled once per Highway target. The lanes of
// a vector are different lines of the image (the caller lays `width` lines side by
// side), so every load is a whole vector of one tap and no lane waits on another.
// No contraction of a product and a sum into one fused operation where the code does
// not ask for it: double must round as scipy's separate multiply and add do.
#pragma GCC optimize("fp-contract=off")
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "filters_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstdint>

#include "filters_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace nt::detail::imaging::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// kFused: float's multiply-adds. Without it, a product then a sum, in scipy's order,
// so that double results are scipy's to the bit (integer images truncate them).
template <bool kFused, class T>
HWY_INLINE void Rows(const T* HWY_RESTRICT ext, std::int64_t width, std::int64_t rows, const T* HWY_RESTRICT w,
                     std::int64_t taps, int symmetry, T* HWY_RESTRICT out) {
    const hn::ScalableTag<T> d;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    const auto mul_add = [&](auto a, auto b, auto acc) {
        if constexpr (kFused) return hn::MulAdd(a, b, acc);
        else return hn::Add(acc, hn::Mul(a, b));
    };
    const std::int64_t half = taps / 2;
    for (std::int64_t i = 0; i < rows; ++i) {
        const T* row = ext + i * width;
        T* o = out + i * width;
        for (std::int64_t j = 0; j < width; j += lanes) {
            if (symmetry != 0) {
                // scipy: x[c] w[c], then (x[c-m] +- x[c+m]) w[c-m] for m = half .. 1.
                const T* c = row + half * width + j;
                auto acc = hn::Mul(hn::LoadU(d, c), hn::Set(d, w[half]));
                for (std::int64_t m = half; m >= 1; --m) {
                    const auto lo = hn::LoadU(d, c - m * width), hi = hn::LoadU(d, c + m * width);
                    const auto pair = symmetry > 0 ? hn::Add(lo, hi) : hn::Sub(lo, hi);
                    acc = mul_add(pair, hn::Set(d, w[half - m]), acc);
                }
                hn::StoreU(acc, d, o + j);
            } else {
                // scipy: the last tap first, then the others in order.
                auto acc = hn::Mul(hn::LoadU(d, row + (taps - 1) * width + j), hn::Set(d, w[taps - 1]));
                for (std::int64_t k = 0; k + 1 < taps; ++k)
                    acc = mul_add(hn::LoadU(d, row + k * width + j), hn::Set(d, w[k]), acc);
                hn::StoreU(acc, d, o + j);
            }
        }
    }
}

void RowsF32(const float* ext, std::int64_t width, std::int64_t rows, const float* w, std::int64_t taps, int symmetry,
             float* out) {
    Rows<true>(ext, width, rows, w, taps, symmetry, out);
}
void RowsF64(const double* ext, std::int64_t width, std::int64_t rows, const double* w, std::int64_t taps,
             int symmetry, double* out) {
    Rows<false>(ext, width, rows, w, taps, symmetry, out);
}

}  // namespace nt::detail::imaging::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail::imaging {

HWY_EXPORT(RowsF32);
HWY_EXPORT(RowsF64);

void correlate_rows(const float* ext, std::int64_t width, std::int64_t rows, const float* w, std::int64_t taps,
                    kernel_symmetry symmetry, float* out) {
    HWY_DYNAMIC_DISPATCH(RowsF32)(ext, width, rows, w, taps, static_cast<int>(symmetry), out);
}
void correlate_rows(const double* ext, std::int64_t width, std::int64_t rows, const double* w, std::int64_t taps,
                    kernel_symmetry symmetry, double* out) {
    HWY_DYNAMIC_DISPATCH(RowsF64)(ext, width, rows, w, taps, static_cast<int>(symmetry), out);
}

}  // namespace nt::detail::imaging
#endif  // HWY_ONCE
