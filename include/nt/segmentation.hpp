// nt/segmentation.hpp: the helpers of segmentation code: one-hot encoding with a
// named class axis, bincount (class counts, confusion matrices) and histograms.
//
//     auto lbl = nt::zeros<std::uint8_t>({2, 64, 64}, {"N", "H", "W"});
//     auto masks = nt::one_hot(lbl, 3, 1, "CLASS");          // (2,3,64,64 | N,CLASS,H,W), i64
//     auto counts = nt::bincount(lbl.flatten(), 3);           // voxels per class
//     // A confusion matrix: truth * K + pred, counted, as a K x K table.
//     auto cm = nt::bincount((truth * K + pred).flatten(), K * K).reshape({K, K}, {"TRUTH", "PRED"});
//
// Results are new tensors. Throws invalid_argument (labels outside 0..classes-1,
// negative values for bincount, a 1-D input expected, bins < 1, lo >= hi) and
// axis_out_of_range.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "nt/any_tensor.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/elementwise.hpp"
#include "nt/reduce.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {

/// Throws invalid_argument unless every label lies in [0, classes).
void check_labels(const tensor_base& labels, std::int64_t classes, std::string_view op);

/// The class indices 0..classes-1 shaped to broadcast against `labels` with a new
/// axis at `pos` named `n`: size `classes` there, 1 elsewhere, the labels' names.
[[nodiscard]] tensor_base class_axis(const tensor_base& labels, std::int64_t classes, std::int64_t pos, name n);

/// np.bincount of a 1-D integer tensor: int64 counts, or float64 sums of `weights`.
[[nodiscard]] tensor_base bincount(const tensor_base& x, std::int64_t minlength, const tensor_base* weights);

/// np.histogram(x, bins, range=(lo, hi)): int64 counts and float64 edges.
void histogram(const tensor_base& x, std::int64_t bins, double lo, double hi, tensor_base& counts,
               tensor_base& edges);

}  // namespace detail

/// One-hot encoding (torch.nn.functional.one_hot, with the class axis placed and
/// named): a new axis of size `classes` is inserted at `pos` (-rank-1..rank, as
/// unsqueeze), named `n`; element [..., k, ...] is 1 where the label is k. The result
/// type is R (int64 by default, as PyTorch's; bool or float on request).
/// Throws invalid_argument for a label outside 0..classes-1.
///     auto masks = nt::one_hot(lbl, 3, 1, "CLASS");
///     auto fmasks = nt::one_hot<float>(lbl, 3, -1);
template <class R = std::int64_t, class T>
    requires(std::integral<T> && !std::same_as<T, bool>)
Tensor<R> one_hot(const Tensor<T>& labels, std::int64_t classes, std::int64_t pos, name n = {}) {
    detail::check_labels(labels.base(), classes, "one_hot");
    const Tensor<T> classes_along = Tensor<T>(detail::class_axis(labels.base(), classes, pos, n));
    const Tensor<bool> hot = labels.unsqueeze(pos, n) == classes_along;
    if constexpr (std::is_same_v<R, bool>) return hot;
    else return hot.template astype<R>();
}

/// How often each value 0, 1, ... occurs in the 1-D integer tensor `x` (np.bincount):
/// int64, of length max(x) + 1 or `minlength`, whichever is larger. Throws
/// invalid_argument for a negative value or a rank other than 1.
template <class T>
    requires(std::integral<T>)
Tensor<std::int64_t> bincount(const Tensor<T>& x, std::int64_t minlength = 0) {
    return Tensor<std::int64_t>(detail::bincount(x.base(), minlength, nullptr));
}

/// bincount with weights (np.bincount(x, weights, minlength)): the float64 sum of the
/// weights of each value. `weights` has x's length.
template <class T, class W>
    requires(std::integral<T>)
Tensor<double> bincount(const Tensor<T>& x, const Tensor<W>& weights, std::int64_t minlength = 0) {
    const Tensor<double> w = weights.template astype<double>();
    return Tensor<double>(detail::bincount(x.base(), minlength, &w.base()));
}

/// A histogram's counts and the edges of its bins.
struct histogram_result {
    Tensor<std::int64_t> counts;  ///< (bins)
    Tensor<double> edges;         ///< (bins + 1), from lo to hi
};

/// np.histogram(x, bins, range=(lo, hi)) over every element of `x`: `bins` equal
/// bins from lo to hi, the last one closed; values outside [lo, hi] and NaN are not
/// counted. Values are binned in float64. Throws invalid_argument (bins < 1, lo >= hi,
/// a bound not finite).
template <class T>
histogram_result histogram(const Tensor<T>& x, std::int64_t bins, double lo, double hi) {
    detail::tensor_base counts, edges;
    detail::histogram(x.base(), bins, lo, hi, counts, edges);
    return {Tensor<std::int64_t>(std::move(counts)), Tensor<double>(std::move(edges))};
}

// --- any_tensor forms: the same, for a run-time element type ------------------------------------
// Labels of a non-integer type are refused (type_mismatch naming the dtype), as the
// typed forms refuse them at compile time.

namespace detail {
[[nodiscard]] any_tensor any_one_hot(const any_tensor& labels, std::int64_t classes, std::int64_t pos, name n,
                                     dtype result);
[[nodiscard]] any_tensor any_bincount(const any_tensor& x, const any_tensor* weights, std::int64_t minlength);
}  // namespace detail

/// one_hot of labels of any integer type, into `result` (int64 by default).
[[nodiscard]] inline any_tensor one_hot(const any_tensor& labels, std::int64_t classes, std::int64_t pos, name n = {},
                                        dtype result = dtype::i64) {
    return detail::any_one_hot(labels, classes, pos, n, result);
}
[[nodiscard]] inline Tensor<std::int64_t> bincount(const any_tensor& x, std::int64_t minlength = 0) {
    return detail::any_bincount(x, nullptr, minlength).as<std::int64_t>();
}
[[nodiscard]] inline Tensor<double> bincount(const any_tensor& x, const any_tensor& weights,
                                             std::int64_t minlength = 0) {
    return detail::any_bincount(x, &weights, minlength).as<double>();
}
[[nodiscard]] inline histogram_result histogram(const any_tensor& x, std::int64_t bins, double lo, double hi) {
    detail::tensor_base counts, edges;
    detail::histogram(x.base(), bins, lo, hi, counts, edges);
    return {Tensor<std::int64_t>(std::move(counts)), Tensor<double>(std::move(edges))};
}

}  // namespace nt
