// The transpose and interleave kernels of simd.hpp, compiled once per Highway target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_transpose.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace nt::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
/// dst rows r..r+n-1 from src rows i..i+n-1 in 128-bit vectors of n lanes (16 bytes,
/// 8 16-bit elements, 4 32-bit, 2 64-bit ones): log2(n) rounds, each interleaving
/// vector j with vector j + n/2; after the last round vector j holds column j.
template <class T, class AtDst, class AtSrc>
HWY_INLINE void TransposeRounds(std::int64_t r, std::int64_t i, const AtDst& at_dst, const AtSrc& at_src) {
    const hn::Full128<T> d;
    constexpr int n = 16 / sizeof(T);
    hn::Vec<decltype(d)> v[n], w[n];
    for (int j = 0; j < n; ++j) v[j] = hn::LoadU(d, at_src(i + j, r));
    for (int round = 1; round < n; round *= 2) {
        for (int j = 0; j < n / 2; ++j) {
            w[2 * j] = hn::InterleaveLower(d, v[j], v[j + n / 2]);
            w[2 * j + 1] = hn::InterleaveUpper(d, v[j], v[j + n / 2]);
        }
        for (int j = 0; j < n; ++j) v[j] = w[j];
    }
    for (int j = 0; j < n; ++j) hn::StoreU(v[j], d, at_dst(r + j, i));
}
#endif

// 128-bit vectors on every target: a 4x4 block of 32-bit elements (2x2 of 64-bit,
// 8x8 of 16-bit, 16x16 of bytes) is exactly four (two, eight, sixteen) of them. AVX2
// and AVX-512 move blocks of 256-bit vectors first: 8x8 of 32-bit elements, 4x4 of
// 64-bit.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
/// dst rows r..r+7 from src rows i..i+7 (32-bit elements), on 256-bit vectors: pairs,
/// then 64-bit pairs interleave within each 128-bit half, and the halves swap last.
template <class T, class AtDst, class AtSrc>
HWY_INLINE void Transpose8x8(std::int64_t r, std::int64_t i, const AtDst& at_dst, const AtSrc& at_src) {
    const hn::Simd<T, 8, 0> d;
    const hn::Repartition<std::uint64_t, decltype(d)> d64;
    auto pairs_lo = [&](auto x, auto y) {
        return hn::BitCast(d, hn::InterleaveLower(d64, hn::BitCast(d64, x), hn::BitCast(d64, y)));
    };
    auto pairs_hi = [&](auto x, auto y) {
        return hn::BitCast(d, hn::InterleaveUpper(d64, hn::BitCast(d64, x), hn::BitCast(d64, y)));
    };
    const auto a0 = hn::LoadU(d, at_src(i + 0, r)), a1 = hn::LoadU(d, at_src(i + 1, r));
    const auto a2 = hn::LoadU(d, at_src(i + 2, r)), a3 = hn::LoadU(d, at_src(i + 3, r));
    const auto a4 = hn::LoadU(d, at_src(i + 4, r)), a5 = hn::LoadU(d, at_src(i + 5, r));
    const auto a6 = hn::LoadU(d, at_src(i + 6, r)), a7 = hn::LoadU(d, at_src(i + 7, r));
    const auto t0 = hn::InterleaveLower(d, a0, a1), t1 = hn::InterleaveUpper(d, a0, a1);
    const auto t2 = hn::InterleaveLower(d, a2, a3), t3 = hn::InterleaveUpper(d, a2, a3);
    const auto t4 = hn::InterleaveLower(d, a4, a5), t5 = hn::InterleaveUpper(d, a4, a5);
    const auto t6 = hn::InterleaveLower(d, a6, a7), t7 = hn::InterleaveUpper(d, a6, a7);
    const auto u0 = pairs_lo(t0, t2), u1 = pairs_hi(t0, t2), u2 = pairs_lo(t1, t3), u3 = pairs_hi(t1, t3);
    const auto u4 = pairs_lo(t4, t6), u5 = pairs_hi(t4, t6), u6 = pairs_lo(t5, t7), u7 = pairs_hi(t5, t7);
    hn::StoreU(hn::ConcatLowerLower(d, u4, u0), d, at_dst(r + 0, i));
    hn::StoreU(hn::ConcatLowerLower(d, u5, u1), d, at_dst(r + 1, i));
    hn::StoreU(hn::ConcatLowerLower(d, u6, u2), d, at_dst(r + 2, i));
    hn::StoreU(hn::ConcatLowerLower(d, u7, u3), d, at_dst(r + 3, i));
    hn::StoreU(hn::ConcatUpperUpper(d, u4, u0), d, at_dst(r + 4, i));
    hn::StoreU(hn::ConcatUpperUpper(d, u5, u1), d, at_dst(r + 5, i));
    hn::StoreU(hn::ConcatUpperUpper(d, u6, u2), d, at_dst(r + 6, i));
    hn::StoreU(hn::ConcatUpperUpper(d, u7, u3), d, at_dst(r + 7, i));
}

/// dst rows r..r+3 from src rows i..i+3 (64-bit elements), on 256-bit vectors: pairs
/// interleave within each 128-bit half, so rows 1 and 2 come out swapped, and the
/// halves combine last.
template <class T, class AtDst, class AtSrc>
HWY_INLINE void Transpose4x4(std::int64_t r, std::int64_t i, const AtDst& at_dst, const AtSrc& at_src) {
    const hn::Simd<T, 4, 0> d;
    const auto a0 = hn::LoadU(d, at_src(i + 0, r)), a1 = hn::LoadU(d, at_src(i + 1, r));
    const auto a2 = hn::LoadU(d, at_src(i + 2, r)), a3 = hn::LoadU(d, at_src(i + 3, r));
    const auto t0 = hn::InterleaveLower(d, a0, a1), t1 = hn::InterleaveLower(d, a2, a3);
    const auto t2 = hn::InterleaveUpper(d, a0, a1), t3 = hn::InterleaveUpper(d, a2, a3);
    hn::StoreU(hn::ConcatLowerLower(d, t1, t0), d, at_dst(r + 0, i));
    hn::StoreU(hn::ConcatUpperUpper(d, t1, t0), d, at_dst(r + 2, i));
    hn::StoreU(hn::ConcatLowerLower(d, t3, t2), d, at_dst(r + 1, i));
    hn::StoreU(hn::ConcatUpperUpper(d, t3, t2), d, at_dst(r + 3, i));
}
#endif

template <class T>
void TransposeT(char* dst, std::int64_t dst_row, const char* src, std::int64_t src_row, std::int64_t rows,
                std::int64_t cols) {
    auto at_src = [&](std::int64_t i, std::int64_t r) { return reinterpret_cast<const T*>(src + i * src_row) + r; };
    auto at_dst = [&](std::int64_t r, std::int64_t i) { return reinterpret_cast<T*>(dst + r * dst_row) + i; };
    std::int64_t r = 0;
#if HWY_TARGET != HWY_SCALAR  // the scalar target (no 128-bit vectors) takes the loop below
    constexpr std::int64_t line = 64 / sizeof(T);
    // Destination rows r0..r0 + Height - 1 (a multiple of Block) over every source row,
    // in Block x Block register blocks, then the columns left one by one; `ahead`:
    // fetch the lines two passes on as well.
    auto pass = [&](auto height, auto block, auto ahead, std::int64_t r0, const auto& move_block) {
        constexpr std::int64_t Height = decltype(height)::value, Block = decltype(block)::value;
        std::int64_t i = 0;
        for (; i + Block <= cols; i += Block) {
            if constexpr (decltype(ahead)::value)
                if (r0 + 3 * line <= rows)
                    for (std::int64_t j = 0; j < Block; ++j) hwy::Prefetch(at_src(i + j, r0 + 2 * line));
            for (std::int64_t h = 0; h < Height; h += Block) move_block(r0 + h, i);
        }
        for (; i < cols; ++i)
            for (std::int64_t j = 0; j < Height; ++j) *at_dst(r0 + j, i) = *at_src(i, r0 + j);
    };
    // Passes of a block's rows, or first of a cache line's rows (`lines`).
    auto passes = [&](auto block, auto lines, const auto& move_block) {
        constexpr std::int64_t Block = decltype(block)::value;
        if constexpr (decltype(lines)::value)
            for (; r + line <= rows; r += line)
                pass(std::integral_constant<std::int64_t, line>{}, block, std::true_type{}, r, move_block);
        for (; r + Block <= rows; r += Block) pass(block, block, std::false_type{}, r, move_block);
    };
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
    // Line passes read each source line whole, where a block's rows read it in parts a
    // pass apart, and a power-of-two row stride had often evicted it from L1 in between
    // (figures: docs/performance.md, "Figures behind the engine's thresholds").
    if constexpr (sizeof(T) >= 4)
        passes(std::integral_constant<std::int64_t, 32 / sizeof(T)>{}, std::true_type{},
               [&](std::int64_t r0, std::int64_t i) {
                   if constexpr (sizeof(T) == 4) Transpose8x8<T>(r0, i, at_dst, at_src);
                   else Transpose4x4<T>(r0, i, at_dst, at_src);
               });
#endif
    // 128-bit blocks: all of a transpose of bytes or 16-bit elements, the rows the
    // 256-bit passes left, or all of it without AVX2. They take block passes: for bytes
    // and 16-bit elements, line passes keep 64 or 32 destination rows in flight, each
    // written 16 bytes at a time, and with a power-of-two row stride they share one L1
    // set, which made them slower than block passes (figures: docs/performance.md,
    // "Figures behind the engine's thresholds").
    constexpr std::int64_t k = 16 / sizeof(T);
    passes(std::integral_constant<std::int64_t, k>{}, std::false_type{},
           [&](std::int64_t r0, std::int64_t i) { TransposeRounds<T>(r0, i, at_dst, at_src); });
#endif
    for (; r < rows; ++r)
        for (std::int64_t i = 0; i < cols; ++i) *at_dst(r, i) = *at_src(i, r);
}

// The entry points HWY_EXPORT takes by name, one per element size.
#define NT_TRANSPOSE_ENTRY(Name, T)                                                                        \
    void Name(char* dst, std::int64_t dst_row, const char* src, std::int64_t src_row, std::int64_t rows, \
              std::int64_t cols) {                                                                         \
        TransposeT<T>(dst, dst_row, src, src_row, rows, cols);                                             \
    }
NT_TRANSPOSE_ENTRY(Transpose8, std::uint8_t)
NT_TRANSPOSE_ENTRY(Transpose16, std::uint16_t)
NT_TRANSPOSE_ENTRY(Transpose32, std::uint32_t)
NT_TRANSPOSE_ENTRY(Transpose64, std::uint64_t)
#undef NT_TRANSPOSE_ENTRY

// k rows of `count` elements against `count` groups of k interleaved ones: one
// vector of each row per k vectors of groups (LoadInterleaved/StoreInterleaved).
template <class T, int K, bool Apart>
void InterleaveT(char* rows, std::int64_t row_bytes, char* groups, std::int64_t count) {
    const hn::ScalableTag<T> d;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    T* row[4];
    for (int j = 0; j < K; ++j) row[j] = reinterpret_cast<T*>(rows + j * row_bytes);
    T* g = reinterpret_cast<T*>(groups);
    std::int64_t i = 0;
    for (; i + n <= count; i += n) {
        if constexpr (Apart) {
            hn::Vec<decltype(d)> v0, v1, v2, v3;
            if constexpr (K == 2) hn::LoadInterleaved2(d, g + i * K, v0, v1);
            if constexpr (K == 3) hn::LoadInterleaved3(d, g + i * K, v0, v1, v2);
            if constexpr (K == 4) hn::LoadInterleaved4(d, g + i * K, v0, v1, v2, v3);
            hn::StoreU(v0, d, row[0] + i);
            hn::StoreU(v1, d, row[1] + i);
            if constexpr (K >= 3) hn::StoreU(v2, d, row[2] + i);
            if constexpr (K == 4) hn::StoreU(v3, d, row[3] + i);
        } else {
            const auto v0 = hn::LoadU(d, row[0] + i), v1 = hn::LoadU(d, row[1] + i);
            if constexpr (K == 2) hn::StoreInterleaved2(v0, v1, d, g + i * K);
            if constexpr (K == 3) hn::StoreInterleaved3(v0, v1, hn::LoadU(d, row[2] + i), d, g + i * K);
            if constexpr (K == 4)
                hn::StoreInterleaved4(v0, v1, hn::LoadU(d, row[2] + i), hn::LoadU(d, row[3] + i), d, g + i * K);
        }
    }
    for (; i < count; ++i)
        for (int j = 0; j < K; ++j) {
            if constexpr (Apart) row[j][i] = g[i * K + j];
            else g[i * K + j] = row[j][i];
        }
}

template <bool Apart>
bool InterleaveBySize(char* rows, std::int64_t row_bytes, char* groups, std::int64_t count, std::int64_t k,
                      std::size_t element_size) {
    auto by_k = [&](auto element) {
        using T = decltype(element);
        if (k == 2) InterleaveT<T, 2, Apart>(rows, row_bytes, groups, count);
        else if (k == 3) InterleaveT<T, 3, Apart>(rows, row_bytes, groups, count);
        else if (k == 4) InterleaveT<T, 4, Apart>(rows, row_bytes, groups, count);
        else return false;
        return true;
    };
    switch (element_size) {
        case 1: return by_k(std::uint8_t{});
        case 2: return by_k(std::uint16_t{});
        case 4: return by_k(std::uint32_t{});
        case 8: return by_k(std::uint64_t{});
        default: return false;
    }
}
bool Deinterleave(char* rows, std::int64_t row_bytes, char* groups, std::int64_t count, std::int64_t k,
                  std::size_t element_size) {
    return InterleaveBySize<true>(rows, row_bytes, groups, count, k, element_size);
}
bool Interleave(char* rows, std::int64_t row_bytes, char* groups, std::int64_t count, std::int64_t k,
                std::size_t element_size) {
    return InterleaveBySize<false>(rows, row_bytes, groups, count, k, element_size);
}

// Which compilation the dispatcher picked: tests check it follows the forced target.
std::int64_t DispatchedTarget() { return HWY_TARGET; }

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <string>
#include <vector>

#include "core_errors.hpp"
#include "simd.hpp"

namespace nt::detail {

HWY_EXPORT(Transpose8);
HWY_EXPORT(Transpose16);
HWY_EXPORT(Transpose32);
HWY_EXPORT(Transpose64);
HWY_EXPORT(DispatchedTarget);
HWY_EXPORT(Deinterleave);
HWY_EXPORT(Interleave);

bool deinterleave_rows(void* dst, std::int64_t dst_row, const void* src, std::int64_t count, std::int64_t k,
                       std::size_t element_size) {
    return HWY_DYNAMIC_DISPATCH(Deinterleave)(static_cast<char*>(dst), dst_row,
                                              const_cast<char*>(static_cast<const char*>(src)), count, k,
                                              element_size);
}
bool interleave_rows(void* dst, const void* src, std::int64_t src_row, std::int64_t count, std::int64_t k,
                     std::size_t element_size) {
    return HWY_DYNAMIC_DISPATCH(Interleave)(const_cast<char*>(static_cast<const char*>(src)), src_row,
                                            static_cast<char*>(dst), count, k, element_size);
}

bool transpose_block(void* dst, std::int64_t dst_row, const void* src, std::int64_t src_row, std::int64_t rows,
                     std::int64_t cols, std::size_t element_size) {
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    if (element_size == 1) HWY_DYNAMIC_DISPATCH(Transpose8)(d, dst_row, s, src_row, rows, cols);
    else if (element_size == 2) HWY_DYNAMIC_DISPATCH(Transpose16)(d, dst_row, s, src_row, rows, cols);
    else if (element_size == 4) HWY_DYNAMIC_DISPATCH(Transpose32)(d, dst_row, s, src_row, rows, cols);
    else if (element_size == 8) HWY_DYNAMIC_DISPATCH(Transpose64)(d, dst_row, s, src_row, rows, cols);
    else return false;
    return true;
}

namespace {
// Every target with kernels that the CPU runs, best first: read once, before any test
// narrows the set (SupportedAndGeneratedTargets sees that narrowing).
const std::vector<std::int64_t>& cpu_targets() {
    static const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    return targets;
}
}  // namespace

std::vector<std::string> simd_targets() {
    std::vector<std::string> names;
    for (const std::int64_t t : cpu_targets()) names.emplace_back(hwy::TargetName(t));
    return names;
}

std::string simd_target() { return hwy::TargetName(HWY_DYNAMIC_DISPATCH(DispatchedTarget)()); }

void force_simd_target(const std::string& name) {
    const std::vector<std::int64_t>& targets = cpu_targets();
    if (name.empty()) {
        hwy::SetSupportedTargetsForTest(0);
        return;
    }
    for (const std::int64_t t : targets)
        if (name == hwy::TargetName(t)) {
            hwy::SetSupportedTargetsForTest(t);
            return;
        }
    fail(errc::invalid_argument, "force_simd_target", "no kernels for target '" + name + "' on this CPU");
}

}  // namespace nt::detail
#endif  // HWY_ONCE
