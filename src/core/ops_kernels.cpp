// The element-wise and reduction kernels, compiled once per element type.
//
// Semantics follow NumPy where it defines them, and are made defined where C++
// would not be: signed integer arithmetic wraps (computed in the unsigned type, as
// NumPy's does in practice), x % 0 for integers gives 0 (NumPy: 0 with a warning),
// integer x / y is true division in double (x / 0: inf or NaN, as NumPy), and
// float-to-integer casts saturate with NaN giving 0.
#include "nt/detail/ops_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "nt/detail/engine.hpp"
#include "nt/error.hpp"

namespace nt::detail {

namespace {

template <class T>
constexpr bool is_signed_int = std::is_integral_v<T> && std::is_signed_v<T>;

// Wrapping arithmetic for signed integers: the unsigned type has defined overflow.
template <class T>
T wrap_add(T a, T b) {
    if constexpr (is_signed_int<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else if constexpr (std::is_same_v<T, bool>) {
        return a || b;
    } else {
        return static_cast<T>(a + b);
    }
}
template <class T>
T wrap_sub(T a, T b) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    } else {
        return static_cast<T>(a - b);
    }
}
template <class T>
T wrap_mul(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
        return a && b;
    } else if constexpr (std::is_integral_v<T>) {
        // Promote to at least unsigned int so uint8 * uint8 does not go through int.
        using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    } else {
        return a * b;
    }
}
template <class T>
T wrap_neg(T a) {
    if constexpr (std::is_integral_v<T>) return wrap_sub<T>(T(0), a);
    else return -a;
}

// NumPy's floor modulo: the result takes the divisor's sign.
template <class T>
T floor_mod(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
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
        e >>= 1u;
    }
    return result;
}

template <class T>
T nan_min(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (a != a) return a;
        if (b != b) return b;
    }
    return b < a ? b : a;
}
template <class T>
T nan_max(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (a != a) return a;
        if (b != b) return b;
    }
    return a < b ? b : a;
}

template <class T>
bool truth(T x) {
    return x != T(0);
}

template <binary_op Op, class T>
void binary_typed(std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> os, const T* a,
                  std::span<const std::int64_t> as, const T* b, std::span<const std::int64_t> bs) {
    using Out = binary_result_t<Op, T>;
    auto* o = static_cast<Out*>(out);
    auto run = [&](auto f) { elementwise<Out, T, T>(shape, o, os, a, as, b, bs, f); };
    if constexpr (Op == binary_op::add) run([](T x, T y) { return wrap_add(x, y); });
    else if constexpr (Op == binary_op::sub) run([](T x, T y) { return wrap_sub(x, y); });
    else if constexpr (Op == binary_op::mul) run([](T x, T y) { return wrap_mul(x, y); });
    else if constexpr (Op == binary_op::div) run([](T x, T y) { return static_cast<Out>(x) / static_cast<Out>(y); });
    else if constexpr (Op == binary_op::mod) run([](T x, T y) { return floor_mod(x, y); });
    else if constexpr (Op == binary_op::min) run([](T x, T y) { return nan_min(x, y); });
    else if constexpr (Op == binary_op::max) run([](T x, T y) { return nan_max(x, y); });
    else if constexpr (Op == binary_op::pow) {
        if constexpr (std::is_floating_point_v<T>) run([](T x, T y) { return std::pow(x, y); });
        else run([](T x, T y) { return int_pow(x, y); });
    }
    else if constexpr (Op == binary_op::eq) run([](T x, T y) { return x == y; });
    else if constexpr (Op == binary_op::ne) run([](T x, T y) { return x != y; });
    else if constexpr (Op == binary_op::lt) run([](T x, T y) { return x < y; });
    else if constexpr (Op == binary_op::le) run([](T x, T y) { return x <= y; });
    else if constexpr (Op == binary_op::gt) run([](T x, T y) { return x > y; });
    else if constexpr (Op == binary_op::ge) run([](T x, T y) { return x >= y; });
    else if constexpr (Op == binary_op::logical_and) run([](T x, T y) { return truth(x) && truth(y); });
    else if constexpr (Op == binary_op::logical_or) run([](T x, T y) { return truth(x) || truth(y); });
    else run([](T x, T y) { return truth(x) != truth(y); });
}

template <unary_op Op, class T>
void unary_typed(std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> os, const T* a,
                 std::span<const std::int64_t> as) {
    using Out = unary_result_t<Op, T>;
    auto* o = static_cast<Out*>(out);
    auto run = [&](auto f) { elementwise<Out, T>(shape, o, os, a, as, f); };
    using F = float_result_t<T>;
    if constexpr (Op == unary_op::abs) {
        if constexpr (std::is_floating_point_v<T>) run([](T x) { return std::fabs(x); });
        else if constexpr (is_signed_int<T>) run([](T x) { return x < 0 ? wrap_neg(x) : x; });
        else run([](T x) { return x; });
    }
    else if constexpr (Op == unary_op::neg) run([](T x) { return wrap_neg(x); });
    else if constexpr (Op == unary_op::exp) run([](T x) { return std::exp(static_cast<F>(x)); });
    else if constexpr (Op == unary_op::log) run([](T x) { return std::log(static_cast<F>(x)); });
    else if constexpr (Op == unary_op::sqrt) run([](T x) { return std::sqrt(static_cast<F>(x)); });
    else if constexpr (Op == unary_op::sin) run([](T x) { return std::sin(static_cast<F>(x)); });
    else if constexpr (Op == unary_op::cos) run([](T x) { return std::cos(static_cast<F>(x)); });
    else if constexpr (Op == unary_op::tanh) run([](T x) { return std::tanh(static_cast<F>(x)); });
    else if constexpr (Op == unary_op::sigmoid) run([](T x) { return F(1) / (F(1) + std::exp(-static_cast<F>(x))); });
    else run([](T x) { return !truth(x); });
}

template <class To, class From>
To convert(From x) {
    if constexpr (std::is_same_v<To, bool>) {
        return x != From(0);
    } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        if (x != x) return To(0);
        // Saturate at To's limits (signed and unsigned alike, as assign does: NumPy
        // leaves out-of-range casts undefined), truncate toward zero in range.
        constexpr auto lo = static_cast<From>(std::numeric_limits<std::int64_t>::min());
        constexpr auto hi = static_cast<From>(std::numeric_limits<std::int64_t>::max());
        if constexpr (sizeof(To) < 8) {
            if (x <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
            if (x >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
        }
        const std::int64_t wide = x <= lo ? std::numeric_limits<std::int64_t>::min()
                                  : x >= hi ? std::numeric_limits<std::int64_t>::max()
                                            : static_cast<std::int64_t>(x);
        return static_cast<To>(wide);
    } else {
        return static_cast<To>(x);
    }
}

// Integer sums and products wrap instead of overflowing (UB in C++).
struct wrap_sum_op {
    std::int64_t identity() const { return 0; }
    template <class T>
    std::int64_t reduce(std::int64_t a, const T& x) const { return combine(a, static_cast<std::int64_t>(x)); }
    std::int64_t combine(std::int64_t a, std::int64_t b) const { return wrap_add(a, b); }
};
struct wrap_prod_op {
    std::int64_t identity() const { return 1; }
    template <class T>
    std::int64_t reduce(std::int64_t a, const T& x) const { return combine(a, static_cast<std::int64_t>(x)); }
    std::int64_t combine(std::int64_t a, std::int64_t b) const { return wrap_mul(a, b); }
};
struct any_op {
    bool identity() const { return false; }
    template <class T>
    bool reduce(bool a, const T& x) const { return a || x != T(0); }
    bool combine(bool a, bool b) const { return a || b; }
};
struct all_op {
    bool identity() const { return true; }
    template <class T>
    bool reduce(bool a, const T& x) const { return a && x != T(0); }
    bool combine(bool a, bool b) const { return a && b; }
};

// argmax / argmin: for every kept element, the row-major index over the reduced
// axes of the first extreme value (NaN counts as extreme, as in NumPy).
template <bool Max, class T>
void arg_extreme(std::span<const std::int64_t> shape, std::span<const bool> reduced, std::int64_t* out,
                 std::span<const std::int64_t> os, const T* in, std::span<const std::int64_t> is) {
    dims kept_size, kept_in, kept_out, red_size, red_in;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (reduced[d]) {
            red_size.push_back(shape[d]);
            red_in.push_back(is[d]);
        } else {
            kept_size.push_back(shape[d]);
            kept_in.push_back(is[d]);
            kept_out.push_back(os[d]);
        }
    }
    std::int64_t kept = 1, count = 1;
    for (auto s : kept_size) kept *= s;
    for (auto s : red_size) count *= s;
    auto better = [](T candidate, T best) {
        if constexpr (std::is_floating_point_v<T>) {
            if (best != best) return false;
            if (candidate != candidate) return true;
        }
        return Max ? best < candidate : candidate < best;
    };
    auto body = [&](std::int64_t k0, std::int64_t k1) {
        for (std::int64_t k = k0; k < k1; ++k) {
            std::int64_t in_off = 0, out_off = 0, rest = k;
            for (std::size_t d = kept_size.size(); d-- > 0;) {
                const std::int64_t i = rest % kept_size[d];
                rest /= kept_size[d];
                in_off += i * kept_in[d];
                out_off += i * kept_out[d];
            }
            std::int64_t best_at = 0;
            T best{};
            dims index(red_size.size(), 0);
            std::int64_t off = 0;
            for (std::int64_t r = 0; r < count; ++r) {
                const T value = in[in_off + off];
                if (r == 0 || better(value, best)) {
                    best = value;
                    best_at = r;
                }
                for (std::size_t d = red_size.size(); d-- > 0;) {  // odometer
                    off += red_in[d];
                    if (++index[d] < red_size[d]) break;
                    off -= red_in[d] * red_size[d];
                    index[d] = 0;
                }
            }
            out[out_off] = best_at;
        }
    };
    if (want_parallel(kept * count) && kept > 1) parallel_for(kept, body);
    else body(0, kept);
}

template <class T>
void reduce_typed(reduce_op op, std::span<const std::int64_t> shape, std::span<const bool> reduced, void* out,
                  std::span<const std::int64_t> os, const T* in, std::span<const std::int64_t> is) {
    // The engine reduces over axes where the output stride is 0.
    dims out_strides(os.begin(), os.end());
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (reduced[d]) out_strides[d] = 0;
    auto fold = [&](auto* o, auto reduction) {
        using Acc = std::remove_pointer_t<decltype(o)>;
        reduce<Acc, T>(shape, o, out_strides, in, is, reduction);
    };
    switch (op) {
        case reduce_op::sum:
            if constexpr (std::is_floating_point_v<T>) fold(static_cast<T*>(out), sum_op<T>{});
            else fold(static_cast<std::int64_t*>(out), wrap_sum_op{});
            return;
        case reduce_op::prod:
            if constexpr (std::is_floating_point_v<T>) fold(static_cast<T*>(out), prod_op<T>{});
            else fold(static_cast<std::int64_t*>(out), wrap_prod_op{});
            return;
        case reduce_op::mean: {
            using M = div_result_t<T>;
            auto* o = static_cast<M*>(out);
            fold(o, sum_op<M>{});
            // Divide once per output element: over the output's own shape (reduced
            // axes of size 1), so an empty reduction gives 0 / 0 = NaN as in NumPy.
            std::int64_t count = 1;
            dims out_shape(shape.begin(), shape.end());
            for (std::size_t d = 0; d < shape.size(); ++d)
                if (reduced[d]) {
                    count *= shape[d];
                    out_shape[d] = 1;
                }
            const M divisor = static_cast<M>(count);
            elementwise<M, M>(out_shape, o, out_strides, o, out_strides, [divisor](M x) { return x / divisor; });
            return;
        }
        case reduce_op::min: fold(static_cast<T*>(out), min_op<T>{}); return;
        case reduce_op::max: fold(static_cast<T*>(out), max_op<T>{}); return;
        case reduce_op::any: fold(static_cast<bool*>(out), any_op{}); return;
        case reduce_op::all: fold(static_cast<bool*>(out), all_op{}); return;
        case reduce_op::argmax: arg_extreme<true>(shape, reduced, static_cast<std::int64_t*>(out), os, in, is); return;
        case reduce_op::argmin: arg_extreme<false>(shape, reduced, static_cast<std::int64_t*>(out), os, in, is); return;
    }
}

}  // namespace

template <class T>
void run_binary(binary_op op, std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> os,
                const T* a, std::span<const std::int64_t> as, const T* b, std::span<const std::int64_t> bs) {
    switch (op) {
#define NT_BINARY_CASE(name) \
    case binary_op::name: binary_typed<binary_op::name, T>(shape, out, os, a, as, b, bs); return;
        NT_BINARY_CASE(add)
        NT_BINARY_CASE(mul)
        NT_BINARY_CASE(div)
        NT_BINARY_CASE(min)
        NT_BINARY_CASE(max)
        NT_BINARY_CASE(eq)
        NT_BINARY_CASE(ne)
        NT_BINARY_CASE(lt)
        NT_BINARY_CASE(le)
        NT_BINARY_CASE(gt)
        NT_BINARY_CASE(ge)
        NT_BINARY_CASE(logical_and)
        NT_BINARY_CASE(logical_or)
        NT_BINARY_CASE(logical_xor)
#undef NT_BINARY_CASE
        case binary_op::sub:
        case binary_op::mod:
        case binary_op::pow:
            if constexpr (std::is_same_v<T, bool>) {
                throw_error(errc::type_mismatch, "operators -, % and pow are not defined on bool tensors; "
                                                 "cast first with astype<std::int32_t>() (use logical_xor for bool -)");
            } else {
                if (op == binary_op::sub) binary_typed<binary_op::sub, T>(shape, out, os, a, as, b, bs);
                else if (op == binary_op::mod) binary_typed<binary_op::mod, T>(shape, out, os, a, as, b, bs);
                else binary_typed<binary_op::pow, T>(shape, out, os, a, as, b, bs);
            }
            return;
    }
}

template <class T>
void run_unary(unary_op op, std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> os, const T* a,
               std::span<const std::int64_t> as) {
    switch (op) {
#define NT_UNARY_CASE(name) \
    case unary_op::name: unary_typed<unary_op::name, T>(shape, out, os, a, as); return;
        NT_UNARY_CASE(abs)
        NT_UNARY_CASE(exp)
        NT_UNARY_CASE(log)
        NT_UNARY_CASE(sqrt)
        NT_UNARY_CASE(sin)
        NT_UNARY_CASE(cos)
        NT_UNARY_CASE(tanh)
        NT_UNARY_CASE(sigmoid)
        NT_UNARY_CASE(logical_not)
#undef NT_UNARY_CASE
        case unary_op::neg:
            if constexpr (std::is_same_v<T, bool>)
                throw_error(errc::type_mismatch, "neg is not defined on bool tensors; use logical_not (operator !)");
            else unary_typed<unary_op::neg, T>(shape, out, os, a, as);
            return;
    }
}

template <class To, class From>
void run_cast(std::span<const std::int64_t> shape, To* out, std::span<const std::int64_t> os, const From* a,
              std::span<const std::int64_t> as) {
    elementwise<To, From>(shape, out, os, a, as, [](From x) { return convert<To, From>(x); });
}

template <class T>
void run_where(std::span<const std::int64_t> shape, T* out, std::span<const std::int64_t> os, const bool* cond,
               std::span<const std::int64_t> cs, const T* a, std::span<const std::int64_t> as, const T* b,
               std::span<const std::int64_t> bs) {
    elementwise<T, bool, T, T>(shape, out, os, cond, cs, a, as, b, bs, [](bool c, T x, T y) { return c ? x : y; });
}

template <class T>
void run_reduce(reduce_op op, std::span<const std::int64_t> shape, std::span<const bool> reduced, void* out,
                std::span<const std::int64_t> os, const T* in, std::span<const std::int64_t> is) {
    reduce_typed<T>(op, shape, reduced, out, os, in, is);
}

#define NT_INSTANTIATE_KERNELS(T)                                                                                   \
    template void run_binary<T>(binary_op, std::span<const std::int64_t>, void*, std::span<const std::int64_t>,     \
                                const T*, std::span<const std::int64_t>, const T*, std::span<const std::int64_t>); \
    template void run_unary<T>(unary_op, std::span<const std::int64_t>, void*, std::span<const std::int64_t>,       \
                               const T*, std::span<const std::int64_t>);                                           \
    template void run_where<T>(std::span<const std::int64_t>, T*, std::span<const std::int64_t>, const bool*,       \
                               std::span<const std::int64_t>, const T*, std::span<const std::int64_t>, const T*,    \
                               std::span<const std::int64_t>);                                                     \
    template void run_reduce<T>(reduce_op, std::span<const std::int64_t>, std::span<const bool>, void*,             \
                                std::span<const std::int64_t>, const T*, std::span<const std::int64_t>);

NT_INSTANTIATE_KERNELS(float)
NT_INSTANTIATE_KERNELS(double)
NT_INSTANTIATE_KERNELS(std::int32_t)
NT_INSTANTIATE_KERNELS(std::int64_t)
NT_INSTANTIATE_KERNELS(std::uint8_t)
NT_INSTANTIATE_KERNELS(bool)
#undef NT_INSTANTIATE_KERNELS

#define NT_INSTANTIATE_CAST(To, From)                                                                   \
    template void run_cast<To, From>(std::span<const std::int64_t>, To*, std::span<const std::int64_t>, \
                                     const From*, std::span<const std::int64_t>);
#define NT_INSTANTIATE_CASTS_TO(To)              \
    NT_INSTANTIATE_CAST(To, float)               \
    NT_INSTANTIATE_CAST(To, double)              \
    NT_INSTANTIATE_CAST(To, std::int32_t)        \
    NT_INSTANTIATE_CAST(To, std::int64_t)        \
    NT_INSTANTIATE_CAST(To, std::uint8_t)        \
    NT_INSTANTIATE_CAST(To, bool)
NT_INSTANTIATE_CASTS_TO(float)
NT_INSTANTIATE_CASTS_TO(double)
NT_INSTANTIATE_CASTS_TO(std::int32_t)
NT_INSTANTIATE_CASTS_TO(std::int64_t)
NT_INSTANTIATE_CASTS_TO(std::uint8_t)
NT_INSTANTIATE_CASTS_TO(bool)
#undef NT_INSTANTIATE_CASTS_TO
#undef NT_INSTANTIATE_CAST

}  // namespace nt::detail
