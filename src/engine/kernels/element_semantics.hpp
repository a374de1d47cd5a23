// kernels/element_semantics.hpp (private): what one element operation computes, per
// element type, as NumPy defines it (the loops that apply them, SIMD rows, threads and
// dispatch are in ops_kernels_impl.hpp).
//
// Semantics follow NumPy where it defines them, and are made defined where C++
// would not be: signed integer arithmetic wraps (computed in the unsigned type, as
// NumPy's does in practice), x % 0 for integers gives 0 (NumPy: 0 with a warning),
// integer x / y is true division in double (x / 0: inf or NaN, as NumPy), and
// float-to-integer casts saturate with NaN giving 0. nt::half computes in float and
// rounds once on store, as NumPy's float16 loops do.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "nt/detail/ops_kernels.hpp"
#include "nt/dtype.hpp"

namespace nt::detail::kernels {

template <class T>
constexpr bool is_signed_int = std::is_integral_v<T> && std::is_signed_v<T>;
template <class T>
constexpr bool is_int = std::is_integral_v<T> && !std::is_same_v<T, bool>;
/// The type floating arithmetic on T runs in: float for half, else T.
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

// Wrapping arithmetic for integers: the unsigned type has defined overflow. Types
// narrower than int are promoted to (signed) int by C++; unsigned int avoids that.
template <class T>
using wide_unsigned_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
T wrap_add(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;
    else if constexpr (is_int<T>) {
        using U = wide_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    }
    else return static_cast<T>(a + b);
}
template <class T>
T wrap_sub(T a, T b) {
    if constexpr (is_int<T>) {
        using U = wide_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    }
    else return static_cast<T>(a - b);
}
template <class T>
T wrap_mul(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (is_int<T>) {
        using U = wide_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    }
    else return static_cast<T>(a * b);
}
template <class T>
T wrap_neg(T a) {
    if constexpr (is_int<T>) return wrap_sub<T>(T(0), a);
    else return static_cast<T>(-a);
}

// NumPy's floor modulo: the result takes the divisor's sign.
template <class T>
T floor_mod(T a, T b) {
    if constexpr (std::is_same_v<T, half>) {
        return static_cast<T>(floor_mod<float>(a, b));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (b == 0) return std::fmod(a, b);  // NaN, as NumPy
        T r = std::fmod(a, b);
        if (r != 0) {
            if ((b < 0) != (r < 0)) r += b;
        } else {
            r = std::copysign(T(0), b);
        }
        return r;
    } else if constexpr (std::is_signed_v<T>) {
        if (b == 0 || b == -1) return 0;  // x % 0 -> 0 (NumPy); x % -1 is 0 and avoids INT_MIN % -1
        T r = static_cast<T>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        return r;
    } else {
        return b == 0 ? T(0) : static_cast<T>(a % b);
    }
}

template <class T>
T int_pow(T base, T exponent) {
    if constexpr (is_signed_int<T>) {
        if (exponent < 0) {  // truncated 1 / base^-e: NumPy raises instead
            if (base == 1) return 1;
            if (base == -1) return (exponent % 2 == 0) ? T(1) : T(-1);
            return 0;
        }
    }
    T result = 1;
    auto e = static_cast<std::make_unsigned_t<T>>(exponent);
    while (e) {
        if (e & 1u) result = wrap_mul(result, base);
        base = wrap_mul(base, base);
        e = static_cast<decltype(e)>(e >> 1u);
    }
    return result;
}

// NumPy's floor division (npy_floor_divide / npy_divmod): the quotient rounded
// toward -inf. Integers: x // 0 is 0 (NumPy: 0 with a warning), INT_MIN // -1 wraps
// to INT_MIN (NumPy: the same, with a warning). Floating: the quotient of
// (a - fmod(a, b)) / b, floored and corrected as NumPy does, so that a // b and
// a % b agree; x // 0 is a / 0 (+-inf or NaN), inf // x is NaN.
template <class T>
T floor_divide(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (b == 0) return a / b;
        T mod = std::fmod(a, b);
        T div = (a - mod) / b;
        if (mod != 0) {  // NaN counts as non-zero, as in C's `if (mod)`
            if (std::isless(b, T(0)) != std::isless(mod, T(0))) div -= T(1);
        }
        if (div != 0) {
            T floordiv = std::floor(div);
            if (std::isgreater(div - floordiv, T(0.5))) floordiv += T(1);
            return floordiv;
        }
        return std::copysign(T(0), a / b);
    } else if constexpr (std::is_signed_v<T>) {
        if (b == 0) return 0;
        if (b == -1) return wrap_neg(a);  // INT_MIN / -1 overflows in C++; wraps in NumPy
        T q = static_cast<T>(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
        return q;
    } else {
        return b == 0 ? T(0) : static_cast<T>(a / b);
    }
}

// NumPy's shifts (npy_lshift / npy_rshift): a shift by the bit width or more, or by
// a negative amount, gives 0, except >> of a negative value, which gives -1 (the
// sign fills every bit). In range: << wraps (computed unsigned), >> is arithmetic
// for signed types.
template <class T>
bool shift_in_range(T b) {
    if constexpr (std::is_signed_v<T>) {
        if (b < 0) return false;
    }
    return static_cast<std::uint64_t>(b) < sizeof(T) * 8;
}
template <class T>
T shift_left(T a, T b) {
    if (!shift_in_range(b)) return T(0);
    using U = wide_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<unsigned>(b)));
}
template <class T>
T shift_right(T a, T b) {
    if (!shift_in_range(b)) {
        if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
        else return T(0);
    }
    return static_cast<T>(a >> static_cast<unsigned>(b));
}

// np.sign: -1, 0 or 1 in T; NaN stays NaN; +-0 gives +0.
template <class T>
T sign_of(T x) {
    if constexpr (std::is_floating_point_v<T>) {
        if (x > 0) return T(1);
        if (x < 0) return T(-1);
        return x == 0 ? T(0) : x;
    } else if constexpr (std::is_signed_v<T>) {
        return static_cast<T>((x > 0) - (x < 0));
    } else {
        return static_cast<T>(x > 0);
    }
}

// Integer reciprocal: C's truncating 1 / x, so 0 for |x| > 1. 1 / 0 gives 0 here;
// NumPy computes 1.0 / x and casts inf to the integer type, which is undefined
// (INT_MIN on x86 for 32- and 64-bit types, 0 for 8-bit ones).
template <class T>
T int_reciprocal(T x) {
    if (x == 1) return T(1);
    if constexpr (std::is_signed_v<T>) {
        if (x == -1) return T(-1);
    }
    return T(0);
}

// minimum / maximum: a NaN operand gives NaN (NumPy).
template <class T>
T nan_min(T a, T b) {
    if constexpr (is_floating_element_v<T>) {
        if (a != a) return a;
        if (b != b) return b;
    }
    return b < a ? b : a;
}
template <class T>
T nan_max(T a, T b) {
    if constexpr (is_floating_element_v<T>) {
        if (a != a) return a;
        if (b != b) return b;
    }
    return a < b ? b : a;
}

template <class T>
bool truth(T x) {
    return x != T(0);
}

/// Element conversion for casts and assign: static_cast, except that anything to bool
/// is `!= 0` and floating to integer saturates at the target's limits with NaN giving
/// 0 (NumPy leaves out-of-range casts undefined). half goes through float.
template <class To, class From>
To convert(From x) {
    if constexpr (std::is_same_v<To, bool>) {
        return x != From(0);
    } else if constexpr (std::is_same_v<From, half> && !std::is_same_v<To, half>) {
        return convert<To, float>(static_cast<float>(x));
    } else if constexpr (std::is_floating_point_v<From> && is_int<To>) {
        if (x != x) return To(0);
        // lo is exact (0 or -2^k); hi is 2^k - 1 or, rounded up, 2^k: either way every
        // x strictly between them truncates to a value of To.
        constexpr auto lo = static_cast<From>(std::numeric_limits<To>::min());
        constexpr auto hi = static_cast<From>(std::numeric_limits<To>::max());
        if (x <= lo) return std::numeric_limits<To>::min();
        if (x >= hi) return std::numeric_limits<To>::max();
        return static_cast<To>(x);
    } else {
        return static_cast<To>(x);
    }
}

// --- element-wise ---------------------------------------------------------------------

/// The element operation `op` on T, as a lambda whose result converts to
/// binary_result_t<Op, T>.
template <binary_op Op, class T>
auto binary_fn() {
    using Out = binary_result_t<Op, T>;
    using M = compute_t<T>;
    if constexpr (Op == binary_op::add) return [](T x, T y) { return wrap_add(x, y); };
    else if constexpr (Op == binary_op::sub) return [](T x, T y) { return wrap_sub(x, y); };
    else if constexpr (Op == binary_op::mul) return [](T x, T y) { return wrap_mul(x, y); };
    else if constexpr (Op == binary_op::div) {
        using D = compute_t<Out>;
        return [](T x, T y) { return static_cast<Out>(static_cast<D>(x) / static_cast<D>(y)); };
    }
    else if constexpr (Op == binary_op::mod) return [](T x, T y) { return floor_mod(x, y); };
    else if constexpr (Op == binary_op::min) return [](T x, T y) { return nan_min(x, y); };
    else if constexpr (Op == binary_op::max) return [](T x, T y) { return nan_max(x, y); };
    else if constexpr (Op == binary_op::pow) {
        if constexpr (is_floating_element_v<T>)
            return [](T x, T y) { return static_cast<T>(std::pow(static_cast<M>(x), static_cast<M>(y))); };
        else return [](T x, T y) { return int_pow(x, y); };
    }
    else if constexpr (Op == binary_op::eq) return [](T x, T y) { return x == y; };
    else if constexpr (Op == binary_op::ne) return [](T x, T y) { return x != y; };
    else if constexpr (Op == binary_op::lt) return [](T x, T y) { return x < y; };
    else if constexpr (Op == binary_op::le) return [](T x, T y) { return x <= y; };
    else if constexpr (Op == binary_op::gt) return [](T x, T y) { return x > y; };
    else if constexpr (Op == binary_op::ge) return [](T x, T y) { return x >= y; };
    else if constexpr (Op == binary_op::floor_div) {
        if constexpr (is_floating_element_v<T>)
            return [](T x, T y) { return static_cast<T>(floor_divide<M>(static_cast<M>(x), static_cast<M>(y))); };
        else return [](T x, T y) { return floor_divide(x, y); };
    }
    else if constexpr (Op == binary_op::atan2)
        return [](T x, T y) { return static_cast<Out>(std::atan2(static_cast<M>(x), static_cast<M>(y))); };
    else if constexpr (Op == binary_op::hypot)
        return [](T x, T y) { return static_cast<Out>(std::hypot(static_cast<M>(x), static_cast<M>(y))); };
    else if constexpr (Op == binary_op::bit_and) return [](T x, T y) { return static_cast<T>(x & y); };
    else if constexpr (Op == binary_op::bit_or) return [](T x, T y) { return static_cast<T>(x | y); };
    else if constexpr (Op == binary_op::bit_xor) return [](T x, T y) { return static_cast<T>(x ^ y); };
    else if constexpr (Op == binary_op::shl) return [](T x, T y) { return shift_left(x, y); };
    else if constexpr (Op == binary_op::shr) return [](T x, T y) { return shift_right(x, y); };
    // & and | rather than && and ||: no branch per element, so the loops vectorise
    // (with && they did not, and fell far behind NumPy; figures: docs/performance.md,
    // "Figures behind the engine's thresholds").
    else if constexpr (Op == binary_op::logical_and)
        return [](T x, T y) { return static_cast<bool>(truth(x) & truth(y)); };
    else if constexpr (Op == binary_op::logical_or)
        return [](T x, T y) { return static_cast<bool>(truth(x) | truth(y)); };
    else return [](T x, T y) { return truth(x) != truth(y); };
}

/// The element operation `op` on T, as a lambda whose result converts to
/// unary_result_t<Op, T>. Float math converts the input to the result type first
/// (exact: float_result_t holds every value of T), computes in float for half.
template <unary_op Op, class T>
auto unary_fn() {
    using F = float_result_t<T>;
    using M = compute_t<F>;
    auto math = [](auto fn) { return [fn](T x) { return static_cast<F>(fn(static_cast<M>(static_cast<F>(x)))); }; };
    if constexpr (Op == unary_op::abs) {
        if constexpr (is_floating_element_v<T>)
            return [](T x) { return static_cast<T>(std::fabs(static_cast<compute_t<T>>(x))); };
        else if constexpr (is_signed_int<T>) return [](T x) { return x < 0 ? wrap_neg(x) : x; };
        else return [](T x) { return x; };
    }
    else if constexpr (Op == unary_op::neg) return [](T x) { return wrap_neg(x); };
    else if constexpr (Op == unary_op::exp) return math([](M x) { return std::exp(x); });
    else if constexpr (Op == unary_op::log) return math([](M x) { return std::log(x); });
    else if constexpr (Op == unary_op::sqrt) return math([](M x) { return std::sqrt(x); });
    else if constexpr (Op == unary_op::sin) return math([](M x) { return std::sin(x); });
    else if constexpr (Op == unary_op::cos) return math([](M x) { return std::cos(x); });
    else if constexpr (Op == unary_op::tanh) return math([](M x) { return std::tanh(x); });
    else if constexpr (Op == unary_op::sigmoid) return math([](M x) { return M(1) / (M(1) + std::exp(-x)); });
    else if constexpr (Op == unary_op::floor) return math([](M x) { return std::floor(x); });
    else if constexpr (Op == unary_op::ceil) return math([](M x) { return std::ceil(x); });
    else if constexpr (Op == unary_op::trunc) return math([](M x) { return std::trunc(x); });
    else if constexpr (Op == unary_op::log1p) return math([](M x) { return std::log1p(x); });
    else if constexpr (Op == unary_op::expm1) return math([](M x) { return std::expm1(x); });
    else if constexpr (Op == unary_op::exp2) return math([](M x) { return std::exp2(x); });
    else if constexpr (Op == unary_op::log2) return math([](M x) { return std::log2(x); });
    else if constexpr (Op == unary_op::log10) return math([](M x) { return std::log10(x); });
    else if constexpr (Op == unary_op::erf) return math([](M x) { return std::erf(x); });
    else if constexpr (Op == unary_op::round) {
        // Half to even (np.round with 0 decimals is np.rint): nearbyint in the default
        // rounding mode. Integers are already whole; bool gives half (NumPy's f16).
        if constexpr (is_floating_element_v<T>)
            return [](T x) { return static_cast<T>(std::nearbyint(static_cast<compute_t<T>>(x))); };
        else if constexpr (std::is_same_v<T, bool>) return [](T x) { return static_cast<half>(x ? 1.0f : 0.0f); };
        else return [](T x) { return x; };
    }
    else if constexpr (Op == unary_op::sign) {
        if constexpr (is_floating_element_v<T>)
            return [](T x) { return static_cast<T>(sign_of(static_cast<compute_t<T>>(x))); };
        else return [](T x) { return sign_of(x); };
    }
    else if constexpr (Op == unary_op::isnan) {
        if constexpr (is_floating_element_v<T>) return [](T x) { return std::isnan(static_cast<compute_t<T>>(x)); };
        else return [](T) { return false; };
    }
    else if constexpr (Op == unary_op::isinf) {
        if constexpr (is_floating_element_v<T>) return [](T x) { return std::isinf(static_cast<compute_t<T>>(x)); };
        else return [](T) { return false; };
    }
    else if constexpr (Op == unary_op::isfinite) {
        if constexpr (is_floating_element_v<T>) return [](T x) { return std::isfinite(static_cast<compute_t<T>>(x)); };
        else return [](T) { return true; };
    }
    else if constexpr (Op == unary_op::square) {
        if constexpr (std::is_same_v<T, bool>) return [](T x) { return static_cast<std::int8_t>(x); };
        else if constexpr (is_floating_element_v<T>)
            return [](T x) { return static_cast<T>(static_cast<compute_t<T>>(x) * static_cast<compute_t<T>>(x)); };
        else return [](T x) { return wrap_mul(x, x); };
    }
    else if constexpr (Op == unary_op::reciprocal) {
        if constexpr (std::is_same_v<T, bool>) return [](T x) { return static_cast<std::int8_t>(x); };
        else if constexpr (is_floating_element_v<T>)
            return [](T x) { return static_cast<T>(compute_t<T>(1) / static_cast<compute_t<T>>(x)); };
        else return [](T x) { return int_reciprocal(x); };
    }
    else if constexpr (Op == unary_op::bit_not) {
        if constexpr (std::is_same_v<T, bool>) return [](T x) { return !x; };
        else return [](T x) { return static_cast<T>(~x); };
    }
    else return [](T x) { return !truth(x); };
}


}  // namespace nt::detail::kernels
