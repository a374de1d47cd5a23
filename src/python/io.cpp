// src/python/io.cpp: files (.npy), zarr stores (nt.zarr), the matcher on specs
// alone (nt.match, nt.explain), pipeline configs (nt.load_config, nt.check_config).
#include <fstream>
#include <map>
#include <span>
#include <sstream>

#include "binding.hpp"
#include "nt/match.hpp"
#include "nt/npy.hpp"
#include "nt/pipeline.hpp"
#include "nt/pipeline_config.hpp"
#include "nt/shape_config.hpp"
#include "nt/zarr.hpp"

namespace ntpy {

namespace {

// A region as {axis: slice or int}; steps other than 1 are refused by the library.
nt::zarr::region to_region(const py::dict& d) {
    nt::zarr::region r;
    for (auto [k, v] : d) {
        if (py::isinstance<py::slice>(v)) {
            auto opt = [](const py::object& o) -> std::optional<std::int64_t> {
                if (o.is_none()) return std::nullopt;
                return o.cast<std::int64_t>();
            };
            const auto step = opt(v.attr("step"));
            r.emplace_back(to_axis(k), nt::range(opt(v.attr("start")), opt(v.attr("stop")), step.value_or(1)));
        } else {
            const auto i = v.cast<std::int64_t>();
            r.emplace_back(to_axis(k), nt::range(i, i + 1));
        }
    }
    return r;
}

// A region of map_chunks (one range per axis, in the array's axis order) as a tuple
// of slices, ready for NumPy indexing.
py::tuple slices_of(const nt::zarr::region& r) {
    py::tuple out(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) {
        const nt::range& g = r[i].second;
        auto bound = [](const std::optional<std::int64_t>& v) -> py::object {
            return v ? py::object(py::int_(*v)) : py::object(py::none());
        };
        out[i] = py::module_::import("builtins").attr("slice")(bound(g.start), bound(g.stop), g.step);
    }
    return out;
}

// Halo widths: {axis: n}.
nt::zarr::halo halo_from(const py::object& o) {
    nt::zarr::halo h;
    if (o.is_none()) return h;
    for (auto [k, v] : o.cast<py::dict>()) h.emplace_back(to_axis(k), v.cast<std::int64_t>());
    return h;
}

nt::zarr::codec codec_from(const std::string& id, int level) {
    if (id == "blosc") return nt::zarr::codec::blosc("lz4", level < 0 ? 5 : level);
    if (id == "zlib") return nt::zarr::codec::zlib(level < 0 ? 1 : level);
    if (id == "gzip") return nt::zarr::codec::gzip(level < 0 ? 1 : level);
    if (id == "zstd") return nt::zarr::codec::zstd(level < 0 ? 1 : level);
    if (id.empty() || id == "none") return nt::zarr::codec::none();
    nt::throw_error(nt::errc::invalid_argument,
                    "zarr.create: unknown compressor '" + id + "'; use blosc, zlib, gzip, zstd or none");
}

py::tuple to_tuple(const std::vector<std::int64_t>& v) {
    py::tuple out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i];
    return out;
}

// The report of `ntensor check`/`ntensor plan` on a config file, kept with its pipeline.
struct config_report {
    nt::pipeline p;
    nt::pipeline_report r;
};

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) nt::throw_error(nt::errc::io_error, "check_config: cannot read '" + path + "'; check the path");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

void bind_io(py::module_& m, tensor_class&) {
    m.def("load_npy", [](const std::string& path, const py::object& names) {
        const auto n = to_names(names);
        return released([&] { return any_tensor(nt::load_npy(path, nt::names_arg(n))); });
    }, py::arg("path"), py::arg("names") = py::none());
    m.def("save_npy", [](const std::string& path, const py::object& t) {
        const any_tensor x = to_tensor(t);
        released([&] { nt::save_npy(path, x); });
    }, py::arg("path"), py::arg("t"));

    m.def("map_npy", [](const std::string& path, const std::string& mode, const py::object& names) {
        nt::map_mode mm = nt::map_mode::read_only;
        if (mode == "r+") mm = nt::map_mode::read_write;
        else if (mode == "c") mm = nt::map_mode::copy_on_write;
        else if (mode != "r")
            nt::throw_error(nt::errc::invalid_argument, "map_npy: mode '" + mode + "' is not r, r+ or c (NumPy's mmap_mode)");
        const auto n = to_names(names);
        return released([&] { return nt::map_npy(path, mm, nt::names_arg(n)); });
    }, py::arg("path"), py::arg("mode") = "r", py::arg("names") = py::none());
    // An .npz archive as a dict of tensors.
    m.def("load_npz", [](const std::string& path) {
        const auto z = released([&] { return nt::load_npz(path); });
        py::dict out;
        for (const auto& n : z.names()) out[py::str(n)] = z[n];
        return out;
    }, py::arg("path"));
    m.def("save_npz", [](const std::string& path, const py::dict& arrays, bool compressed) {
        std::vector<nt::npz_entry> e;
        for (auto [k, v] : arrays) e.push_back({k.cast<std::string>(), to_tensor(v)});
        const auto c = compressed ? nt::npz_compression::deflate : nt::npz_compression::none;
        released([&] { nt::save_npz(path, std::span<const nt::npz_entry>(e), c); });
    }, py::arg("path"), py::arg("arrays"), py::arg("compressed") = false);

    // --- zarr (data.md): nt.zarr.open / nt.zarr.create and the array's read/write --
    py::module_ zarr = m.def_submodule("zarr", "Zarr v2 directory stores, as nt::zarr");
    py::class_<nt::zarr::array>(zarr, "Array")
        .def_property_readonly("path", &nt::zarr::array::path)
        .def_property_readonly("dtype", [](const nt::zarr::array& a) { return numpy_dtype(a.dtype()); })
        .def_property_readonly("shape", [](const nt::zarr::array& a) { return to_tuple(a.shape()); })
        .def_property_readonly("chunks", [](const nt::zarr::array& a) { return to_tuple(a.chunks()); })
        .def_property_readonly("names", [](const nt::zarr::array& a) {
            py::list out;
            for (const auto& n : a.names()) out.append(n ? py::object(py::str(std::string(n.str()))) : py::object(py::none()));
            return py::tuple(out);
        })
        .def_property_readonly("spec", [](const nt::zarr::array& a) { return nt::to_string(a.spec()); })
        .def_property_readonly("fill_value", &nt::zarr::array::fill_value)
        .def("attributes", &nt::zarr::array::attributes)
        .def("set_attributes", &nt::zarr::array::set_attributes, py::arg("json"))
        .def("rename", [](const nt::zarr::array& a, py::args names) { return a.rename(nt::names_arg(to_names(names))); })
        .def("read", [](const nt::zarr::array& a, const py::object& region) {
            if (region.is_none()) return released([&] { return a.read(); });
            const auto r = to_region(region.cast<py::dict>());
            return released([&] { return a.read(r); });
        }, py::arg("region") = py::none())
        .def("write", [](nt::zarr::array& a, const py::object& t, const py::object& region) {
            const any_tensor x = to_tensor(t);
            if (region.is_none()) return released([&] { a.write(x); });
            const auto r = to_region(region.cast<py::dict>());
            released([&] { a.write(r, x); });
        }, py::arg("t"), py::arg("region") = py::none())
        .def("__repr__", [](const nt::zarr::array& a) { return "zarr.Array('" + a.path() + "', " + nt::to_string(a.spec()) + ")"; });
    zarr.def("open", [](const std::string& path) { return released([&] { return nt::zarr::open(path); }); }, py::arg("path"));
    zarr.def("create", [](const std::string& path, const py::object& dtype, const py::object& shape,
                          const py::object& chunks, const py::object& names, const std::string& compressor, int level,
                          bool overwrite) {
        const auto d = dtype_from_numpy(py::dtype::from_args(dtype));
        const auto s = to_ints(shape), c = to_ints(chunks);
        const auto n = to_names(names);
        nt::zarr::create_options o;
        o.compressor = codec_from(compressor, level);
        o.overwrite = overwrite;
        return released([&] { return nt::zarr::create(path, d, nt::shape_arg(s), nt::shape_arg(c), nt::names_arg(n), o); });
    }, py::arg("path"), py::arg("dtype"), py::arg("shape"), py::arg("chunks"), py::arg("names") = py::none(),
       py::arg("compressor") = "blosc", py::arg("level") = -1, py::arg("overwrite") = false);

    // map_chunks: f runs on the pool's threads, each taking the GIL for the call (Python
    // code runs one chunk at a time; decoding and encoding stay parallel).
    py::class_<nt::zarr::chunk_view>(zarr, "ChunkView")
        .def_readonly("data", &nt::zarr::chunk_view::data)
        .def_property_readonly("inner", [](const nt::zarr::chunk_view& c) { return slices_of(c.inner); })
        .def_property_readonly("inner_in_data", [](const nt::zarr::chunk_view& c) { return slices_of(c.inner_in_data); })
        .def_property_readonly("chunk_index", [](const nt::zarr::chunk_view& c) { return to_tuple(c.chunk_index); });
    zarr.def("map_chunks", [](const nt::zarr::array& src, nt::zarr::array& dst, const py::function& f,
                              const py::object& halo, std::int64_t max_chunks_in_memory) {
        const nt::zarr::halo h = halo_from(halo);
        nt::zarr::map_options o;
        o.max_chunks_in_memory = max_chunks_in_memory;
        auto call = [&f](const nt::zarr::chunk_view& c) -> any_tensor {
            py::gil_scoped_acquire gil;
            return to_tensor(f(c));
        };
        released([&] { nt::zarr::map_chunks(src, dst, call, h, o); });
    }, py::arg("src"), py::arg("dst"), py::arg("f"), py::arg("halo") = py::none(), py::arg("max_chunks_in_memory") = 0);

    // OME-Zarr: the image as a simple object with its levels (finest first).
    py::class_<nt::zarr::ome_level>(zarr, "OmeLevel")
        .def_readonly("path", &nt::zarr::ome_level::path)
        .def_readonly("scale", &nt::zarr::ome_level::scale)
        .def_readonly("translation", &nt::zarr::ome_level::translation)
        .def_readonly("data", &nt::zarr::ome_level::data);
    py::class_<nt::zarr::ome_image>(zarr, "OmeImage")
        .def_readonly("name", &nt::zarr::ome_image::name)
        .def_property_readonly("axes", [](const nt::zarr::ome_image& im) {
            py::list out;
            for (const auto& a : im.axes) out.append(py::make_tuple(a.name, a.type, a.unit));
            return out;
        })
        .def_readonly("levels", &nt::zarr::ome_image::levels);
    zarr.def("open_ome", [](const std::string& path) { return released([&] { return nt::zarr::open_ome(path); }); },
             py::arg("path"));
    zarr.def("write_ome", [](const std::string& path, const py::object& t, const py::object& scale,
                             const py::object& chunks, const std::string& name, bool overwrite) {
        const any_tensor x = to_tensor(t);
        nt::zarr::ome_options o;
        if (!scale.is_none()) o.scale = scale.cast<std::vector<double>>();
        if (!chunks.is_none()) o.chunks = to_ints(chunks);
        o.name = name;
        o.overwrite = overwrite;
        return released([&] { return nt::zarr::write_ome(path, x, o); });
    }, py::arg("path"), py::arg("t"), py::arg("scale") = py::none(), py::arg("chunks") = py::none(),
       py::arg("name") = "", py::arg("overwrite") = false);
    zarr.def("validate_ome", &nt::zarr::validate_ome, py::arg("path"));

    // --- the matcher on specs alone: specs as "(2,3 | N,C)" strings ----------------
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

    // --- pipeline configs (config.md) ---------------------------------------------
    py::class_<nt::pipeline_config>(m, "PipelineConfig")
        .def("spec", [](const nt::pipeline_config& c, const std::string& name) { return nt::to_string(c.spec(name)); },
             py::arg("name"))
        .def("check", [](const nt::pipeline_config& c, const std::string& name, const py::object& t) {
            const any_tensor x = to_tensor(t);
            c.check(name, x);
        }, py::arg("name"), py::arg("t"))
        .def("size", &nt::pipeline_config::size, py::arg("symbol"));
    m.def("load_config", [](const std::string& path, const std::string& base_folder) {
        return std::make_unique<nt::pipeline_config>(nt::load_config(path, base_folder));
    }, py::arg("path"), py::arg("base_folder") = "");
    py::class_<config_report>(m, "ConfigReport")
        .def_property_readonly("ok", [](const config_report& c) { return c.r.first_failure() == nullptr; })
        .def_property_readonly("error", [](const config_report& c) -> py::object {
            const nt::error* e = c.r.first_failure();
            if (!e) return py::none();
            return py::make_tuple(nt::to_string(e->code()), e->message());
        })
        .def("to_json", [](const config_report& c) { return nt::report_to_json(c.p, c.r); })
        .def("explain", [](const config_report& c) { return nt::explain(c.p, c.r); })
        .def("__repr__", [](const config_report& c) { return nt::explain(c.p, c.r); });
    // `ntensor plan` (read_files=False) and `ntensor check` (True) on a config file.
    m.def("check_config", [](const std::string& path, bool read_files) {
        const std::string text = read_text(path);
        const auto slash = path.find_last_of('/');
        auto rep = std::make_unique<config_report>(
            config_report{nt::parse_pipeline(text, slash == std::string::npos ? "." : path.substr(0, slash)), {}});
        rep->r = nt::check_pipeline(rep->p, read_files);
        return rep;
    }, py::arg("path"), py::arg("read_files") = false);
}

}  // namespace ntpy
