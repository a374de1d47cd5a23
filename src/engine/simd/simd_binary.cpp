// The arithmetic row kernels of simd.hpp (+ - * / min max), compiled once per Highway target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_binary.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "simd.hpp"
#include "simd_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nt::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One operation on whole vectors and on single elements: the scalar form takes the
// row's unaligned head and its tail, and must give what the vector form gives (every
// operation here is exact per element, so it does).
struct AddOp {
    template <class V> HWY_INLINE V operator()(V x, V y) const { return hn::Add(x, y); }
    template <class T> HWY_INLINE T scalar(T x, T y) const { return static_cast<T>(wrap(x) + wrap(y)); }
    // Integer arithmetic wraps, as the vector forms do: computed in uint32 (a 16-bit
    // type would promote to int, whose overflow is undefined), then narrowed.
    template <class T> static HWY_INLINE auto wrap(T x) {
        static_assert(hwy::IsFloat<T>() || sizeof(T) <= 4);
        if constexpr (hwy::IsFloat<T>()) return x;
        else return static_cast<std::uint32_t>(x);
    }
};
struct SubOp {
    template <class V> HWY_INLINE V operator()(V x, V y) const { return hn::Sub(x, y); }
    template <class T> HWY_INLINE T scalar(T x, T y) const {
        return static_cast<T>(AddOp::wrap(x) - AddOp::wrap(y));
    }
};
struct MulOp {
    template <class V> HWY_INLINE V operator()(V x, V y) const { return hn::Mul(x, y); }
    template <class T> HWY_INLINE T scalar(T x, T y) const {
        if constexpr (hwy::IsFloat<T>()) return x * y;
        else return static_cast<T>(AddOp::wrap(x) * AddOp::wrap(y));
    }
};
struct DivOp {
    template <class V> HWY_INLINE V operator()(V x, V y) const { return hn::Div(x, y); }
    template <class T> HWY_INLINE T scalar(T x, T y) const { return x / y; }
};

// NumPy's minimum (kMax false) and maximum: a NaN operand is the result (the first
// one when both are), else the smaller (larger) value, and `a` when the two compare
// equal (so min(-0.0, +0.0) is -0.0 and min(+0.0, -0.0) is +0.0, as in the element
// loop).
template <bool kMax>
struct ExtremeOp {
    template <class V> HWY_INLINE V operator()(V x, V y) const {
        const auto r = hn::IfThenElse(kMax ? hn::Lt(x, y) : hn::Lt(y, x), y, x);
        if constexpr (hwy::IsFloat<hn::TFromV<V>>())
            return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenElse(hn::IsNaN(y), y, r));
        else return r;
    }
    template <class T> HWY_INLINE T scalar(T x, T y) const {
        if constexpr (hwy::IsFloat<T>()) {
            if (x != x) return x;
            if (y != y) return y;
        }
        return (kMax ? x < y : y < x) ? y : x;
    }
};

// o[i] = op(a[i * sa], b[i * sb]), sa and sb 0 or 1 (not both 0). With `stream`, the
// part of the row from the first vector-aligned element on is written with
// non-temporal stores (the caller fences).
template <class T, class Op>
HWY_INLINE void Row(const Op& op, T* HWY_RESTRICT o, const T* HWY_RESTRICT a, std::int64_t sa,
                    const T* HWY_RESTRICT b, std::int64_t sb, std::int64_t n, bool stream) {
    const hn::CappedTag<T, 32 / sizeof(T)> d;
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    std::int64_t i = 0;
    auto scalar_to = [&](std::int64_t end) {
        for (; i < end; ++i) o[i] = op.scalar(a[i * sa], b[i * sb]);
    };
    auto body = [&](auto load_a, auto load_b) {
        if (stream) {
            const auto vector_bytes = static_cast<std::uintptr_t>(lanes) * sizeof(T);
            std::int64_t head = 0;
            while (head < n && reinterpret_cast<std::uintptr_t>(o + head) % vector_bytes != 0) ++head;
            if (reinterpret_cast<std::uintptr_t>(o) % sizeof(T) == 0) {
                scalar_to(head);
                for (; i + lanes <= n; i += lanes) hn::Stream(op(load_a(i), load_b(i)), d, o + i);
            }
        }
        for (; i + lanes <= n; i += lanes) hn::StoreU(op(load_a(i), load_b(i)), d, o + i);
    };
    WithRowLoads(d, a, sa, b, sb, body);
    scalar_to(n);
}

// Every row of a 2-D piece in one dispatched call: small operations have few
// elements per row, and a call per row would cost more than the row.
template <class T, class Op>
HWY_INLINE void Rows(const Op& op, const simd_rows<T>& r) {
    for (std::int64_t k = 0; k < r.rows; ++k)
        Row(op, r.o + k * r.o_row, r.a + k * r.a_row, r.sa, r.b + k * r.b_row, r.sb, r.n, r.stream);
}

template <class T>
HWY_NOINLINE void RowsOf(simd_arith op, const simd_rows<T>& r) {
    switch (op) {
        case simd_arith::add: return Rows(AddOp{}, r);
        case simd_arith::sub: return Rows(SubOp{}, r);
        case simd_arith::mul:
            if constexpr (sizeof(T) > 1) return Rows(MulOp{}, r);
            return;  // simd_binary_rows refuses 8-bit products before they get here
        case simd_arith::min: return Rows(ExtremeOp<false>{}, r);
        case simd_arith::max: return Rows(ExtremeOp<true>{}, r);
        case simd_arith::div:
            if constexpr (hwy::IsFloat<T>()) return Rows(DivOp{}, r);
            return;  // simd_binary_rows refuses integer division before it gets here
    }
}

// HWY_EXPORT takes plain functions: one per element type.
void RowsF32(simd_arith op, const simd_rows<float>& r) { RowsOf(op, r); }
void RowsF64(simd_arith op, const simd_rows<double>& r) { RowsOf(op, r); }
void RowsI32(simd_arith op, const simd_rows<std::int32_t>& r) { RowsOf(op, r); }
void RowsI16(simd_arith op, const simd_rows<std::int16_t>& r) { RowsOf(op, r); }
void RowsU16(simd_arith op, const simd_rows<std::uint16_t>& r) { RowsOf(op, r); }
void RowsU32(simd_arith op, const simd_rows<std::uint32_t>& r) { RowsOf(op, r); }
void RowsI8(simd_arith op, const simd_rows<std::int8_t>& r) { RowsOf(op, r); }
void RowsU8(simd_arith op, const simd_rows<std::uint8_t>& r) { RowsOf(op, r); }

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nt::detail {

HWY_EXPORT(RowsF32);
HWY_EXPORT(RowsF64);
HWY_EXPORT(RowsI32);
HWY_EXPORT(RowsI16);
HWY_EXPORT(RowsU16);
HWY_EXPORT(RowsU32);
HWY_EXPORT(RowsI8);
HWY_EXPORT(RowsU8);

void simd_binary_rows(simd_arith op, const simd_rows<float>& r) { HWY_DYNAMIC_DISPATCH(RowsF32)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<double>& r) { HWY_DYNAMIC_DISPATCH(RowsF64)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<std::int32_t>& r) { HWY_DYNAMIC_DISPATCH(RowsI32)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<std::int16_t>& r) { HWY_DYNAMIC_DISPATCH(RowsI16)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<std::uint16_t>& r) { HWY_DYNAMIC_DISPATCH(RowsU16)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<std::uint32_t>& r) { HWY_DYNAMIC_DISPATCH(RowsU32)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<std::int8_t>& r) { HWY_DYNAMIC_DISPATCH(RowsI8)(op, r); }
void simd_binary_rows(simd_arith op, const simd_rows<std::uint8_t>& r) { HWY_DYNAMIC_DISPATCH(RowsU8)(op, r); }

}  // namespace nt::detail
#endif  // HWY_ONCE
