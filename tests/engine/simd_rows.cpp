// The SIMD row kernels of +, -, *, /, minimum, maximum (src/engine/simd/simd_binary.cpp), the
// comparisons (src/engine/simd/simd_compare.cpp) and the logical and bitwise operations of
// bool tensors (on their bytes): on every instruction set this CPU runs,
// the public operators give, bit for bit, what the element-wise definition gives,
// computed here one element at a time. Rows are contiguous or broadcast, of lengths
// around the vector widths (short rows of small pieces included), misaligned, and
// large enough for streaming stores.
#include <nt_test_simd.hpp>
#include <nt_test_support.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "simd.hpp"

namespace {

enum class op { add, sub, mul, div, min, max };

template <class T>
T reference(op o, T x, T y) {
    if (o == op::min || o == op::max) {  // NumPy: a NaN wins (the first), ties keep x
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(x)) return x;
            if (std::isnan(y)) return y;
        }
        if (o == op::min) return y < x ? y : x;
        return x < y ? y : x;
    }
    if constexpr (std::is_floating_point_v<T>) {
        switch (o) {
            case op::add: return x + y;
            case op::sub: return x - y;
            case op::mul: return x * y;
            case op::div: return x / y;
            default: break;
        }
    } else {  // two's complement wrap-around, as NumPy's integers
        const auto ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y);
        switch (o) {
            case op::add: return static_cast<T>(ux + uy);
            case op::sub: return static_cast<T>(ux - uy);
            case op::mul: return static_cast<T>(ux * uy);
            default: break;
        }
    }
    return T{};
}

template <class T>
nt::Tensor<T> apply(op o, const nt::Tensor<T>& a, const nt::Tensor<T>& b) {
    switch (o) {
        case op::add: return a + b;
        case op::sub: return a - b;
        case op::mul: return a * b;
        case op::div:
            if constexpr (std::is_floating_point_v<T>) return a / b;
            break;
        case op::min: return nt::minimum(a, b);
        case op::max: return nt::maximum(a, b);
    }
    return {};
}

template <class T>
nt::Tensor<T> random_tensor(std::mt19937& rng, std::vector<std::int64_t> shape) {
    auto t = nt::empty<T>(shape);
    T* p = t.mutable_data();
    for (std::int64_t i = 0; i < t.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            static const T specials[] = {T(0), T(-0.0), std::numeric_limits<T>::infinity(),
                                         -std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN(),
                                         std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max()};
            p[i] = rng() % 16 == 0 ? specials[rng() % std::size(specials)]
                                   : static_cast<T>(std::normal_distribution<double>(0, 1000)(rng));
        } else {
            p[i] = static_cast<T>(rng());  // the whole range: sums and products wrap
        }
    }
    return t;
}

template <class T>
bool same_bits(T x, T y) {
    if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(x) && std::isnan(y)) return true;
    return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// Values that tie often (for comparisons): a few small integers and the extremes, or
// signed zeros, infinities and NaN among a few floats.
template <class T>
nt::Tensor<T> tying_tensor(std::mt19937& rng, std::vector<std::int64_t> shape) {
    auto t = nt::empty<T>(shape);
    T* p = t.mutable_data();
    for (std::int64_t i = 0; i < t.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            static const T values[] = {T(-1), T(0), T(-0.0), T(1), T(2.5), std::numeric_limits<T>::infinity(),
                                       -std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN()};
            p[i] = values[rng() % std::size(values)];
        } else {
            static const T values[] = {T(0), T(1), T(2), static_cast<T>(-1), std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max()};
            p[i] = values[rng() % std::size(values)];
        }
    }
    return t;
}

// a (rows, cols) op b, b shaped (rows, cols), (cols) or (rows, 1), and the mirrored
// forms; `shift` views both from their second column (rows misaligned to vectors).
// Each operation o of `ops` is `apply(o, a, b)`, checked against `reference(o, x, y)`.
template <class T, class Op, class Make, class Apply, class Reference>
void check_forms(std::mt19937& rng, std::int64_t rows, std::int64_t cols, std::int64_t shift,
                 std::initializer_list<Op> ops, Make make, Apply apply, Reference reference) {
    const auto full = make(rng, {rows, cols + shift});
    const auto a = full.index(nt::all, nt::range(shift, cols + shift));
    const auto same = make(rng, {rows, cols + shift}).index(nt::all, nt::range(shift, cols + shift));
    const auto row = make(rng, {cols});
    const auto column = make(rng, {rows, 1});
    for (const Op o : ops) {
        for (int form = 0; form < 6; ++form) {
            const nt::Tensor<T>& other = form % 3 == 0 ? same : form % 3 == 1 ? row : column;
            const bool mirrored = form >= 3;
            const auto result = mirrored ? apply(o, other, a) : apply(o, a, other);
            REQUIRE(result.rank() == 2);
            std::int64_t wrong = 0;
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t c = 0; c < cols; ++c) {
                    const T x = a.at(r, c);
                    const T y = form % 3 == 0 ? same.at(r, c) : form % 3 == 1 ? row.at(c) : column.at(r, 0);
                    const auto want = mirrored ? reference(o, y, x) : reference(o, x, y);
                    if (!same_bits(result.at(r, c), want)) ++wrong;
                }
            INFO("op " << static_cast<int>(o) << " form " << form << " (" << rows << "," << cols << ") shift "
                       << shift);
            CHECK(wrong == 0);
        }
    }
}

template <class T>
void check_rows(std::mt19937& rng, std::int64_t rows, std::int64_t cols, std::int64_t shift) {
    const std::initializer_list<op> ops = std::is_floating_point_v<T>
                                              ? std::initializer_list<op>{op::add, op::sub, op::mul, op::div, op::min, op::max}
                                              : std::initializer_list<op>{op::add, op::sub, op::mul, op::min, op::max};
    check_forms<T>(rng, rows, cols, shift, ops, random_tensor<T>, apply<T>, reference<T>);
}

enum class cmp { eq, ne, lt, le, gt, ge };

bool compare_reference(cmp c, auto x, auto y) {
    switch (c) {
        case cmp::eq: return x == y;
        case cmp::ne: return x != y;
        case cmp::lt: return x < y;
        case cmp::le: return x <= y;
        case cmp::gt: return x > y;
        case cmp::ge: return x >= y;
    }
    return false;
}

template <class T>
nt::Tensor<bool> compare(cmp c, const nt::Tensor<T>& a, const nt::Tensor<T>& b) {
    switch (c) {
        case cmp::eq: return a == b;
        case cmp::ne: return a != b;
        case cmp::lt: return a < b;
        case cmp::le: return a <= b;
        case cmp::gt: return a > b;
        case cmp::ge: return a >= b;
    }
    return {};
}

template <class T>
void check_type(std::mt19937& rng) {
    // Short rows too: a small piece goes to the row kernels in one call for all rows.
    for (const std::int64_t cols : {4, 8, 9, 16, 17, 31, 32, 33, 71, 1000})
        for (const std::int64_t shift : {0, 1}) check_rows<T>(rng, 5, cols, shift);
}

template <class T>
void check_compare_type(std::mt19937& rng) {
    for (const std::int64_t cols : {4, 9, 31, 32, 33, 65, 1000})
        for (const std::int64_t shift : {0, 1})
            check_forms<T>(rng, 5, cols, shift, {cmp::eq, cmp::ne, cmp::lt, cmp::le, cmp::gt, cmp::ge},
                           tying_tensor<T>, compare<T>, [](cmp c, T x, T y) { return compare_reference(c, x, y); });
}

}  // namespace

namespace {

// check.template operator()<T>() for every element type with row kernels, on every
// instruction set this CPU runs (forced one at a time).
template <class Check>
void on_every_target(const Check& check) {
    REQUIRE(!nt::detail::simd_targets().empty());
    nt::test::for_each_simd_target([&](const std::string& target) {
        INFO("target " << target);
        check.template operator()<float>();
        check.template operator()<double>();
        check.template operator()<std::int32_t>();
        check.template operator()<std::int16_t>();
        check.template operator()<std::uint16_t>();
        check.template operator()<std::uint32_t>();
        check.template operator()<std::int8_t>();  // 8-bit products stay on the element loop
        check.template operator()<std::uint8_t>();
    });
}

}  // namespace

TEST_CASE("+ - * / minimum maximum give the element-wise values on every SIMD target this CPU runs", "[ops][simd]") {
    std::mt19937 rng(20261124);
    on_every_target([&]<class T>() { check_type<T>(rng); });
}

TEST_CASE("comparisons give the element-wise values on every SIMD target this CPU runs", "[ops][simd]") {
    // Ties, signed zeros (equal), infinities and NaN (unordered: only != holds).
    std::mt19937 rng(20261126);
    on_every_target([&]<class T>() { check_compare_type<T>(rng); });
}

namespace {

enum class logic { logical_and, logical_or, logical_xor, bit_and, bit_or, bit_xor };

nt::Tensor<bool> apply_logic(logic l, const nt::Tensor<bool>& a, const nt::Tensor<bool>& b) {
    switch (l) {
        case logic::logical_and: return nt::logical_and(a, b);
        case logic::logical_or: return nt::logical_or(a, b);
        case logic::logical_xor: return nt::logical_xor(a, b);
        case logic::bit_and: return a & b;
        case logic::bit_or: return a | b;
        case logic::bit_xor: return a ^ b;
    }
    return {};
}

bool logic_reference(logic l, bool x, bool y) {
    switch (l) {
        case logic::logical_and:
        case logic::bit_and: return x && y;
        case logic::logical_or:
        case logic::bit_or: return x || y;
        case logic::logical_xor:
        case logic::bit_xor: return x != y;
    }
    return false;
}

nt::Tensor<bool> random_mask(std::mt19937& rng, std::vector<std::int64_t> shape) {
    auto t = nt::empty<bool>(shape);
    for (std::int64_t i = 0; i < t.size(); ++i) t.mutable_data()[i] = rng() % 2 == 0;
    return t;
}

}  // namespace

TEST_CASE("logical and bitwise operations of bool tensors give the element-wise values on every SIMD target",
          "[ops][simd]") {
    // They run on the bytes as u8: and is the minimum, or the maximum, xor is !=.
    std::mt19937 rng(20261127);
    nt::test::for_each_simd_target([&](const std::string& target) {
        INFO("target " << target);
        for (const std::int64_t cols : {4, 31, 32, 33, 65, 1000})
            for (const std::int64_t shift : {0, 1})
                check_forms<bool>(rng, 5, cols, shift,
                                  {logic::logical_and, logic::logical_or, logic::logical_xor, logic::bit_and,
                                   logic::bit_or, logic::bit_xor},
                                  random_mask, apply_logic, logic_reference);
    });
}

TEST_CASE("outputs large enough for streaming stores agree on every SIMD target", "[ops][simd]") {
    // 9 rows of 2^20 - 3 floats: a 36 MiB result (streamed), rows starting off the
    // vector alignment after the first.
    const std::vector<std::string> targets = nt::detail::simd_targets();
    std::mt19937 rng(7);
    const std::int64_t rows = 9, cols = (std::int64_t{1} << 20) - 3;
    const auto a = random_tensor<float>(rng, {rows, cols});
    const auto b = random_tensor<float>(rng, {rows, cols});
    const std::int64_t n = rows * cols;
    for (const op o : {op::add, op::div, op::max}) {
        // The first result that passes the element-by-element check; a target whose
        // result has the same bits passes without a second one (the check is most of
        // this test's time under the sanitizers).
        std::vector<float> checked;
        for (const std::string& target : targets) {
            nt::detail::force_simd_target(target);
            INFO("target " << target << " op " << static_cast<int>(o));
            const auto result = apply(o, a, b);
            const float* got = result.data();
            if (!checked.empty() && std::memcmp(got, checked.data(), checked.size() * sizeof(float)) == 0) continue;
            const float* x = a.data();
            const float* y = b.data();
            std::int64_t wrong = 0;
            for (std::int64_t i = 0; i < n; ++i)
                if (!same_bits(got[i], reference(o, x[i], y[i]))) ++wrong;
            CHECK(wrong == 0);
            if (checked.empty() && wrong == 0) checked.assign(got, got + n);
        }
    }
    nt::detail::force_simd_target("");
}

TEST_CASE("minimum and maximum of signed zeros keep the first operand on every SIMD target", "[ops][simd]") {
    // -0.0 == +0.0: the element loop returns its first operand, and so must the vectors
    // (a blend on the wrong side of the comparison flips signs only here).
    const std::int64_t n = 100;
    auto x = nt::empty<float>({n}), y = nt::empty<float>({n});
    for (std::int64_t i = 0; i < n; ++i) {
        x.mutable_data()[i] = i % 2 ? -0.0f : 0.0f;
        y.mutable_data()[i] = i % 2 ? 0.0f : -0.0f;
    }
    nt::test::for_each_simd_target([&](const std::string& target) {
        INFO("target " << target);
        for (const auto& result : {nt::minimum(x, y), nt::maximum(x, y)})
            for (std::int64_t i = 0; i < n; ++i) CHECK(std::signbit(result.at(i)) == std::signbit(x.at(i)));
    });
}
