// What the line-wise algorithms (statistics.cpp, sort.cpp) share: NumPy's order with
// NaNs last, equality that matches NaN with NaN, and lines made contiguous along the
// processed axis. Private to src/ops/.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "element_types.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/names.hpp"

namespace nt::detail::lines {

template <class T>
constexpr bool is_float_like = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <class T>
bool is_nan(T x) {
    if constexpr (is_float_like<T>) return std::isnan(static_cast<double>(x));
    else return false;
}

/// NumPy's sort order: ascending, NaN after every number.
template <class T>
bool ascending(T a, T b) {
    if constexpr (is_float_like<T>) {
        const double x = static_cast<double>(a), y = static_cast<double>(b);
        return x < y || (!std::isnan(x) && std::isnan(y));
    } else {
        return a < b;
    }
}

/// `ascending` for values that hold no NaN: the same order, compared in the element type
/// (float and double, without ascending's conversion to double and NaN tests: a median
/// compares each element a few times, a sort's order test once).
template <class T>
bool ascending_numbers(T a, T b) {
    if constexpr (std::is_same_v<T, half>) return static_cast<float>(a) < static_cast<float>(b);
    else return a < b;
}

template <class T>
bool same_value(T a, T b) {
    if constexpr (is_float_like<T>) {
        const double x = static_cast<double>(a), y = static_cast<double>(b);
        return x == y || (std::isnan(x) && std::isnan(y));
    } else {
        return a == b;
    }
}

inline std::size_t axis_index(const tensor_base& t, const Axis& axis, std::string_view op) {
    return resolve_axis(axis, t.names(), op, t.shape());
}

/// A writable C-contiguous copy of `t` with axis `a` moved last.
inline tensor_base with_axis_last(const tensor_base& t, std::size_t a) {
    return t.move_axis(static_cast<std::int64_t>(a), -1).clone();
}

/// Moves the last axis of `lines` back to position `a` and makes it C-contiguous.
inline tensor_base axis_back(const tensor_base& lines, std::size_t a) {
    return lines.move_axis(-1, static_cast<std::int64_t>(a)).contiguous();
}

template <class T>
T* elements(const tensor_base& t) {
    return reinterpret_cast<T*>(t.data());
}

/// Calls f(std::type_identity<T>{}) for the element type of `t` (detail::visit_dtype).
template <class F>
void on_type(const tensor_base& t, F&& f) {
    visit_dtype(t.type(), std::forward<F>(f));
}

}  // namespace nt::detail::lines

namespace nt::detail {

// Reading and writing along an axis through integer positions: the backward rules of
// sort, topk, median and quantile. Each records the other as its backward rule when
// its floating operand takes part in a graph, so second derivatives follow.

/// out[..., j, ...] = x[..., positions[..., j, ...], ...] along axis `a`; `positions`
/// (i64) has x's shape but for that axis. Named as x.
[[nodiscard]] tensor_base take_along(const tensor_base& x, const tensor_base& positions, std::size_t a,
                                     std::string_view op);
/// Zeros of g's shape with `n` along axis `a`, into which g[..., j, ...] is added at
/// positions[..., j, ...] (positions shaped as g). Named as g.
[[nodiscard]] tensor_base put_along(const tensor_base& g, const tensor_base& positions, std::size_t a, std::int64_t n,
                                    std::string_view op);

}  // namespace nt::detail
