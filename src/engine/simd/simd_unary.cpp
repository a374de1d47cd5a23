// The float functions of simd.hpp (sqrt, rounding, exp, log, tanh, ...) and the casts of
// floating values to small integers, compiled once per Highway target.
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

// A float function as a row operation (Apply).
template <class Op>
struct Math {
    Op op;
    template <class D, class V> HWY_INLINE V operator()(D d, V x) const { return Apply(d, op, x); }
};

// Floating values cast to the integer type To as convert<To, From> in the kernels
// does: NaN gives 0, values beyond To's range its limits, the rest truncate toward
// zero. To's limits are exact in From (f32 serves 8- and 16-bit types; f64 also i32).
template <class To>
struct CastOp {
    template <class D, class V> HWY_INLINE auto operator()(D d, V x) const {
        using T = hn::TFromD<D>;
        static_assert(sizeof(To) < sizeof(T) || (sizeof(T) == 8 && sizeof(To) == 4));
        const hn::Rebind<std::int32_t, D> di;
        constexpr T lo = static_cast<T>(std::numeric_limits<To>::min());
        constexpr T hi = static_cast<T>(std::numeric_limits<To>::max());
        x = hn::IfThenZeroElse(hn::IsNaN(x), x);
        // Highway's scalar target saturates i32 demotions of values just past i32's
        // limits before truncating them (-2147483647.5 gave -2^31): truncate first.
        if constexpr (std::is_same_v<To, std::int32_t>) x = hn::Trunc(x);
        x = hn::Min(hn::Max(x, hn::Set(d, lo)), hn::Set(d, hi));
        const auto i = [&] {
            if constexpr (sizeof(T) == 4) return hn::ConvertTo(di, x);
            else return hn::DemoteTo(di, x);
        }();
        if constexpr (std::is_same_v<To, std::int32_t>) return i;
        else return hn::DemoteTo(hn::Rebind<To, D>(), i);
    }
};

// o[i] = f(a[i]) for i < n, f taking vectors of T to vectors of O with as many lanes.
// Partial vectors (a row's head before the aligned part when streaming, and its tail)
// go through a padded buffer, so that each value gets the vector form's result
// wherever it sits. With `stream`, stores from the first vector-aligned element on are
// non-temporal (the caller fences).
template <class T, class O, class F>
HWY_INLINE void Row(const F& f, O* HWY_RESTRICT o, const T* HWY_RESTRICT a, std::int64_t n, bool stream) {
    const hn::CappedTag<T, 32 / sizeof(T)> d;
    const hn::Rebind<O, decltype(d)> d_out;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    auto partial = [&](std::int64_t i, std::int64_t count) {
        HWY_ALIGN T in[32 / sizeof(T)];
        HWY_ALIGN O out[32 / sizeof(T)];
        for (std::int64_t k = 0; k < lanes; ++k) in[k] = k < count ? a[i + k] : T(0.5);
        hn::Store(f(d, hn::Load(d, in)), d_out, out);
        std::memcpy(o + i, out, static_cast<std::size_t>(count) * sizeof(O));
    };
    std::int64_t i = 0;
    if (stream && reinterpret_cast<std::uintptr_t>(o) % sizeof(O) == 0) {
        const auto vector_bytes = static_cast<std::uintptr_t>(lanes) * sizeof(O);
        std::int64_t head = 0;
        while (head < n && reinterpret_cast<std::uintptr_t>(o + head) % vector_bytes != 0) ++head;
        if (head > 0) partial(0, head);
        i = head;
        for (; i + lanes <= n; i += lanes) hn::Stream(f(d, hn::LoadU(d, a + i)), d_out, o + i);
    }
    for (; i + lanes <= n; i += lanes) hn::StoreU(f(d, hn::LoadU(d, a + i)), d_out, o + i);
    if (i < n) partial(i, n - i);
}

template <class T, class O, class F>
HWY_INLINE void Rows(const F& f, const simd_unary_rows<T, O>& r) {
    for (std::int64_t k = 0; k < r.rows; ++k) Row(f, r.o + k * r.o_row, r.a + k * r.a_row, r.n, r.stream);
}

template <class T>
HWY_NOINLINE void RowsOf(simd_math op, const simd_unary_rows<T>& r) {
    switch (op) {
        case simd_math::sqrt: return Rows(Math<SqrtOp>{}, r);
        case simd_math::floor: return Rows(Math<FloorOp>{}, r);
        case simd_math::ceil: return Rows(Math<CeilOp>{}, r);
        case simd_math::trunc: return Rows(Math<TruncOp>{}, r);
        case simd_math::round: return Rows(Math<RoundOp>{}, r);
        case simd_math::exp: return Rows(Math<ExpOp>{}, r);
        case simd_math::expm1: return Rows(Math<Expm1Op>{}, r);
        case simd_math::log: return Rows(Math<LogOp>{}, r);
        case simd_math::log1p: return Rows(Math<Log1pOp>{}, r);
        case simd_math::tanh: return Rows(Math<TanhOp>{}, r);
        case simd_math::sigmoid: return Rows(Math<SigmoidOp>{}, r);
        case simd_math::sin: return Rows(Math<SinCosOp<true>>{}, r);
        case simd_math::cos: return Rows(Math<SinCosOp<false>>{}, r);
    }
}

void MathF32(simd_math op, const simd_unary_rows<float>& r) { RowsOf(op, r); }
void MathF64(simd_math op, const simd_unary_rows<double>& r) { RowsOf(op, r); }

// HWY_EXPORT takes plain functions: one per type pair.
#define NT_CAST_ROWS(From, To, NAME) \
    HWY_NOINLINE void NAME(const simd_unary_rows<From, To>& r) { Rows(CastOp<To>{}, r); }
NT_FOR_EACH_SIMD_CAST(NT_CAST_ROWS)
#undef NT_CAST_ROWS

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail {

HWY_EXPORT(MathF32);
HWY_EXPORT(MathF64);

void simd_math_rows(simd_math op, const simd_unary_rows<float>& r) { HWY_DYNAMIC_DISPATCH(MathF32)(op, r); }
void simd_math_rows(simd_math op, const simd_unary_rows<double>& r) { HWY_DYNAMIC_DISPATCH(MathF64)(op, r); }

#define NT_CAST_ROWS(From, To, NAME)                                                              \
    HWY_EXPORT(NAME);                                                                             \
    void simd_cast_rows(const simd_unary_rows<From, To>& r) { HWY_DYNAMIC_DISPATCH(NAME)(r); }
NT_FOR_EACH_SIMD_CAST(NT_CAST_ROWS)
#undef NT_CAST_ROWS

}  // namespace nt::detail
#endif  // HWY_ONCE
