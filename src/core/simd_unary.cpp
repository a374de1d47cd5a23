// The float functions of simd.hpp (sqrt, rounding, exp, log, tanh, ...), compiled once
// per Highway target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_unary.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace nt::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Each function is a vector form and, for the approximations of Highway's math
// library, the range where that form is accurate (a few ULP) together with the libm
// function that takes the other lanes: NaN, infinities, results that overflow or are
// subnormal, arguments past Highway's valid range. So every value gets the same
// result wherever it sits in a row, and the special values get exactly libm's.
// The exact functions (sqrt and the roundings: IEEE, correctly rounded) need no
// fallback.

template <class T>
struct Limits {
    static constexpr bool kF32 = sizeof(T) == 4;
    // exp(x) is a normal, finite value for x in [kExpLo, kExpHi].
    static constexpr T kExpLo = kF32 ? T(-87) : T(-708);
    static constexpr T kExpHi = kF32 ? T(88) : T(709);
};

struct SqrtOp {
    static constexpr bool kExact = true;
    template <class D, class V> HWY_INLINE V operator()(D, V x) const { return hn::Sqrt(x); }
};
// Rounding keeps the sign (floor(-0) and ceil(-0.5) are -0); Highway's forms for
// CPUs without SSE4.1's rounding instruction return +0 there, so the sign is copied.
struct FloorOp {
    static constexpr bool kExact = true;
    template <class D, class V> HWY_INLINE V operator()(D, V x) const { return hn::CopySign(hn::Floor(x), x); }
};
struct CeilOp {
    static constexpr bool kExact = true;
    template <class D, class V> HWY_INLINE V operator()(D, V x) const { return hn::CopySign(hn::Ceil(x), x); }
};
struct TruncOp {
    static constexpr bool kExact = true;
    template <class D, class V> HWY_INLINE V operator()(D, V x) const { return hn::CopySign(hn::Trunc(x), x); }
};
// Half to even, as np.rint (and std::nearbyint in the default rounding mode).
struct RoundOp {
    static constexpr bool kExact = true;
    template <class D, class V> HWY_INLINE V operator()(D, V x) const { return hn::CopySign(hn::Round(x), x); }
};

// f(+-0) exactly, as libm: +-0 for the odd functions (Highway's give +0 for -0), 1 for
// cosine (Highway's gives the float just below).
template <class D, class V>
HWY_INLINE V KeepZero(D d, V x, V y) {
    return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, y);
}

struct ExpOp {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const { return hn::Exp(d, x); }
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const {
        using T = hn::TFromD<D>;
        return hn::And(hn::Ge(x, hn::Set(d, Limits<T>::kExpLo)), hn::Le(x, hn::Set(d, Limits<T>::kExpHi)));
    }
    template <class T> T scalar(T x) const { return std::exp(x); }
};
struct Expm1Op {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const { return KeepZero(d, x, hn::Expm1(d, x)); }
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const { return ExpOp{}.in_range(d, x); }
    template <class T> T scalar(T x) const { return std::expm1(x); }
};
struct LogOp {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const { return hn::Log(d, x); }
    // Positive normal values: zero, negatives, subnormals, inf and NaN go to libm.
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const {
        using T = hn::TFromD<D>;
        return hn::And(hn::Ge(x, hn::Set(d, std::numeric_limits<T>::min())),
                       hn::Le(x, hn::Set(d, std::numeric_limits<T>::max())));
    }
    template <class T> T scalar(T x) const { return std::log(x); }
};
struct Log1pOp {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const { return KeepZero(d, x, hn::Log1p(d, x)); }
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const {
        using T = hn::TFromD<D>;
        return hn::And(hn::Gt(x, hn::Set(d, T(-1))), hn::Le(x, hn::Set(d, std::numeric_limits<T>::max())));
    }
    template <class T> T scalar(T x) const { return std::log1p(x); }
};
struct TanhOp {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const { return KeepZero(d, x, hn::Tanh(d, x)); }
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const {  // finite
        using T = hn::TFromD<D>;
        return hn::Le(hn::Abs(x), hn::Set(d, std::numeric_limits<T>::max()));
    }
    template <class T> T scalar(T x) const { return std::tanh(x); }
};
// 1 / (1 + exp(-x)), the definition of the element loop.
struct SigmoidOp {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const {
        using T = hn::TFromD<D>;
        const V one = hn::Set(d, T(1));
        return hn::Div(one, hn::Add(one, hn::Exp(d, hn::Neg(x))));
    }
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const {
        using T = hn::TFromD<D>;
        return hn::And(hn::Ge(x, hn::Set(d, -Limits<T>::kExpHi)), hn::Le(x, hn::Set(d, -Limits<T>::kExpLo)));
    }
    template <class T> T scalar(T x) const { return T(1) / (T(1) + std::exp(-x)); }
};
// Highway's sine and cosine reduce the argument with a three-part pi: accurate for
// |x| up to about 39000 (its documented range); beyond, libm's full reduction.
template <bool kSin>
struct SinCosOp {
    static constexpr bool kExact = false;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const {
        using T = hn::TFromD<D>;
        if constexpr (kSin) return KeepZero(d, x, hn::Sin(d, x));
        else return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, T(1)), hn::Cos(d, x));
    }
    template <class D, class V> HWY_INLINE auto in_range(D d, V x) const {
        using T = hn::TFromD<D>;
        return hn::Le(hn::Abs(x), hn::Set(d, T(32768)));
    }
    template <class T> T scalar(T x) const { return kSin ? std::sin(x) : std::cos(x); }
};

// f over a vector: the vector form, with libm for the lanes outside its range.
template <class D, class Op, class V>
HWY_INLINE V Apply(D d, const Op& op, V x) {
    V y = op(d, x);
    if constexpr (!Op::kExact) {
        const auto ok = op.in_range(d, x);
        if (HWY_UNLIKELY(!hn::AllTrue(d, ok))) {
            using T = hn::TFromD<D>;
            constexpr std::size_t kMax = 32 / sizeof(T);
            HWY_ALIGN T xs[kMax], ys[kMax], oks[kMax];
            hn::Store(x, d, xs);
            hn::Store(y, d, ys);
            hn::Store(hn::IfThenElseZero(ok, hn::Set(d, T(1))), d, oks);
            for (std::size_t i = 0; i < hn::Lanes(d); ++i)
                if (oks[i] == T(0)) ys[i] = op.scalar(xs[i]);
            y = hn::Load(d, ys);
        }
    }
    return y;
}

// o[i] = f(a[i]) for i < n. Partial vectors (a row's head before the aligned part
// when streaming, and its tail) go through a padded buffer, so that each value gets
// the vector form's result wherever it sits. With `stream`, stores from the first
// vector-aligned element on are non-temporal (the caller fences).
template <class T, class Op>
HWY_INLINE void Row(const Op& op, T* HWY_RESTRICT o, const T* HWY_RESTRICT a, std::int64_t n, bool stream) {
    const hn::CappedTag<T, 32 / sizeof(T)> d;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    auto partial = [&](std::int64_t i, std::int64_t count) {
        HWY_ALIGN T buffer[32 / sizeof(T)];
        for (std::int64_t k = 0; k < lanes; ++k) buffer[k] = k < count ? a[i + k] : T(0.5);
        hn::Store(Apply(d, op, hn::Load(d, buffer)), d, buffer);
        std::memcpy(o + i, buffer, static_cast<std::size_t>(count) * sizeof(T));
    };
    std::int64_t i = 0;
    if (stream && reinterpret_cast<std::uintptr_t>(o) % sizeof(T) == 0) {
        const auto vector_bytes = static_cast<std::uintptr_t>(lanes) * sizeof(T);
        std::int64_t head = 0;
        while (head < n && reinterpret_cast<std::uintptr_t>(o + head) % vector_bytes != 0) ++head;
        if (head > 0) partial(0, head);
        i = head;
        for (; i + lanes <= n; i += lanes) hn::Stream(Apply(d, op, hn::LoadU(d, a + i)), d, o + i);
    }
    for (; i + lanes <= n; i += lanes) hn::StoreU(Apply(d, op, hn::LoadU(d, a + i)), d, o + i);
    if (i < n) partial(i, n - i);
}

template <class T, class Op>
HWY_INLINE void Rows(const Op& op, const simd_unary_rows<T>& r) {
    for (std::int64_t k = 0; k < r.rows; ++k) Row(op, r.o + k * r.o_row, r.a + k * r.a_row, r.n, r.stream);
}

template <class T>
HWY_NOINLINE void RowsOf(simd_math op, const simd_unary_rows<T>& r) {
    switch (op) {
        case simd_math::sqrt: return Rows(SqrtOp{}, r);
        case simd_math::floor: return Rows(FloorOp{}, r);
        case simd_math::ceil: return Rows(CeilOp{}, r);
        case simd_math::trunc: return Rows(TruncOp{}, r);
        case simd_math::round: return Rows(RoundOp{}, r);
        case simd_math::exp: return Rows(ExpOp{}, r);
        case simd_math::expm1: return Rows(Expm1Op{}, r);
        case simd_math::log: return Rows(LogOp{}, r);
        case simd_math::log1p: return Rows(Log1pOp{}, r);
        case simd_math::tanh: return Rows(TanhOp{}, r);
        case simd_math::sigmoid: return Rows(SigmoidOp{}, r);
        case simd_math::sin: return Rows(SinCosOp<true>{}, r);
        case simd_math::cos: return Rows(SinCosOp<false>{}, r);
    }
}

void MathF32(simd_math op, const simd_unary_rows<float>& r) { RowsOf(op, r); }
void MathF64(simd_math op, const simd_unary_rows<double>& r) { RowsOf(op, r); }

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail {

HWY_EXPORT(MathF32);
HWY_EXPORT(MathF64);

void simd_math_rows(simd_math op, const simd_unary_rows<float>& r) { HWY_DYNAMIC_DISPATCH(MathF32)(op, r); }
void simd_math_rows(simd_math op, const simd_unary_rows<double>& r) { HWY_DYNAMIC_DISPATCH(MathF64)(op, r); }

}  // namespace nt::detail
#endif  // HWY_ONCE
