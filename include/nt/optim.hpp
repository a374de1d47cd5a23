// nt/optim.hpp: optimisers that update leaves marked with_grad from their gradients,
// with the update rules of torch.optim (PyTorch 1.13): SGD (momentum, dampening,
// Nesterov, weight decay), Adam (bias-corrected moments, L2 weight decay added to the
// gradient, optional AMSGrad) and AdamW (decoupled weight decay).
//
//     auto w = nt::zeros<float>({3, 4}, {"IN", "OUT"}).with_grad();
//     auto b = nt::zeros<float>({4}, {"OUT"}).with_grad();
//     nt::optim::adam opt({w, b}, {.lr = 1e-2});
//     for (int i = 0; i < 100; ++i) {
//         opt.zero_grad();
//         loss(w, b).backward();
//         opt.step();                 // w and b change in place
//     }
//
// Parameters are nt::half, float or double leaves marked with_grad (Tensor<T> or
// any_tensor, in any mix); the optimiser keeps handles to them, so it sees the
// gradients that backward() accumulates and writes into their storage. step()
// writes under nt::no_grad (so the write is allowed and records nothing, and the
// version counter of a tensor some rule saved advances). A parameter that no backward
// pass reached (has_grad() false) is skipped, as torch skips p.grad None: its state
// (momentum, moments, step count) starts at its first gradient. The state tensors
// have the parameter's element type, shape and names.
//
// Errors (nt::error invalid_argument, at construction or set_lr): an option out of
// range, naming the option and the range; an empty parameter list; a parameter that
// is not floating, not marked with_grad, not a leaf, read-only, or given twice.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ranges>
#include <string_view>
#include <utility>
#include <vector>

#include "nt/any_tensor.hpp"

namespace nt::optim {

/// Options of nt::optim::sgd, torch.optim.SGD's. lr has no default (as in torch):
/// give it.
struct sgd_options {
    double lr = std::numeric_limits<double>::quiet_NaN();  ///< the learning rate, >= 0: required
    double momentum = 0.0;                                  ///< >= 0; 0: plain gradient descent
    double dampening = 0.0;                                 ///< the momentum buffer adds (1 - dampening) * gradient
    double weight_decay = 0.0;                              ///< >= 0: adds weight_decay * p to the gradient (L2)
    bool nesterov = false;                                  ///< Nesterov momentum (needs momentum > 0, dampening 0)
};

/// Options of nt::optim::adam, torch.optim.Adam's with its defaults.
struct adam_options {
    double lr = 1e-3;                                    ///< >= 0
    std::pair<double, double> betas{0.9, 0.999};         ///< each in [0, 1)
    double eps = 1e-8;                                   ///< >= 0, added to the denominator
    double weight_decay = 0.0;                           ///< >= 0: adds weight_decay * p to the gradient (L2)
    bool amsgrad = false;                                ///< normalise by the largest second moment so far
};

/// Options of nt::optim::adamw, torch.optim.AdamW's with its defaults.
struct adamw_options {
    double lr = 1e-3;                                    ///< >= 0
    std::pair<double, double> betas{0.9, 0.999};         ///< each in [0, 1)
    double eps = 1e-8;                                   ///< >= 0, added to the denominator
    double weight_decay = 1e-2;                          ///< >= 0: p *= 1 - lr * weight_decay before each update
    bool amsgrad = false;                                ///< normalise by the largest second moment so far
};

namespace detail {
/// Tensors an optimiser accepts as a parameter list: any range of Tensor<T> or
/// any_tensor (a braced list {w, b} goes to the std::vector<any_tensor> overloads).
template <class R>
concept param_range = std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, any_tensor>;

template <param_range R>
std::vector<any_tensor> to_params(const R& params) {
    std::vector<any_tensor> out;
    for (const auto& p : params) out.emplace_back(p);
    return out;
}
}  // namespace detail

/// What the optimisers share: the parameters and zero_grad. Not copyable (the state
/// tensors are handles: two copies would update one state twice); movable.
class optimizer {
public:
    optimizer(const optimizer&) = delete;
    optimizer& operator=(const optimizer&) = delete;
    optimizer(optimizer&&) noexcept = default;
    optimizer& operator=(optimizer&&) noexcept = default;
    virtual ~optimizer() = default;

    /// One update of every parameter that has a gradient, in place.
    virtual void step() = 0;
    /// Zeroes the gradient of every parameter that has one (t.zero_grad(); torch's
    /// zero_grad(set_to_none=False)): a zero gradient is still a gradient, so step()
    /// then updates the parameter (weight decay, momentum).
    void zero_grad() const;
    /// The parameters, in the order given (handles sharing their storage and leaf).
    [[nodiscard]] const std::vector<any_tensor>& params() const noexcept { return params_; }

protected:
    /// Checks the parameters (see the header's errors), naming `op` in messages.
    optimizer(std::string_view op, std::vector<any_tensor> params);
    std::vector<any_tensor> params_;
};

/// Stochastic gradient descent with momentum, torch.optim.SGD: for each parameter p
/// with gradient g,
///     g += weight_decay * p
///     buf = g (first step), else buf = momentum * buf + (1 - dampening) * g
///     g = nesterov ? g + momentum * buf : buf          (when momentum != 0)
///     p -= lr * g
///     nt::optim::sgd opt({w, b}, {.lr = 0.1, .momentum = 0.9, .nesterov = true});
class sgd : public optimizer {
public:
    sgd(std::vector<any_tensor> params, const sgd_options& options);
    template <detail::param_range R>
    sgd(const R& params, const sgd_options& options) : sgd(detail::to_params(params), options) {}

    void step() override;
    [[nodiscard]] const sgd_options& options() const noexcept { return options_; }
    /// Changes the learning rate for the next steps (a schedule); >= 0.
    void set_lr(double lr);

private:
    sgd_options options_;
    std::vector<std::optional<any_tensor>> momentum_buffers_;
};

/// The state of one parameter of adam and adamw.
struct adam_state {
    std::int64_t step = 0;                        ///< updates so far (bias correction)
    any_tensor exp_avg, exp_avg_sq;               ///< the first and second moments
    std::optional<any_tensor> max_exp_avg_sq;     ///< amsgrad only
};

/// Adam, torch.optim.Adam: for each parameter p with gradient g, at its step t,
///     g += weight_decay * p
///     m = beta1 m + (1 - beta1) g,   v = beta2 v + (1 - beta2) g^2   (v_max = max(v_max, v) with amsgrad)
///     p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
///     nt::optim::adam opt(model_params, {.lr = 3e-4, .betas = {0.9, 0.98}});
class adam : public optimizer {
public:
    adam(std::vector<any_tensor> params, const adam_options& options = {});
    template <detail::param_range R>
    adam(const R& params, const adam_options& options = {}) : adam(detail::to_params(params), options) {}

    void step() override;
    [[nodiscard]] const adam_options& options() const noexcept { return options_; }
    /// The state of parameter i (nullopt before its first gradient).
    [[nodiscard]] const std::optional<adam_state>& state(std::size_t i) const { return state_.at(i); }
    void set_lr(double lr);

private:
    adam_options options_;
    std::vector<std::optional<adam_state>> state_;
};

/// AdamW, torch.optim.AdamW: Adam without weight decay in the gradient; instead each
/// step first shrinks the parameter, p *= 1 - lr * weight_decay (decoupled decay).
class adamw : public optimizer {
public:
    adamw(std::vector<any_tensor> params, const adamw_options& options = {});
    template <detail::param_range R>
    adamw(const R& params, const adamw_options& options = {}) : adamw(detail::to_params(params), options) {}

    void step() override;
    [[nodiscard]] const adamw_options& options() const noexcept { return options_; }
    [[nodiscard]] const std::optional<adam_state>& state(std::size_t i) const { return state_.at(i); }
    void set_lr(double lr);

private:
    adamw_options options_;
    std::vector<std::optional<adam_state>> state_;
};

}  // namespace nt::optim
