// src/python/module.cpp: the extension `ntensor._ntensor`: the Tensor class, the
// conversions from and to NumPy, nt.Error, indexing, the operators and pickling.
//
// Memory is shared both ways: a tensor made by asarray holds the NumPy array as its
// storage owner, and the buffer protocol hands NumPy a view that holds the tensor.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binding.hpp"
#include "nt/error.hpp"
#include "nt/index.hpp"
#include "nt/spec.hpp"

namespace ntpy {

// NumPy's format characters are ambiguous across platforms ('l' vs 'q'); the dtype's
// own name is not, so conversions go through numpy_name.
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

std::vector<nt::name> to_names(const py::handle& names) {
    std::vector<nt::name> out;
    if (names.is_none()) return out;
    if (py::isinstance<py::str>(names))
        nt::throw_error(nt::errc::invalid_argument,
                        "names: expected a sequence of names such as (\"H\", \"W\"), got the string '" +
                            names.cast<std::string>() + "'");
    for (auto item : names) {
        if (item.is_none()) {
            out.emplace_back();
            continue;
        }
        const std::string s = py::str(item);
        out.push_back(s == "?" ? nt::name() : nt::name(s));
    }
    return out;
}

py::tuple names_of(const any_tensor& t) {
    py::tuple out(t.rank());
    auto n = t.names();
    for (std::size_t i = 0; i < t.rank(); ++i)
        out[i] = n.empty() || !n[i] ? py::object(py::none()) : py::object(py::str(std::string(n[i].str())));
    return out;
}

// The array is the storage's owner, so deleting the last Python reference to it
// keeps the memory alive as long as the tensor.
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
    const auto n = to_names(names);
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

std::vector<any_tensor> to_tensors(const py::handle& seq) {
    std::vector<any_tensor> out;
    for (auto x : seq) out.push_back(to_tensor(x));
    return out;
}

bool is_scalar(const py::handle& h) {
    return py::isinstance<py::bool_>(h) || py::isinstance<py::int_>(h) || py::isinstance<py::float_>(h);
}

nt::any_scalar to_scalar(const py::handle& h) {
    if (py::isinstance<py::bool_>(h)) return nt::any_scalar::of(h.cast<bool>());
    if (py::isinstance<py::int_>(h)) return nt::any_scalar::of(h.cast<std::int64_t>());
    return nt::any_scalar::of(h.cast<double>());
}

py::object binary(nt::detail::binary_op op, const char* name, const any_tensor& a, const py::handle& b,
                  bool reflected) {
    if (is_scalar(b)) {
        const auto s = to_scalar(b);
        return py::cast(released([&] { return nt::detail::any_binary_scalar(op, name, a, s, reflected); }));
    }
    const any_tensor t = to_tensor(b);
    return py::cast(released([&] {
        return reflected ? nt::detail::any_binary(op, name, t, a) : nt::detail::any_binary(op, name, a, t);
    }));
}

nt::Axis to_axis(const py::handle& x) {
    if (py::isinstance<py::str>(x)) return nt::Axis(x.cast<std::string>());
    return nt::Axis(x.cast<std::int64_t>());
}

std::vector<nt::Axis> to_axes(const py::handle& h) {
    std::vector<nt::Axis> out;
    if (py::isinstance<py::str>(h) || py::isinstance<py::int_>(h))
        out.push_back(to_axis(h));
    else
        for (auto x : h) out.push_back(to_axis(x));
    return out;
}

std::vector<std::int64_t> to_ints(const py::handle& h) {
    if (py::isinstance<py::int_>(h)) return {h.cast<std::int64_t>()};
    return h.cast<std::vector<std::int64_t>>();
}

namespace {

// Basic indexing: integers, slices (any step, negative included) and one Ellipsis,
// which stands for as many full slices as the rank leaves.
std::vector<nt::detail::index_item> to_index(const py::handle& key, std::size_t rank) {
    std::vector<py::handle> keys;
    if (py::isinstance<py::tuple>(key))
        for (auto k : key) keys.push_back(k);
    else
        keys.push_back(key);
    std::size_t ellipses = 0;
    for (auto k : keys) ellipses += k.is(py::ellipsis()) ? 1 : 0;
    if (ellipses > 1) nt::throw_error(nt::errc::invalid_argument, "index: at most one Ellipsis (...) per index");
    const std::size_t given = keys.size() - ellipses;
    std::vector<nt::detail::index_item> items;
    for (auto k : keys) {
        if (k.is(py::ellipsis())) {
            for (std::size_t i = given; i < rank; ++i) items.emplace_back(nt::range());
        } else if (py::isinstance<py::slice>(k)) {
            auto opt = [](const py::object& o) -> std::optional<std::int64_t> {
                if (o.is_none()) return std::nullopt;
                return o.cast<std::int64_t>();
            };
            const auto step = opt(k.attr("step"));
            items.emplace_back(nt::range(opt(k.attr("start")), opt(k.attr("stop")), step.value_or(1)));
        } else if (k.is_none()) {
            nt::throw_error(nt::errc::invalid_argument,
                            "index: None (np.newaxis) is not supported; use t.unsqueeze(pos, name)");
        } else {
            items.emplace_back(k.cast<std::int64_t>());
        }
    }
    return items;
}

void fill(const any_tensor& dst, const py::handle& v) {
    if (is_scalar(v)) {
        const auto s = to_scalar(v);
        released([&] {
            any_tensor d = dst;
            if (s.k == nt::any_scalar::kind::floating) d.fill(s.f);
            else if (s.k == nt::any_scalar::kind::boolean) d.fill(s.b);
            else d.fill(s.i);
        });
    } else {
        const any_tensor src = to_tensor(v);
        released([&] { any_tensor(dst).assign(src); });
    }
}

}  // namespace

}  // namespace ntpy

using namespace ntpy;

PYBIND11_MODULE(_ntensor, m) {
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

    tensor_class tensor(m, "Tensor", py::buffer_protocol());
    tensor.def_buffer([](any_tensor& t) -> py::buffer_info {
        const auto item = static_cast<py::ssize_t>(nt::size_of(t.dtype()));
        std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
        std::vector<py::ssize_t> strides;
        for (auto s : t.strides()) strides.push_back(static_cast<py::ssize_t>(s) * item);
        const std::string fmt = py::str(numpy_dtype(t.dtype()).attr("char"));
        return py::buffer_info(const_cast<void*>(t.data()), item, fmt, static_cast<py::ssize_t>(t.rank()), shape,
                               strides, t.is_read_only());
    });
    tensor
        .def_property_readonly("shape",
                               [](const any_tensor& t) {
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
        .def("__repr__",
             [](const any_tensor& t) {
                 std::string s = nt::to_string(t);
                 return s.substr(0, s.size() - 1) + ", names=" + nt::names_string(t.spec()) + ")";
             })
        .def("numpy", [](py::object self) { return py::array(py::buffer(self)); })
        // The one element as a Python number (NumPy's item()).
        .def("item", [](py::object self) {
            const auto& t = self.cast<const any_tensor&>();
            if (t.size() != 1)
                nt::throw_error(nt::errc::invalid_argument,
                                "item: the tensor " + nt::to_string(t.spec()) + " has " + std::to_string(t.size()) +
                                    " elements, not 1; index or reduce it first");
            return py::array(py::buffer(self)).attr("item")();
        })
        .def("__float__", [](py::object self) { return self.attr("item")().cast<double>(); })
        .def("__int__", [](py::object self) { return py::int_(self.attr("item")()); })
        .def("__bool__", [](py::object self) { return py::bool_(self.attr("item")()); })
        .def("clone", [](const any_tensor& t) { return released([&] { return t.clone(); }); })
        .def("contiguous", [](const any_tensor& t) { return released([&] { return t.contiguous(); }); })
        .def("astype",
             [](const any_tensor& t, const py::object& d) {
                 const auto to = dtype_from_numpy(py::dtype::from_args(d));
                 return released([&] { return t.astype(to); });
             })
        .def("size_of", [](const any_tensor& t, const py::object& axis) { return t.size(to_axis(axis)); })
        .def("is_contiguous", [](const any_tensor& t) { return t.is_contiguous(); })
        .def("shares_storage", [](const any_tensor& t, const any_tensor& o) { return t.shares_storage(o); })
        .def("__getitem__", [](const any_tensor& t, const py::object& key) { return t.index(to_index(key, t.rank())); })
        .def("__setitem__",
             [](const any_tensor& t, const py::object& key, const py::object& v) {
                 fill(t.index(to_index(key, t.rank())), v);
             })
        // Pickled as a C-contiguous copy of the elements with the names.
        .def(py::pickle(
            [](const any_tensor& t) {
                py::array data = py::array(py::buffer(py::cast(t.contiguous())));
                return py::make_tuple(data.attr("copy")(), names_of(t));
            },
            [](const py::tuple& state) { return from_numpy(state[0].cast<py::array>(), state[1]); }));
    tensor.attr("__hash__") = py::none();

    m.def("asarray", &from_numpy, py::arg("a"), py::arg("names") = py::none(), py::keep_alive<0, 1>());

    bind_ops(m, tensor);
    bind_io(m, tensor);
    bind_autograd(m, tensor);
    bind_imaging(m, tensor);
}
