// src/python/autograd.cpp: gradients (autograd.md) from Python: t.with_grad(),
// y.backward(), t.grad, nt.no_grad() as a context manager, the function transforms
// (grad, value_and_grad, vjp, jvp), the learning layers and
// losses (nt/learning.hpp), the optimisers sgd/adam/adamw (nt/optim.hpp).
#include <memory>

#include "binding.hpp"
#include "nt/autograd.hpp"
#include "nt/learning.hpp"
#include "nt/optim.hpp"

namespace ntpy {

namespace {

// The type a layer computes in (nt::detail::learning_t at run time): floating types
// stay, bool and 8-bit integers go to f16, 16-bit to f32, wider to f64 (nt::exp's).
nt::dtype learning_type(nt::dtype d) {
    using nt::dtype;
    switch (d) {
        case dtype::f16: case dtype::f32: case dtype::f64: return d;
        case dtype::b8: case dtype::i8: case dtype::u8: return dtype::f16;
        case dtype::i16: case dtype::u16: return dtype::f32;
        default: return dtype::f64;
    }
}

nt::detail::tensor_base as_type(const any_tensor& t, nt::dtype d) {
    return t.dtype() == d ? t.base() : t.astype(d).base();
}

nt::detail::tensor_base as_learning(const any_tensor& t) { return as_type(t, learning_type(t.dtype())); }

// The torch-style context manager over nt::no_grad (a guard of the calling thread).
struct no_grad_context {
    std::unique_ptr<nt::no_grad> guard;
};

// The function transforms (nt::grad, value_and_grad, vjp, jvp) with a Python f: the
// arguments become leaves that only collect (or stay in an outer transform's graph,
// so that nt.grad(nt.grad(...)) composes), f runs with recording on.
struct transform_inputs {
    bool outer = false;
    std::vector<nt::detail::tensor_base> leaves;
    py::tuple args;
    explicit transform_inputs(const std::vector<any_tensor>& xs) : args(xs.size()) {
        for (const any_tensor& x : xs) outer = outer || nt::detail::records(x.base());
        for (std::size_t i = 0; i < xs.size(); ++i) {
            leaves.push_back(nt::detail::grad_input(xs[i].base()));
            args[i] = py::cast(any_tensor(leaves.back()));
        }
    }
};

std::vector<any_tensor> tensors_of(const py::args& xs) {
    std::vector<any_tensor> r;
    for (const auto& x : xs) r.push_back(to_tensor(x));
    return r;
}

py::object value_and_grads(const py::function& f, const py::args& xs, bool with_value) {
    if (xs.empty()) nt::throw_error(nt::errc::invalid_argument, "nt.grad: give f and at least one tensor: nt.grad(f, x)");
    const nt::detail::grad_mode_guard on(true);
    const transform_inputs in(tensors_of(xs));
    const any_tensor y = to_tensor(f(*in.args));
    const auto g = released([&] { return nt::detail::gradients_of("nt.grad", y.base(), nullptr, in.leaves, in.outer); });
    py::object grads;
    if (g.size() == 1) {
        grads = py::cast(any_tensor(g[0]));
    } else {
        py::tuple t(g.size());
        for (std::size_t i = 0; i < g.size(); ++i) t[i] = py::cast(any_tensor(g[i]));
        grads = std::move(t);
    }
    return with_value ? py::object(py::make_tuple(y, grads)) : grads;
}

// nt::check_grad with a Python f (detail::check_grad_by, as the C++ one).
nt::grad_check_report check_grad(const py::function& f, const py::args& xs, const nt::grad_check_options& o) {
    namespace d = nt::detail;
    if (xs.empty())
        nt::throw_error(nt::errc::invalid_argument, "nt.check_grad: give f and at least one tensor: nt.check_grad(f, x)");
    std::vector<d::tensor_base> x;
    for (const any_tensor& t : tensors_of(xs)) x.push_back(t.astype(nt::dtype::f64).base());
    auto call = [](const void* fp, std::span<const d::tensor_base> args) -> d::tensor_base {
        py::tuple t(args.size());
        for (std::size_t i = 0; i < args.size(); ++i) t[i] = py::cast(any_tensor(args[i]));
        return to_tensor((*static_cast<const py::function*>(fp))(*t)).base();
    };
    return d::check_grad_by("nt.check_grad", x, call, &f, o);
}

template <class Opt>
py::class_<Opt> bind_optimizer(py::module_& m, const char* name) {
    return py::class_<Opt>(m, name)
        .def("step", [](Opt& o) { released([&] { o.step(); }); })
        .def("zero_grad", [](const Opt& o) { o.zero_grad(); })
        .def("set_lr", &Opt::set_lr, py::arg("lr"))
        .def_property_readonly("params", [](const Opt& o) { return o.params(); });
}

}  // namespace

void bind_autograd(py::module_& m, tensor_class& tensor) {
    tensor
        .def("with_grad", [](any_tensor& t) { return t.with_grad(); })
        .def_property_readonly("requires_grad", [](const any_tensor& t) { return t.requires_grad(); })
        .def("backward", [](const any_tensor& t, const py::object& seed, bool retain_graph) {
            nt::backward_options o;
            o.retain_graph = retain_graph;
            if (seed.is_none()) return released([&] { t.backward(o); });
            const any_tensor s = to_tensor(seed);
            released([&] { t.backward(s, o); });
        }, py::arg("seed") = py::none(), py::arg("retain_graph") = false)
        // None before a backward pass has reached it, as torch's .grad.
        .def_property_readonly("grad", [](const any_tensor& t) -> py::object {
            if (!t.has_grad()) return py::none();
            return py::cast(t.grad());
        })
        .def("has_grad", [](const any_tensor& t) { return t.has_grad(); })
        .def("zero_grad", [](const any_tensor& t) { t.zero_grad(); })
        .def("detach", [](const any_tensor& t) { return t.detach(); });

    m.def("grad", [](const py::function& f, const py::args& xs) { return value_and_grads(f, xs, false); },
          py::arg("f"));
    m.def("value_and_grad", [](const py::function& f, const py::args& xs) { return value_and_grads(f, xs, true); },
          py::arg("f"));
    py::class_<nt::grad_check_report>(m, "GradCheckReport")
        .def_readonly("ok", &nt::grad_check_report::ok)
        .def_readonly("max_rel_error", &nt::grad_check_report::max_rel_error)
        .def_readonly("where", &nt::grad_check_report::where)
        .def("__bool__", [](const nt::grad_check_report& r) { return r.ok; })
        .def("__repr__", [](const nt::grad_check_report& r) {
            return "GradCheckReport(ok=" + std::string(r.ok ? "True" : "False") +
                   ", max_rel_error=" + std::to_string(r.max_rel_error) + ", where='" + r.where + "')";
        });
    m.def("check_grad", [](const py::function& f, const py::args& xs, double eps, double tolerance) {
        return check_grad(f, xs, nt::grad_check_options{eps, tolerance});
    }, py::arg("f"), py::kw_only(), py::arg("eps") = 1e-6, py::arg("tolerance") = 1e-6);
    m.def("vjp", [](const py::function& f, const py::object& x, const py::object& v) {
        const any_tensor tv = to_tensor(v);
        const nt::detail::grad_mode_guard on(true);
        transform_inputs in({to_tensor(x)});
        in.outer = in.outer || nt::detail::records(tv.base());
        const any_tensor y = to_tensor(f(*in.args));
        return any_tensor(released([&] { return nt::detail::gradients_of("nt.vjp", y.base(), &tv.base(), in.leaves, in.outer)[0]; }));
    }, py::arg("f"), py::arg("x"), py::arg("v"));
    m.def("jvp", [](const py::function& f, const py::object& x, const py::object& t) {
        const any_tensor tt = to_tensor(t);
        const nt::detail::grad_mode_guard on(true);
        transform_inputs in({to_tensor(x)});
        in.outer = in.outer || nt::detail::records(tt.base());
        const any_tensor y = to_tensor(f(*in.args));
        return any_tensor(released([&] { return nt::detail::jvp_of(y.base(), in.leaves[0], tt.base(), in.outer); }));
    }, py::arg("f"), py::arg("x"), py::arg("t"));
    py::class_<no_grad_context>(m, "no_grad")
        .def(py::init<>())
        .def("__enter__", [](no_grad_context& c) { c.guard = std::make_unique<nt::no_grad>(); return &c; },
             py::return_value_policy::reference)
        .def("__exit__", [](no_grad_context& c, const py::args&) { c.guard.reset(); return false; });

    using nt::detail::activation;
    m.def("relu", [](const py::object& t) {
        const any_tensor x = to_tensor(t);
        return released([&] { return any_tensor(nt::detail::activate(as_learning(x), activation::relu, 0)); });
    }, py::arg("t"));
    m.def("leaky_relu", [](const py::object& t, double slope) {
        const any_tensor x = to_tensor(t);
        return released([&] { return any_tensor(nt::detail::activate(as_learning(x), activation::leaky_relu, slope)); });
    }, py::arg("t"), py::arg("slope") = 0.01);
    m.def("gelu", [](const py::object& t) {
        const any_tensor x = to_tensor(t);
        return released([&] { return any_tensor(nt::detail::activate(as_learning(x), activation::gelu, 0)); });
    }, py::arg("t"));
    m.def("softmax", [](const py::object& t, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return any_tensor(nt::detail::softmax(as_learning(x), a, false)); });
    }, py::arg("t"), py::arg("axis"));
    m.def("log_softmax", [](const py::object& t, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return any_tensor(nt::detail::softmax(as_learning(x), a, true)); });
    }, py::arg("t"), py::arg("axis"));
    m.def("logsumexp", [](const py::object& t, const py::object& axes, bool keepdims) {
        const any_tensor x = to_tensor(t);
        const bool every = axes.is_none();
        const auto ax = every ? std::vector<nt::Axis>{} : to_axes(axes);
        return released([&] {
            return any_tensor(nt::detail::logsumexp(as_learning(x), nt::axes_arg(ax), every, keepdims));
        });
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    auto pointwise = [](const py::object& a, const py::object& b, bool squared) {
        const any_tensor x = to_tensor(a), y = to_tensor(b);
        const auto f = learning_type(nt::promote_types(x.dtype(), y.dtype()));
        return released([&] { return any_tensor(nt::detail::pointwise_loss(as_type(x, f), as_type(y, f), squared)); });
    };
    m.def("mse_loss", [pointwise](const py::object& a, const py::object& b) { return pointwise(a, b, true); },
          py::arg("a"), py::arg("b"));
    m.def("l1_loss", [pointwise](const py::object& a, const py::object& b) { return pointwise(a, b, false); },
          py::arg("a"), py::arg("b"));
    m.def("cross_entropy", [](const py::object& logits, const py::object& labels, const py::object& class_axis,
                              const py::object& weights, std::optional<std::int64_t> ignore_index) {
        const any_tensor x = to_tensor(logits), y = to_tensor(labels);
        const auto a = to_axis(class_axis);
        std::optional<any_tensor> w;
        if (!weights.is_none()) w = to_tensor(weights);
        return released([&] {
            return any_tensor(nt::detail::cross_entropy(as_learning(x), y.base(), a, w ? &w->base() : nullptr, ignore_index));
        });
    }, py::arg("logits"), py::arg("labels"), py::arg("class_axis"), py::arg("weights") = py::none(),
       py::arg("ignore_index") = py::none());
    m.def("dice_loss", [](const py::object& probs, const py::object& target, const py::object& class_axis, double eps) {
        const any_tensor p = to_tensor(probs), t = to_tensor(target);
        const auto a = to_axis(class_axis);
        return released([&] { return any_tensor(nt::detail::dice_loss(as_learning(p), t.base(), a, eps)); });
    }, py::arg("probs"), py::arg("target"), py::arg("class_axis"), py::arg("eps") = 1.0);

    // Optimisers: nt.optim.sgd/adam/adamw, keyword arguments as the C++ options' fields.
    py::module_ optim = m.def_submodule("optim", "optimisers over tensors marked with_grad, as nt::optim");
    bind_optimizer<nt::optim::sgd>(optim, "sgd")
        .def(py::init([](const std::vector<any_tensor>& params, double lr, double momentum, double dampening,
                         double weight_decay, bool nesterov) {
                 return std::make_unique<nt::optim::sgd>(
                     params, nt::optim::sgd_options{lr, momentum, dampening, weight_decay, nesterov});
             }),
             py::arg("params"), py::arg("lr"), py::arg("momentum") = 0.0, py::arg("dampening") = 0.0,
             py::arg("weight_decay") = 0.0, py::arg("nesterov") = false);
    bind_optimizer<nt::optim::adam>(optim, "adam")
        .def(py::init([](const std::vector<any_tensor>& params, double lr, std::pair<double, double> betas, double eps,
                         double weight_decay, bool amsgrad) {
                 return std::make_unique<nt::optim::adam>(
                     params, nt::optim::adam_options{lr, betas, eps, weight_decay, amsgrad});
             }),
             py::arg("params"), py::arg("lr") = 1e-3, py::arg("betas") = std::pair<double, double>{0.9, 0.999},
             py::arg("eps") = 1e-8, py::arg("weight_decay") = 0.0, py::arg("amsgrad") = false);
    bind_optimizer<nt::optim::adamw>(optim, "adamw")
        .def(py::init([](const std::vector<any_tensor>& params, double lr, std::pair<double, double> betas, double eps,
                         double weight_decay, bool amsgrad) {
                 return std::make_unique<nt::optim::adamw>(
                     params, nt::optim::adamw_options{lr, betas, eps, weight_decay, amsgrad});
             }),
             py::arg("params"), py::arg("lr") = 1e-3, py::arg("betas") = std::pair<double, double>{0.9, 0.999},
             py::arg("eps") = 1e-8, py::arg("weight_decay") = 1e-2, py::arg("amsgrad") = false);
}

}  // namespace ntpy
