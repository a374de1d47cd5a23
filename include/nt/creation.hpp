// nt/creation.hpp: functions that make new tensors (fresh, 64-byte aligned,
// writable storage). Each takes optional names, one per axis.
//
//     auto a = nt::tensor<int>({{1, 2, 3}, {4, 5, 6}});          // shape (2,3)
//     auto z = nt::zeros<float>({2, 3}, {"N", "C"});             // (2,3 | N,C)
//     auto r = nt::arange<double>(0.0, 1.0, 0.25);               // 0, .25, .5, .75
//     auto s = nt::scalar(99);                                   // rank 0, int
#pragma once

#include <concepts>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "nt/detail/tensor_base.hpp"
#include "nt/names.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// A value or a nested braced list of values, for nt::tensor: `5`, `{1, 2}`,
/// `{{1, 2}, {3, 4}}`. Holds references into the braced lists, so it must not
/// outlive the call it is passed to.
template <element T>
class nested {
public:
    nested(T value) noexcept : value_(value), leaf_(true) {}                                 // NOLINT
    /// nt::half from any number (`nt::tensor<nt::half>({0.5, 1.5})`): two user-defined
    /// conversions in a row (double -> half -> nested) would not be allowed.
    template <class A>
        requires(std::is_same_v<T, half> && std::is_arithmetic_v<A>)
    nested(A value) noexcept : value_(value), leaf_(true) {}  // NOLINT
    nested(std::initializer_list<nested> items) noexcept : items_(items), leaf_(false) {}  // NOLINT

    [[nodiscard]] bool is_leaf() const noexcept { return leaf_; }
    [[nodiscard]] T value() const noexcept { return value_; }
    [[nodiscard]] const std::initializer_list<nested>& items() const noexcept { return items_; }

private:
    T value_{};
    std::initializer_list<nested> items_{};
    bool leaf_ = false;
};

namespace detail {
/// Shape of a nested list; throws invalid_argument for ragged lists or rank over max_rank.
template <class T>
dims nested_shape(const nested<T>& n);
template <class T>
void nested_fill(const nested<T>& n, T*& out) {
    if (n.is_leaf()) {
        *out++ = n.value();
        return;
    }
    for (const auto& item : n.items()) nested_fill(item, out);
}
[[noreturn]] void throw_ragged(std::size_t depth, std::size_t expected, std::size_t actual);
/// Throws invalid_argument unless `shape` has `n` elements.
void check_element_count(std::int64_t n, std::span<const std::int64_t> shape, const char* op);
[[noreturn]] void throw_arange_count(std::int64_t n);
/// NumPy's arange length ceil((stop - start) / step), at least 0. Throws
/// invalid_argument for step 0 or a non-finite / too large count.
[[nodiscard]] std::int64_t arange_count(double start, double stop, double step);
/// The same, exact for integers.
[[nodiscard]] std::int64_t arange_count_int(std::int64_t start, std::int64_t stop, std::int64_t step);
template <class T>
void nested_shape_into(const nested<T>& n, std::size_t depth, dims& shape) {
    if (depth == shape.size()) {
        if (!n.is_leaf()) {
            // first visit along the first path decides the shape
            shape.push_back(static_cast<std::int64_t>(n.items().size()));
            if (n.items().size() == 0) return;
            nested_shape_into(*n.items().begin(), depth + 1, shape);
        }
    }
}
template <class T>
void nested_check(const nested<T>& n, std::size_t depth, const dims& shape) {
    if (depth == shape.size()) {
        if (!n.is_leaf()) throw_ragged(depth, 0, n.items().size());
        return;
    }
    if (n.is_leaf() || static_cast<std::int64_t>(n.items().size()) != shape[depth])
        throw_ragged(depth, static_cast<std::size_t>(shape[depth]), n.is_leaf() ? 0 : n.items().size());
    for (const auto& item : n.items()) nested_check(item, depth + 1, shape);
}
template <class T>
dims nested_shape(const nested<T>& n) {
    dims shape;
    nested_shape_into(n, 0, shape);
    nested_check(n, 0, shape);
    return shape;
}
template <element T>
Tensor<T> filled(shape_arg shape, names_arg names, T value, const char* op) {
    Tensor<T> t(tensor_base::allocate(dtype_of<T>, shape, names.span(), op));
    t.base().fill(&value);
    return t;
}
}  // namespace detail

/// A tensor from a value (rank 0) or nested braced lists (rank = nesting depth).
/// Throws invalid_argument for ragged lists; invalid_spec / duplicate_name for names.
///     nt::tensor<int>({{10}, {20}});   // shape (2,1)
template <element T>
[[nodiscard]] Tensor<T> tensor(const nested<T>& values, names_arg names = {}) {
    const dims shape = detail::nested_shape(values);
    Tensor<T> t(detail::tensor_base::allocate(dtype_of<T>, shape, names.span(), "tensor"));
    T* out = reinterpret_cast<T*>(t.base().data());
    detail::nested_fill(values, out);
    return t;
}

/// Copies `values` into a tensor of `shape` (empty shape: one axis of values.size();
/// use nt::scalar for rank 0). Throws invalid_argument if the element count differs.
template <element T>
[[nodiscard]] Tensor<T> from_vector(const std::vector<T>& values, shape_arg shape = {}, names_arg names = {}) {
    const std::int64_t n = static_cast<std::int64_t>(values.size());
    const std::int64_t one_axis[1] = {n};
    const shape_arg s = shape.empty() ? shape_arg(std::span<const std::int64_t>(one_axis)) : shape;
    detail::check_element_count(n, s.span(), "from_vector");
    Tensor<T> t(detail::tensor_base::allocate(dtype_of<T>, s, names.span(), "from_vector"));
    T* out = reinterpret_cast<T*>(t.base().data());
    for (const T& v : values) *out++ = v;
    return t;
}

/// Copies `values` into a tensor of the shape and names of `s` (a spec of a
/// config: nt::from_vector(v, cfg.spec("onehot"))). Throws invalid_argument if
/// the element count differs.
template <element T, std::same_as<nt::spec> Spec>
[[nodiscard]] Tensor<T> from_vector(const std::vector<T>& values, const Spec& s) {
    name_list names;
    for (const axis_spec& axis : s) names.push_back(axis.name);
    const dims shape = s.sizes();
    return from_vector(values, shape_arg(shape), names_arg(names));
}

/// 0, 1, ..., n-1 (shape (n)). Throws invalid_argument for n < 0.
template <element T>
    requires(!std::is_same_v<T, bool>)
[[nodiscard]] Tensor<T> arange(std::int64_t n, names_arg names = {}) {
    if (n < 0) detail::throw_arange_count(n);
    const std::int64_t shape[1] = {n};
    Tensor<T> t(detail::tensor_base::allocate(dtype_of<T>, shape, names.span(), "arange"));
    T* out = reinterpret_cast<T*>(t.base().data());
    for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(i);
    return t;
}

/// start, start + step, ... while before stop (NumPy arange: ceil((stop - start) /
/// step) elements, none if that is negative). Throws invalid_argument for step 0.
template <element T>
    requires(!std::is_same_v<T, bool>)
[[nodiscard]] Tensor<T> arange(T start, T stop, T step = T{1}, names_arg names = {}) {
    std::int64_t n = 0;
    if constexpr (is_floating_element_v<T>)
        n = detail::arange_count(static_cast<double>(start), static_cast<double>(stop), static_cast<double>(step));
    else
        n = detail::arange_count_int(static_cast<std::int64_t>(start), static_cast<std::int64_t>(stop),
                                     static_cast<std::int64_t>(step));
    const std::int64_t shape[1] = {n};
    Tensor<T> t(detail::tensor_base::allocate(dtype_of<T>, shape, names.span(), "arange"));
    T* out = reinterpret_cast<T*>(t.base().data());
    for (std::int64_t i = 0; i < n; ++i) {
        if constexpr (is_floating_element_v<T>)
            out[i] = static_cast<T>(static_cast<double>(start) + static_cast<double>(i) * static_cast<double>(step));
        else  // in 64-bit unsigned arithmetic: start + i * step may pass through overflow
              // (INT64_MIN + 2 * INT64_MAX), though every element lies in [start, stop)
            out[i] = static_cast<T>(static_cast<std::uint64_t>(start) +
                                    static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(step));
    }
    return t;
}

/// A fresh C-contiguous tensor of `shape` whose elements are uninitialised: for
/// results that are written in full before they are read (`nt::add(a, b, out)`).
template <element T>
[[nodiscard]] Tensor<T> empty(shape_arg shape, names_arg names = {}) {
    return Tensor<T>(detail::tensor_base::allocate(dtype_of<T>, shape.span(), names.span(), "empty"));
}
/// The same, with the shape and names of a spec. (A template, so that a braced
/// shape `nt::empty<float>({2, 3})` picks the shape form.)
template <element T, std::same_as<nt::spec> Spec>
[[nodiscard]] Tensor<T> empty(const Spec& s) {
    dims shape;
    name_list names;
    for (const axis_spec& ax : s) {
        shape.push_back(ax.size);
        names.push_back(ax.name);
    }
    return Tensor<T>(detail::tensor_base::allocate(dtype_of<T>, shape, names, "empty"));
}

/// A tensor of `shape` filled with 0 (false).
template <element T>
[[nodiscard]] Tensor<T> zeros(shape_arg shape, names_arg names = {}) {
    return detail::filled<T>(shape, names, T{0}, "zeros");
}
/// A tensor of `shape` filled with 1 (true).
template <element T>
[[nodiscard]] Tensor<T> ones(shape_arg shape, names_arg names = {}) {
    return detail::filled<T>(shape, names, T{1}, "ones");
}
/// A tensor of `shape` filled with `value`.
template <element T>
[[nodiscard]] Tensor<T> full(shape_arg shape, T value, names_arg names = {}) {
    return detail::filled<T>(shape, names, value, "full");
}
/// A rank-0 tensor holding `value`.
template <element T>
[[nodiscard]] Tensor<T> scalar(T value) {
    return detail::filled<T>({}, {}, value, "scalar");
}

}  // namespace nt
