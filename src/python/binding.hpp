// src/python/binding.hpp: what the translation units of the Python module share.
//
// The module is split by area so that its translation units compile in parallel
// and each stays small: module.cpp (the Tensor class, conversions, operators),
// ops.cpp, io.cpp (files, zarr, matcher, configs), autograd.cpp, imaging.cpp.
// Everything is bound over nt::any_tensor: the element type is a runtime value in
// Python as it is in any_tensor, so each binding is written once, not per dtype.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/dtype.hpp"
#include "nt/names.hpp"
#include "nt/structure.hpp"

namespace ntpy {

namespace py = pybind11;
using nt::any_tensor;
using tensor_class = py::class_<any_tensor>;

// Runs `f` without the GIL (ntensor's own threads and Python threads then run side
// by side). Python objects are converted before and the result cast after.
template <class F>
auto released(F&& f) {
    py::gil_scoped_release nogil;
    return std::forward<F>(f)();
}

nt::dtype dtype_from_numpy(const py::dtype& d);
py::dtype numpy_dtype(nt::dtype d);
/// "?" and None are unnamed axes.
std::vector<nt::name> to_names(const py::handle& names);
py::tuple names_of(const any_tensor& t);
/// A zero-copy view of a NumPy array that keeps the array alive.
any_tensor from_numpy(py::array a, const py::object& names);
/// A Tensor as is, a NumPy array (or anything np.asarray accepts) viewed.
any_tensor to_tensor(const py::handle& h);
std::vector<any_tensor> to_tensors(const py::handle& seq);
bool is_scalar(const py::handle& h);
nt::any_scalar to_scalar(const py::handle& h);
/// One axis (a name or a position) or a sequence of them.
std::vector<nt::Axis> to_axes(const py::handle& h);
nt::Axis to_axis(const py::handle& h);
std::vector<std::int64_t> to_ints(const py::handle& h);
/// nt::pad_mode from its spelling ("constant", "edge", "reflect", "symmetric", "wrap").
nt::pad_mode pad_mode_from(const std::string& s);
/// a op b with b a tensor, an array or a number (reflected: b op a).
py::object binary(nt::detail::binary_op op, const char* name, const any_tensor& a, const py::handle& b,
                  bool reflected);

void bind_ops(py::module_& m, tensor_class& cls);
void bind_io(py::module_& m, tensor_class& cls);
void bind_autograd(py::module_& m, tensor_class& cls);
void bind_imaging(py::module_& m, tensor_class& cls);

}  // namespace ntpy
