// The layers of nt/learning.hpp. Each is written with nt's own element-wise
// operations and reductions on Tensor<F> (F: half, float or double), so that a
// recording autograd differentiates them through the operations they are made of
// (the checks of labels and weights read integers and record nothing).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/creation.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/elementwise.hpp"
#include "nt/error.hpp"
#include "nt/learning.hpp"
#include "nt/names.hpp"
#include "nt/reduce.hpp"
#include "nt/segmentation.hpp"

namespace nt::detail {

namespace {

/// Calls f(std::type_identity<F>{}) for the floating type of `x` (the header
/// converted every other type first).
template <class Fn>
tensor_base on_floating(const tensor_base& x, std::string_view op, Fn&& f) {
    return visit_dtype(x.type(), [&](auto type) -> tensor_base {
        using T = typename decltype(type)::type;
        if constexpr (is_floating_element_v<T>) {
            return f(type);
        } else {
            throw_error(errc::type_mismatch, std::string(op) + ": the tensor " + x.describe() + " is " +
                                                 to_string(x.type()) + "; the layers compute in half, float or double");
        }
    });
}

/// The position of the class axis of `x` (`what` names x in messages).
std::size_t class_position(const tensor_base& x, const Axis& axis, std::string_view op, std::string_view what) {
    if (x.rank() == 0)
        throw_error(errc::invalid_argument, std::string(op) + ": the " + std::string(what) + " " + x.describe() +
                                                " have rank 0; they need a class axis. Fix: pass a tensor with a "
                                                "class axis, e.g. (N, CLASS)");
    if (axis.is_name() && find_name(x.names(), axis.name()) < 0)
        throw_error(errc::axis_out_of_range,
                    std::string(op) + ": the class axis " + axis.str() + " is not an axis of the " + std::string(what) +
                        " " + x.describe() + ". Fix: name one of its axes (" + names_text(x.names()) +
                        ") or give the class axis by index");
    const std::size_t at = resolve_axis(axis, x.names(), op, x.shape());
    if (x.shape()[at] == 0)
        throw_error(errc::invalid_argument, std::string(op) + ": the class axis " + axis.str() + " of the " +
                                                std::string(what) + " " + x.describe() +
                                                " is empty; there must be at least one class");
    return at;
}

/// Labels given by integers: type_mismatch otherwise.
void check_integer_labels(const tensor_base& labels, std::string_view op, std::string_view what) {
    const dtype d = labels.type();
    if (d == dtype::b8 || d == dtype::f16 || d == dtype::f32 || d == dtype::f64)
        throw_error(errc::type_mismatch,
                    std::string(op) + ": the " + std::string(what) + " " + labels.describe() + " are " + to_string(d) +
                        "; class labels must be integers. Fix: pass integer class indices (astype<std::int64_t>()), "
                        "or a one-hot target with the class axis where the loss takes one");
}

/// `t` viewed as `target` (the names rule of broadcast_to); the matcher's errors are
/// rethrown naming the operation, both tensors and the fix.
tensor_base aligned_to(const tensor_base& t, const spec& target, const tensor_base& scores, std::string_view op,
                       std::string_view what, std::string_view scores_what) {
    try {
        return t.broadcast_to(target);
    } catch (const nt::error& e) {
        std::vector<name> names(target.rank());
        for (std::size_t i = 0; i < target.rank(); ++i) names[i] = target[i].name;
        throw_error(e.code(), std::string(op) + ": the " + std::string(what) + " " + t.describe() +
                                  " do not match the " + std::string(scores_what) + " " + scores.describe() +
                                  " by names (as a - b matches; here against " + to_string(target) + "): " +
                                  e.message() + ". Fix: give the " + std::string(what) + " the " +
                                  std::string(scores_what) + "' names (" + names_text(names) +
                                  ") with rename or refine_names");
    }
}

/// `labels` (integers) aligned by names to `others` (the spec of the scores without
/// their class axis) and converted to int64: a new (others) tensor. Every label is
/// checked to lie in 0..classes-1 unless it equals `ignore`.
Tensor<std::int64_t> aligned_labels(const tensor_base& labels, const spec& others, const tensor_base& scores,
                                    std::int64_t classes, std::optional<std::int64_t> ignore, std::string_view op,
                                    std::string_view scores_what) {
    if (labels.rank() != others.rank())
        throw_error(errc::invalid_argument,
                    std::string(op) + ": the labels " + labels.describe() + " have rank " +
                        std::to_string(labels.rank()) + "; the " + std::string(scores_what) + " " +
                        scores.describe() + " without their class axis have rank " + std::to_string(others.rank()) +
                        ". Fix: labels hold one class index per position, with every axis of the " +
                        std::string(scores_what) + " but the class axis" +
                        (op == "dice_loss" ? " (a one-hot target has every axis, the class axis too)" : ""));
    check_integer_labels(labels, op, "labels");
    const tensor_base view = aligned_to(labels, others, scores, op, "labels", scores_what);
    if (view.size() != labels.size())
        throw_error(errc::incompatible_sizes,
                    std::string(op) + ": the labels " + labels.describe() + " would be broadcast to " +
                        to_string(others) + " (the " + std::string(scores_what) + " " + scores.describe() +
                        " without their class axis); labels must match those sizes exactly");
    const Tensor<std::int64_t> y = any_tensor(view).astype<std::int64_t>();
    const std::int64_t* v = y.data();
    for (std::int64_t i = 0, n = y.size(); i < n; ++i) {
        if (ignore && v[i] == *ignore) continue;
        if (v[i] < 0 || v[i] >= classes)
            throw_error(errc::index_out_of_range,
                        std::string(op) + ": the label " + std::to_string(v[i]) + " (element " + std::to_string(i) +
                            " of the labels " + labels.describe() + " in the order of the " +
                            std::string(scores_what) + ") is outside 0.." + std::to_string(classes - 1) + " for " +
                            std::to_string(classes) + " classes. Fix: labels index the class axis" +
                            (op == "cross_entropy" ? "; pass ignore_index for a label to skip" : ""));
    }
    return y;
}

/// One-hot masks of the int64 labels `y` (the scores' spec without their class axis)
/// with the class axis back at `at`, under the scores' name for it: y == 0..C-1. The
/// scores keep their layout (no (M, C) copy with the classes innermost).
Tensor<bool> hot_at(const Tensor<std::int64_t>& y, std::int64_t classes, std::size_t at, name class_name) {
    const auto pos = static_cast<std::int64_t>(at);
    const Tensor<std::int64_t> along(class_axis(y.base(), classes, pos, class_name));
    return y.unsqueeze(pos, class_name) == along;
}

/// Every axis of a rank-`rank` tensor but `at`: the per-class sums.
std::vector<Axis> all_but(std::size_t rank, std::size_t at) {
    std::vector<Axis> axes;
    for (std::size_t i = 0; i < rank; ++i)
        if (i != at) axes.emplace_back(static_cast<std::int64_t>(i));
    return axes;
}

/// The spec of `x` without axis `at`.
spec without_axis(const tensor_base& x, std::size_t at) {
    spec s;
    for (std::size_t i = 0; i < x.rank(); ++i)
        if (i != at) s.push_back({x.shape()[i], x.names()[i]});
    return s;
}

template <class F>
Tensor<F> softmax_typed(const Tensor<F>& x, const Axis& axis, bool log) {
    if (x.size() == 0) return x.clone();
    const Tensor<F> z = x - nt::max(x, axis, true);  // the stable form: every exp(z) <= 1
    if (log) return z - nt::log(nt::sum(nt::exp(z), axis, true));
    const Tensor<F> e = nt::exp(z);
    return e / nt::sum(e, axis, true);
}

}  // namespace

tensor_base activate(const tensor_base& x, activation which, double slope) {
    const char* op = which == activation::relu ? "relu" : which == activation::gelu ? "gelu" : "leaky_relu";
    return on_floating(x, op, [&](auto type) -> tensor_base {
        using F = typename decltype(type)::type;
        const Tensor<F> t(x);
        // where, not maximum: the gradient at 0 is 0, as PyTorch's (maximum shares it at ties);
        // NaN stays NaN.
        if (which == activation::relu) return nt::where(t <= 0.0, 0.0, t).base();
        if (which == activation::leaky_relu) return nt::where(t > 0.0, t, t * slope).base();
        // The exact form (PyTorch's approximate='none'): x * Phi(x), Phi through erf.
        return (0.5 * t * (1.0 + nt::erf(t * 0.70710678118654752440))).base();
    });
}

tensor_base softmax(const tensor_base& x, const Axis& axis, bool log) {
    const char* op = log ? "log_softmax" : "softmax";
    (void)resolve_axis(axis, x.names(), op, x.shape());
    return on_floating(x, op, [&](auto type) -> tensor_base {
        using F = typename decltype(type)::type;
        return softmax_typed(Tensor<F>(x), axis, log).base();
    });
}

tensor_base logsumexp(const tensor_base& x, axes_arg axes, bool every_axis, bool keepdims) {
    reduction_shape checked;  // the errors name logsumexp, not the max inside
    plan_reduction("logsumexp", reduce_op::sum, x.spec(), axes, every_axis, keepdims, checked);
    std::vector<Axis> all;
    if (every_axis) {
        for (std::size_t i = 0; i < x.rank(); ++i) all.emplace_back(static_cast<std::int64_t>(i));
        axes = axes_arg(all);
    }
    return on_floating(x, "logsumexp", [&](auto type) -> tensor_base {
        using F = typename decltype(type)::type;
        const Tensor<F> t(x);
        // Empty rows: log(0) = -inf, and no maximum to take.
        if (t.size() == 0) return nt::log(nt::sum(t, axes, keepdims)).base();
        // The maximum, or 0 where it is not finite (-inf rows give log(0) + 0 = -inf).
        Tensor<F> m = nt::max(t, axes, true);
        m = nt::where(nt::isfinite(m), m, 0.0);
        const Tensor<F> s = nt::sum(nt::exp(t - m), axes, keepdims);
        const Tensor<F> shift = keepdims ? m : m.reshape(s.shape(), s.names());
        return (nt::log(s) + shift).base();
    });
}

tensor_base pointwise_loss(const tensor_base& a, const tensor_base& b, bool squared) {
    const std::string op = squared ? "mse_loss" : "l1_loss";
    return on_floating(a, op, [&](auto type) -> tensor_base {
        using F = typename decltype(type)::type;
        Tensor<F> d;
        try {
            d = Tensor<F>(a) - Tensor<F>(b);
        } catch (const nt::error& e) {  // the matcher's message, said of the loss's operands
            throw_error(e.code(), op + " of a " + a.describe() + " and b " + b.describe() + " (matched as a - b): " +
                                      e.message());
        }
        return (squared ? nt::mean(nt::square(d)) : nt::mean(nt::abs(d))).base();
    });
}

tensor_base cross_entropy(const tensor_base& logits, const tensor_base& labels, const Axis& class_axis,
                          const tensor_base* weights, std::optional<std::int64_t> ignore_index) {
    constexpr std::string_view op = "cross_entropy";
    const std::size_t at = class_position(logits, class_axis, op, "logits");
    const std::int64_t classes = logits.shape()[at];
    const Tensor<std::int64_t> y =
        aligned_labels(labels, without_axis(logits, at), logits, classes, ignore_index, op, "logits");
    if (weights) {
        const dtype d = weights->type();
        if (d != dtype::f16 && d != dtype::f32 && d != dtype::f64)
            throw_error(errc::type_mismatch, "cross_entropy: the class weights " + weights->describe() + " are " +
                                                 to_string(d) + "; they must be floating (half, float or double)");
        if (weights->rank() != 1 || weights->shape()[0] != classes)
            throw_error(errc::invalid_argument,
                        "cross_entropy: the class weights " + weights->describe() + " must be 1-D with one weight per "
                        "class: " + std::to_string(classes) + " for the class axis " + class_axis.str() +
                            " of the logits " + logits.describe());
    }
    return on_floating(logits, op, [&](auto type) -> tensor_base {
        using F = typename decltype(type)::type;
        // By position from here: the labels are aligned to the logits already, and the
        // class weights are laid along the class axis by reshape.
        const std::span<const name> unnamed;
        const Axis class_at(static_cast<std::int64_t>(at));
        const Tensor<F> scores = softmax_typed(Tensor<F>(logits).rename(unnamed), class_at, true);  // log-probabilities
        const Tensor<bool> hot = hot_at(y.rename(unnamed), classes, at, name{});
        const Tensor<F> nll = -nt::sum(nt::where(hot, scores, 0.0), class_at);      // -log p[y]
        if (!weights && !ignore_index) return nt::mean(nll).base();
        Tensor<F> w;  // w[y], 0 where ignored
        if (weights) {
            dims along(logits.rank(), 1);
            along[at] = classes;
            const Tensor<F> wf = any_tensor(*weights).rename(unnamed).astype<F>().reshape(along.span(), names_arg{});
            w = nt::sum(nt::where(hot, wf, 0.0), class_at);
        } else {
            w = nt::ones<F>(nll.shape());
        }
        Tensor<F> kept_nll = nll;
        if (ignore_index) {
            const Tensor<bool> kept = y.rename(unnamed) != *ignore_index;
            kept_nll = nt::where(kept, nll, 0.0);
            w = nt::where(kept, w, 0.0);
        }
        return (nt::sum(w * kept_nll) / nt::sum(w)).base();
    });
}

tensor_base dice_loss(const tensor_base& probs, const tensor_base& target, const Axis& class_axis, double eps) {
    constexpr std::string_view op = "dice_loss";
    const std::size_t at = class_position(probs, class_axis, op, "probabilities");
    const std::int64_t classes = probs.shape()[at];
    const bool hot_target = target.rank() == probs.rank();
    std::optional<Tensor<std::int64_t>> labels;
    if (!hot_target)
        labels = aligned_labels(target, without_axis(probs, at), probs, classes, std::nullopt, op, "probabilities");
    return on_floating(probs, op, [&](auto type) -> tensor_base {
        using F = typename decltype(type)::type;
        const Tensor<F> p(probs);
        Tensor<F> t;
        if (hot_target) {
            const tensor_base view = aligned_to(target, probs.spec(), probs, op, "one-hot target", "probabilities");
            if (view.size() != target.size())
                throw_error(errc::incompatible_sizes,
                            "dice_loss: the one-hot target " + target.describe() + " would be broadcast to the "
                            "probabilities " + probs.describe() + "; it must match them exactly");
            t = any_tensor(view).astype<F>();
        } else {
            t = hot_at(*labels, classes, at, probs.names()[at]).template astype<F>();
        }
        const std::vector<Axis> others = all_but(probs.rank(), at);
        const Tensor<F> intersection = nt::sum(p * t, others);
        const Tensor<F> dice = (2.0 * intersection + eps) / (nt::sum(p, others) + nt::sum(t, others) + eps);
        return (1.0 - nt::mean(dice)).base();
    });
}

}  // namespace nt::detail
