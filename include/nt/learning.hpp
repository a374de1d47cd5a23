// nt/learning.hpp: the layers of learning code, forward: activations (relu,
// leaky_relu, gelu), softmax, log_softmax and logsumexp along named axes, and the
// losses mse_loss, l1_loss, cross_entropy and dice_loss.
//
//     auto logits = nt::ones<float>({8, 3, 64, 64}, {"N", "CLASS", "H", "W"});
//     auto labels = nt::zeros<std::int64_t>({8, 64, 64}, {"N", "H", "W"});
//     auto p = nt::softmax(logits, "CLASS");                         // (8,3,64,64 | N,CLASS,H,W)
//     auto loss = nt::cross_entropy(logits, labels, "CLASS");        // rank 0, float
//
// Element types: floating inputs (half, float, double) give their own type; integer
// and bool inputs are converted first to the floating type nt::exp gives them
// (detail::float_result_t: half for bool and 8-bit, float for 16-bit, double for
// 32- and 64-bit integers). Two inputs (mse_loss, l1_loss) take that type of their
// common type. Names: results keep the input's names; reductions (logsumexp) drop
// the reduced axes; losses are rank 0. Results are new tensors.
// Each layer is a composition of nt's element-wise operations and reductions
// (src/ops/learning.cpp), except gelu, one compiled loop (there is no nt::erf).
// Throws axis_out_of_range (an unknown axis or class axis), invalid_argument (rank
// mismatch, an empty class axis, bad weights), type_mismatch (labels that are not
// integers, weights that are not floating), index_out_of_range (a label outside
// 0..classes-1) and the matcher's errors for operands whose names do not match.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "nt/axis.hpp"
#include "nt/detail/ops_kernels.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/promote.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {

/// The type a layer computes in for inputs of type T (nt::exp's).
template <class T>
using learning_t = float_result_t<T>;

/// `t` as a Tensor<F>: itself when it is one, else converted.
template <class F, class T>
Tensor<F> converted(const Tensor<T>& t) {
    if constexpr (std::is_same_v<F, T>) return t;
    else return t.template astype<F>();
}

/// `t` as its layer type.
template <class T>
Tensor<learning_t<T>> as_learning(const Tensor<T>& t) {
    return converted<learning_t<T>>(t);
}

enum class activation : std::uint8_t { relu, leaky_relu, gelu };
// The compiled layers (src/ops/learning.cpp), on floating tensors (half, float, double).
[[nodiscard]] tensor_base activate(const tensor_base& x, activation which, double slope);
[[nodiscard]] tensor_base softmax(const tensor_base& x, const Axis& axis, bool log);
[[nodiscard]] tensor_base logsumexp(const tensor_base& x, axes_arg axes, bool every_axis, bool keepdims);
[[nodiscard]] tensor_base pointwise_loss(const tensor_base& a, const tensor_base& b, bool squared);
[[nodiscard]] tensor_base cross_entropy(const tensor_base& logits, const tensor_base& labels, const Axis& class_axis,
                                        const tensor_base* weights, std::optional<std::int64_t> ignore_index);
[[nodiscard]] tensor_base dice_loss(const tensor_base& probs, const tensor_base& target, const Axis& class_axis,
                                    double eps);

}  // namespace detail

/// The optional class weights of nt::cross_entropy: a 1-D floating tensor of any
/// element type, or none (`{}`, std::nullopt). Non-owning of nothing: holds a handle.
class class_weights {
public:
    class_weights() = default;
    class_weights(std::nullopt_t) {}  // NOLINT
    template <class W>
    class_weights(const Tensor<W>& w) : w_(w.base()), given_(true) {}  // NOLINT
    [[nodiscard]] const detail::tensor_base* get() const noexcept { return given_ ? &w_ : nullptr; }

private:
    detail::tensor_base w_;
    bool given_ = false;
};

// --- activations ---------------------------------------------------------------------

/// max(t, 0) element-wise (NaN stays NaN). Same shape and names.
///     auto h = nt::relu(x);
template <class T>
auto relu(const Tensor<T>& t) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::activate(detail::as_learning(t).base(), detail::activation::relu, 0.0));
}

/// t where t > 0, else slope * t (torch.nn.functional.leaky_relu).
template <class T>
auto leaky_relu(const Tensor<T>& t, double slope = 0.01) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::activate(detail::as_learning(t).base(), detail::activation::leaky_relu, slope));
}

/// x * (1 + erf(x / sqrt(2))) / 2, the exact form (torch.nn.functional.gelu's
/// default), computed in double and rounded once. gelu(-inf) is NaN, as torch's.
template <class T>
auto gelu(const Tensor<T>& t) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::activate(detail::as_learning(t).base(), detail::activation::gelu, 0.0));
}

// --- along an axis ------------------------------------------------------------------

/// exp(t - max) / sum(exp(t - max)) along `axis` (by index or name): the maximum is
/// subtracted first, so large values do not overflow. A row holding +inf, or only
/// -inf, gives NaN (as torch). Same shape and names.
///     auto p = nt::softmax(logits, "CLASS");
template <class T>
auto softmax(const Tensor<T>& t, const Axis& axis) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::softmax(detail::as_learning(t).base(), axis, false));
}

/// log(softmax(t, axis)), computed as (t - max) - log(sum(exp(t - max))).
template <class T>
auto log_softmax(const Tensor<T>& t, const Axis& axis) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::softmax(detail::as_learning(t).base(), axis, true));
}

/// log(sum(exp(t))) over `axes` (one axis or a list, by index or name, as nt::sum),
/// stably: m + log(sum(exp(t - m))) with m the finite maximum. A row of -inf (or an
/// empty one) gives -inf, a row holding +inf gives +inf, as torch.logsumexp.
/// keepdims keeps the reduced axes with size 1.
///     nt::logsumexp(scores, "CLASS");   nt::logsumexp(scores, {"H", "W"}, true);
template <class T>
auto logsumexp(const Tensor<T>& t, axes_arg axes, bool keepdims = false) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::logsumexp(detail::as_learning(t).base(), axes, false, keepdims));
}
/// Over every axis (a rank-0 result).
template <class T>
auto logsumexp(const Tensor<T>& t) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::logsumexp(detail::as_learning(t).base(), axes_arg{}, true, false));
}

// --- losses (rank-0 results) ----------------------------------------------------------

/// mean((a - b)^2) over every element of a - b (a and b matched by names as in a - b).
template <class A, class B>
auto mse_loss(const Tensor<A>& a, const Tensor<B>& b) {
    using F = detail::learning_t<promote_t<A, B>>;
    return Tensor<F>(detail::pointwise_loss(detail::converted<F>(a).base(), detail::converted<F>(b).base(), true));
}

/// mean(|a - b|) over every element of a - b (a and b matched by names as in a - b).
template <class A, class B>
auto l1_loss(const Tensor<A>& a, const Tensor<B>& b) {
    using F = detail::learning_t<promote_t<A, B>>;
    return Tensor<F>(detail::pointwise_loss(detail::converted<F>(a).base(), detail::converted<F>(b).base(), false));
}

/// Cross entropy of `logits` against integer class `labels`: l = -log_softmax(logits,
/// class_axis)[label] at each position, averaged over every other axis (torch's
/// cross_entropy, reduction "mean"). The labels have the logits' axes without the
/// class axis, matched by names (as a - b matches; no broadcasting). With `weights`
/// (1-D, floating, one per class): sum(w[y] * l) / sum(w[y]). Positions whose label
/// is `ignore_index` count in neither sum (all ignored: NaN, as torch).
/// Throws index_out_of_range for a label outside 0..classes-1 (other than
/// ignore_index), type_mismatch for labels that are not integers.
///     auto loss = nt::cross_entropy(logits, labels, "CLASS", class_w, 255);
template <class T, class L>
auto cross_entropy(const Tensor<T>& logits, const Tensor<L>& labels, const Axis& class_axis,
                   const class_weights& weights = {}, std::optional<std::int64_t> ignore_index = std::nullopt) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::cross_entropy(detail::as_learning(logits).base(), labels.base(), class_axis,
                                           weights.get(), ignore_index));
}

/// Soft Dice loss: per class c, dice_c = (2 sum(p t) + eps) / (sum(p) + sum(t) + eps),
/// the sums over every axis but the class axis; the loss is 1 - mean over classes.
/// `target` is one-hot (probs' axes, matched by names; floating, integer or bool) or
/// integer labels with the axes of probs without the class axis.
///     auto loss = nt::dice_loss(nt::softmax(logits, "CLASS"), labels, "CLASS");
template <class T, class U>
auto dice_loss(const Tensor<T>& probs, const Tensor<U>& target, const Axis& class_axis, double eps = 1.0) {
    using F = detail::learning_t<T>;
    return Tensor<F>(detail::dice_loss(detail::as_learning(probs).base(), target.base(), class_axis, eps));
}

}  // namespace nt
