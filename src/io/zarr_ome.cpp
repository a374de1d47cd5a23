// OME-Zarr (OME-NGFF 0.4) images on top of the zarr arrays of zarr.cpp: the
// "multiscales" metadata checked against the specification's rules (written from its
// text, section 3.4 "multiscales" and 3.3 "coordinateTransformations"), the levels
// opened by the axes' names, and pyramids written by 2x means.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core_errors.hpp"
#include "file_io.hpp"
#include "nt/error.hpp"
#include "nt/elementwise.hpp"
#include "nt/structure.hpp"
#include "nt/zarr.hpp"
#include "zarr_metadata.hpp"

namespace nt::zarr {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// UDUNITS-2 units NGFF 0.4 lists for axes of type space and time.
const std::set<std::string> space_units{
    "angstrom",   "attometer",  "centimeter", "decimeter",  "exameter",   "femtometer", "foot",
    "gigameter",  "hectometer", "inch",       "kilometer",  "megameter",  "meter",      "micrometer",
    "mile",       "millimeter", "nanometer",  "parsec",     "petameter",  "picometer",  "terameter",
    "yard",       "yoctometer", "yottameter", "zeptometer", "zettameter"};
const std::set<std::string> time_units{
    "attosecond", "centisecond", "day",        "decisecond",  "exasecond",  "femtosecond", "gigasecond",
    "hectosecond", "hour",       "kilosecond", "megasecond",  "microsecond", "millisecond", "minute",
    "nanosecond", "petasecond",  "picosecond", "second",      "terasecond", "yoctosecond", "yottasecond",
    "zeptosecond", "zettasecond"};

std::string where(const std::string& path) { return "OME-Zarr '" + path + "'"; }

json read_attributes(const std::string& path) {
    const std::string file = path + "/.zattrs";
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        if (!fs::exists(path, ec))
            throw_error(errc::io_error, where(path) + ": the folder does not exist; give the image's group folder");
        throw_error(errc::format_error, where(path) + ": no .zattrs, so no \"multiscales\" metadata (NGFF 0.4 section 3.4); "
                                                      "give the image's group folder, not a level's array");
    }
    const std::string text = detail::read_small_file(file, where(path) + ": '" + file + "'", std::uint64_t{64} << 20,
                                                     "a metadata document");
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw_error(errc::format_error, where(path) + ": .zattrs is not a JSON object");
    return j;
}

/// Why the dataset path `p` leads out of the image folder `image` (empty: it stays
/// inside). A hostile .zattrs must not make open_ome read, or `ntensor info` show,
/// arrays elsewhere on the disk.
std::string leaves_image(const std::string& image, const std::string& p) {
    if (p.empty()) return "is empty";
    if (p.front() == '/') return "is absolute";
    for (const auto& part : fs::path(p))
        if (part == "..") return "goes up with '..'";
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(fs::absolute(image, ec), ec);
    const fs::path level = fs::weakly_canonical(fs::absolute(fs::path(image) / p, ec), ec);
    if (ec) return "cannot be resolved (" + ec.message() + ")";
    const auto rel = level.lexically_relative(root);
    if (rel.empty() || rel == "." || *rel.begin() == "..") return "leads out of the image's folder through a link";
    return "";
}

/// One transformation list (a dataset's or the multiscale's): exactly one scale,
/// then at most one translation, each with one value per axis.
void check_transforms(const json& list, std::size_t rank, const std::string& at, bool required,
                      std::vector<std::string>& broken) {
    if (!list.is_array()) {
        if (required) broken.push_back(at + " MUST be a list of transformations");
        return;
    }
    int scales = 0, translations = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& t = list[i];
        const std::string here = at + "[" + std::to_string(i) + "]";
        if (!t.is_object() || !t.contains("type") || !t["type"].is_string()) {
            broken.push_back(here + " MUST be an object with a \"type\"");
            continue;
        }
        const auto type = t["type"].get<std::string>();
        if (type != "scale" && type != "translation") {
            broken.push_back(here + ": the type '" + type + "' is not allowed; datasets take only scale and translation");
            continue;
        }
        if (type == "translation" && scales == 0) broken.push_back(here + ": a translation MUST come after the scale");
        (type == "scale" ? scales : translations) += 1;
        if (!t.contains(type) || !t[type].is_array()) {
            broken.push_back(here + " MUST give \"" + type + "\" as a list of numbers (ntensor does not read \"path\")");
            continue;
        }
        if (t[type].size() != rank)
            broken.push_back(here + ": \"" + type + "\" has " + std::to_string(t[type].size()) +
                             " values; it MUST have one per axis (" + std::to_string(rank) + ")");
        for (const auto& v : t[type])
            if (!v.is_number()) {
                broken.push_back(here + ": \"" + type + "\" MUST hold numbers");
                break;
            }
    }
    if (required && scales != 1) broken.push_back(at + " MUST contain exactly one scale transformation");
    if (!required && scales > 1) broken.push_back(at + " MAY contain at most one scale transformation");
    if (translations > 1) broken.push_back(at + " MAY contain at most one translation");
}

/// The rules of a multiscale's "axes"; returns their number.
std::size_t check_axes(const json& s, const std::string& at, std::vector<std::string>& broken) {
        std::size_t rank = 0;
    if (!s.contains("axes") || !s["axes"].is_array()) {
        broken.push_back(at + " MUST contain \"axes\", a list");
    } else {
        const json& axes = s["axes"];
        rank = axes.size();
        if (rank < 2 || rank > 5)
            broken.push_back(at + ".axes has " + std::to_string(rank) + " entries; it MUST have 2 to 5");
        std::set<std::string> names;
        int space = 0, time = 0, other = 0;
        int stage = 0;  // 0 time, 1 channel or custom, 2 space: the order the rule asks for
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const json& a = axes[i];
            const std::string here = at + ".axes[" + std::to_string(i) + "]";
            if (!a.is_object() || !a.contains("name") || !a["name"].is_string()) {
                broken.push_back(here + " MUST have a \"name\"");
                continue;
            }
            const auto name = a["name"].get<std::string>();
            if (!names.insert(name).second) broken.push_back(here + ": the name '" + name + "' MUST be unique");
            const std::string type = a.contains("type") && a["type"].is_string() ? a["type"].get<std::string>() : "";
            const int this_stage = type == "time" ? 0 : type == "space" ? 2 : 1;
            if (this_stage < stage)
                broken.push_back(here + " ('" + name + "', " + (type.empty() ? "no type" : type) +
                                 "): axes MUST be ordered time, then channel or custom, then space");
            stage = std::max(stage, this_stage);
            (type == "space" ? space : type == "time" ? time : other) += 1;
            if (a.contains("unit")) {
                const std::string unit = a["unit"].is_string() ? a["unit"].get<std::string>() : "";
                if (type == "space" && !space_units.count(unit))
                    broken.push_back(here + ": the unit '" + unit + "' SHOULD be a UDUNITS-2 length (micrometer, millimeter, ...)");
                if (type == "time" && !time_units.count(unit))
                    broken.push_back(here + ": the unit '" + unit + "' SHOULD be a UDUNITS-2 time (second, millisecond, ...)");
            }
        }
        if (space < 2 || space > 3)
            broken.push_back(at + ".axes MUST have 2 or 3 axes of type space (it has " + std::to_string(space) + ")");
        if (time > 1) broken.push_back(at + ".axes MAY have at most one axis of type time");
        if (other > 1) broken.push_back(at + ".axes MAY have at most one channel or custom axis");
    }
    return rank;
}

std::vector<std::string> rules_broken(const std::string& path, const json& attrs) {
    std::vector<std::string> broken;
    if (!attrs.contains("multiscales")) {
        broken.push_back("the group's attributes MUST contain \"multiscales\"");
        return broken;
    }
    const json& ms = attrs["multiscales"];
    if (!ms.is_array() || ms.empty()) {
        broken.push_back("\"multiscales\" MUST be a non-empty list");
        return broken;
    }
    for (std::size_t m = 0; m < ms.size(); ++m) {
        const json& s = ms[m];
        const std::string at = "multiscales[" + std::to_string(m) + "]";
        if (!s.is_object()) {
            broken.push_back(at + " MUST be an object");
            continue;
        }
        if (!s.contains("version") || s["version"] != "0.4")
            broken.push_back(at + ".version MUST be \"0.4\" (ntensor reads NGFF 0.4)");
        if (s.contains("name") && !s["name"].is_string()) broken.push_back(at + ".name MUST be a string");
        const std::size_t rank = check_axes(s, at, broken);
        // datasets
        if (!s.contains("datasets") || !s["datasets"].is_array() || s["datasets"].empty()) {
            broken.push_back(at + " MUST contain \"datasets\", a non-empty list");
        } else {
            std::vector<std::int64_t> previous;
            for (std::size_t d = 0; d < s["datasets"].size(); ++d) {
                const json& ds = s["datasets"][d];
                const std::string here = at + ".datasets[" + std::to_string(d) + "]";
                if (!ds.is_object() || !ds.contains("path") || !ds["path"].is_string()) {
                    broken.push_back(here + " MUST have a \"path\"");
                    continue;
                }
                check_transforms(ds.contains("coordinateTransformations") ? ds["coordinateTransformations"] : json(),
                                 rank, here + ".coordinateTransformations", true, broken);
                if (const std::string why = leaves_image(path, ds["path"].get<std::string>()); !why.empty()) {
                    broken.push_back(here + ": the path '" + ds["path"].get<std::string>() + "' " + why +
                                     "; a level MUST be an array inside the image's group folder");
                    continue;
                }
                const std::string level = path + "/" + ds["path"].get<std::string>();
                try {
                    const auto meta = detail::read_zarr_metadata(level);
                    if (meta.shape.size() != rank)
                        broken.push_back(here + ": the array '" + ds["path"].get<std::string>() + "' has " +
                                         std::to_string(meta.shape.size()) + " dimensions; it MUST have one per axis (" +
                                         std::to_string(rank) + ")");
                    else if (!previous.empty())
                        for (std::size_t i = 0; i < rank; ++i)
                            if (meta.shape[i] > previous[i]) {
                                broken.push_back(here + ": datasets MUST be ordered from the highest resolution to the lowest"
                                                        " (axis " + std::to_string(i) + " grows from " +
                                                 std::to_string(previous[i]) + " to " + std::to_string(meta.shape[i]) + ")");
                                break;
                            }
                    previous = meta.shape;
                } catch (const error& e) {
                    broken.push_back(here + ": the path '" + ds["path"].get<std::string>() +
                                     "' MUST name a zarr array of the group (" + e.message() + ")");
                }
            }
        }
        if (s.contains("coordinateTransformations"))
            check_transforms(s["coordinateTransformations"], rank, at + ".coordinateTransformations", false, broken);
    }
    return broken;
}

std::vector<double> numbers(const json& list, const char* type, std::size_t rank, double fallback) {
    for (const auto& t : list)
        if (t.is_object() && t.value("type", "") == type) return t[type].get<std::vector<double>>();
    return std::vector<double>(rank, fallback);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

std::vector<std::string> validate_ome(const std::string& path) { return rules_broken(path, read_attributes(path)); }

ome_image open_ome(const std::string& given) {
    std::string path = given;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    const json attrs = read_attributes(path);
    const auto broken = rules_broken(path, attrs);
    if (!broken.empty())
        throw_error(errc::format_error, where(path) + ": " + broken.front() +
                                            (broken.size() > 1 ? " (and " + std::to_string(broken.size() - 1) +
                                                                     " more: nt::zarr::validate_ome lists them)"
                                                               : std::string()) +
                                            "; fix the group's .zattrs (NGFF 0.4)");
    const json& s = attrs["multiscales"][0];
    ome_image image;
    image.name = s.value("name", "");
    std::vector<name> names;
    for (const auto& a : s["axes"]) {
        ome_axis axis{a["name"].get<std::string>(), a.value("type", ""), a.value("unit", "")};
        if (!name::is_valid(axis.name))
            throw_error(errc::format_error, where(path) + ": the axis name '" + axis.name +
                                                "' is not one ntensor can use (letters, digits, _; at most 64)");
        names.emplace_back(axis.name);
        image.axes.push_back(std::move(axis));
    }
    const std::size_t rank = names.size();
    const json none = json::array();
    const json& global = s.contains("coordinateTransformations") ? s["coordinateTransformations"] : none;
    const auto global_scale = numbers(global, "scale", rank, 1.0);
    const auto global_shift = numbers(global, "translation", rank, 0.0);
    for (const auto& ds : s["datasets"]) {
        ome_level level{ds["path"].get<std::string>(), {}, {}, zarr::open(path + "/" + ds["path"].get<std::string>())};
        // The level's own transformations, then the multiscale's, composed per axis.
        level.scale = numbers(ds["coordinateTransformations"], "scale", rank, 1.0);
        level.translation = numbers(ds["coordinateTransformations"], "translation", rank, 0.0);
        for (std::size_t i = 0; i < rank; ++i) {
            level.translation[i] = level.translation[i] * global_scale[i] + global_shift[i];
            level.scale[i] *= global_scale[i];
        }
        const auto stored = level.data.names();
        for (std::size_t i = 0; i < rank; ++i)
            if (stored[i] && stored[i] != names[i])
                throw_error(errc::format_error, where(path) + ": the level '" + level.path + "' names axis " +
                                                    std::to_string(i) + " '" + std::string(stored[i].str()) +
                                                    "' (_ARRAY_DIMENSIONS), but the multiscales axes say '" +
                                                    std::string(names[i].str()) + "'; make them agree");
        level.data = level.data.rename(names);
        image.levels.push_back(std::move(level));
    }
    return image;
}

ome_image write_ome(const std::string& path, const any_tensor& t, const ome_options& options) {
    const std::string at = "zarr::write_ome: " + where(path);
    const std::size_t rank = t.rank();
    std::vector<ome_axis> axes = options.axes;
    if (axes.empty()) {
        for (std::size_t i = 0; i < rank; ++i) {
            const name n = t.names()[i];
            const std::string text = n ? lower(std::string(n.str())) : "";
            if (text == "t") axes.push_back({"t", "time", ""});
            else if (text == "c") axes.push_back({"c", "channel", ""});
            else if (text == "z" || text == "y" || text == "x") axes.push_back({text, "space", ""});
            else
                throw_error(errc::invalid_argument,
                            at + ": axis " + std::to_string(i) + " of " + nt::to_string(t.spec()) + " is " +
                                (n ? "named '" + std::string(n.str()) + "'" : std::string("unnamed")) +
                                "; name the axes t, c, z, y, x (rename the tensor) or give options.axes");
        }
    }
    if (axes.size() != rank)
        throw_error(errc::invalid_argument, at + ": " + std::to_string(axes.size()) + " axes given for a tensor of rank " +
                                                std::to_string(rank));
    std::vector<double> scale = options.scale.empty() ? std::vector<double>(rank, 1.0) : options.scale;
    if (scale.size() != rank)
        throw_error(errc::invalid_argument, at + ": " + std::to_string(scale.size()) + " scales for " +
                                                std::to_string(rank) + " axes");
    std::vector<std::int64_t> chunks = options.chunks;
    if (chunks.empty())
        for (std::size_t i = 0; i < rank; ++i) chunks.push_back(axes[i].type == "space" ? 64 : 1);
    if (chunks.size() != rank)
        throw_error(errc::invalid_argument, at + ": " + std::to_string(chunks.size()) + " chunk sizes for " +
                                                std::to_string(rank) + " axes");
    for (std::size_t i = 0; i < rank; ++i) chunks[i] = std::max<std::int64_t>(1, std::min(chunks[i], t.shape()[i]));

    // The metadata, checked before anything is written: the rules apply to what
    // the caller asked for (2 or 3 space axes, order, units).
    json axes_json = json::array();
    std::vector<name> names;
    for (const auto& a : axes) {
        json j = {{"name", a.name}, {"type", a.type}};
        if (!a.unit.empty()) j["unit"] = a.unit;
        axes_json.push_back(j);
        names.emplace_back(a.name);
    }
    {
        std::vector<std::string> broken;
        (void)check_axes(json{{"axes", axes_json}}, "the axes", broken);
        if (!broken.empty())
            throw_error(errc::invalid_argument, at + ": " + broken.front() + " (NGFF 0.4); fix options.axes");
    }
    // The image is built in a folder beside the target and swapped in whole, so a
    // failure (a full disk) never leaves half an image, nor deletes an old one.
    const auto build = [&](const std::string& root) {
        detail::write_file_atomically(root + "/.zgroup", R"({"zarr_format": 2})", "zarr::write_ome", options.io.durable);
        create_options o;
        o.compressor = options.compressor;
        o.io = options.io;
        json datasets = json::array();
        any_tensor level = t;
        std::vector<double> level_scale = scale;
        for (int l = 0;; ++l) {
            const std::string key = std::to_string(l);
            auto arr = zarr::create(root + "/" + key, t.dtype(), level.shape(), chunks, names, o);
            arr.write(level);
            datasets.push_back({{"path", key},
                                {"coordinateTransformations", json::array({{{"type", "scale"}, {"scale", level_scale}}})}});
            bool fits = true;
            for (std::size_t i = 0; i < rank; ++i)
                if (axes[i].type == "space" && level.shape()[i] > chunks[i]) fits = false;
            if (fits) break;
            // Halve the spatial axes: the mean of each pair, the last odd element alone.
            Tensor<double> next = level.astype<double>();
            for (std::size_t i = 0; i < rank; ++i) {
                if (axes[i].type != "space" || next.shape()[i] == 1) continue;
                const Axis a(static_cast<std::int64_t>(i));
                const auto even = next.slice(a, 0, std::nullopt, 2);
                auto odd = next.slice(a, 1, std::nullopt, 2);
                if (odd.shape()[i] < even.shape()[i]) {
                    const Tensor<double> parts[2] = {odd, even.slice(a, -1, std::nullopt)};
                    odd = nt::concatenate<double>(parts, a);
                }
                next = (even + odd) * 0.5;
                level_scale[i] *= 2;
            }
            level = any_tensor(next).astype(t.dtype());
        }
        json attrs = {{"multiscales", json::array({{{"version", "0.4"},
                                                    {"name", options.name},
                                                    {"axes", axes_json},
                                                    {"datasets", datasets},
                                                    {"type", "mean of 2 per spatial axis"}}})}};
        detail::write_file_atomically(root + "/.zattrs", attrs.dump(4), "zarr::write_ome", options.io.durable);
    };
    std::error_code ec;
    if (fs::exists(path, ec)) {
        if (!options.overwrite)
            throw_error(errc::io_error, at + ": the path exists; pass overwrite = true to replace it, or choose another path");
        if (!fs::exists(fs::path(path) / ".zgroup", ec) && !fs::is_empty(path, ec))
            throw_error(errc::io_error, at + ": the path exists and is not a zarr group, so overwrite will not delete it");
        detail::replace_folder(path, at, options.io.durable, build);
    } else {
        fs::create_directories(path, ec);
        if (ec) throw_error(errc::io_error, at + ": cannot create the folder: " + ec.message());
        try {
            detail::replace_folder(path, at, options.io.durable, build);
        } catch (...) {
            fs::remove(path, ec);  // the empty folder made above
            throw;
        }
    }
    return open_ome(path);
}

}  // namespace nt::zarr
