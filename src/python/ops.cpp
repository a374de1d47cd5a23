// src/python/ops.cpp: the operators, element-wise functions, reductions and
// statistics, structure and contraction of the Python module. Names and keyword
// arguments are the C++ ones (nt/elementwise.hpp, reduce.hpp, statistics.hpp,
// structure.hpp, linalg.hpp); operands may be Tensors, NumPy arrays or numbers.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "binding.hpp"
#include "nt/linalg.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/rearrange.hpp"
#include "nt/segmentation.hpp"
#include "nt/sort.hpp"
#include "nt/statistics.hpp"
#include "nt/structure.hpp"

namespace ntpy {

using nt::detail::binary_op;
using nt::detail::reduce_op;
using nt::detail::unary_op;

namespace {

// f(a, b) with either operand a number: a number first is the reflected form, so
// that NumPy's weak-scalar promotion applies to it as in C++.
py::object binary_fn(binary_op op, const char* name, const py::object& a, const py::object& b) {
    if (is_scalar(a) && !is_scalar(b)) return binary(op, name, to_tensor(b), a, true);
    return binary(op, name, to_tensor(a), b, false);
}

// The identifier sizes of an einops pattern from keyword arguments (h=2). The sizes
// view the names, so the lists are filled once and never copied.
struct pattern_sizes {
    std::vector<std::string> names;
    std::vector<nt::axis_size> sizes;
    explicit pattern_sizes(const py::kwargs& kwargs) {
        for (auto item : kwargs) names.push_back(item.first.cast<std::string>());
        std::size_t i = 0;
        for (auto item : kwargs) sizes.push_back({names[i++], item.second.cast<std::int64_t>()});
    }
    pattern_sizes(const pattern_sizes&) = delete;
    pattern_sizes& operator=(const pattern_sizes&) = delete;
};

py::object reduce(reduce_op op, const char* name, const any_tensor& t, const py::object& axes, bool keepdims) {
    if (axes.is_none())
        return py::cast(released([&] { return nt::detail::any_reduce(op, name, t, {}, true, keepdims); }));
    const auto ax = to_axes(axes);
    return py::cast(released([&] { return nt::detail::any_reduce(op, name, t, nt::axes_arg(ax), false, keepdims); }));
}

py::object statistic(nt::detail::any_statistic which, const any_tensor& t, const py::object& axes, bool keepdims,
                     std::int64_t ddof = 0, double q = 0) {
    const bool every = axes.is_none();
    const auto ax = every ? std::vector<nt::Axis>{} : to_axes(axes);
    return py::cast(released(
        [&] { return nt::detail::any_statistics(which, t, nt::axes_arg(ax), every, keepdims, ddof, q); }));
}

nt::name opt_name(const py::object& n) { return n.is_none() ? nt::name() : nt::name(n.cast<std::string>()); }

// widths: {axis: n} or {axis: (before, after)}.
any_tensor pad(const any_tensor& t, const py::dict& widths, const std::string& mode, const py::object& value) {
    std::vector<nt::pad_width> w;
    for (auto [k, v] : widths) {
        nt::pad_amount a;
        if (py::isinstance<py::int_>(v)) {
            a.before = a.after = v.cast<std::int64_t>();
        } else {
            auto p = v.cast<std::pair<std::int64_t, std::int64_t>>();
            a = {p.first, p.second};
        }
        w.push_back({to_axis(k), a});
    }
    // The constant as one element of t's type, converted by NumPy.
    py::array v = py::array(numpy_dtype(t.dtype()), std::vector<py::ssize_t>{}, std::vector<py::ssize_t>{});
    v = py::module_::import("numpy").attr("asarray")(value, numpy_dtype(t.dtype()));
    const void* pv = v.data();
    const auto m = pad_mode_from(mode);
    return released([&] { return any_tensor(nt::detail::pad(t.base(), w, m, pv)); });
}

std::vector<nt::detail::tensor_base> bases(const std::vector<any_tensor>& ts) {
    std::vector<nt::detail::tensor_base> out;
    for (const auto& t : ts) out.push_back(t.base());
    return out;
}

py::list wrap(std::vector<nt::detail::tensor_base>&& parts) {
    py::list out;
    for (auto& p : parts) out.append(any_tensor(std::move(p)));
    return out;
}

}  // namespace

nt::pad_mode pad_mode_from(const std::string& s) {
    static const std::map<std::string, nt::pad_mode> modes{{"constant", nt::pad_mode::constant},
                                                           {"edge", nt::pad_mode::edge},
                                                           {"reflect", nt::pad_mode::reflect},
                                                           {"symmetric", nt::pad_mode::symmetric},
                                                           {"wrap", nt::pad_mode::wrap}};
    auto it = modes.find(s);
    if (it == modes.end())
        nt::throw_error(nt::errc::invalid_argument,
                        "unknown pad mode '" + s + "'; use constant, edge, reflect, symmetric or wrap");
    return it->second;
}


void bind_ops(py::module_& m, tensor_class& tensor) {
    // --- operators ---------------------------------------------------------------
#define NT_PY_OPERATOR(py_name, rpy_name, op, text)                                                                 \
    tensor.def(py_name, [](const any_tensor& a, const py::object& b) { return binary(binary_op::op, text, a, b, false); }); \
    if (rpy_name[0])                                                                                                 \
        tensor.def(rpy_name, [](const any_tensor& a, const py::object& b) { return binary(binary_op::op, text, a, b, true); });
    NT_PY_OPERATOR("__add__", "__radd__", add, "add")
    NT_PY_OPERATOR("__sub__", "__rsub__", sub, "subtract")
    NT_PY_OPERATOR("__mul__", "__rmul__", mul, "multiply")
    NT_PY_OPERATOR("__truediv__", "__rtruediv__", div, "divide")
    NT_PY_OPERATOR("__floordiv__", "__rfloordiv__", floor_div, "floor_divide")
    NT_PY_OPERATOR("__mod__", "__rmod__", mod, "mod")
    NT_PY_OPERATOR("__pow__", "__rpow__", pow, "pow")
    NT_PY_OPERATOR("__and__", "__rand__", bit_and, "bitwise_and")
    NT_PY_OPERATOR("__or__", "__ror__", bit_or, "bitwise_or")
    NT_PY_OPERATOR("__xor__", "__rxor__", bit_xor, "bitwise_xor")
    NT_PY_OPERATOR("__lshift__", "__rlshift__", shl, "left_shift")
    NT_PY_OPERATOR("__rshift__", "__rrshift__", shr, "right_shift")
    NT_PY_OPERATOR("__lt__", "", lt, "less")
    NT_PY_OPERATOR("__le__", "", le, "less_equal")
    NT_PY_OPERATOR("__gt__", "", gt, "greater")
    NT_PY_OPERATOR("__ge__", "", ge, "greater_equal")
    NT_PY_OPERATOR("__eq__", "", eq, "equal")
    NT_PY_OPERATOR("__ne__", "", ne, "not_equal")
#undef NT_PY_OPERATOR
    // In place: computed as the out-of-place operation, stored back in self's type.
#define NT_PY_IN_PLACE(py_name, op, text)                                                    \
    tensor.def(py_name, [](const any_tensor& a, const py::object& b) {                      \
        if (is_scalar(b)) {                                                                  \
            const auto s = to_scalar(b);                                                     \
            released([&] { nt::detail::any_in_place_scalar(binary_op::op, text, a, s); });   \
        } else {                                                                             \
            const any_tensor t = to_tensor(b);                                               \
            released([&] { nt::detail::any_in_place(binary_op::op, text, a, t); });          \
        }                                                                                    \
        return a;                                                                            \
    });
    NT_PY_IN_PLACE("__iadd__", add, "operator+=")
    NT_PY_IN_PLACE("__isub__", sub, "operator-=")
    NT_PY_IN_PLACE("__imul__", mul, "operator*=")
    NT_PY_IN_PLACE("__itruediv__", div, "operator/=")
    NT_PY_IN_PLACE("__imod__", mod, "operator%=")
#undef NT_PY_IN_PLACE
    tensor.def("__neg__", [](const any_tensor& a) { return released([&] { return nt::neg(a); }); });
    tensor.def("__abs__", [](const any_tensor& a) { return released([&] { return nt::abs(a); }); });
    tensor.def("__invert__", [](const any_tensor& a) { return released([&] { return nt::bitwise_not(a); }); });
    tensor.def("__matmul__", [](const any_tensor& a, const py::object& b) {
        const any_tensor t = to_tensor(b);
        return released([&] { return nt::matmul(a, t); });
    });

    // --- element-wise functions (the C++ list, nt/detail/op_lists.hpp) ------------
#define NT_PY_BINARY_FN(fn, op, text)                                                             \
    if (std::string_view(text).substr(0, 8) != "operator")                                        \
        m.def(text, [](const py::object& a, const py::object& b) { return binary_fn(binary_op::op, text, a, b); }, \
              py::arg("a"), py::arg("b"));
    NT_FOR_EACH_BINARY_FUNCTION(NT_PY_BINARY_FN)
#undef NT_PY_BINARY_FN
    m.def("power", [](const py::object& a, const py::object& b) { return binary_fn(binary_op::pow, "pow", a, b); });
#define NT_PY_COMPARISON(fn, op)                                                                  \
    m.def(fn, [](const py::object& a, const py::object& b) { return binary_fn(binary_op::op, fn, a, b); }, \
          py::arg("a"), py::arg("b"));
    NT_PY_COMPARISON("equal", eq)
    NT_PY_COMPARISON("not_equal", ne)
    NT_PY_COMPARISON("less", lt)
    NT_PY_COMPARISON("less_equal", le)
    NT_PY_COMPARISON("greater", gt)
    NT_PY_COMPARISON("greater_equal", ge)
#undef NT_PY_COMPARISON
#define NT_PY_UNARY_FN(fn, op)                                                                     \
    m.def(#fn, [](const py::object& t) {                                                           \
        const any_tensor a = to_tensor(t);                                                         \
        return released([&] { return nt::detail::any_unary(unary_op::op, #fn, a); });             \
    }, py::arg("t"));
    NT_FOR_EACH_UNARY_FUNCTION(NT_PY_UNARY_FN)
#undef NT_PY_UNARY_FN

    m.def("where", [](const py::object& cond, const py::object& a, const py::object& b) -> any_tensor {
        const any_tensor c = to_tensor(cond);
        if (is_scalar(a) && is_scalar(b)) {
            const any_tensor tb = to_tensor(b);
            const auto s = to_scalar(a);
            return released([&] { return nt::detail::any_where_scalar(c, tb, s, true); });
        }
        if (is_scalar(a)) {
            const any_tensor tb = to_tensor(b);
            const auto s = to_scalar(a);
            return released([&] { return nt::detail::any_where_scalar(c, tb, s, true); });
        }
        if (is_scalar(b)) {
            const any_tensor ta = to_tensor(a);
            const auto s = to_scalar(b);
            return released([&] { return nt::detail::any_where_scalar(c, ta, s, false); });
        }
        const any_tensor ta = to_tensor(a), tb = to_tensor(b);
        return released([&] { return nt::detail::any_where(c, ta, tb); });
    }, py::arg("cond"), py::arg("a"), py::arg("b"));
    m.def("clip", [](const py::object& t, const py::object& lo, const py::object& hi) {
        const any_tensor x = to_tensor(t);
        std::optional<any_tensor> lt, ht;
        nt::any_scalar ls{}, hs{};
        if (is_scalar(lo)) ls = to_scalar(lo); else lt = to_tensor(lo);
        if (is_scalar(hi)) hs = to_scalar(hi); else ht = to_tensor(hi);
        return released([&] { return nt::detail::any_clip(x, lt ? &*lt : nullptr, ls, ht ? &*ht : nullptr, hs); });
    }, py::arg("t"), py::arg("lo"), py::arg("hi"));
    m.def("nan_to_num", [](const py::object& t, double nan, std::optional<double> posinf, std::optional<double> neginf) {
        const any_tensor x = to_tensor(t);
        return released([&] { return nt::nan_to_num(x, nan, posinf, neginf); });
    }, py::arg("t"), py::arg("nan") = 0.0, py::arg("posinf") = py::none(), py::arg("neginf") = py::none());
    m.def("masked_select", [](const py::object& t, const py::object& mask) {
        const any_tensor x = to_tensor(t), k = to_tensor(mask);
        return released([&] { return nt::masked_select(x, k); });
    }, py::arg("t"), py::arg("mask"));

    // --- reductions: axes by name or position (one or a sequence), keepdims -------
#define NT_PY_REDUCTION(fn, op)                                                                       \
    m.def(#fn, [](const py::object& t, const py::object& axes, bool keepdims) -> py::object {        \
        if constexpr (reduce_op::op == reduce_op::min || reduce_op::op == reduce_op::max)             \
            if (!axes.is_none() && !is_scalar(axes) && !py::isinstance<py::str>(axes) &&             \
                (py::isinstance<any_tensor>(axes) || py::isinstance<py::array>(axes)))               \
                return binary_fn(reduce_op::op == reduce_op::min ? binary_op::min : binary_op::max,    \
                                 reduce_op::op == reduce_op::min ? "minimum" : "maximum", t, axes);   \
        return reduce(reduce_op::op, #fn, to_tensor(t), axes, keepdims);                              \
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("keepdims") = false);                      \
    tensor.def(#fn, [](const any_tensor& t, const py::object& axes, bool keepdims) {                  \
        return reduce(reduce_op::op, #fn, t, axes, keepdims);                                         \
    }, py::arg("axes") = py::none(), py::arg("keepdims") = false);
    NT_FOR_EACH_REDUCTION(NT_PY_REDUCTION)
    NT_PY_REDUCTION(all, all)
#undef NT_PY_REDUCTION

    using nt::detail::any_statistic;
    m.def("var", [](const py::object& t, const py::object& axes, std::int64_t ddof, bool keepdims) {
        return statistic(any_statistic::var, to_tensor(t), axes, keepdims, ddof);
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("ddof") = 0, py::arg("keepdims") = false);
    m.def("stddev", [](const py::object& t, const py::object& axes, std::int64_t ddof, bool keepdims) {
        return statistic(any_statistic::stddev, to_tensor(t), axes, keepdims, ddof);
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("ddof") = 0, py::arg("keepdims") = false);
#define NT_PY_STATISTIC(fn)                                                                  \
    m.def(#fn, [](const py::object& t, const py::object& axes, bool keepdims) {             \
        return statistic(any_statistic::fn, to_tensor(t), axes, keepdims);                  \
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    NT_PY_STATISTIC(nansum)
    NT_PY_STATISTIC(nanmean)
    NT_PY_STATISTIC(nanmin)
    NT_PY_STATISTIC(nanmax)
    NT_PY_STATISTIC(count_nonzero)
    NT_PY_STATISTIC(median)
#undef NT_PY_STATISTIC
    m.def("quantile", [](const py::object& t, double q, const py::object& axes, bool keepdims) {
        return statistic(any_statistic::quantile, to_tensor(t), axes, keepdims, 0, q);
    }, py::arg("t"), py::arg("q"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    m.def("percentile", [](const py::object& t, double p, const py::object& axes, bool keepdims) {
        if (!(p >= 0 && p <= 100))
            nt::throw_error(nt::errc::invalid_argument,
                            "percentile: p = " + std::to_string(p) + " is outside [0, 100]");
        return statistic(any_statistic::quantile, to_tensor(t), axes, keepdims, 0, p / 100.0);
    }, py::arg("t"), py::arg("p"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    m.def("cumsum", [](const py::object& t, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return nt::detail::any_cumulate(x, a, false); });
    }, py::arg("t"), py::arg("axis"));
    m.def("cumprod", [](const py::object& t, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return nt::detail::any_cumulate(x, a, true); });
    }, py::arg("t"), py::arg("axis"));

    // --- structure: views on the Tensor (as Tensor<T>'s methods) ------------------
    tensor
        .def("align_to", [](const any_tensor& t, py::args names) {
            std::vector<std::string> v;
            for (auto n : names) v.push_back(n.cast<std::string>());
            return t.align_to(v);
        })
        .def("align_as", [](const any_tensor& t, const any_tensor& other) { return t.align_as(other); })
        // rename("A", "B") renames every axis; rename(H="Y") the axes named.
        .def("rename", [](const any_tensor& t, py::args names, py::kwargs mapping) {
            if (mapping.size() == 0) return t.rename(nt::names_arg(to_names(names)));
            any_tensor r = t;
            for (auto [k, v] : mapping) r = r.rename(nt::Axis(k.cast<std::string>()), opt_name(py::reinterpret_borrow<py::object>(v)));
            return r;
        })
        .def("refine_names", [](const any_tensor& t, py::args names) {
            std::vector<std::string> s;
            for (auto n : names) s.push_back(n.is_none() ? std::string("?") : n.cast<std::string>());
            std::vector<std::string_view> v(s.begin(), s.end());
            return t.refine_names(std::span<const std::string_view>(v));
        })
        .def("transpose", [](const any_tensor& t, const py::object& first, const py::object& second) {
            if (first.is_none()) return t.transpose();
            return t.transpose(to_axis(first), to_axis(second));
        }, py::arg("first") = py::none(), py::arg("second") = py::none())
        .def("swap_axes", [](const any_tensor& t, const py::object& a, const py::object& b) {
            return t.swap_axes(to_axis(a), to_axis(b));
        })
        .def("permute", [](const any_tensor& t, py::args order) {
            const auto ax = order.size() == 1 && !py::isinstance<py::str>(order[0]) && !py::isinstance<py::int_>(order[0])
                                ? to_axes(order[0]) : to_axes(order);
            return t.permute(nt::axes_arg(ax));
        })
        .def("move_axis", [](const any_tensor& t, const py::object& from, std::int64_t to) { return t.move_axis(to_axis(from), to); },
             py::arg("from_"), py::arg("to"))
        .def("reshape", [](const any_tensor& t, const py::object& shape, const py::object& names) {
            const auto s = to_ints(shape);
            if (names.is_none()) return t.reshape(nt::shape_arg(s));
            return t.reshape(nt::shape_arg(s), nt::names_arg(to_names(names)));
        }, py::arg("shape"), py::arg("names") = py::none())
        .def("view", [](const any_tensor& t, const py::object& shape) { return t.view(nt::shape_arg(to_ints(shape))); })
        .def("flatten", [](const any_tensor& t, const py::object& first, const py::object& last, const py::object& name) {
            if (first.is_none()) return t.flatten();
            return t.flatten(to_axis(first), to_axis(last), opt_name(name));
        }, py::arg("first") = py::none(), py::arg("last") = py::none(), py::arg("name") = py::none())
        .def("unflatten", [](const any_tensor& t, const py::object& axis, const py::object& sizes, const py::object& names) {
            return t.unflatten(to_axis(axis), nt::shape_arg(to_ints(sizes)), nt::names_arg(to_names(names)));
        }, py::arg("axis"), py::arg("sizes"), py::arg("names") = py::none())
        .def("squeeze", [](const any_tensor& t, const py::object& axis) {
            return axis.is_none() ? t.squeeze_all() : t.squeeze(to_axis(axis));
        }, py::arg("axis") = py::none())
        .def("unsqueeze", [](const any_tensor& t, std::int64_t pos, const py::object& name) { return t.unsqueeze(pos, opt_name(name)); },
             py::arg("pos"), py::arg("name") = py::none())
        .def("slice", [](const any_tensor& t, const py::object& axis, std::optional<std::int64_t> start,
                         std::optional<std::int64_t> stop, std::int64_t step) {
            return t.slice(to_axis(axis), nt::range(start, stop, step));
        }, py::arg("axis"), py::arg("start") = py::none(), py::arg("stop") = py::none(), py::arg("step") = 1)
        .def("unfold", [](const any_tensor& t, const py::object& axis, std::int64_t size, std::int64_t step, const py::object& name) {
            return t.unfold(to_axis(axis), size, step, opt_name(name));
        }, py::arg("axis"), py::arg("size"), py::arg("step") = 1, py::arg("name") = py::none())
        .def("flip", [](const any_tensor& t, const py::object& axes) {
            return axes.is_none() ? t.flip() : t.flip(nt::axes_arg(to_axes(axes)));
        }, py::arg("axes") = py::none())
        .def("broadcast_to", [](const any_tensor& t, const py::object& shape) { return t.broadcast_to(nt::shape_arg(to_ints(shape))); })
        .def("expand_dims", [](const any_tensor& t, const py::object& pos) { return t.expand_dims(nt::shape_arg(to_ints(pos))); })
        .def_property_readonly("T", [](const any_tensor& t) { return t.transpose(); });

    // --- structure: new tensors ---------------------------------------------------
    m.def("concatenate", [](const py::object& ts, const py::object& axis) {
        const auto b = bases(to_tensors(ts));
        const auto a = to_axis(axis);
        return released([&] { return any_tensor(nt::detail::concatenate(b, a)); });
    }, py::arg("tensors"), py::arg("axis") = 0);
    m.def("stack", [](const py::object& ts, std::int64_t pos, const py::object& name) {
        const auto b = bases(to_tensors(ts));
        const auto n = opt_name(name);
        return released([&] { return any_tensor(nt::detail::stack(b, pos, n)); });
    }, py::arg("tensors"), py::arg("pos") = 0, py::arg("name") = py::none());
    m.def("split", [](const py::object& t, const py::object& axis, const py::object& sections) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        if (py::isinstance<py::int_>(sections)) return wrap(nt::detail::split_equal(x.base(), a, sections.cast<std::int64_t>()));
        const auto at = to_ints(sections);
        return wrap(nt::detail::split_at(x.base(), a, at));
    }, py::arg("t"), py::arg("axis"), py::arg("sections"));
    m.def("array_split", [](const py::object& t, const py::object& axis, std::int64_t sections) {
        return wrap(nt::detail::array_split(to_tensor(t).base(), to_axis(axis), sections));
    }, py::arg("t"), py::arg("axis"), py::arg("sections"));
    m.def("chunk", [](const py::object& t, std::int64_t chunks, const py::object& axis) {
        return wrap(nt::detail::chunk(to_tensor(t).base(), chunks, to_axis(axis)));
    }, py::arg("t"), py::arg("chunks"), py::arg("axis") = 0);
    m.def("pad", [](const py::object& t, const py::dict& widths, const std::string& mode, const py::object& value) {
        return pad(to_tensor(t), widths, mode, value);
    }, py::arg("t"), py::arg("widths"), py::arg("mode") = "constant", py::arg("value") = 0);
    m.def("roll", [](const py::object& t, std::int64_t shift, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        if (axis.is_none()) return released([&] { return any_tensor(nt::detail::roll_flat(x.base(), shift)); });
        const auto a = to_axis(axis);
        return released([&] { return any_tensor(nt::detail::roll(x.base(), shift, a)); });
    }, py::arg("t"), py::arg("shift"), py::arg("axis") = py::none());
    m.def("repeat", [](const py::object& t, std::int64_t n, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return any_tensor(nt::detail::repeat(x.base(), n, a)); });
    }, py::arg("t"), py::arg("n"), py::arg("axis"));
    m.def("tile", [](const py::object& t, const py::object& reps) {
        const any_tensor x = to_tensor(t);
        const auto r = to_ints(reps);
        return released([&] { return any_tensor(nt::detail::tile(x.base(), r)); });
    }, py::arg("t"), py::arg("reps"));
    m.def("flip", [](const py::object& t, const py::object& axes) {
        const any_tensor x = to_tensor(t);
        return axes.is_none() ? x.flip() : x.flip(nt::axes_arg(to_axes(axes)));
    }, py::arg("t"), py::arg("axes") = py::none());

    // --- contraction --------------------------------------------------------------
    m.def("matmul", [](const py::object& a, const py::object& b) {
        const any_tensor x = to_tensor(a), y = to_tensor(b);
        return released([&] { return nt::matmul(x, y); });
    }, py::arg("a"), py::arg("b"));
    m.def("dot", [](const py::object& a, const py::object& b, const py::object& axes) {
        const any_tensor x = to_tensor(a), y = to_tensor(b);
        const auto ax = to_axes(axes);
        return released([&] { return nt::dot(x, y, nt::axes_arg(ax)); });
    }, py::arg("a"), py::arg("b"), py::arg("axes"));
    m.def("tensordot", [](const py::object& a, const py::object& b, const py::object& axes) {
        const any_tensor x = to_tensor(a), y = to_tensor(b);
        if (py::isinstance<py::int_>(axes)) {
            const auto n = axes.cast<std::int64_t>();
            return released([&] { return nt::tensordot(x, y, n); });
        }
        auto pair = axes.cast<py::tuple>();
        const auto ax = to_axes(pair[0]), bx = to_axes(pair[1]);
        return released([&] { return nt::tensordot(x, y, nt::axes_arg(ax), nt::axes_arg(bx)); });
    }, py::arg("a"), py::arg("b"), py::arg("axes") = 2);
    m.def("einsum", [](const std::string& subscripts, py::args operands) {
        const auto ts = to_tensors(operands);
        std::vector<const nt::detail::tensor_base*> ptrs;
        for (const auto& t : ts) ptrs.push_back(&t.base());
        return released([&] { return any_tensor(nt::detail::einsum(subscripts, ptrs)); });
    }, py::arg("subscripts"));

    // --- sorting and segmentation helpers (nt/sort.hpp, nt/segmentation.hpp) -------
    m.def("sort", [](const py::object& t, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return nt::sort(x, a); });
    }, py::arg("t"), py::arg("axis") = -1);
    m.def("argsort", [](const py::object& t, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        return released([&] { return any_tensor(nt::argsort(x, a)); });
    }, py::arg("t"), py::arg("axis") = -1);
    // (values, indices), as torch.topk.
    m.def("topk", [](const py::object& t, std::int64_t k, const py::object& axis) {
        const any_tensor x = to_tensor(t);
        const auto a = to_axis(axis);
        auto r = released([&] { return nt::topk(x, k, a); });
        return py::make_tuple(r.values, any_tensor(r.indices));
    }, py::arg("t"), py::arg("k"), py::arg("axis") = -1);
    m.def("unique", [](const py::object& t) {
        const any_tensor x = to_tensor(t);
        return released([&] { return nt::unique(x); });
    }, py::arg("t"));
    m.def("unique_counts", [](const py::object& t) {
        const any_tensor x = to_tensor(t);
        auto r = released([&] { return nt::unique_counts(x); });
        return py::make_tuple(r.values, any_tensor(r.counts));
    }, py::arg("t"));
    m.def("one_hot", [](const py::object& labels, std::int64_t classes, std::int64_t pos, const py::object& name,
                        const py::object& dtype) {
        const any_tensor x = to_tensor(labels);
        const auto n = opt_name(name);
        const auto d = dtype_from_numpy(py::dtype::from_args(dtype));
        return released([&] { return nt::one_hot(x, classes, pos, n, d); });
    }, py::arg("labels"), py::arg("classes"), py::arg("pos"), py::arg("name") = py::none(), py::arg("dtype") = "int64");
    m.def("bincount", [](const py::object& t, const py::object& weights, std::int64_t minlength) {
        const any_tensor x = to_tensor(t);
        if (weights.is_none()) return released([&] { return any_tensor(nt::bincount(x, minlength)); });
        const any_tensor w = to_tensor(weights);
        return released([&] { return any_tensor(nt::bincount(x, w, minlength)); });
    }, py::arg("t"), py::arg("weights") = py::none(), py::arg("minlength") = 0);
    // (counts, edges), as np.histogram(x, bins, range=(lo, hi)).
    m.def("histogram", [](const py::object& t, std::int64_t bins, double lo, double hi) {
        const any_tensor x = to_tensor(t);
        auto r = released([&] { return nt::histogram(x, bins, lo, hi); });
        return py::make_tuple(any_tensor(r.counts), any_tensor(r.edges));
    }, py::arg("t"), py::arg("bins"), py::arg("lo"), py::arg("hi"));

    // --- einops patterns (nt/rearrange.hpp): rearrange(t, "N C (H h) W -> N C H W h", h=2),
    // reduce(t, "N C (H 2) (W 2) -> N C H W", "max"), repeat(t, "H W -> H W C", C=3).
    m.def("rearrange", [](const py::object& t, const std::string& pattern, const py::kwargs& sizes) {
        const any_tensor x = to_tensor(t);
        const pattern_sizes sz(sizes);
        return released([&] {
            const auto& plan = nt::detail::plan_pattern(nt::detail::pattern_kind::rearrange, pattern, x.shape(),
                                                        x.names(), sz.sizes, "rearrange");
            return any_tensor(nt::detail::apply_arrangement(nt::detail::split_elementary(x.base(), plan), plan));
        });
    }, py::arg("t"), py::arg("pattern"));
    m.def("reduce", [](const py::object& t, const std::string& pattern, const std::string& op, const py::kwargs& sizes) {
        static const std::map<std::string, reduce_op> ops{
            {"sum", reduce_op::sum}, {"mean", reduce_op::mean}, {"max", reduce_op::max}, {"min", reduce_op::min}};
        const auto found = ops.find(op);
        if (found == ops.end())
            nt::throw_error(nt::errc::invalid_argument, "reduce: op '" + op + "' is not sum, mean, max or min");
        const any_tensor x = to_tensor(t);
        const pattern_sizes sz(sizes);
        return released([&] {
            const auto& plan = nt::detail::plan_pattern(nt::detail::pattern_kind::reduce, pattern, x.shape(), x.names(),
                                                        sz.sizes, "reduce");
            const any_tensor split(nt::detail::split_elementary(x.base(), plan));
            std::vector<nt::Axis> axes;
            for (std::int64_t k : plan.reduced) axes.emplace_back(k);
            any_tensor r = nt::detail::any_reduce(found->second, "reduce", split, nt::axes_arg(axes), false, false);
            // As C++'s nt::reduce: the result type is nt::mean's whatever the op.
            const nt::dtype mean_type = nt::detail::visit_dtype(split.dtype(), [](auto type) {
                using T = typename decltype(type)::type;
                return nt::dtype_of<nt::detail::reduce_result_t<reduce_op::mean, T>>;
            });
            return any_tensor(nt::detail::apply_arrangement(r.astype(mean_type).base(), plan));
        });
    }, py::arg("t"), py::arg("pattern"), py::arg("op") = "mean");
    m.def("repeat", [](const py::object& t, const std::string& pattern, const py::kwargs& sizes) {
        const any_tensor x = to_tensor(t);
        const pattern_sizes sz(sizes);
        return released([&] {
            const auto& plan = nt::detail::plan_pattern(nt::detail::pattern_kind::repeat, pattern, x.shape(), x.names(),
                                                        sz.sizes, "repeat");
            return any_tensor(nt::detail::apply_arrangement(nt::detail::split_elementary(x.base(), plan), plan)).clone();
        });
    }, py::arg("t"), py::arg("pattern"));
}

}  // namespace ntpy
