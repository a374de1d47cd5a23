// The optimisers of nt/optim.hpp: torch.optim's single-tensor updates (PyTorch 1.13,
// torch/optim/sgd.py, adam.py, adamw.py), written with ntensor's element-wise
// operations on any_tensor so that each parameter computes in its own element type
// and the kernels are the SIMD ones. Each update runs under nt::no_grad: the writes
// into the leaves are allowed and record nothing.
#include "nt/optim.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_set>

#include "core_errors.hpp"
#include "graph.hpp"
#include "nt/autograd.hpp"
#include "nt/elementwise.hpp"

namespace nt::optim {

namespace {

bool is_floating(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

std::string number_text(double v) {
    if (std::isnan(v)) return "NaN";
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// Options are checked as torch checks them, with the range and the fix in the message.
void require_non_negative(std::string_view op, std::string_view option, double v, std::string_view example) {
    if (v >= 0.0 && std::isfinite(v)) return;
    nt::detail::fail(errc::invalid_argument, op,
                 "the option ." + std::string(option) + " is " + number_text(v) + "; it must be a finite number >= 0 (" +
                     std::string(example) + ")");
}

void check_lr(std::string_view op, double lr) {
    if (std::isnan(lr))
        nt::detail::fail(errc::invalid_argument, op,
                     "the option .lr (the learning rate) was not given; it has no default, as in torch.optim.SGD: "
                     "give it, e.g. nt::optim::sgd(params, {.lr = 0.01})");
    require_non_negative(op, "lr", lr, "the learning rate, e.g. {.lr = 0.01}");
}

void check_betas(std::string_view op, std::pair<double, double> betas) {
    const double b[2] = {betas.first, betas.second};
    for (int i = 0; i < 2; ++i) {
        if (b[i] >= 0.0 && b[i] < 1.0) continue;
        nt::detail::fail(errc::invalid_argument, op,
                     "the option .betas has " + std::string(i == 0 ? "first" : "second") + " value (beta" +
                         std::to_string(i + 1) + ") " + number_text(b[i]) +
                         "; each beta must be in [0, 1) (the decay of a moving average; default {0.9, 0.999})");
    }
}

void check_adam(std::string_view op, double lr, std::pair<double, double> betas, double eps, double weight_decay) {
    require_non_negative(op, "lr", lr, "the learning rate, e.g. {.lr = 1e-3}");
    require_non_negative(op, "eps", eps, "added to the denominator, e.g. {.eps = 1e-8}");
    check_betas(op, betas);
    require_non_negative(op, "weight_decay", weight_decay, "0 for none");
}

// A parameter's gradient, or nullopt when no backward pass reached it.
std::optional<any_tensor> gradient_of(const any_tensor& p) {
    if (!p.has_grad()) return std::nullopt;
    return p.grad().detach();
}

// The shared body of Adam and AdamW (torch's _single_tensor_adam/_adamw): with
// `decoupled`, weight decay shrinks p instead of entering the gradient.
void adam_update(const std::vector<any_tensor>& params, std::vector<std::optional<adam_state>>& states, double lr,
                 std::pair<double, double> betas, double eps, double weight_decay, bool amsgrad, bool decoupled) {
    const no_grad guard;
    const auto [beta1, beta2] = betas;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const std::optional<any_tensor> grad = gradient_of(params[i]);
        if (!grad) continue;
        any_tensor p = params[i];
        any_tensor g = *grad;
        auto& s = states[i];
        if (!s) {
            s.emplace();
            s->exp_avg = nt::detail::zeros_of(p.dtype(), p.shape(), p.names());
            s->exp_avg_sq = nt::detail::zeros_of(p.dtype(), p.shape(), p.names());
            if (amsgrad) s->max_exp_avg_sq = nt::detail::zeros_of(p.dtype(), p.shape(), p.names());
        }
        ++s->step;
        if (decoupled) {
            if (weight_decay != 0.0) p *= 1.0 - lr * weight_decay;
        } else if (weight_decay != 0.0) {
            g = g + p * weight_decay;
        }
        s->exp_avg *= beta1;
        s->exp_avg += g * (1.0 - beta1);
        s->exp_avg_sq *= beta2;
        s->exp_avg_sq += g * g * (1.0 - beta2);

        const auto t = static_cast<double>(s->step);
        const double bias_correction1 = 1.0 - std::pow(beta1, t);
        const double bias_correction2 = 1.0 - std::pow(beta2, t);
        const double step_size = lr / bias_correction1;
        const any_tensor* second = &s->exp_avg_sq;
        if (amsgrad) {
            s->max_exp_avg_sq->assign(nt::maximum(*s->max_exp_avg_sq, s->exp_avg_sq));
            second = &*s->max_exp_avg_sq;
        }
        any_tensor denom = nt::sqrt(*second);
        denom /= std::sqrt(bias_correction2);
        denom += eps;
        p -= s->exp_avg / denom * step_size;
    }
}

}  // namespace

// --- optimizer -------------------------------------------------------------------------

optimizer::optimizer(std::string_view op, std::vector<any_tensor> params) : params_(std::move(params)) {
    if (params_.empty())
        nt::detail::fail(errc::invalid_argument, op,
                     "got an empty parameter list; give the tensors to optimise, marked with_grad(), e.g. "
                     "nt::optim::adam({w, b})");
    std::unordered_set<const nt::detail::tape_node*> seen;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const nt::detail::tensor_base& t = params_[i].base();
        const std::string which = "parameter " + std::to_string(i) + " " + t.describe();
        if (!is_floating(t.type()))
            nt::detail::fail(errc::invalid_argument, op,
                         which + " holds " + to_string(t.type()) +
                             " elements; only nt::half, float and double tensors take gradients (convert first: "
                             "t.astype<float>().with_grad())");
        const auto& node = t.grad_node();
        if (!node)
            nt::detail::fail(errc::invalid_argument, op,
                         which + " is not marked with_grad(), so no gradient would reach it; mark it before "
                                 "computing from it and before giving it to the optimiser: w.with_grad()");
        if (!node->leaf)
            nt::detail::fail(errc::invalid_argument, op,
                         which + " is the result of '" + node->op +
                             "', not a leaf: only leaves keep a gradient (optimise the leaves it was computed from, "
                             "or a fresh leaf: t.detach().with_grad())");
        if (t.is_read_only())
            nt::detail::fail(errc::invalid_argument, op,
                         which + " is read-only (a broadcast view or a read-only mapping), so it cannot be updated "
                                 "in place; give a writable tensor (t.clone().with_grad())");
        if (!seen.insert(node.get()).second)
            nt::detail::fail(errc::invalid_argument, op,
                         which + " appears twice in the list, so each step would update it twice; give each "
                                 "parameter once");
    }
}

void optimizer::zero_grad() const {
    for (const any_tensor& p : params_) p.zero_grad();
}

// --- sgd -------------------------------------------------------------------------------

sgd::sgd(std::vector<any_tensor> params, const sgd_options& options)
    : optimizer("nt::optim::sgd", std::move(params)), options_(options) {
    constexpr std::string_view op = "nt::optim::sgd";
    check_lr(op, options.lr);
    require_non_negative(op, "momentum", options.momentum, "0 for none, e.g. {.momentum = 0.9}");
    if (!std::isfinite(options.dampening))
        nt::detail::fail(errc::invalid_argument, op,
                     "the option .dampening is " + number_text(options.dampening) + "; give a finite number (default 0)");
    require_non_negative(op, "weight_decay", options.weight_decay, "0 for none");
    if (options.nesterov && (options.momentum <= 0.0 || options.dampening != 0.0))
        nt::detail::fail(errc::invalid_argument, op,
                     "the option .nesterov needs a momentum > 0 and dampening 0 (momentum is " +
                         number_text(options.momentum) + ", dampening " + number_text(options.dampening) +
                         "); e.g. {.lr = 0.01, .momentum = 0.9, .nesterov = true}");
    momentum_buffers_.resize(params_.size());
}

void sgd::set_lr(double lr) {
    check_lr("nt::optim::sgd::set_lr", lr);
    options_.lr = lr;
}

void sgd::step() {
    const no_grad guard;
    const sgd_options& o = options_;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const std::optional<any_tensor> grad = gradient_of(params_[i]);
        if (!grad) continue;
        any_tensor p = params_[i];
        any_tensor d = *grad;
        if (o.weight_decay != 0.0) d = d + p * o.weight_decay;
        if (o.momentum != 0.0) {
            auto& buf = momentum_buffers_[i];
            if (!buf) {
                buf = d.clone();
            } else {
                *buf *= o.momentum;
                if (o.dampening == 0.0) *buf += d;
                else *buf += d * (1.0 - o.dampening);
            }
            d = o.nesterov ? d + *buf * o.momentum : *buf;
        }
        p -= d * o.lr;
    }
}

// --- adam, adamw -----------------------------------------------------------------------

adam::adam(std::vector<any_tensor> params, const adam_options& options)
    : optimizer("nt::optim::adam", std::move(params)), options_(options) {
    check_adam("nt::optim::adam", options.lr, options.betas, options.eps, options.weight_decay);
    state_.resize(params_.size());
}

void adam::set_lr(double lr) {
    require_non_negative("nt::optim::adam::set_lr", "lr", lr, "the learning rate, e.g. 1e-3");
    options_.lr = lr;
}

void adam::step() {
    const adam_options& o = options_;
    adam_update(params_, state_, o.lr, o.betas, o.eps, o.weight_decay, o.amsgrad, false);
}

adamw::adamw(std::vector<any_tensor> params, const adamw_options& options)
    : optimizer("nt::optim::adamw", std::move(params)), options_(options) {
    check_adam("nt::optim::adamw", options.lr, options.betas, options.eps, options.weight_decay);
    state_.resize(params_.size());
}

void adamw::set_lr(double lr) {
    require_non_negative("nt::optim::adamw::set_lr", "lr", lr, "the learning rate, e.g. 1e-3");
    options_.lr = lr;
}

void adamw::step() {
    const adamw_options& o = options_;
    adam_update(params_, state_, o.lr, o.betas, o.eps, o.weight_decay, o.amsgrad, true);
}

}  // namespace nt::optim
