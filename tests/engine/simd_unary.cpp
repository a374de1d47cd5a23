// The SIMD row kernels of src/engine/simd/simd_unary.cpp. On every instruction set this CPU
// runs: sqrt and the roundings give libm's values bit for bit; exp, expm1, log, log1p,
// tanh, sigmoid, sin and cos stay within a few ULP of libm's (Highway's
// approximations) and give libm's exact values for NaN, infinities, zeros, overflow
// and the other values outside the approximations' ranges; casts of floats to small
// integers follow astype's saturating rule. Rows are long enough for the vector loop,
// of lengths that leave partial vectors, misaligned, and large enough for streaming
// stores; integer inputs of the float functions give their floats' results.
#include <nt_test_simd.hpp>
#include <nt_test_support.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "simd.hpp"

namespace {

struct function_case {
    const char* name;
    bool exact;
    std::function<nt::Tensor<float>(const nt::Tensor<float>&)> apply_f32;
    std::function<nt::Tensor<double>(const nt::Tensor<double>&)> apply_f64;
    float (*libm_f32)(float);
    double (*libm_f64)(double);
};

#define NT_FN_CASE(fn, exact, f32, f64)                                                                 \
    function_case {                                                                                      \
        #fn, exact, [](const nt::Tensor<float>& t) { return nt::fn(t); },                               \
            [](const nt::Tensor<double>& t) { return nt::fn(t); }, f32, f64                             \
    }

float sigmoid_f32(float x) { return 1.0f / (1.0f + std::exp(-x)); }
double sigmoid_f64(double x) { return 1.0 / (1.0 + std::exp(-x)); }

const std::vector<function_case>& cases() {
    static const std::vector<function_case> all = {
        NT_FN_CASE(sqrt, true, [](float x) { return std::sqrt(x); }, [](double x) { return std::sqrt(x); }),
        NT_FN_CASE(floor, true, [](float x) { return std::floor(x); }, [](double x) { return std::floor(x); }),
        NT_FN_CASE(ceil, true, [](float x) { return std::ceil(x); }, [](double x) { return std::ceil(x); }),
        NT_FN_CASE(trunc, true, [](float x) { return std::trunc(x); }, [](double x) { return std::trunc(x); }),
        NT_FN_CASE(round, true, [](float x) { return std::nearbyint(x); }, [](double x) { return std::nearbyint(x); }),
        NT_FN_CASE(exp, false, [](float x) { return std::exp(x); }, [](double x) { return std::exp(x); }),
        NT_FN_CASE(expm1, false, [](float x) { return std::expm1(x); }, [](double x) { return std::expm1(x); }),
        NT_FN_CASE(log, false, [](float x) { return std::log(x); }, [](double x) { return std::log(x); }),
        NT_FN_CASE(log1p, false, [](float x) { return std::log1p(x); }, [](double x) { return std::log1p(x); }),
        NT_FN_CASE(tanh, false, [](float x) { return std::tanh(x); }, [](double x) { return std::tanh(x); }),
        NT_FN_CASE(sigmoid, false, sigmoid_f32, sigmoid_f64),
        NT_FN_CASE(sin, false, [](float x) { return std::sin(x); }, [](double x) { return std::sin(x); }),
        NT_FN_CASE(cos, false, [](float x) { return std::cos(x); }, [](double x) { return std::cos(x); }),
    };
    return all;
}
#undef NT_FN_CASE

// Distance in units in the last place (adjacent floats are 1 apart; -0 and +0 are 0).
template <class T>
std::int64_t ulp_distance(T x, T y) {
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    auto key = [](T v) {
        I i;
        std::memcpy(&i, &v, sizeof(T));
        return i < 0 ? std::numeric_limits<I>::min() - i : i;
    };
    const std::int64_t a = key(x), b = key(y);
    return a > b ? a - b : b - a;
}

template <class T>
bool same_bits(T x, T y) {
    if (std::isnan(x) && std::isnan(y)) return true;
    return std::memcmp(&x, &y, sizeof(T)) == 0;
}

template <class T>
const std::vector<T>& specials() {
    using L = std::numeric_limits<T>;
    static const std::vector<T> v = {T(0), T(-0.0), T(1), T(-1), T(0.5), T(-0.5), T(1.5), T(2.5), T(-2.5),
                                     L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                                     -L::denorm_min(), L::min(), L::max(), -L::max(), T(88.5), T(-88.5), T(-87.5),
                                     T(709.5), T(-708.5), T(104.5), T(750), T(-750), T(-0.999999), T(1e-30),
                                     T(4e4), T(-4e4), T(32768), T(1e6), T(8388609.0), T(-8388609.5), T(1e20)};
    return v;
}

// Random values over many binades (both signs), one in eight from specials().
template <class T>
nt::Tensor<T> random_values(std::mt19937& rng, std::int64_t n) {
    auto t = nt::empty<T>({n});
    T* p = t.mutable_data();
    std::uniform_real_distribution<double> exponent(-12, 12), mantissa(1, 2);
    for (std::int64_t i = 0; i < n; ++i) {
        if (rng() % 8 == 0) p[i] = specials<T>()[rng() % specials<T>().size()];
        else p[i] = static_cast<T>((rng() % 2 ? -1 : 1) * mantissa(rng) * std::exp2(exponent(rng)));
    }
    return t;
}

// Compares f over `x` with libm, element by element; returns the number of misses.
template <class T>
std::int64_t misses(const function_case& c, const nt::Tensor<T>& x, const nt::Tensor<T>& got, std::int64_t max_ulp) {
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < x.size(); ++i) {
        const T v = x.data()[i];
        const T want = [&] {
            if constexpr (sizeof(T) == 4) return c.libm_f32(v);
            else return c.libm_f64(v);
        }();
        const T g = got.data()[i];
        const bool special = !std::isfinite(v) || !std::isfinite(want) || want == 0 || v == 0;
        const bool ok = (c.exact || special) ? same_bits(g, want) : ulp_distance(g, want) <= max_ulp;
        if (!ok && ++wrong <= 3)
            UNSCOPED_INFO(c.name << "(" << v << ") = " << g << ", libm " << want << " (" << ulp_distance(g, want)
                                 << " ULP)");
    }
    return wrong;
}

template <class T>
nt::Tensor<T> apply(const function_case& c, const nt::Tensor<T>& x) {
    if constexpr (sizeof(T) == 4) return c.apply_f32(x);
    else return c.apply_f64(x);
}

// 9 rows of 2^20 - 3 values uniform in [lo, hi] (a result of 4-byte elements is 36
// MiB: streamed), as a view whose rows do not merge, so the result's rows are written
// one by one, each starting off the vector alignment after the first.
template <class T>
nt::Tensor<T> streamed_rows(unsigned seed, T lo, T hi) {
    const std::int64_t rows = 9, cols = (std::int64_t{1} << 20) - 3;
    auto storage = nt::empty<T>({rows, cols + 1});
    std::mt19937 rng(seed);
    std::uniform_real_distribution<T> value(lo, hi);
    for (std::int64_t i = 0; i < storage.size(); ++i) storage.mutable_data()[i] = value(rng);
    return storage.index(nt::all, nt::range(1, cols + 1));
}

// The cast rule of astype (NumPy leaves it undefined out of range): NaN gives 0,
// values at or beyond the target's limits give the limit, the rest truncate.
template <class To, class From>
To cast_reference(From x) {
    if (std::isnan(x)) return To(0);
    const double v = static_cast<double>(x);
    if (v <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(std::trunc(v));
}

template <class To, class From>
void check_cast(std::mt19937& rng) {
    using L = std::numeric_limits<To>;
    const double lo = static_cast<double>(L::min()), hi = static_cast<double>(L::max());
    const std::vector<double> edges = {lo, hi, lo - 0.5, hi + 0.5, lo + 0.5, hi - 0.5, lo - 1e10, hi + 1e10,
                                       -0.0, 0.0, -0.5, 0.5, -1.0, 1.0,
                                       static_cast<double>(std::numeric_limits<From>::max()),
                                       -static_cast<double>(std::numeric_limits<From>::max())};
    auto x = nt::empty<From>({1029});
    std::uniform_real_distribution<double> across(lo - 2, hi + 2);
    for (std::int64_t i = 0; i < x.size(); ++i) {
        const std::uint32_t r = rng() % 16;
        x.mutable_data()[i] = r == 0   ? std::numeric_limits<From>::quiet_NaN()
                              : r == 1 ? (rng() % 2 ? 1 : -1) * std::numeric_limits<From>::infinity()
                              : r < 5  ? static_cast<From>(edges[rng() % edges.size()])
                                       : static_cast<From>(across(rng));
    }
    for (const std::int64_t shift : {0, 1, 5}) {
        const nt::Tensor<From> a = x.index(nt::range(shift, x.size()));
        const auto got = a.template astype<To>();
        std::int64_t wrong = 0;
        for (std::int64_t i = 0; i < a.size(); ++i) {
            const From v = a.data()[i];
            if (got.data()[i] != cast_reference<To>(v) && ++wrong <= 3)
                UNSCOPED_INFO("cast of " << v << " gave " << +got.data()[i] << ", want " << +cast_reference<To>(v));
        }
        CHECK(wrong == 0);
    }
}

// f over integers of type I equals f over the same values converted to F first (the
// conversion is exact): rows of integers convert into a buffer before the row kernel.
template <class I, class F, class Fn>
void check_integer_input(std::mt19937& rng, const char* name, const Fn& fn) {
    auto x = nt::empty<I>({1031});
    std::uniform_int_distribution<std::int64_t> across(std::numeric_limits<I>::min(), std::numeric_limits<I>::max());
    for (std::int64_t i = 0; i < x.size(); ++i)
        x.mutable_data()[i] = static_cast<I>(rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 5) : across(rng));
    for (const std::int64_t shift : {0, 3}) {
        const nt::Tensor<I> a = x.index(nt::range(shift, x.size()));
        const nt::Tensor<F> got = fn(a);
        const nt::Tensor<F> want = fn(a.template astype<F>());
        std::int64_t differing = 0;
        for (std::int64_t i = 0; i < a.size(); ++i)
            if (!same_bits(got.data()[i], want.data()[i])) ++differing;
        INFO(name << " of " << nt::to_string(nt::dtype_of<I>) << ", shift " << shift);
        CHECK(differing == 0);
    }
}

}  // namespace

TEST_CASE("float functions on SIMD rows stay within a few ULP of libm on every target, specials exact",
          "[ops][simd]") {
    std::mt19937 rng(20261126);
    const auto x32 = random_values<float>(rng, 4099);
    const auto x64 = random_values<double>(rng, 4099);
    nt::test::for_each_simd_target([&](const std::string& target) {
        for (const function_case& c : cases()) {
            INFO("target " << target << ", " << c.name);
            // Highway documents 1 to 4 ULP; sigmoid adds a division's rounding.
            for (const std::int64_t shift : {0, 1, 3}) {
                const nt::Tensor<float> a = x32.index(nt::range(shift, x32.size()));
                CHECK(misses(c, a, apply(c, a), 4) == 0);
                const nt::Tensor<double> b = x64.index(nt::range(shift, x64.size()));
                CHECK(misses(c, b, apply(c, b), 4) == 0);
            }
        }
    });
}

TEST_CASE("a float function gives each value one result wherever it sits in a row", "[ops][simd]") {
    // Whole vectors, the partial vector of a row's tail and the head before the aligned
    // part of a streamed row all compute with the same vector form: a row of one value
    // repeated gives one result, equal to the value's result in a row of its own.
    for (const function_case& c : cases()) {
        for (const float v : {0.3f, -2.7f, 88.5f, 1e-40f, 5.5f, -0.0f}) {
            INFO(c.name << "(" << v << ")");
            const auto row = nt::full<float>({71}, v);
            const auto got = apply(c, row.index(nt::range(1, 71)));
            const float first = got.data()[0];
            std::int64_t differing = 0;
            for (std::int64_t i = 0; i < got.size(); ++i)
                if (!same_bits(got.data()[i], first)) ++differing;
            CHECK(differing == 0);
            const auto alone = apply(c, nt::full<float>({40}, v));
            CHECK(same_bits(alone.data()[0], first));
        }
    }
}

TEST_CASE("float functions with outputs large enough for streaming stores agree with libm", "[ops][simd]") {
    // exp overflows past 88.7.
    const nt::Tensor<float> x = streamed_rows<float>(11, -100.0f, 100.0f);
    const auto values = x.contiguous();
    for (const function_case& c : cases()) {
        if (std::string(c.name) != "exp" && std::string(c.name) != "floor") continue;
        INFO(c.name);
        CHECK(misses(c, values, apply(c, x), 4) == 0);
    }
}

TEST_CASE("float to small integer casts saturate and truncate as the element loop on every SIMD target",
          "[ops][simd]") {
    std::mt19937 rng(20261127);
    nt::test::for_each_simd_target([&](const std::string& target) {
        INFO("target " << target);
        check_cast<std::int8_t, float>(rng);
        check_cast<std::uint8_t, float>(rng);
        check_cast<std::int16_t, float>(rng);
        check_cast<std::uint16_t, float>(rng);
        check_cast<std::int8_t, double>(rng);
        check_cast<std::uint8_t, double>(rng);
        check_cast<std::int16_t, double>(rng);
        check_cast<std::uint16_t, double>(rng);
        check_cast<std::int32_t, double>(rng);
    });
}

TEST_CASE("a cast with an output large enough for streaming stores agrees with the element loop", "[ops][simd]") {
    // f64 -> i32, past both limits.
    const nt::Tensor<double> x = streamed_rows<double>(12, -3e9, 3e9);
    const auto values = x.contiguous();
    const auto got = x.astype<std::int32_t>();
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < values.size(); ++i)
        if (got.data()[i] != cast_reference<std::int32_t>(values.data()[i])) ++wrong;
    CHECK(wrong == 0);
}

TEST_CASE("float functions of integer tensors give their floats' results on SIMD rows", "[ops][simd]") {
    std::mt19937 rng(20261128);
    auto each = [&]<class I, class F>() {
#define NT_INT_CASE(fn) check_integer_input<I, F>(rng, #fn, [](const auto& t) { return nt::fn(t); });
        NT_INT_CASE(sqrt)
        NT_INT_CASE(floor)
        NT_INT_CASE(ceil)
        NT_INT_CASE(trunc)
        NT_INT_CASE(exp)
        NT_INT_CASE(expm1)
        NT_INT_CASE(log)
        NT_INT_CASE(log1p)
        NT_INT_CASE(tanh)
        NT_INT_CASE(sigmoid)
        NT_INT_CASE(sin)
        NT_INT_CASE(cos)
#undef NT_INT_CASE
    };
    each.template operator()<std::uint16_t, float>();
    each.template operator()<std::int16_t, float>();
    each.template operator()<std::int32_t, double>();
    each.template operator()<std::uint32_t, double>();
}
