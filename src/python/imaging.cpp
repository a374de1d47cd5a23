// src/python/imaging.cpp: the imaging bindings of the Python module.
#include "binding.hpp"

namespace ntpy {

void bind_imaging(py::module_&, tensor_class&) {}

}  // namespace ntpy
