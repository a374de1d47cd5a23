// nt/half.hpp: nt::half, IEEE 754 binary16 (NumPy's float16).
//
// 16 bits of storage: 1 sign, 5 exponent, 10 mantissa bits; largest finite value
// 65504, smallest normal 2^-14, smallest subnormal 2^-24. A half converts to float
// exactly and implicitly, so arithmetic on halves is float arithmetic; storing a
// value back rounds to nearest, ties to even (directly from double, without a
// double rounding through float). Out-of-range values become +-inf, NaN stays NaN.
//
//     nt::half h = 0.1;              // 0.0999755859375, the nearest binary16
//     float f = h * 2;               // computed in float
//     nt::half big = 1e6f;           // inf
//     nt::half::from_bits(0x3c00);   // 1.0
//
// Tensors convert whole rows with the CPU's F16C instructions when it has them
// (chosen at run time); these scalar conversions are portable and constexpr.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace nt {

namespace detail {

/// binary16 bits -> float (exact). NaNs come back quiet, with their payload.
/// Branch-free, so that loops over it vectorise: moving exponent and mantissa into
/// float's positions and scaling by 2^112 re-biases the exponent (15 -> 127) and
/// normalises subnormals, exactly; only inf/NaN need a fix-up.
[[nodiscard]] constexpr float half_bits_to_float(std::uint16_t h) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t rest = static_cast<std::uint32_t>(h & 0x7fffu) << 13;
    const std::uint32_t scaled = std::bit_cast<std::uint32_t>(std::bit_cast<float>(rest) * 0x1p112f);
    const bool inf_or_nan = (h & 0x7c00u) == 0x7c00u;
    const std::uint32_t special = 0x7f800000u | rest | ((h & 0x3ffu) != 0 ? 0x00400000u : 0u);
    return std::bit_cast<float>(sign | (inf_or_nan ? special : scaled));
}

/// Rounds the magnitude m * 2^e (an integer m with enough bits) to nearest, ties to
/// even, dropping `shift` low bits.
template <class U>
[[nodiscard]] constexpr U round_shift(U m, int shift) noexcept {
    const U kept = m >> shift;
    const U rest = m & ((U{1} << shift) - 1);
    const U halfway = U{1} << (shift - 1);
    return kept + ((rest > halfway || (rest == halfway && (kept & 1u))) ? 1u : 0u);
}

/// float -> binary16 bits, rounded to nearest even; +-inf beyond 65504 (from 65520,
/// the midpoint to the next binade, on), NaN stays NaN (quiet, top payload bits kept).
[[nodiscard]] constexpr std::uint16_t float_to_half_bits(float f) noexcept {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t magnitude = x & 0x7fffffffu;
    if (magnitude >= 0x7f800000u) {  // inf or NaN
        const std::uint32_t nan_bits = magnitude > 0x7f800000u ? 0x200u | (magnitude >> 13 & 0x3ffu) : 0u;
        return static_cast<std::uint16_t>(sign | 0x7c00u | nan_bits);
    }
    if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520: inf
    if (magnitude >= 0x38800000u)  // normal: re-bias the exponent (127 -> 15), round 13 bits off
        return static_cast<std::uint16_t>(sign | round_shift<std::uint32_t>(magnitude - 0x38000000u, 13));
    const int exponent = static_cast<int>(magnitude >> 23);
    if (exponent < 102) return sign;  // below 2^-25 (half the smallest subnormal): zero
    // Subnormal (the result may round up to the smallest normal, whose bits follow).
    const std::uint32_t m = (magnitude & 0x7fffffu) | 0x800000u;
    return static_cast<std::uint16_t>(sign | round_shift<std::uint32_t>(m, 126 - exponent));
}

/// double -> binary16 bits, rounded once (to nearest even), as NumPy's astype does.
[[nodiscard]] constexpr std::uint16_t double_to_half_bits(double d) noexcept {
    const std::uint64_t x = std::bit_cast<std::uint64_t>(d);
    const auto sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
    const std::uint64_t magnitude = x & 0x7fffffffffffffffull;
    if (magnitude >= 0x7ff0000000000000ull) {  // inf or NaN
        const std::uint64_t nan_bits = magnitude > 0x7ff0000000000000ull ? 0x200u | (magnitude >> 42 & 0x3ffu) : 0u;
        return static_cast<std::uint16_t>(sign | 0x7c00u | nan_bits);
    }
    if (magnitude >= 0x40effe0000000000ull) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520
    if (magnitude >= 0x3f10000000000000ull)  // >= 2^-14: normal (1023 -> 15)
        return static_cast<std::uint16_t>(sign | round_shift<std::uint64_t>(magnitude - 0x3f00000000000000ull, 42));
    const int exponent = static_cast<int>(magnitude >> 52);
    if (exponent < 998) return sign;  // below 2^-25
    const std::uint64_t m = (magnitude & 0xfffffffffffffull) | 0x10000000000000ull;
    return static_cast<std::uint16_t>(sign | round_shift<std::uint64_t>(m, 1051 - exponent));
}

/// Any arithmetic value -> binary16 bits. Integers go through float: exact for every
/// integer a half can hold, and any larger one is +-inf either way.
template <class A>
[[nodiscard]] constexpr std::uint16_t to_half_bits(A value) noexcept {
    if constexpr (std::is_same_v<A, double> || std::is_same_v<A, long double>)
        return double_to_half_bits(static_cast<double>(value));
    else
        return float_to_half_bits(static_cast<float>(value));
}

}  // namespace detail

/// IEEE 754 binary16. Converts implicitly from any arithmetic value (rounding to
/// nearest even) and to float (exactly), so `h + 1` is a float and `nt::half r = h + 1`
/// rounds once. A trivially copyable 2-byte value; default construction leaves it
/// uninitialised like float's (`nt::half{}` is +0).
class half {
public:
    half() = default;
    template <class A>
        requires std::is_arithmetic_v<A>
    constexpr half(A value) noexcept : bits_(detail::to_half_bits(value)) {}  // NOLINT: implicit, like float

    constexpr operator float() const noexcept { return detail::half_bits_to_float(bits_); }  // NOLINT

    /// The half with the given bit pattern.
    [[nodiscard]] static constexpr half from_bits(std::uint16_t bits) noexcept {
        half h;
        h.bits_ = bits;
        return h;
    }
    /// The bit pattern.
    [[nodiscard]] constexpr std::uint16_t bits() const noexcept { return bits_; }

private:
    std::uint16_t bits_;
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half> && std::is_standard_layout_v<half>);

}  // namespace nt

/// Limits of binary16, as NumPy's np.finfo(np.float16).
template <>
class std::numeric_limits<nt::half> {
public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr bool is_iec559 = true;
    static constexpr bool is_bounded = true;
    static constexpr bool is_modulo = false;
    static constexpr int digits = 11;
    static constexpr int digits10 = 3;
    static constexpr int max_digits10 = 5;
    static constexpr int radix = 2;
    static constexpr int min_exponent = -13;
    static constexpr int min_exponent10 = -4;
    static constexpr int max_exponent = 16;
    static constexpr int max_exponent10 = 4;
    static constexpr std::float_round_style round_style = std::round_to_nearest;
    static constexpr nt::half min() noexcept { return nt::half::from_bits(0x0400); }
    static constexpr nt::half lowest() noexcept { return nt::half::from_bits(0xfbff); }
    static constexpr nt::half max() noexcept { return nt::half::from_bits(0x7bff); }
    static constexpr nt::half epsilon() noexcept { return nt::half::from_bits(0x1400); }
    static constexpr nt::half round_error() noexcept { return nt::half::from_bits(0x3800); }
    static constexpr nt::half infinity() noexcept { return nt::half::from_bits(0x7c00); }
    static constexpr nt::half quiet_NaN() noexcept { return nt::half::from_bits(0x7e00); }
    static constexpr nt::half signaling_NaN() noexcept { return nt::half::from_bits(0x7d00); }
    static constexpr nt::half denorm_min() noexcept { return nt::half::from_bits(0x0001); }
};
