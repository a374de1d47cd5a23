// src/python/autograd.cpp: the autograd bindings of the Python module.
#include "binding.hpp"

namespace ntpy {

void bind_autograd(py::module_&, tensor_class&) {}

}  // namespace ntpy
