// The `ntensor` command: checks a JSON shape config before any data moves, and
// describes .npy / .npz files from their headers and zarr stores from their metadata.
//
//     ntensor plan [--json] FILE|-
//     ntensor check [--json] FILE|-
//     ntensor info [--json] FILE|STORE...
//     ntensor header [--type T] [--namespace NS] [-o OUT] FILE|-
//     ntensor --help | --version
//
// Exit status: 0 a plan (every file described), 1 an nt::error (the config is
// wrong or does not broadcast; a file cannot be read or is not a valid .npy/.npz),
// 2 a wrong command line or an unreadable config, 3 an internal error. The command
// never reads tensor data: `check` and `info` read headers only (and, in an .npz,
// each member's first bytes).
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>


#include "json_document.hpp"
#include "npy_header.hpp"
#include "npz_headers.hpp"
#include "regular_file.hpp"
#include "nt/error.hpp"
#include "nt/match.hpp"
#include "nt/pipeline.hpp"
#include "nt/shape_config.hpp"
#include "nt/version.hpp"
#include "nt/zarr.hpp"

namespace {

using nt::detail::json_out;

json_out ints_json(const std::vector<std::int64_t>& values) {
    json_out out = json_out::array();
    for (auto v : values) out.push(json_out::integer(v));
    return out;
}

json_out doubles_json(const std::vector<double>& values) {
    json_out out = json_out::array();
    for (auto v : values) out.push(json_out::floating(v));
    return out;
}

json_out error_json(const nt::error& e) {
    json_out out = json_out::object();
    out.add("code", json_out::string(nt::to_string(e.code())));
    out.add("message", json_out::string(e.message()));
    return out;
}

enum exit_status : int {
    exit_plan = 0,
    exit_config_error = 1,
    exit_usage_or_io = 2,
    exit_internal = 3,
};

constexpr std::string_view usage_text =
    "usage: ntensor plan [--json] FILE|-\n"
    "       ntensor check [--json] FILE|-\n"
    "       ntensor info [--json] FILE|STORE...\n"
    "       ntensor header [--type T] [--namespace NS] [-o OUT] FILE|-\n"
    "       ntensor --help | --version\n"
    "\n"
    "plan: reads a JSON shape config (see docs/config.md) and prints how its tensors\n"
    "broadcast: the output spec and, for every input, which of its axes feeds each\n"
    "output axis; for a pipeline, every step and the sizes of its symbols. FILE '-'\n"
    "reads standard input.\n"
    "check: also reads the headers of the config's .npy files (relative to FILE's\n"
    "folder), binds their sizes, and reports every file and step.\n"
    "info: prints the dtype, shape, order and format version of each .npy file and\n"
    "of each array in each .npz archive, from their headers; for a zarr array (a\n"
    "folder holding .zarray) its dtype, shape, chunks, compressor and names, for a\n"
    "zarr group its arrays, for an OME-Zarr image its axes and resolution levels.\n"
    "header: writes a C++ header with one alias per tensor of the config,\n"
    "`using img = nt::tensor_of<float, \"?\", \"CHANNEL\", \"H\", \"W\">;` (see\n"
    "<nt/static.hpp>): the tensor's dtype, else --type (default float); to OUT\n"
    "(rewritten only when its text changes) or standard output.\n"
    "\n"
    "  --json     print the plan, the files, or the error as one JSON object\n"
    "  --help     print this help\n"
    "  --version  print the version\n"
    "\n"
    "exit status: 0 a plan / every file described, 1 a config error (wrong config\n"
    "             or no broadcast) or a file that cannot be described,\n"
    "             2 a wrong command line or an unreadable config\n";

/// What the command line asks for.
struct command {
    enum class kind { plan, check, info, header, help, version } what = kind::plan;
    bool json = false;
    std::string element_type = "float";  // header
    std::string name_space;              // header
    std::string output;                  // header: -o
    std::string file;                // plan, check
    std::vector<std::string> files;  // info (and plan's and check's, while parsing)
};

/// A wrong command line or an unreadable file: exit status 2, one line on stderr.
struct usage_error {
    std::string message;
};

/// The arguments of `plan`, `check` and `info` after the command word: --json,
/// --help, and FILE arguments (one for `plan` and `check`, one or more for `info`).
command parse_file_arguments(const std::vector<std::string_view>& args, command::kind what) {
    const std::string name(args.front());
    command cmd;
    cmd.what = what;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--json" && what != command::kind::header) {
            cmd.json = true;
        } else if (what == command::kind::header && (arg == "--type" || arg == "--namespace" || arg == "-o")) {
            if (i + 1 >= args.size()) throw usage_error{"'" + std::string(arg) + "' needs a value"};
            std::string& slot = arg == "--type" ? cmd.element_type : arg == "-o" ? cmd.output : cmd.name_space;
            slot = std::string(args[++i]);
        } else if (arg == "--help" || arg == "-h") {
            command help;
            help.what = command::kind::help;
            return help;
        } else if (arg.size() > 1 && arg.front() == '-') {
            throw usage_error{"unknown option '" + std::string(arg) + "' for '" + name + "' (try 'ntensor --help')"};
        } else {
            cmd.files.emplace_back(arg);
        }
    }
    if (what == command::kind::info) {
        if (cmd.files.empty())
            throw usage_error{"'info' needs at least one .npy or .npz FILE or zarr STORE (try 'ntensor --help')"};
        return cmd;
    }
    if (cmd.files.size() > 1)
        throw usage_error{"'" + name + "' takes one FILE, got '" + cmd.files[0] + "' and '" + cmd.files[1] + "'"};
    if (cmd.files.empty())
        throw usage_error{"'" + name + "' needs a FILE, or '-' for standard input (try 'ntensor --help')"};
    cmd.file = cmd.files[0];
    return cmd;
}

command parse_arguments(const std::vector<std::string_view>& args) {
    if (args.empty()) throw usage_error{"no command given (try 'ntensor --help')"};
    const std::string_view first = args.front();
    const bool wants_help = first == "--help" || first == "-h";
    if ((wants_help || first == "--version") && args.size() > 1)
        throw usage_error{"'" + std::string(first) + "' takes no arguments"};
    command simple;
    simple.what = wants_help ? command::kind::help : command::kind::version;
    if (wants_help || first == "--version") return simple;
    if (first == "plan") return parse_file_arguments(args, command::kind::plan);
    if (first == "check") return parse_file_arguments(args, command::kind::check);
    if (first == "info") return parse_file_arguments(args, command::kind::info);
    if (first == "header") return parse_file_arguments(args, command::kind::header);
    throw usage_error{"unknown command '" + std::string(first) + "' (try 'ntensor --help')"};
}

/// Reads all of `stream`; a read error (EISDIR for a directory, EIO) is a usage error.
std::string read_all(std::FILE* stream, const std::string& display_name) {
    std::string text;
    char buffer[1 << 16];
    std::size_t count = 0;
    while ((count = std::fread(buffer, 1, sizeof buffer, stream)) > 0) text.append(buffer, count);
    if (std::ferror(stream)) throw usage_error{"cannot read " + display_name + ": " + std::strerror(errno)};
    return text;
}

std::string read_input(const std::string& file) {
    if (file == "-") return read_all(stdin, "standard input");
    try {
        // Through regular_file: a FIFO or a device named as the config is refused
        // at once instead of blocking the command.
        return nt::detail::read_small_file(file, "'" + file + "'", std::uint64_t{1} << 30, "a config");
    } catch (const nt::error& e) {
        throw usage_error{e.message()};
    }
}

void print_error(const nt::error& e, bool json) {
    if (json)
        std::cout << nt::error_to_json(e) << '\n';
    else
        std::cout << "error [" << nt::to_string(e.code()) << "]: " << e.message() << '\n';
}

/// `plan` stops at the first error and prints it alone; `check` reads the files
/// too and reports every file and step, failed or not.
int run_plan(const command& cmd) {
    const std::string text = read_input(cmd.file);
    const std::string folder = cmd.file == "-" ? std::string() : std::filesystem::path(cmd.file).parent_path().string();
    try {
        nt::pipeline p = nt::parse_pipeline(text, folder);
        const bool check = cmd.what == command::kind::check;
        const nt::pipeline_report report = nt::check_pipeline(p, check);
        const nt::error* failure = report.first_failure();
        if (failure && (!check || p.one_step())) {
            print_error(*failure, cmd.json);
        } else if (cmd.json) {
            std::cout << nt::report_to_json(p, report) << '\n';
        } else {
            std::cout << nt::explain(p, report);
        }
        return failure ? exit_config_error : exit_plan;
    } catch (const nt::error& e) {
        print_error(e, cmd.json);
        return exit_config_error;
    }
}

/// One described array: a .npy file, or a member of an .npz archive.
json_out describe(const nt::detail::npy_header& h) {
    json_out j = json_out::object();
    j.add("dtype", json_out::string(h.dtype));
    j.add("descr", json_out::string(h.descr));
    j.add("shape", ints_json(h.shape));
    j.add("order", json_out::string(h.fortran_order ? "F" : "C"));
    j.add("version", json_out::string(h.version_string()));
    return j;
}

std::string describe_text(const nt::detail::npy_header& h) {
    return std::string(h.dtype) + " " + nt::shape_string(h.shape) + " order " + (h.fortran_order ? "F" : "C") +
           ", format " + h.version_string() + " ('" + h.descr + "')";
}

/// An .npz archive by its name, else by its zip signature ("PK").
/// Throws io_error for what is not a regular file (a FIFO would block a plain open).
bool is_npz(const std::string& path) {
    if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npz") == 0) return true;
    const nt::detail::regular_file f(path, "'" + path + "'");
    char magic[2] = {};
    return ::pread(f.fd(), magic, 2, 0) == 2 && magic[0] == 'P' && magic[1] == 'K';
}

/// A zarr array's metadata (read without its chunks), as JSON and as one line.
json_out describe_zarr(const nt::zarr::array& a, std::string& text) {
    json_out j = json_out::object();
    j.add("format", json_out::string("zarr"));
    j.add("dtype", json_out::string(nt::to_string(a.dtype())));
    j.add("shape", ints_json(a.shape()));
    j.add("chunks", ints_json(a.chunks()));
    json_out names = json_out::array();
    for (const auto n : a.names()) names.push(json_out::string(n.str()));
    j.add("names", std::move(names));
    j.add("compressor", json_out::string(a.compressor().str()));
    j.add("order", json_out::string(std::string(1, a.order())));
    j.add("chunk_count", json_out::integer(a.chunk_count()));
    std::string fill = "null";
    if (a.fill_value()) {
        std::ostringstream os;
        os << *a.fill_value();
        fill = os.str();
    }
    j.add("fill_value", json_out::string(fill));
    text = std::string(nt::to_string(a.dtype())) + " " + nt::to_string(a.spec()) + " chunks " +
           nt::shape_string(a.chunks()) + " (" + std::to_string(a.chunk_count()) + "), " + a.compressor().str() +
           ", order " + a.order() + ", fill " + fill;
    return j;
}

/// A folder: a zarr array, an OME-Zarr image, or a group of arrays.
/// `failed` is set when a part cannot be described (an array of a group): the
/// others are still described.
json_out describe_store(const std::string& path, bool json, bool& failed) {
    namespace fs = std::filesystem;
    std::string text;
    if (fs::exists(fs::path(path) / ".zarray")) {
        auto j = describe_zarr(nt::zarr::open(path), text);
        if (!json) std::cout << path << ": zarr array " << text << '\n';
        return j;
    }
    std::string attrs;
    if (fs::exists(fs::path(path) / ".zattrs")) {
        const std::string file = (fs::path(path) / ".zattrs").string();
        attrs = nt::detail::read_small_file(file, "'" + file + "'", std::uint64_t{64} << 20, "a metadata document");
    }
    if (attrs.find("\"multiscales\"") != std::string::npos) {
        const nt::zarr::ome_image img = nt::zarr::open_ome(path);
        json_out j = json_out::object();
        j.add("format", json_out::string("ome-zarr"));
        j.add("name", json_out::string(img.name));
        json_out axes_json = json_out::array();
        std::string axes;
        for (const auto& a : img.axes) {
            json_out axis = json_out::object();
            axis.add("name", json_out::string(a.name));
            axis.add("type", json_out::string(a.type));
            axis.add("unit", json_out::string(a.unit));
            axes_json.push(std::move(axis));
            axes += (axes.empty() ? "" : ", ") + a.name + (a.unit.empty() ? "" : " (" + a.unit + ")");
        }
        j.add("axes", std::move(axes_json));
        json_out levels = json_out::array();
        if (!json) std::cout << path << ": OME-Zarr image" << (img.name.empty() ? "" : " '" + img.name + "'") << ", axes "
                             << axes << ", " << img.levels.size() << " levels\n";
        for (const auto& l : img.levels) {
            auto e = describe_zarr(l.data, text);
            json_out level = json_out::object();
            level.add("path", json_out::string(l.path));
            level.add("scale", doubles_json(l.scale));
            level.add("translation", doubles_json(l.translation));
            level.update(std::move(e));
            levels.push(std::move(level));
            if (!json) {
                std::ostringstream sc;
                for (std::size_t i = 0; i < l.scale.size(); ++i) sc << (i ? "," : "") << l.scale[i];
                std::cout << "  " << l.path << ": " << text << ", scale (" << sc.str() << ")\n";
            }
        }
        j.add("levels", std::move(levels));
        return j;
    }
    if (fs::exists(fs::path(path) / ".zgroup")) {
        json_out j = json_out::object();
        j.add("format", json_out::string("zarr-group"));
        json_out arrays = json_out::array();
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(path))
            if (fs::exists(e.path() / ".zarray")) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        if (!json) std::cout << path << ": zarr group, " << names.size() << (names.size() == 1 ? " array\n" : " arrays\n");
        for (const auto& n : names) {
            json_out entry = json_out::object();
            entry.add("name", json_out::string(n));
            // One damaged array does not hide the others: it is reported in its place.
            try {
                entry.update(describe_zarr(nt::zarr::open(path + "/" + n), text));
                if (!json) std::cout << "  " << n << ": " << text << '\n';
            } catch (const nt::error& e) {
                failed = true;
                entry.set("error", error_json(e));
                if (!json) std::cout << "  " << n << ": error [" << nt::to_string(e.code()) << "]: " << e.message() << '\n';
            }
            arrays.push(std::move(entry));
        }
        j.add("arrays", std::move(arrays));
        return j;
    }
    (void)nt::zarr::open(path);  // throws io_error naming what is missing
    return json_out::null();
}

int run_info(const command& cmd) {
    int status = exit_plan;
    json_out files = json_out::array();
    for (const std::string& path : cmd.files) {
        json_out file = json_out::object();
        file.add("path", json_out::string(path));
        try {
            if (std::filesystem::is_directory(path)) {
                bool failed = false;
                file.update(describe_store(path, cmd.json, failed));
                if (failed) status = exit_config_error;
            } else if (is_npz(path)) {
                const auto members = nt::detail::read_npz_headers(path, "info");
                file.set("format", json_out::string("npz"));
                json_out entries = json_out::array();
                if (!cmd.json) std::cout << path << ": .npz archive, " << members.size() << " arrays\n";
                for (const auto& [name, h] : members) {
                    json_out e = json_out::object();
                    e.add("name", json_out::string(name));
                    e.update(describe(h));
                    entries.push(std::move(e));
                    if (!cmd.json) std::cout << "  " << name << ": " << describe_text(h) << '\n';
                }
                file.set("entries", std::move(entries));
            } else {
                const nt::detail::npy_header h = nt::detail::read_npy_header(path);
                file.set("format", json_out::string("npy"));
                file.update(describe(h));
                if (!cmd.json) std::cout << path << ": " << describe_text(h) << '\n';
            }
        } catch (const nt::error& e) {
            status = exit_config_error;
            file.set("error", error_json(e));
            if (!cmd.json) std::cout << path << ": error [" << nt::to_string(e.code()) << "]: " << e.message() << '\n';
        }
        files.push(std::move(file));
    }
    if (cmd.json) {
        json_out out = json_out::object();
        out.add("files", std::move(files));
        nt::detail::json_style style;
        style.indent = 2;
        std::cout << out.dump(style) << '\n';
    }
    return status;
}

// --- header: the config's tensors as nt::tensor_of aliases ---------------------------

bool is_identifier(std::string_view s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string cpp_element_type(std::string_view dtype, const std::string& fallback) {
    static constexpr std::pair<std::string_view, std::string_view> types[] = {
        {"bool", "bool"},         {"i8", "std::int8_t"},   {"i16", "std::int16_t"}, {"i32", "std::int32_t"},
        {"i64", "std::int64_t"},  {"u8", "std::uint8_t"},  {"u16", "std::uint16_t"}, {"u32", "std::uint32_t"},
        {"u64", "std::uint64_t"}, {"f16", "nt::half"},     {"f32", "float"},        {"f64", "double"}};
    for (const auto& [short_name, type] : types)
        if (dtype == short_name) return std::string(type);
    return fallback;
}

/// Writes `text` to `path` unless the file already holds it (so that a build that
/// regenerates the header recompiles nothing when the config's tensors did not change).
void write_if_changed(const std::string& path, const std::string& text) {
    {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (f) {
            const std::string old = read_all(f, "'" + path + "'");
            std::fclose(f);
            if (old == text) return;
        }
    }
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw usage_error{"cannot write '" + path + "': " + std::strerror(errno)};
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) throw usage_error{"cannot write '" + path + "': " + std::strerror(errno)};
}

int run_header(const command& cmd) {
    const std::string text = read_input(cmd.file);
    const std::string folder = cmd.file == "-" ? std::string() : std::filesystem::path(cmd.file).parent_path().string();
    if (!is_identifier(cmd.element_type) && cmd.element_type.find("::") == std::string::npos)
        throw usage_error{"--type '" + cmd.element_type + "' is not a C++ element type (float, double, std::int32_t, ...)"};
    try {
        nt::pipeline p = nt::parse_pipeline(text, folder);
        // Plans the steps (their outputs' axes); a config that does not match gives
        // no header, as it gives no plan.
        const nt::pipeline_report report = nt::check_pipeline(p, false);
        if (const nt::error* failure = report.first_failure()) {
            print_error(*failure, false);
            return exit_config_error;
        }
        std::ostringstream out;
        out << "// Generated by `ntensor header` from " << (cmd.file == "-" ? "standard input" : cmd.file)
            << ": do not edit.\n// One nt::tensor_of alias per tensor of the config (docs/static_names.md).\n"
               "#pragma once\n\n#include <cstdint>\n\n#include <nt/static.hpp>\n\n";
        if (!cmd.name_space.empty()) out << "namespace " << cmd.name_space << " {\n\n";
        for (const nt::pipeline_tensor& t : p.tensors()) {
            if (!is_identifier(t.key))
                throw nt::error(nt::errc::invalid_spec, "tensor '" + t.key + "' (" + t.path +
                                                            ") is not a C++ identifier, so it cannot name an alias. "
                                                            "Fix: rename the tensor to letters, digits and '_'");
            if (!t.rank_known()) {
                out << "// " << t.key << ": its rank comes from its file, unknown until the file is read\n";
                continue;
            }
            out << "using " << t.key << " = nt::tensor_of<" << cpp_element_type(t.dtype, cmd.element_type);
            for (std::size_t a = 0; a < t.rank(); ++a) {
                const nt::name n = t.name(a);
                out << ", \"" << (n ? std::string(n.str()) : std::string("?")) << '"';
            }
            out << ">;\n";
        }
        if (!cmd.name_space.empty()) out << "\n}  // namespace " << cmd.name_space << '\n';
        if (cmd.output.empty()) std::cout << out.str();
        else write_if_changed(cmd.output, out.str());
        return exit_plan;
    } catch (const nt::error& e) {
        print_error(e, false);
        return exit_config_error;
    }
}

int run(const command& cmd) {
    switch (cmd.what) {
        case command::kind::help: std::cout << usage_text; return exit_plan;
        case command::kind::version: std::cout << "ntensor " << NT_VERSION_STRING << '\n'; return exit_plan;
        case command::kind::plan:
        case command::kind::check: return run_plan(cmd);
        case command::kind::info: return run_info(cmd);
        case command::kind::header: return run_header(cmd);
    }
    return exit_internal;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::vector<std::string_view> args(argv + 1, argv + argc);
        const int status = run(parse_arguments(args));
        std::cout.flush();
        if (!std::cout) {
            std::cerr << "ntensor: cannot write to standard output\n";
            return exit_usage_or_io;
        }
        return status;
    } catch (const usage_error& e) {
        std::cerr << "ntensor: " << e.message << '\n';
        return exit_usage_or_io;
    } catch (const std::exception& e) {
        std::cerr << "ntensor: internal error: " << e.what() << '\n';
        return exit_internal;
    }
}
