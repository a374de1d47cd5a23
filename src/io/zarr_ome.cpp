// OME-Zarr (OME-NGFF 0.4) images on top of the zarr arrays of zarr.cpp: the
// "multiscales" metadata checked against the specification's rules (written from its
// text, section 3.4 "multiscales" and 3.3 "coordinateTransformations"), the levels
// opened by the axes' names, and pyramids written by 2x means.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "core_errors.hpp"
#include "file_io.hpp"
#include "json_document.hpp"
#include "nt/error.hpp"
#include "nt/elementwise.hpp"
#include "nt/structure.hpp"
#include "nt/zarr.hpp"
#include "zarr_metadata.hpp"

namespace nt::zarr {

using detail::json_document;
using detail::json_out;
using detail::json_value;
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

json_document read_attributes(const std::string& path) {
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
    std::optional<json_document> doc;
    try {
        doc = json_document::parse(text, detail::json_rules::lenient);
    } catch (const error&) {
    }
    if (!doc || !doc->root().is_object())
        throw_error(errc::format_error, where(path) + ": .zattrs is not a JSON object");
    return std::move(*doc);
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
void check_transforms(std::optional<json_value> given, std::size_t rank, const std::string& at, bool required,
                      std::vector<std::string>& broken) {
    if (!given || !given->is_array()) {
        if (required) broken.push_back(at + " MUST be a list of transformations");
        return;
    }
    const json_value list = *given;
    int scales = 0, translations = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json_value t = list[i];
        const std::string here = at + "[" + std::to_string(i) + "]";
        const auto type_value = t.find("type");
        if (!type_value || !type_value->is_string()) {
            broken.push_back(here + " MUST be an object with a \"type\"");
            continue;
        }
        const std::string type(type_value->str());
        if (type != "scale" && type != "translation") {
            broken.push_back(here + ": the type '" + type + "' is not allowed; datasets take only scale and translation");
            continue;
        }
        if (type == "translation" && scales == 0) broken.push_back(here + ": a translation MUST come after the scale");
        (type == "scale" ? scales : translations) += 1;
        const auto values = t.find(type);
        if (!values || !values->is_array()) {
            broken.push_back(here + " MUST give \"" + type + "\" as a list of numbers (ntensor does not read \"path\")");
            continue;
        }
        if (values->size() != rank)
            broken.push_back(here + ": \"" + type + "\" has " + std::to_string(values->size()) +
                             " values; it MUST have one per axis (" + std::to_string(rank) + ")");
        for (std::size_t k = 0; k < values->size(); ++k)
            if (!(*values)[k].is_number()) {
                broken.push_back(here + ": \"" + type + "\" MUST hold numbers");
                break;
            }
    }
    if (required && scales != 1) broken.push_back(at + " MUST contain exactly one scale transformation");
    if (!required && scales > 1) broken.push_back(at + " MAY contain at most one scale transformation");
    if (translations > 1) broken.push_back(at + " MAY contain at most one translation");
}

/// The rules of a multiscale's "axes"; returns their number.
std::size_t check_axes(json_value s, const std::string& at, std::vector<std::string>& broken) {
        std::size_t rank = 0;
    const auto axes_value = s.find("axes");
    if (!axes_value || !axes_value->is_array()) {
        broken.push_back(at + " MUST contain \"axes\", a list");
    } else {
        const json_value axes = *axes_value;
        rank = axes.size();
        if (rank < 2 || rank > 5)
            broken.push_back(at + ".axes has " + std::to_string(rank) + " entries; it MUST have 2 to 5");
        std::set<std::string> names;
        int space = 0, time = 0, other = 0;
        int stage = 0;  // 0 time, 1 channel or custom, 2 space: the order the rule asks for
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const json_value a = axes[i];
            const std::string here = at + ".axes[" + std::to_string(i) + "]";
            const auto name_value = a.find("name");
            if (!name_value || !name_value->is_string()) {
                broken.push_back(here + " MUST have a \"name\"");
                continue;
            }
            const std::string name(name_value->str());
            if (!names.insert(name).second) broken.push_back(here + ": the name '" + name + "' MUST be unique");
            const auto type_value = a.find("type");
            const std::string type = type_value && type_value->is_string() ? std::string(type_value->str()) : "";
            const int this_stage = type == "time" ? 0 : type == "space" ? 2 : 1;
            if (this_stage < stage)
                broken.push_back(here + " ('" + name + "', " + (type.empty() ? "no type" : type) +
                                 "): axes MUST be ordered time, then channel or custom, then space");
            stage = std::max(stage, this_stage);
            (type == "space" ? space : type == "time" ? time : other) += 1;
            if (const auto unit_value = a.find("unit")) {
                const std::string unit = unit_value->is_string() ? std::string(unit_value->str()) : "";
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

std::vector<std::string> rules_broken(const std::string& path, json_value attrs) {
    std::vector<std::string> broken;
    const auto multiscales = attrs.find("multiscales");
    if (!multiscales) {
        broken.push_back("the group's attributes MUST contain \"multiscales\"");
        return broken;
    }
    const json_value ms = *multiscales;
    if (!ms.is_array() || ms.empty()) {
        broken.push_back("\"multiscales\" MUST be a non-empty list");
        return broken;
    }
    for (std::size_t m = 0; m < ms.size(); ++m) {
        const json_value s = ms[m];
        const std::string at = "multiscales[" + std::to_string(m) + "]";
        if (!s.is_object()) {
            broken.push_back(at + " MUST be an object");
            continue;
        }
        const auto version = s.find("version");
        if (!version || !version->is_string() || version->str() != "0.4")
            broken.push_back(at + ".version MUST be \"0.4\" (ntensor reads NGFF 0.4)");
        if (const auto name = s.find("name"); name && !name->is_string()) broken.push_back(at + ".name MUST be a string");
        const std::size_t rank = check_axes(s, at, broken);
        // datasets
        const auto datasets = s.find("datasets");
        if (!datasets || !datasets->is_array() || datasets->empty()) {
            broken.push_back(at + " MUST contain \"datasets\", a non-empty list");
        } else {
            std::vector<std::int64_t> previous;
            for (std::size_t d = 0; d < datasets->size(); ++d) {
                const json_value ds = (*datasets)[d];
                const std::string here = at + ".datasets[" + std::to_string(d) + "]";
                const auto path_value = ds.find("path");
                if (!path_value || !path_value->is_string()) {
                    broken.push_back(here + " MUST have a \"path\"");
                    continue;
                }
                const std::string ds_path(path_value->str());
                check_transforms(ds.find("coordinateTransformations"), rank, here + ".coordinateTransformations", true,
                                 broken);
                if (const std::string why = leaves_image(path, ds_path); !why.empty()) {
                    broken.push_back(here + ": the path '" + ds_path + "' " + why +
                                     "; a level MUST be an array inside the image's group folder");
                    continue;
                }
                const std::string level = path + "/" + ds_path;
                try {
                    const auto meta = detail::read_zarr_metadata(level);
                    if (meta.shape.size() != rank)
                        broken.push_back(here + ": the array '" + ds_path + "' has " +
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
                    broken.push_back(here + ": the path '" + ds_path +
                                     "' MUST name a zarr array of the group (" + e.message() + ")");
                }
            }
        }
        if (const auto transforms = s.find("coordinateTransformations"))
            check_transforms(transforms, rank, at + ".coordinateTransformations", false, broken);
    }
    return broken;
}

/// What a loop over a nlohmann::json visits: an array's elements, an object's values
/// by sorted key, nothing for null, the value itself for other scalars. (The global
/// transformations reach numbers() unchecked when they are not a list.)
std::vector<json_value> elements(json_value v) {
    std::vector<json_value> out;
    if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) out.push_back(v[i]);
    } else if (v.is_object()) {
        std::vector<std::size_t> order(v.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v.key(a) < v.key(b); });
        for (std::size_t i : order) out.push_back(v[i]);
    } else if (!v.is_null()) {
        out.push_back(v);
    }
    return out;
}

/// A member that must be a string when present (nlohmann's value(key, "")).
std::string string_member(json_value object, const char* key) {
    const auto v = object.find(key);
    return v ? detail::string_of(*v) : std::string();
}

std::vector<double> numbers(std::optional<json_value> list, const char* type, std::size_t rank, double fallback) {
    if (list)
        for (const json_value t : elements(*list))
            if (t.is_object() && string_member(t, "type") == type) {
                if (const auto values = t.find(type)) return detail::doubles_of(*values);
                return detail::doubles_of(json_document::parse("null").root());  // throws: no list
            }
    return std::vector<double>(rank, fallback);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

std::vector<std::string> validate_ome(const std::string& path) {
    const json_document attributes = read_attributes(path);
    return rules_broken(path, attributes.root());
}

ome_image open_ome(const std::string& given) {
    std::string path = given;
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    const json_document attributes = read_attributes(path);
    const json_value attrs = attributes.root();
    const auto broken = rules_broken(path, attrs);
    if (!broken.empty())
        throw_error(errc::format_error, where(path) + ": " + broken.front() +
                                            (broken.size() > 1 ? " (and " + std::to_string(broken.size() - 1) +
                                                                     " more: nt::zarr::validate_ome lists them)"
                                                               : std::string()) +
                                            "; fix the group's .zattrs (NGFF 0.4)");
    const json_value s = (*attrs.find("multiscales"))[0];
    ome_image image;
    image.name = string_member(s, "name");
    std::vector<name> names;
    const json_value axes_list = *s.find("axes");
    for (std::size_t i = 0; i < axes_list.size(); ++i) {
        const json_value a = axes_list[i];
        ome_axis axis{string_member(a, "name"), string_member(a, "type"), string_member(a, "unit")};
        if (!name::is_valid(axis.name))
            throw_error(errc::format_error, where(path) + ": the axis name '" + axis.name +
                                                "' is not one ntensor can use (letters, digits, _; at most 64)");
        names.emplace_back(axis.name);
        image.axes.push_back(std::move(axis));
    }
    const std::size_t rank = names.size();
    const auto global = s.find("coordinateTransformations");
    const auto global_scale = numbers(global, "scale", rank, 1.0);
    const auto global_shift = numbers(global, "translation", rank, 0.0);
    const json_value datasets = *s.find("datasets");
    for (std::size_t d = 0; d < datasets.size(); ++d) {
        const json_value ds = datasets[d];
        const std::string ds_path(ds.find("path")->str());
        ome_level level{ds_path, {}, {}, zarr::open(path + "/" + ds_path)};
        // The level's own transformations, then the multiscale's, composed per axis.
        level.scale = numbers(ds.find("coordinateTransformations"), "scale", rank, 1.0);
        level.translation = numbers(ds.find("coordinateTransformations"), "translation", rank, 0.0);
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
    json_out axes_json = json_out::array();
    std::vector<name> names;
    for (const auto& a : axes) {
        json_out j = json_out::object();
        j.add("name", json_out::string(a.name));
        j.add("type", json_out::string(a.type));
        if (!a.unit.empty()) j.add("unit", json_out::string(a.unit));
        axes_json.push(std::move(j));
        names.emplace_back(a.name);
    }
    {
        // The rules read documents: the axes go through their JSON text once.
        json_out wrapper = json_out::object();
        wrapper.add("axes", axes_json);
        detail::json_style text_style;
        text_style.replace_invalid_utf8 = true;
        const json_document doc = json_document::parse(wrapper.dump(text_style), detail::json_rules::lenient);
        std::vector<std::string> broken;
        (void)check_axes(doc.root(), "the axes", broken);
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
        json_out datasets = json_out::array();
        any_tensor level = t;
        std::vector<double> level_scale = scale;
        for (int l = 0;; ++l) {
            const std::string key = std::to_string(l);
            auto arr = zarr::create(root + "/" + key, t.dtype(), level.shape(), chunks, names, o);
            arr.write(level);
            json_out scale_json = json_out::array();
            for (double v : level_scale) scale_json.push(json_out::floating(v));
            json_out transform = json_out::object();
            transform.add("type", json_out::string("scale"));
            transform.add("scale", std::move(scale_json));
            json_out dataset = json_out::object();
            dataset.add("path", json_out::string(key));
            dataset.add("coordinateTransformations", json_out::array().push(std::move(transform)));
            datasets.push(std::move(dataset));
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
        json_out multiscale = json_out::object();
        multiscale.add("version", json_out::string("0.4"));
        multiscale.add("name", json_out::string(options.name));
        multiscale.add("axes", axes_json);
        multiscale.add("datasets", std::move(datasets));
        multiscale.add("type", json_out::string("mean of 2 per spatial axis"));
        json_out attrs = json_out::object();
        attrs.add("multiscales", json_out::array().push(std::move(multiscale)));
        attrs.sort_keys();  // the sorted keys nlohmann::json wrote
        detail::json_style style;
        style.indent = 4;
        detail::write_file_atomically(root + "/.zattrs", attrs.dump(style), "zarr::write_ome", options.io.durable);
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
