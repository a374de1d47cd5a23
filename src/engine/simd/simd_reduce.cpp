// The reductions of a contiguous run in simd.hpp, compiled once per Highway target: its
// extreme (simd_extreme: min, max, and any/all of bool bytes), its float sum in the
// engine's pairwise order (simd_pairwise_sum) and its non-zero bytes
// (simd_count_nonzero: sums of bool).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_reduce.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace nt::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Four accumulators hide the latency of Min/Max; the last vector is loaded at n - lanes
// and may overlap the ones before it, which an extreme does not mind. A float NaN is
// only recorded (Highway's Min/Max leave it implementation-defined): the caller folds
// such a run in order, and one whose extreme is a zero (which signed zero comes first
// matters), itself.
template <bool kMax, class T>
HWY_INLINE bool Extreme(const T* HWY_RESTRICT p, std::int64_t n, T& result) {
    const hn::CappedTag<T, 32 / sizeof(T)> d;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    if (n < lanes) return false;
    const auto pick = [](auto x, auto y) { return kMax ? hn::Max(x, y) : hn::Min(x, y); };
    auto v0 = hn::LoadU(d, p), v1 = v0, v2 = v0, v3 = v0;
    auto nan = hn::FirstN(d, 0);
    if constexpr (hwy::IsFloat<T>()) nan = hn::IsNaN(v0);
    std::int64_t i = lanes;
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
        const auto x0 = hn::LoadU(d, p + i), x1 = hn::LoadU(d, p + i + lanes);
        const auto x2 = hn::LoadU(d, p + i + 2 * lanes), x3 = hn::LoadU(d, p + i + 3 * lanes);
        v0 = pick(v0, x0);
        v1 = pick(v1, x1);
        v2 = pick(v2, x2);
        v3 = pick(v3, x3);
        if constexpr (hwy::IsFloat<T>())
            nan = hn::Or(nan, hn::Or(hn::Or(hn::IsNaN(x0), hn::IsNaN(x1)), hn::Or(hn::IsNaN(x2), hn::IsNaN(x3))));
    }
    for (; i < n; i += lanes) {
        const auto x = hn::LoadU(d, p + (i + lanes <= n ? i : n - lanes));
        v0 = pick(v0, x);
        if constexpr (hwy::IsFloat<T>()) nan = hn::Or(nan, hn::IsNaN(x));
    }
    // Across the lanes through memory: Highway 1.0's MaxOfLanes has no 8-bit form.
    T lane[32 / sizeof(T)];
    hn::StoreU(pick(pick(v0, v1), pick(v2, v3)), d, lane);
    result = lane[0];
    for (std::int64_t k = 1; k < lanes; ++k) result = kMax ? (lane[k] > result ? lane[k] : result)
                                                           : (lane[k] < result ? lane[k] : result);
    if constexpr (hwy::IsFloat<T>()) return hn::AllFalse(d, nan) && result != T(0);
    else return true;
}

template <class T>
HWY_NOINLINE bool ExtremeOf(bool max, const T* p, std::int64_t n, T& result) {
    return max ? Extreme<true>(p, n, result) : Extreme<false>(p, n, result);
}

// The engine's pairwise sum (reduce_impl::pairwise in engine_reduce.hpp) on vectors,
// with the same additions in the same order: eight accumulators (one 256-bit vector of
// f32, two of f64 or of 128-bit f32, ...) started from 0 + x, leaves of at most 128
// elements combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the tail
// in order; longer runs split at half rounded down to a multiple of 8.
template <class T>
T PairwiseSum(const T* HWY_RESTRICT p, std::int64_t n) {  // recursive: not HWY_INLINE
    if (n < 8) {
        T r = T(0) + p[0];
        for (std::int64_t i = 1; i < n; ++i) r += p[i];
        return r;
    }
    if (n <= 128) {
        const hn::CappedTag<T, 8> d;
        constexpr std::size_t lanes = hn::MaxLanes(d), k = 8 / lanes;
        using V = hn::Vec<decltype(d)>;
        V acc[k];
        for (std::size_t j = 0; j < k; ++j) acc[j] = hn::Add(hn::Zero(d), hn::LoadU(d, p + j * lanes));
        std::int64_t i = 8;
        for (; i + 8 <= n; i += 8)
            for (std::size_t j = 0; j < k; ++j) acc[j] = hn::Add(acc[j], hn::LoadU(d, p + i + j * lanes));
        T r[8];
        for (std::size_t j = 0; j < k; ++j) hn::StoreU(acc[j], d, r + j * lanes);
        T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += p[i];
        return res;
    }
    std::int64_t half = n / 2;
    half -= half % 8;
    return PairwiseSum(p, half) + PairwiseSum(p + half, n - half);
}

HWY_NOINLINE float PairwiseSumF32(const float* p, std::int64_t n) { return PairwiseSum(p, n); }
HWY_NOINLINE double PairwiseSumF64(const double* p, std::int64_t n) { return PairwiseSum(p, n); }

// Sums of eight bytes into 64-bit lanes: exact for any run length.
HWY_NOINLINE std::uint64_t CountNonzero(const std::uint8_t* HWY_RESTRICT p, std::int64_t n) {
    const hn::CappedTag<std::uint8_t, 32> d;
    const hn::Repartition<std::uint64_t, decltype(d)> d64;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    const auto one = hn::Set(d, 1);
    auto total = hn::Zero(d64);
    std::int64_t i = 0;
    for (; i + lanes <= n; i += lanes) total = hn::Add(total, hn::SumsOf8(hn::Min(hn::LoadU(d, p + i), one)));
    std::uint64_t count = hn::GetLane(hn::SumOfLanes(d64, total));
    for (; i < n; ++i) count += p[i] != 0;
    return count;
}

// HWY_EXPORT takes plain functions: one per element type.
#define NT_EXTREME_KERNEL(Type, Suffix) \
    bool Extreme##Suffix(bool max, const Type* p, std::int64_t n, Type& r) { return ExtremeOf(max, p, n, r); }
NT_FOR_EACH_SIMD_ROW_TYPE(NT_EXTREME_KERNEL)
#undef NT_EXTREME_KERNEL

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail {

#define NT_EXTREME_DISPATCH(Type, Suffix)                                   \
    HWY_EXPORT(Extreme##Suffix);                                            \
    bool simd_extreme(bool max, const Type* p, std::int64_t n, Type& r) {   \
        return HWY_DYNAMIC_DISPATCH(Extreme##Suffix)(max, p, n, r);         \
    }
NT_FOR_EACH_SIMD_ROW_TYPE(NT_EXTREME_DISPATCH)
#undef NT_EXTREME_DISPATCH

HWY_EXPORT(CountNonzero);
HWY_EXPORT(PairwiseSumF32);
HWY_EXPORT(PairwiseSumF64);

float simd_pairwise_sum(const float* p, std::int64_t n) { return HWY_DYNAMIC_DISPATCH(PairwiseSumF32)(p, n); }
double simd_pairwise_sum(const double* p, std::int64_t n) { return HWY_DYNAMIC_DISPATCH(PairwiseSumF64)(p, n); }

std::uint64_t simd_count_nonzero(const std::uint8_t* p, std::int64_t n) {
    return HWY_DYNAMIC_DISPATCH(CountNonzero)(p, n);
}

}  // namespace nt::detail
#endif  // HWY_ONCE
