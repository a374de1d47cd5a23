// The comparison row kernels of simd.hpp (== != < <= > >= into bool results), compiled
// once per Highway target. A file of their own: simd_binary.cpp is already the longest
// compile of the library.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_compare.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "simd.hpp"
#include "simd_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nt::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Each comparison on whole vectors (a mask) and on single elements (the row's tail).
// Floating comparisons follow IEEE: a NaN operand makes all of them false but !=.
// Highway's Ne is ordered on floats (false for NaN), so != is Not(Eq); <= and >= of
// integers are Not(>) and Not(<) (all of them exact).
struct EqCmp {
    template <class V> HWY_INLINE auto operator()(V x, V y) const { return hn::Eq(x, y); }
    template <class T> HWY_INLINE bool scalar(T x, T y) const { return x == y; }
};
struct NeCmp {
    template <class V> HWY_INLINE auto operator()(V x, V y) const { return hn::Not(hn::Eq(x, y)); }
    template <class T> HWY_INLINE bool scalar(T x, T y) const { return x != y; }
};
struct LtCmp {
    template <class V> HWY_INLINE auto operator()(V x, V y) const { return hn::Lt(x, y); }
    template <class T> HWY_INLINE bool scalar(T x, T y) const { return x < y; }
};
struct GtCmp {
    template <class V> HWY_INLINE auto operator()(V x, V y) const { return hn::Gt(x, y); }
    template <class T> HWY_INLINE bool scalar(T x, T y) const { return x > y; }
};
struct LeCmp {
    template <class V> HWY_INLINE auto operator()(V x, V y) const {
        if constexpr (hwy::IsFloat<hn::TFromV<V>>()) return hn::Le(x, y);
        else return hn::Not(hn::Gt(x, y));
    }
    template <class T> HWY_INLINE bool scalar(T x, T y) const { return x <= y; }
};
struct GeCmp {
    template <class V> HWY_INLINE auto operator()(V x, V y) const {
        if constexpr (hwy::IsFloat<hn::TFromV<V>>()) return hn::Ge(x, y);
        else return hn::Not(hn::Lt(x, y));
    }
    template <class T> HWY_INLINE bool scalar(T x, T y) const { return x >= y; }
};

// A mask of d's lanes as one byte per lane, 1 or 0: the mask's lanes as integers (-1
// or 0) narrowed to bytes, then the low bit. 64-bit lanes have no narrowing to bytes
// here: 1.0 or 0.0, narrowed to float, converted to int32, then to bytes.
template <class D, class M>
HWY_INLINE auto MaskBytes(D d, M m) {
    using T = hn::TFromD<D>;
    const hn::Rebind<std::uint8_t, D> d8;
    if constexpr (sizeof(T) == 8) {
        const auto ones = hn::IfThenElseZero(m, hn::Set(d, T{1}));
        const hn::Rebind<std::int32_t, D> di;
        if constexpr (hwy::IsFloat<T>()) return hn::DemoteTo(d8, hn::ConvertTo(di, hn::DemoteTo(hn::Rebind<float, D>(), ones)));
        else return hn::DemoteTo(d8, hn::DemoteTo(di, ones));
    } else {
        const auto minus_ones = hn::BitCast(hn::RebindToSigned<D>(), hn::VecFromMask(d, m));
        if constexpr (sizeof(T) == 1) return hn::And(hn::BitCast(d8, minus_ones), hn::Set(d8, 1));
        else return hn::And(hn::BitCast(d8, hn::DemoteTo(hn::Rebind<std::int8_t, D>(), minus_ones)), hn::Set(d8, 1));
    }
}

// o[i] = a[i * sa] cmp b[i * sb], sa and sb 0 or 1 (not both 0).
template <class T, class Cmp>
HWY_INLINE void MaskRow(const Cmp& cmp, bool* HWY_RESTRICT o, const T* HWY_RESTRICT a, std::int64_t sa,
                        const T* HWY_RESTRICT b, std::int64_t sb, std::int64_t n) {
    const hn::CappedTag<T, 32 / sizeof(T)> d;
    const hn::Rebind<std::uint8_t, decltype(d)> d8;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    auto* bytes = reinterpret_cast<std::uint8_t*>(o);
    std::int64_t i = 0;
    auto body = [&](auto load_a, auto load_b) {
        for (; i + lanes <= n; i += lanes) hn::StoreU(MaskBytes(d, cmp(load_a(i), load_b(i))), d8, bytes + i);
    };
    WithRowLoads(d, a, sa, b, sb, body);
    for (; i < n; ++i) o[i] = cmp.scalar(a[i * sa], b[i * sb]);
}

template <class T, class Cmp>
HWY_INLINE void MaskRows(const Cmp& cmp, const simd_rows<T, bool>& r) {
    for (std::int64_t k = 0; k < r.rows; ++k)
        MaskRow(cmp, r.o + k * r.o_row, r.a + k * r.a_row, r.sa, r.b + k * r.b_row, r.sb, r.n);
}

template <class T>
HWY_NOINLINE void CompareOf(simd_compare op, const simd_rows<T, bool>& r) {
    switch (op) {
        case simd_compare::eq: return MaskRows(EqCmp{}, r);
        case simd_compare::ne: return MaskRows(NeCmp{}, r);
        case simd_compare::lt: return MaskRows(LtCmp{}, r);
        case simd_compare::le: return MaskRows(LeCmp{}, r);
        case simd_compare::gt: return MaskRows(GtCmp{}, r);
        case simd_compare::ge: return MaskRows(GeCmp{}, r);
    }
}

// HWY_EXPORT takes plain functions: one per element type.
void CompareF32(simd_compare op, const simd_rows<float, bool>& r) { CompareOf(op, r); }
void CompareF64(simd_compare op, const simd_rows<double, bool>& r) { CompareOf(op, r); }
void CompareI32(simd_compare op, const simd_rows<std::int32_t, bool>& r) { CompareOf(op, r); }
void CompareI16(simd_compare op, const simd_rows<std::int16_t, bool>& r) { CompareOf(op, r); }
void CompareU16(simd_compare op, const simd_rows<std::uint16_t, bool>& r) { CompareOf(op, r); }
void CompareU32(simd_compare op, const simd_rows<std::uint32_t, bool>& r) { CompareOf(op, r); }
void CompareI8(simd_compare op, const simd_rows<std::int8_t, bool>& r) { CompareOf(op, r); }
void CompareU8(simd_compare op, const simd_rows<std::uint8_t, bool>& r) { CompareOf(op, r); }

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail {

HWY_EXPORT(CompareF32);
HWY_EXPORT(CompareF64);
HWY_EXPORT(CompareI32);
HWY_EXPORT(CompareI16);
HWY_EXPORT(CompareU16);
HWY_EXPORT(CompareU32);
HWY_EXPORT(CompareI8);
HWY_EXPORT(CompareU8);

void simd_compare_rows(simd_compare op, const simd_rows<float, bool>& r) { HWY_DYNAMIC_DISPATCH(CompareF32)(op, r); }
void simd_compare_rows(simd_compare op, const simd_rows<double, bool>& r) { HWY_DYNAMIC_DISPATCH(CompareF64)(op, r); }
void simd_compare_rows(simd_compare op, const simd_rows<std::int32_t, bool>& r) {
    HWY_DYNAMIC_DISPATCH(CompareI32)(op, r);
}
void simd_compare_rows(simd_compare op, const simd_rows<std::int16_t, bool>& r) {
    HWY_DYNAMIC_DISPATCH(CompareI16)(op, r);
}
void simd_compare_rows(simd_compare op, const simd_rows<std::uint16_t, bool>& r) {
    HWY_DYNAMIC_DISPATCH(CompareU16)(op, r);
}
void simd_compare_rows(simd_compare op, const simd_rows<std::uint32_t, bool>& r) {
    HWY_DYNAMIC_DISPATCH(CompareU32)(op, r);
}
void simd_compare_rows(simd_compare op, const simd_rows<std::int8_t, bool>& r) { HWY_DYNAMIC_DISPATCH(CompareI8)(op, r); }
void simd_compare_rows(simd_compare op, const simd_rows<std::uint8_t, bool>& r) { HWY_DYNAMIC_DISPATCH(CompareU8)(op, r); }

}  // namespace nt::detail
#endif  // HWY_ONCE
