// The function transforms of nt/autograd.hpp: the tensors f sees, the reverse passes
// that return gradients instead of accumulating them, and the finite differences of
// check_grad.
#include <cmath>
#include <sstream>

#include "core_errors.hpp"
#include "graph.hpp"
#include "nt/autograd.hpp"

namespace nt::detail {

namespace {

bool is_floating(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

any_tensor zeros_like_base(const tensor_base& t) { return zeros_of(t.type(), t.shape(), t.names()); }

any_tensor seed_for(std::string_view op, const tensor_base& y, const tensor_base* seed) {
    if (seed != nullptr) {
        if (!std::ranges::equal(seed->shape(), y.shape()) || !std::ranges::equal(seed->names(), y.names()))
            fail(errc::invalid_argument, op,
                 "the vector " + seed->describe() + " must have the shape and names of f's result " + y.describe());
        return any_tensor(*seed);
    }
    if (y.size() != 1)
        fail(errc::invalid_argument, op,
             "f returned " + y.describe() + ", " + std::to_string(y.size()) +
                 " elements; the gradient needs one (reduce it, e.g. return nt::sum(...)), or use nt::vjp(f, x, v) "
                 "for the product with a vector v");
    return scalar_of(y.type(), 1.0).reshape(y.shape(), y.names());
}

}  // namespace

tensor_base grad_input(const tensor_base& x) {
    if (!is_floating(x.type()))
        fail(errc::invalid_argument, "nt::grad",
             "the argument " + x.describe() + " holds " + std::string(numpy_name(x.type())) +
                 " elements; gradients are taken with respect to nt::half, float or double tensors (convert with "
                 "astype<double>())");
    tensor_base t = x;
    if (records(x)) {
        // Inside an outer transform: the argument stays connected to the outer graph.
        record_identity("nt::grad argument", x, t);
        return t;
    }
    // A fresh leaf that only collects (run_backward stops at its targets).
    t = mark_with_grad(x.without_grad_node());
    return t;
}

std::vector<tensor_base> gradients_of(std::string_view op, const tensor_base& y, const tensor_base* seed,
                                      std::span<const tensor_base> inputs, bool create_graph) {
    std::vector<tensor_base> out;
    out.reserve(inputs.size());
    if (!is_floating(y.type()))
        fail(errc::invalid_argument, op, "f returned " + y.describe() + " of " + std::string(numpy_name(y.type())) +
                                             " elements; gradients need a floating result");
    const any_tensor s = seed_for(op, y, seed);
    std::vector<std::optional<any_tensor>> captured(inputs.size());
    if (y.grad_node()) {
        std::vector<node_ptr> targets;
        for (const tensor_base& x : inputs) targets.push_back(x.grad_node());
        const backward_root root{y.grad_node(), s};
        captured = run_backward({&root, 1}, targets, false, create_graph, create_graph);
    }
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        any_tensor g = captured[k] ? *captured[k] : zeros_like_base(inputs[k]);
        if (g.dtype() != inputs[k].type()) g = g.astype(inputs[k].type());
        out.push_back(create_graph ? g.base() : g.base().without_grad_node());
    }
    return out;
}

tensor_base jvp_of(const tensor_base& y, const tensor_base& input, const tensor_base& tangent, bool create_graph) {
    if (!std::ranges::equal(tangent.shape(), input.shape()))
        fail(errc::invalid_argument, "nt::jvp",
             "the tangent " + tangent.describe() + " must have the shape of x " + input.describe());
    if (!y.grad_node()) return zeros_like_base(y).base();
    // J t is the gradient, with respect to u, of u^T J t = (J^T u)^T t: a vjp whose
    // vector u is itself differentiated (the vjp is linear in u).
    const tensor_base u = grad_input(zeros_like_base(y).base());
    const node_ptr u_node = u.grad_node();
    const backward_root first{y.grad_node(), any_tensor(u)};
    const node_ptr x_node = input.grad_node();
    auto vjp = run_backward({&first, 1}, {&x_node, 1}, false, true, true);
    if (!vjp[0] || !vjp[0]->base().grad_node()) return zeros_like_base(y).base();
    any_tensor t(tangent.without_grad_node());
    if (create_graph) t = any_tensor(tangent);
    if (t.dtype() != input.type()) t = t.astype(input.type());
    t = t.rename(input.names());
    const backward_root second{vjp[0]->base().grad_node(), t};
    auto jt = run_backward({&second, 1}, {&u_node, 1}, false, create_graph, create_graph);
    if (!jt[0]) return zeros_like_base(y).base();
    return create_graph ? jt[0]->base() : jt[0]->base().without_grad_node();
}

namespace {

tensor_base nudged(const tensor_base& x, std::int64_t i, double delta) {
    tensor_base c = x.clone();
    static_cast<double*>(static_cast<void*>(c.data()))[i] += delta;
    return c;
}

double element_as_double(const tensor_base& t, std::int64_t i) {
    double v = 0;
    const tensor_base c = t.is_contiguous() ? t : t.clone();
    visit_dtype(c.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        v = static_cast<double>(reinterpret_cast<const T*>(c.data())[i]);
    });
    return v;
}

double value_of(const tensor_base& y, std::string_view op) {
    if (y.size() != 1)
        fail(errc::invalid_argument, op,
             "f returned " + y.describe() + "; check_grad needs one element (reduce it, e.g. nt::sum)");
    return element_as_double(y, 0);
}

void compare_gradient(grad_check_report& report, std::size_t argument, const tensor_base& x,
                      const tensor_base& analytic, std::int64_t i, double numeric, const grad_check_options& o) {
    const double a = element_as_double(analytic, i);
    const double error = std::abs(a - numeric) / std::max(1.0, std::abs(numeric));
    if (std::isnan(error) || error > report.max_rel_error || report.where.empty()) {
        report.max_rel_error = std::isnan(error) ? INFINITY : std::max(report.max_rel_error, error);
        std::ostringstream where;
        where << "argument " << argument << ", element " << i << " of " << x.describe() << ": analytic " << a
              << ", numeric " << numeric;
        report.where = where.str();
    }
    report.ok = report.max_rel_error <= o.tolerance;
}

}  // namespace

grad_check_report check_grad_by(std::string_view op, std::span<const tensor_base> x, check_grad_call call,
                                const void* f, const grad_check_options& o) {
    std::vector<tensor_base> analytic;
    {
        const grad_mode_guard on(true);
        std::vector<tensor_base> inputs;
        for (const tensor_base& t : x) inputs.push_back(grad_input(t.without_grad_node()));
        const tensor_base y = call(f, inputs);
        analytic = gradients_of(op, y, nullptr, inputs, false);
    }
    grad_check_report report;
    const no_grad quiet;
    std::vector<tensor_base> args(x.begin(), x.end());
    for (std::size_t k = 0; k < x.size(); ++k)
        for (std::int64_t i = 0; i < x[k].size(); ++i) {
            args[k] = nudged(x[k], i, o.eps);
            const double up = value_of(call(f, args), op);
            args[k] = nudged(x[k], i, -o.eps);
            const double down = value_of(call(f, args), op);
            args[k] = x[k];
            compare_gradient(report, k, x[k], analytic[k], i, (up - down) / (2 * o.eps), o);
        }
    return report;
}

}  // namespace nt::detail
