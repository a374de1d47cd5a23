// src/python/ops.cpp: the operators, element-wise functions, reductions, structure
// and contraction of the Python module.
#include "binding.hpp"

namespace ntpy {

using nt::detail::binary_op;

namespace {

py::object reduce(nt::detail::reduce_op op, const char* name, const any_tensor& t, const py::object& axes,
                  bool keepdims) {
    if (axes.is_none())
        return py::cast(released([&] { return nt::detail::any_reduce(op, name, t, {}, true, keepdims); }));
    const auto ax = to_axes(axes);
    return py::cast(
        released([&] { return nt::detail::any_reduce(op, name, t, nt::axes_arg(ax), false, keepdims); }));
}

}  // namespace

void bind_ops(py::module_& m, tensor_class& tensor) {
#define NT_PY_BINARY(py_name, rpy_name, op, text)                                                     \
    tensor.def(py_name, [](const any_tensor& a, const py::object& b) {                               \
        return binary(binary_op::op, text, a, b, false);                                             \
    });                                                                                               \
    if (rpy_name[0])                                                                                  \
        tensor.def(rpy_name, [](const any_tensor& a, const py::object& b) {                          \
            return binary(binary_op::op, text, a, b, true);                                          \
        });
    NT_PY_BINARY("__add__", "__radd__", add, "add")
    NT_PY_BINARY("__sub__", "__rsub__", sub, "subtract")
    NT_PY_BINARY("__mul__", "__rmul__", mul, "multiply")
    NT_PY_BINARY("__truediv__", "__rtruediv__", div, "divide")
    NT_PY_BINARY("__lt__", "", lt, "less")
    NT_PY_BINARY("__le__", "", le, "less_equal")
    NT_PY_BINARY("__gt__", "", gt, "greater")
    NT_PY_BINARY("__ge__", "", ge, "greater_equal")
    NT_PY_BINARY("__eq__", "", eq, "equal")
    NT_PY_BINARY("__ne__", "", ne, "not_equal")
#undef NT_PY_BINARY
    tensor.def("__neg__", [](const any_tensor& a) { return nt::neg(a); });

    tensor
        .def("align_to",
             [](const any_tensor& t, py::args names) {
                 std::vector<std::string> v;
                 for (auto n : names) v.push_back(n.cast<std::string>());
                 return t.align_to(v);
             })
        .def("rename", [](const any_tensor& t, py::args names) { return t.rename(nt::names_arg(to_names(names))); })
        .def("transpose", [](const any_tensor& t) { return t.transpose(); })
        .def("permute", [](const any_tensor& t, py::args order) { return t.permute(nt::axes_arg(to_axes(order))); })
        .def("reshape", [](const any_tensor& t, std::vector<std::int64_t> s) { return t.reshape(nt::shape_arg(s)); })
        .def("flatten", [](const any_tensor& t) { return t.flatten(); });

    m.def("add", [](const py::object& a, const py::object& b) { return binary(binary_op::add, "add", to_tensor(a), b, false); });
    m.def("multiply", [](const py::object& a, const py::object& b) { return binary(binary_op::mul, "multiply", to_tensor(a), b, false); });
    m.def("sum", [](const py::object& t, const py::object& axes, bool keepdims) {
        return reduce(nt::detail::reduce_op::sum, "sum", to_tensor(t), axes, keepdims);
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    m.def("mean", [](const py::object& t, const py::object& axes, bool keepdims) {
        return reduce(nt::detail::reduce_op::mean, "mean", to_tensor(t), axes, keepdims);
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    m.def("max", [](const py::object& t, const py::object& axes, bool keepdims) {
        return reduce(nt::detail::reduce_op::max, "max", to_tensor(t), axes, keepdims);
    }, py::arg("t"), py::arg("axes") = py::none(), py::arg("keepdims") = false);
    m.def("sqrt", [](const py::object& t) { return nt::sqrt(to_tensor(t)); });
    m.def("exp", [](const py::object& t) { return nt::exp(to_tensor(t)); });
}

}  // namespace ntpy
