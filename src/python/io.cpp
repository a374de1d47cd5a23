// src/python/io.cpp: files (.npy), the matcher on specs alone, pipeline configs.
#include <span>

#include "binding.hpp"
#include "nt/match.hpp"
#include "nt/npy.hpp"
#include "nt/shape_config.hpp"

namespace ntpy {

void bind_io(py::module_& m, tensor_class&) {
    m.def("load_npy", [](const std::string& path, const py::object& names) {
        const auto n = to_names(names);
        return released([&] { return any_tensor(nt::load_npy(path, nt::names_arg(n))); });
    }, py::arg("path"), py::arg("names") = py::none());
    m.def("save_npy", [](const std::string& path, const any_tensor& t) { released([&] { nt::save_npy(path, t); }); },
          py::arg("path"), py::arg("t"));

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
}

}  // namespace ntpy
