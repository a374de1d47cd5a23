// nt/sort.hpp: sorting along an axis given by index or name, the k largest elements,
// and the unique values of a tensor.
//
//     auto scores = nt::tensor<float>({{0.1f, 0.7f, 0.2f}, {0.5f, 0.5f, 0.9f}}).rename({"N", "CLASS"});
//     auto order = nt::argsort(scores, "CLASS");         // int64, stable
//     auto [best, which] = nt::topk(scores, 2, "CLASS");  // (2,2 | N,CLASS)
//     auto labels = nt::unique(nt::tensor<int>({3, 1, 3, 2}));  // [1, 2, 3]
//
// The order is ascending with NaN last, as NumPy's; sorts are stable, so equal
// elements keep their order: -0.0 and +0.0 are equal, so sort keeps the signs of the
// zeros in input order (and NaNs, whatever their sign bits), as np.sort(kind="stable"). Results are new tensors that keep the input's shape and
// names (unique: a 1-D unnamed tensor). Throws axis_out_of_range for an unknown axis,
// invalid_argument for k outside 0..size(axis).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {

/// Sorted copies along `axis`: the values (indices = false) or the int64 positions
/// that sort them (indices = true, np.argsort with kind="stable").
[[nodiscard]] tensor_base sort_along(const tensor_base& t, const Axis& axis, bool indices, std::string_view op);

/// The k largest along `axis`, largest first (NaN counts as the largest, ties keep
/// their order): {values, int64 indices}.
[[nodiscard]] std::pair<tensor_base, tensor_base> top_k(const tensor_base& t, std::int64_t k, const Axis& axis);

/// The sorted distinct values of all elements (NaNs count as one value) and, when
/// `counts` is not null, how often each occurs (int64).
[[nodiscard]] tensor_base unique_values(const tensor_base& t, tensor_base* counts);

}  // namespace detail

/// A copy of `t` sorted along `axis` (default: the last), ascending, NaN last, stable
/// (np.sort(kind="stable")): -0.0 and +0.0 are equal and keep their input order.
/// Shape, names and type of `t`.
template <class T>
Tensor<T> sort(const Tensor<T>& t, const Axis& axis = -1) {
    return Tensor<T>(detail::sort_along(t.base(), axis, false, "sort"));
}

/// The int64 positions along `axis` that sort `t` (np.argsort(kind="stable")): equal
/// elements keep their order, NaN last. Shape and names of `t`.
template <class T>
Tensor<std::int64_t> argsort(const Tensor<T>& t, const Axis& axis = -1) {
    return Tensor<std::int64_t>(detail::sort_along(t.base(), axis, true, "argsort"));
}

/// The k largest elements along an axis and their positions (torch.topk).
template <class T>
struct topk_result {
    Tensor<T> values;               ///< largest first; `axis` has size k, names kept
    Tensor<std::int64_t> indices;   ///< positions of `values` along the axis
};

/// The k largest elements along `axis` (default: the last), largest first; NaN counts
/// as larger than any number (as torch.topk) and equal values keep their order.
/// Throws invalid_argument unless 0 <= k <= size(axis).
template <class T>
topk_result<T> topk(const Tensor<T>& t, std::int64_t k, const Axis& axis = -1) {
    auto [values, indices] = detail::top_k(t.base(), k, axis);
    return {Tensor<T>(std::move(values)), Tensor<std::int64_t>(std::move(indices))};
}

/// The sorted distinct values of all elements of `t`, a 1-D tensor (np.unique; NaNs
/// collapse into one, last).
template <class T>
Tensor<T> unique(const Tensor<T>& t) {
    return Tensor<T>(detail::unique_values(t.base(), nullptr));
}

/// unique's values and how often each occurs.
template <class T>
struct unique_result {
    Tensor<T> values;
    Tensor<std::int64_t> counts;
};

/// np.unique(t, return_counts=True): the sorted distinct values and their int64 counts.
template <class T>
unique_result<T> unique_counts(const Tensor<T>& t) {
    detail::tensor_base counts;
    detail::tensor_base values = detail::unique_values(t.base(), &counts);
    return {Tensor<T>(std::move(values)), Tensor<std::int64_t>(std::move(counts))};
}

// --- any_tensor forms: the same, for a run-time element type ------------------------------------

[[nodiscard]] inline any_tensor sort(const any_tensor& t, const Axis& axis = -1) {
    return any_tensor(detail::sort_along(t.base(), axis, false, "sort"));
}
[[nodiscard]] inline Tensor<std::int64_t> argsort(const any_tensor& t, const Axis& axis = -1) {
    return Tensor<std::int64_t>(detail::sort_along(t.base(), axis, true, "argsort"));
}
/// topk's values (t's element type) and positions.
struct any_topk_result {
    any_tensor values;
    Tensor<std::int64_t> indices;
};
[[nodiscard]] inline any_topk_result topk(const any_tensor& t, std::int64_t k, const Axis& axis = -1) {
    auto [values, indices] = detail::top_k(t.base(), k, axis);
    return {any_tensor(std::move(values)), Tensor<std::int64_t>(std::move(indices))};
}
[[nodiscard]] inline any_tensor unique(const any_tensor& t) {
    return any_tensor(detail::unique_values(t.base(), nullptr));
}
/// unique_counts' values (t's element type) and counts.
struct any_unique_result {
    any_tensor values;
    Tensor<std::int64_t> counts;
};
[[nodiscard]] inline any_unique_result unique_counts(const any_tensor& t) {
    detail::tensor_base counts;
    detail::tensor_base values = detail::unique_values(t.base(), &counts);
    return {any_tensor(std::move(values)), Tensor<std::int64_t>(std::move(counts))};
}

}  // namespace nt
