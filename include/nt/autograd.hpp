// nt/autograd.hpp: gradients, on the tensor (reverse mode recorded as operations
// run) and as function transforms.
//
// On the tensor, as PyTorch: mark leaves with with_grad(), compute, call backward()
// on a one-element result, read each leaf's grad(). A gradient has its tensor's
// shape, names and element type.
//
//     auto w = nt::ones<float>({3}, {"C"}).with_grad();
//     auto x = nt::ones<float>({2, 3}, {"N", "C"});
//     auto loss = nt::sum(x * w);
//     loss.backward();
//     w.grad();                       // (3 | C): the sum of x over N
//
// As function transforms, as JAX: nt::grad(f, x) is the gradient of a one-element
// f at x, without touching any leaf's grad(); they compose (gradients of gradients).
//
//     auto f = [](const nt::Tensor<double>& x) { return nt::sum(x * x * x); };
//     nt::grad(f, x);                                   // 3 x^2
//     nt::grad([&](const auto& y) { return nt::sum(nt::grad(f, y)); }, x);   // 6 x
//
// The backward of a broadcast sums over the axes the matcher inserted or stretched:
// nt::sum_to(g, spec) is that reduction. Rules follow PyTorch 1.13 at ties and kinks.
// Errors: invalid_argument (with_grad on integers, backward of a non-scalar without a
// seed, a freed graph, writes in place into a recording graph), no_gradient (grad()
// that no backward pass reached), modified_in_place (a saved tensor written before
// backward).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/detail/grad_hooks.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// While it lives, nothing is recorded on this thread (torch.no_grad): operations
/// on tensors that require a gradient give plain results, and writes in place into
/// them are allowed (optimisers update parameters so).
///     { nt::no_grad guard; w -= 0.1f * w.grad(); }
class no_grad {
public:
    no_grad() noexcept;
    ~no_grad();
    no_grad(const no_grad&) = delete;
    no_grad& operator=(const no_grad&) = delete;

private:
    bool previous_;
};

/// Sums `g` down to `target`: the backward of broadcasting a tensor of spec `target`
/// to g's spec. Axes of g that target lacks (inserted by the matcher) are summed
/// away, axes where target has size 1 and g does not (stretched) are summed with
/// size 1 kept, and the result has target's axis order and names. Throws the
/// matcher's errors when `target` does not broadcast to g.
///     nt::sum_to(g, nt::spec({3}, {"C"}));       // g (2,3 | N,C) -> (3 | C)
[[nodiscard]] any_tensor sum_to(const any_tensor& g, const spec& target);
template <element T>
[[nodiscard]] Tensor<T> sum_to(const Tensor<T>& g, const spec& target) {
    return Tensor<T>(sum_to(any_tensor(g), target).base());
}

/// What nt::check_grad found.
struct grad_check_report {
    bool ok = true;              ///< every element within the tolerance
    double max_rel_error = 0.0;  ///< max |analytic - numeric| / max(1, |numeric|)
    std::string where;           ///< the worst element: "argument 0, element (1,2): analytic .., numeric .."
};

/// Steps and tolerance of nt::check_grad.
struct grad_check_options {
    double eps = 1e-6;        ///< the central difference step
    double tolerance = 1e-6;  ///< the largest max_rel_error that is ok
};

namespace detail {

// nt::grad and its kin: the tensors f sees, and the gradients reaching them.
[[nodiscard]] tensor_base grad_input(const tensor_base& x);
/// The gradients of `y` (seeded by `seed`, or 1 when null) with respect to the
/// tensors grad_input returned, zeros where y does not depend on one. `create_graph`
/// records the pass (when differentiating a gradient).
[[nodiscard]] std::vector<tensor_base> gradients_of(std::string_view op, const tensor_base& y, const tensor_base* seed,
                                                    std::span<const tensor_base> inputs, bool create_graph);
/// The Jacobian-vector product of y (computed from `inputs`) along `tangent`.
[[nodiscard]] tensor_base jvp_of(const tensor_base& y, const tensor_base& input, const tensor_base& tangent,
                                 bool create_graph);

template <class R>
const tensor_base& result_base(const R& r) {
    static_assert(requires { r.base(); }, "nt::grad: f must return a tensor (nt::Tensor<T> or nt::any_tensor)");
    return r.base();
}

template <class F, class... T>
auto call_on_inputs(F&& f, const std::array<tensor_base, sizeof...(T)>& in) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return std::forward<F>(f)(Tensor<T>(in[I])...);
    }(std::index_sequence_for<T...>{});
}

template <class... T>
auto gradients_as(const std::vector<tensor_base>& g) {
    if constexpr (sizeof...(T) == 1) {
        return (Tensor<T>(g[0]), ...);
    } else {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return std::tuple<Tensor<T>...>(Tensor<T>(g[I])...);
        }(std::index_sequence_for<T...>{});
    }
}

}  // namespace detail

/// The value of f(x, ...) (one floating element) and its gradient with respect to
/// each argument: a std::pair of the value and what nt::grad returns.
template <class F, element... T>
[[nodiscard]] auto value_and_grad(F&& f, const Tensor<T>&... xs) {
    static_assert(sizeof...(T) > 0, "nt::value_and_grad: give at least one argument");
    const bool outer = (detail::records(xs.base()) || ...);
    const detail::grad_mode_guard on(true);
    const std::array<detail::tensor_base, sizeof...(T)> inputs{detail::grad_input(xs.base())...};
    auto y = detail::call_on_inputs<F, T...>(std::forward<F>(f), inputs);
    const auto g = detail::gradients_of("nt::grad", detail::result_base(y), nullptr, inputs, outer);
    return std::pair{std::move(y), detail::gradients_as<T...>(g)};
}

/// The gradient of f (returning one floating element) at x, ...: a tensor shaped
/// like x for one argument, a std::tuple for several. No leaf's grad() changes;
/// nt::grad(nt::grad(...)) differentiates again.
///     auto [gw, gb] = nt::grad(loss, w, b);
template <class F, element... T>
[[nodiscard]] auto grad(F&& f, const Tensor<T>&... xs) {
    return value_and_grad(std::forward<F>(f), xs...).second;
}

/// The vector-Jacobian product v^T J of f at x: f(x) must have v's shape and names;
/// the result is shaped as x.
template <class F, element T, element V>
[[nodiscard]] Tensor<T> vjp(F&& f, const Tensor<T>& x, const Tensor<V>& v) {
    const bool outer = detail::records(x.base()) || detail::records(v.base());
    const detail::grad_mode_guard on(true);
    const std::array<detail::tensor_base, 1> inputs{detail::grad_input(x.base())};
    auto y = detail::call_on_inputs<F, T>(std::forward<F>(f), inputs);
    return Tensor<T>(detail::gradients_of("nt::vjp", detail::result_base(y), &v.base(), inputs, outer)[0]);
}

/// The Jacobian-vector product J t of f at x along the tangent t (shaped as x): the
/// result is shaped as f(x). Computed as the gradient of a vector-Jacobian product,
/// which is linear in its vector.
template <class F, element T, element U>
[[nodiscard]] auto jvp(F&& f, const Tensor<T>& x, const Tensor<U>& t) {
    const bool outer = detail::records(x.base()) || detail::records(t.base());
    const detail::grad_mode_guard on(true);
    const std::array<detail::tensor_base, 1> inputs{detail::grad_input(x.base())};
    auto y = detail::call_on_inputs<F, T>(std::forward<F>(f), inputs);
    using R = std::remove_cvref_t<decltype(y)>;
    return R(detail::jvp_of(detail::result_base(y), inputs[0], t.base(), outer));
}

namespace detail {
/// f's result at the arguments `args` (f's arguments in double), for check_grad_by.
using check_grad_call = tensor_base (*)(const void* f, std::span<const tensor_base> args);
/// The one home of check_grad, for C++ and Python callers: the analytic gradients of
/// f at `x` (double tensors) from one recorded call, then two unrecorded calls per
/// element for the central differences. `op` names the caller in errors.
[[nodiscard]] grad_check_report check_grad_by(std::string_view op, std::span<const tensor_base> x,
                                              check_grad_call call, const void* f, const grad_check_options& o);
}  // namespace detail

/// Compares the gradients of f (one floating element) with central finite
/// differences, in double: every argument is converted to double, and f must accept
/// nt::Tensor<double> for each. Returns the largest relative error and where.
///     auto report = nt::check_grad([](const auto& x) { return nt::sum(nt::exp(x)); }, x);
///     REQUIRE(report.ok);
template <class F, element... T>
[[nodiscard]] grad_check_report check_grad(F&& f, const Tensor<T>&... xs) {
    return check_grad(grad_check_options{}, std::forward<F>(f), xs...);
}
template <class F, element... T>
[[nodiscard]] grad_check_report check_grad(const grad_check_options& options, F&& f, const Tensor<T>&... xs) {
    const std::array<detail::tensor_base, sizeof...(T)> x{xs.template astype<double>().base()...};
    auto call = [](const void* fp, std::span<const detail::tensor_base> args) -> detail::tensor_base {
        auto& fn = *static_cast<std::remove_reference_t<F>*>(const_cast<void*>(fp));
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return detail::tensor_base(detail::result_base(fn(Tensor<std::conditional_t<true, double, T>>(args[I])...)));
        }(std::index_sequence_for<T...>{});
    };
    return detail::check_grad_by("nt::check_grad", x, call, static_cast<const void*>(std::addressof(f)), options);
}

}  // namespace nt
