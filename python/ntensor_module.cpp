// python/ntensor_module.cpp: the Python module `ntensor` (spec: docs/python.md).
//
// One translation unit over nt::any_tensor: the element type is a runtime value in
// Python as in any_tensor, so every binding is written once, not once per dtype.
// Memory is shared both ways: a tensor made by asarray holds the NumPy array as its
// storage owner, and the buffer protocol hands NumPy a view that holds the tensor.
#include <pybind11/eval.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nt/nt.hpp"

namespace py = pybind11;
using nt::any_tensor;

namespace {

// NumPy's format characters are ambiguous across platforms ('l' vs 'q'); the
// dtype's own name is not, so conversions go through numpy_name.
nt::dtype dtype_from_numpy(const py::dtype& d) {
    nt::dtype out{};
    const std::string n = py::str(d.attr("name"));
    if (!nt::dtype_from_string(n, out))
        nt::throw_error(nt::errc::unsupported_dtype,
                        "asarray: NumPy dtype " + n +
                            " has no ntensor element type; convert it with a.astype(...) to one of bool, "
                            "int8..int64, uint8..uint64, float16, float32, float64");
    return out;
}

py::dtype numpy_dtype(nt::dtype d) { return py::dtype(std::string(nt::numpy_name(d))); }

std::vector<nt::name> to_names(const py::object& names, std::size_t rank) {
    std::vector<nt::name> out;
    if (names.is_none()) return out;
    for (auto item : names) {
        if (item.is_none()) {
            out.emplace_back();
            continue;
        }
        const std::string s = py::str(item);
        out.push_back(s == "?" ? nt::name() : nt::name(s));
    }
    (void)rank;
    return out;
}

py::tuple names_of(const any_tensor& t) {
    py::tuple out(t.rank());
    auto n = t.names();
    for (std::size_t i = 0; i < t.rank(); ++i)
        out[i] = n.empty() || !n[i] ? py::object(py::none()) : py::object(py::str(std::string(n[i].str())));
    return out;
}

// A zero-copy view of a NumPy array: the array is the storage's owner, so deleting
// the last Python reference to it keeps the memory alive as long as the tensor.
any_tensor from_numpy(py::array a, const py::object& names) {
    const nt::dtype d = dtype_from_numpy(a.dtype());
    const auto item = static_cast<std::int64_t>(a.itemsize());
    std::vector<std::int64_t> shape(a.shape(), a.shape() + a.ndim());
    std::vector<std::int64_t> strides(static_cast<std::size_t>(a.ndim()));
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        const auto s = static_cast<std::int64_t>(a.strides(i));
        if (s % item != 0)
            nt::throw_error(nt::errc::invalid_argument,
                            "asarray: stride " + std::to_string(s) + " bytes of axis " + std::to_string(i) +
                                " is not a multiple of the element size " + std::to_string(item) +
                                "; pass np.ascontiguousarray(a)");
        strides[static_cast<std::size_t>(i)] = s / item;
    }
    const bool writable = a.writeable();
    void* ptr = const_cast<void*>(a.data());
    auto owner = std::shared_ptr<void>(new py::object(a), [](void* p) {
        py::gil_scoped_acquire gil;
        delete static_cast<py::object*>(p);
    });
    const auto n = to_names(names, shape.size());
    auto base = nt::detail::tensor_base::wrap(d, ptr, shape, strides, std::move(owner), n);
    if (!writable) base = base.with(base.layout(), nt::name_list(base.names()), true);
    return any_tensor(std::move(base));
}

any_tensor to_tensor(const py::handle& h) {
    if (py::isinstance<any_tensor>(h)) return h.cast<any_tensor>();
    py::array a = py::array::ensure(h);
    if (!a) {
        PyErr_Clear();
        nt::throw_error(nt::errc::invalid_argument,
                        std::string("expected an ntensor.Tensor, a NumPy array or a number, got ") +
                            std::string(py::str(py::type::of(h).attr("__name__"))));
    }
    return from_numpy(a, py::none());
}

bool is_scalar(const py::handle& h) {
    return py::isinstance<py::bool_>(h) || py::isinstance<py::int_>(h) || py::isinstance<py::float_>(h);
}

nt::any_scalar to_scalar(const py::handle& h) {
    if (py::isinstance<py::bool_>(h)) return nt::any_scalar::of(h.cast<bool>());
    if (py::isinstance<py::int_>(h)) return nt::any_scalar::of(h.cast<std::int64_t>());
    return nt::any_scalar::of(h.cast<double>());
}

using nt::detail::binary_op;

py::object binary(binary_op op, const char* name, const any_tensor& a, const py::handle& b, bool reflected) {
    if (is_scalar(b)) {
        const auto s = to_scalar(b);
        any_tensor r;
        {
            py::gil_scoped_release nogil;
            r = nt::detail::any_binary_scalar(op, name, a, s, reflected);
        }
        return py::cast(r);
    }
    const any_tensor t = to_tensor(b);
    any_tensor r;
    {
        py::gil_scoped_release nogil;
        r = reflected ? nt::detail::any_binary(op, name, t, a) : nt::detail::any_binary(op, name, a, t);
    }
    return py::cast(r);
}

std::vector<nt::Axis> to_axes(const py::handle& h) {
    std::vector<nt::Axis> out;
    auto one = [&](const py::handle& x) {
        if (py::isinstance<py::str>(x))
            out.emplace_back(x.cast<std::string>());
        else
            out.emplace_back(x.cast<std::int64_t>());
    };
    if (py::isinstance<py::str>(h) || py::isinstance<py::int_>(h))
        one(h);
    else
        for (auto x : h) one(x);
    return out;
}

py::object reduce(nt::detail::reduce_op op, const char* name, const any_tensor& t, const py::object& axes,
                  bool keepdims) {
    any_tensor r;
    if (axes.is_none()) {
        py::gil_scoped_release nogil;
        r = nt::detail::any_reduce(op, name, t, {}, true, keepdims);
    } else {
        const auto ax = to_axes(axes);
        py::gil_scoped_release nogil;
        r = nt::detail::any_reduce(op, name, t, nt::axes_arg(ax), false, keepdims);
    }
    return py::cast(r);
}

std::vector<nt::detail::index_item> to_index(const py::handle& key) {
    std::vector<nt::detail::index_item> items;
    auto one = [&](const py::handle& k) {
        if (py::isinstance<py::slice>(k)) {
            auto s = k.cast<py::slice>();
            auto opt = [](const py::object& o) -> std::optional<std::int64_t> {
                if (o.is_none()) return std::nullopt;
                return o.cast<std::int64_t>();
            };
            const auto step = opt(s.attr("step"));
            items.emplace_back(nt::range(opt(s.attr("start")), opt(s.attr("stop")), step.value_or(1)));
        } else if (k.is(py::ellipsis())) {
            nt::throw_error(nt::errc::invalid_argument, "index: Ellipsis is not supported; spell the axes with ':'");
        } else {
            items.emplace_back(k.cast<std::int64_t>());
        }
    };
    if (py::isinstance<py::tuple>(key))
        for (auto k : key) one(k);
    else
        one(key);
    return items;
}

}  // namespace

PYBIND11_MODULE(ntensor, m) {
    m.doc() = "ntensor: named tensors with an axis-matching broadcaster, over NumPy memory";

    // nt.Error: a ValueError carrying the errc spelling as .code.
    static py::exception<nt::error> error_type(m, "Error", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const nt::error& e) {
            py::object exc = py::reinterpret_borrow<py::object>(py::handle(error_type.ptr()))(e.message());
            exc.attr("code") = py::str(nt::to_string(e.code()));
            PyErr_SetObject(error_type.ptr(), exc.ptr());
        }
    });

    py::class_<any_tensor> tensor(m, "Tensor", py::buffer_protocol());
    tensor.def_buffer([](any_tensor& t) -> py::buffer_info {
        const auto item = static_cast<py::ssize_t>(nt::size_of(t.dtype()));
        std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
        std::vector<py::ssize_t> strides;
        for (auto s : t.strides()) strides.push_back(static_cast<py::ssize_t>(s) * item);
        const std::string fmt = py::str(numpy_dtype(t.dtype()).attr("char"));
        return py::buffer_info(const_cast<void*>(t.data()), item, fmt,
                               static_cast<py::ssize_t>(t.rank()), shape, strides, t.is_read_only());
    });
    tensor.def_property_readonly("shape", [](const any_tensor& t) {
              py::tuple out(t.rank());
              for (std::size_t i = 0; i < t.rank(); ++i) out[i] = t.shape()[i];
              return out;
          })
        .def_property_readonly("names", &names_of)
        .def_property_readonly("dtype", [](const any_tensor& t) { return numpy_dtype(t.dtype()); })
        .def_property_readonly("spec", [](const any_tensor& t) { return nt::to_string(t.spec()); })
        .def_property_readonly("ndim", [](const any_tensor& t) { return t.rank(); })
        .def_property_readonly("size", [](const any_tensor& t) { return t.size(); })
        .def_property_readonly("writeable", [](const any_tensor& t) { return !t.is_read_only(); })
        .def("__len__", [](const any_tensor& t) { return t.rank() ? t.shape()[0] : 0; })
        .def("__repr__", [](const any_tensor& t) {
            std::string s = nt::to_string(t);
            return s.substr(0, s.size() - 1) + ", names=" + nt::names_string(t.spec()) + ")";
        })
        .def("numpy", [](py::object self) { return py::array(py::buffer(self)); })
        .def("align_to", [](const any_tensor& t, py::args names) {
            std::vector<std::string> v;
            for (auto n : names) v.push_back(n.cast<std::string>());
            return t.align_to(v);
        })
        .def("rename", [](const any_tensor& t, py::args names) {
            return t.rename(nt::names_arg(to_names(names, t.rank())));
        })
        .def("transpose", [](const any_tensor& t) { return t.transpose(); })
        .def("permute", [](const any_tensor& t, py::args order) { return t.permute(nt::axes_arg(to_axes(order))); })
        .def("reshape", [](const any_tensor& t, std::vector<std::int64_t> s) { return t.reshape(nt::shape_arg(s)); })
        .def("flatten", [](const any_tensor& t) { return t.flatten(); })
        .def("clone", [](const any_tensor& t) { return t.clone(); })
        .def("contiguous", [](const any_tensor& t) { return t.contiguous(); })
        .def("astype", [](const any_tensor& t, const py::object& d) {
            return t.astype(dtype_from_numpy(py::dtype::from_args(d)));
        })
        .def("size_of", [](const any_tensor& t, const py::object& axis) { return t.size(to_axes(axis).at(0)); })
        .def("__getitem__", [](const any_tensor& t, const py::object& key) { return t.index(to_index(key)); })
        .def("__setitem__", [](const any_tensor& t, const py::object& key, const py::object& v) {
            any_tensor dst = t.index(to_index(key));
            if (is_scalar(v)) {
                const auto s = to_scalar(v);
                if (s.k == nt::any_scalar::kind::floating) dst.fill(s.f);
                else if (s.k == nt::any_scalar::kind::boolean) dst.fill(s.b);
                else dst.fill(s.i);
            } else {
                dst.assign(to_tensor(v));
            }
        })
        // Pickled as a C-contiguous copy of the elements with the names.
        .def(py::pickle(
            [](const any_tensor& t) {
                py::array data = py::array(py::buffer(py::cast(t.contiguous())));
                return py::make_tuple(data.attr("copy")(), names_of(t));
            },
            [](const py::tuple& state) { return from_numpy(state[0].cast<py::array>(), state[1]); }));

#define NT_PY_BINARY(py_name, rpy_name, op, text)                                                          \
    tensor.def(py_name, [](const any_tensor& a, const py::object& b) { return binary(binary_op::op, text, a, b, false); }); \
    if (rpy_name[0]) tensor.def(rpy_name, [](const any_tensor& a, const py::object& b) { return binary(binary_op::op, text, a, b, true); });
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
    tensor.attr("__hash__") = py::none();

    m.def("asarray", &from_numpy, py::arg("a"), py::arg("names") = py::none(), py::keep_alive<0, 1>());
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

    m.def("load_npy", [](const std::string& path, const py::object& names) {
        return any_tensor(nt::load_npy(path, nt::names_arg(to_names(names, 0))));
    }, py::arg("path"), py::arg("names") = py::none());
    m.def("save_npy", [](const std::string& path, const any_tensor& t) { nt::save_npy(path, t); });

    // The matcher on specs alone: specs as "(2,3 | N,C)" strings.
    py::class_<nt::plan>(m, "Plan")
        .def_property_readonly("output", [](const nt::plan& p) { return nt::to_string(p.output); })
        .def("to_json", [](const nt::plan& p) { return nt::plan_to_json(p, {}); })
        .def("__repr__", [](const nt::plan& p) { return nt::explain(p); });
    m.def("match", [](const std::vector<std::string>& specs, const std::string& policy) {
        std::vector<nt::spec> s;
        for (const auto& t : specs) s.push_back(nt::parse_spec(t));
        nt::match_options o;
        if (!nt::policy_from_string(policy, o.policy))
            nt::throw_error(nt::errc::invalid_spec, "match: unknown policy '" + policy + "'; use names, positional or search");
        return nt::match(std::span<const nt::spec>(s), o);
    }, py::arg("specs"), py::arg("policy") = "names");
    m.def("explain", [](const nt::plan& p) { return nt::explain(p); });

    // nt.dask.map_blocks: Python glue (Dask is imported only when it is called), so
    // that the functions Dask ships to its workers are ordinary picklable Python.
    py::module_ dask = m.def_submodule("dask", "ntensor functions on the blocks of a dask.array");
    py::dict scope;
    scope["__name__"] = "ntensor.dask";
    py::exec(R"(
def map_blocks(fn, array, names=None, dtype=None, **kwargs):
    """Runs fn on each block of `array` as a tensor named `names`; returns a dask.array."""
    import dask.array as da
    def run(block):
        import numpy as np
        import ntensor as nt
        r = fn(nt.asarray(np.asarray(block), names=names))
        return np.asarray(r)
    return da.map_blocks(run, array, dtype=array.dtype if dtype is None else dtype, **kwargs)
)", scope);
    dask.attr("map_blocks") = scope["map_blocks"];
}
