// The zarr v2 metadata reader: .zarray's layout fields checked for every lie a
// damaged or hostile document can tell (sizes, overflow, ranks, chunk bytes), and
// xarray's "_ARRAY_DIMENSIONS". The codec and fill value are left as JSON text for
// the tensor core, which alone applies them.
#include "zarr_metadata.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>

#include "json_document.hpp"
#include "npy_header.hpp"
#include "regular_file.hpp"
#include "nt/error.hpp"
#include "nt/name.hpp"
#include "nt/spec.hpp"

namespace nt::detail {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void bad(const std::string& path, std::string_view file, const std::string& why) {
    throw_error(errc::format_error, zarr_where(path) + ": " + std::string(file) + ": " + why);
}

/// The file's text, or false when it does not exist.
bool read_metadata_file(const std::string& file, const std::string& path, std::string& text) {
    std::error_code ec;
    if (!fs::exists(file, ec) && !fs::is_symlink(file, ec)) return false;
    text = detail::read_small_file(file, zarr_where(path) + ": '" + file + "'", std::uint64_t{64} << 20,
                                   "a metadata document");
    return true;
}

/// The document's root, an object (zarr reads JSON as nlohmann::json::parse does:
/// a repeated key keeps its last value).
json_document parse(const std::string& path, std::string_view file, const std::string& text) {
    json_document doc;
    try {
        doc = json_document::parse(text, json_rules::lenient);
    } catch (const error&) {
        bad(path, file, "not valid JSON; fix or rewrite the file");
    }
    if (!doc.root().is_object()) bad(path, file, "must hold a JSON object");
    return doc;
}

std::string group_hint(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path + "/.zgroup", ec)) return "";
    std::vector<std::string> arrays;
    for (const auto& e : fs::directory_iterator(path, ec))
        if (fs::exists(e.path() / ".zarray", ec)) arrays.push_back(e.path().filename().string());
    std::sort(arrays.begin(), arrays.end());
    if (arrays.empty()) return "; it is a zarr group without arrays";
    std::string list;
    for (const auto& a : arrays) list += (list.empty() ? "" : ", ") + a;
    return "; it is a zarr group holding " + list + ": open '" + path + "/" + arrays.front() + "'";
}

std::string text_of(const std::vector<std::int64_t>& v) { return shape_string(v); }

}  // namespace

std::string zarr_where(std::string_view path) { return "zarr '" + std::string(path) + "'"; }

bool is_zarr_placeholder_name(std::string_view s) noexcept {
    if (s.size() < 5 || s.substr(0, 4) != "dim_") return false;
    return std::all_of(s.begin() + 4, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

zarr_metadata read_zarr_metadata(const std::string& given) {
    zarr_metadata m;
    m.path = given;
    while (m.path.size() > 1 && m.path.back() == '/') m.path.pop_back();
    const std::string& p = m.path;
    std::string text;
    if (!read_metadata_file(p + "/.zarray", p, text)) {
        std::error_code ec;
        if (!fs::exists(p, ec))
            throw_error(errc::io_error, zarr_where(p) + ": the folder does not exist; give the folder holding .zarray");
        throw_error(errc::io_error, zarr_where(p) + ": holds no .zarray, so it is not a zarr v2 array" + group_hint(p));
    }
    const json_document doc = parse(p, ".zarray", text);
    const json_value j = doc.root();
    const auto format = j.find("zarr_format");
    if (!format || !format->is_number() || format->number() != 2)  // 2.0 passes, as nlohmann's == 2 did
        bad(p, ".zarray", "\"zarr_format\" must be 2 (ntensor reads zarr v2 stores)");
    auto sizes = [&](const char* key, std::int64_t least) {
        const auto list = j.find(key);
        if (!list || !list->is_array())
            bad(p, ".zarray", std::string("\"") + key + "\" must be a list of integers");
        if (list->size() > max_rank)
            bad(p, ".zarray", std::string("\"") + key + "\" has " + std::to_string(list->size()) +
                                  " axes, over ntensor's " + std::to_string(max_rank));
        std::vector<std::int64_t> v;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const json_value e = (*list)[i];
            const bool ok = (e.kind() == json_kind::unsigned_integer && e.unsigned_integer() <= (std::uint64_t{1} << 62)) ||
                            e.kind() == json_kind::integer;
            if (!ok || e.int64() < least)
                bad(p, ".zarray", std::string("\"") + key + "\" holds " + json_text(e) + "; its sizes are integers >= " +
                                      std::to_string(least));
            v.push_back(e.int64());
        }
        return v;
    };
    m.shape = sizes("shape", 0);
    m.chunks = sizes("chunks", 1);
    if (m.shape.size() != m.chunks.size())
        bad(p, ".zarray", "\"shape\" " + text_of(m.shape) + " and \"chunks\" " + text_of(m.chunks) +
                              " differ in length");
    const auto dtype = j.find("dtype");
    if (!dtype)
        bad(p, ".zarray", "\"dtype\" is missing; it is a string such as \"<u2\"");
    // A list is zarr's structured (record) dtype: a valid store, just not one ntensor reads.
    if (dtype->is_array())
        throw_error(errc::unsupported_dtype, zarr_where(p) + ": the structured dtype " + json_text(*dtype) +
                                                 " is not one ntensor reads (bool, integers, float16/32/64); "
                                                 "read its fields as separate arrays with zarr-python");
    if (!dtype->is_string())
        bad(p, ".zarray", "\"dtype\" holds " + json_text(*dtype) + "; it is a string such as \"<u2\"");
    m.descr = std::string(dtype->str());
    m.dtype = npy_dtype_name(m.descr);
    if (m.dtype.empty())
        throw_error(errc::unsupported_dtype, zarr_where(p) + ": the dtype '" + m.descr +
                                                 "' is not one ntensor reads (bool, integers, float16/32/64); "
                                                 "convert the store with zarr-python");
    m.big_endian = m.descr[0] == '>';
    const std::int64_t item = static_cast<std::int64_t>(npy_item_size(m.dtype));
    std::int64_t chunk_bytes = item;
    for (auto c : m.chunks) {
        if (chunk_bytes > zarr_max_chunk_bytes / c)
            bad(p, ".zarray", "chunks " + text_of(m.chunks) + " of " + m.descr +
                                  " are over the 2 GiB ntensor holds per chunk; rechunk the store");
        chunk_bytes *= c;
    }
    std::int64_t total = item;
    for (auto s : m.shape) {
        if (s != 0 && total > std::numeric_limits<std::int64_t>::max() / s)
            bad(p, ".zarray", "the shape " + text_of(m.shape) + " overflows 64-bit sizes");
        total = s == 0 ? total : total * s;
    }
    if (const auto filters = j.find("filters"); filters && !filters->is_null()) {
        if (!filters->is_array()) bad(p, ".zarray", "\"filters\" must be null or a list");
        if (!filters->empty())
            throw_error(errc::unsupported_dtype, zarr_where(p) + ": the filters " + json_text(*filters) +
                                                     " are not ones ntensor applies; rewrite the store without filters");
    }
    const auto order_value = j.find("order");
    const std::string order = order_value && order_value->is_string() ? std::string(order_value->str()) : "";
    if (order != "C" && order != "F") bad(p, ".zarray", "\"order\" must be \"C\" or \"F\"");
    m.order = order[0];
    if (const auto sep = j.find("dimension_separator")) {
        if (!sep->is_string() || (sep->str() != "." && sep->str() != "/"))
            bad(p, ".zarray", "\"dimension_separator\" must be \".\" or \"/\"");
        m.separator = sep->str()[0];
    }
    const auto compressor = j.find("compressor");
    m.compressor = compressor ? json_text(*compressor) : "null";
    const auto fill = j.find("fill_value");
    if (!fill) bad(p, ".zarray", "\"fill_value\" is missing (null when undefined)");
    m.fill_value = json_text(*fill);

    m.names.assign(m.shape.size(), "");
    m.attributes = "{}";
    if (read_metadata_file(p + "/.zattrs", p, text)) {
        const json_document attributes = parse(p, ".zattrs", text);
        const json_value a = attributes.root();
        m.attributes = json_text(a);
        if (const auto dims = a.find("_ARRAY_DIMENSIONS")) {
            if (!dims->is_array() || dims->size() != m.shape.size())
                bad(p, ".zattrs", "\"_ARRAY_DIMENSIONS\" must list one name per axis (" +
                                      std::to_string(m.shape.size()) + ")");
            for (std::size_t i = 0; i < dims->size(); ++i) {
                const json_value d = (*dims)[i];
                if (!d.is_string()) bad(p, ".zattrs", "\"_ARRAY_DIMENSIONS\" holds " + json_text(d) + ", not a name");
                const std::string t(d.str());
                // xarray's placeholder, and names ntensor cannot spell (spaces, over
                // 64 characters), read as unnamed.
                if (is_zarr_placeholder_name(t) || !name::is_valid(t)) continue;
                if (std::find(m.names.begin(), m.names.end(), t) != m.names.end())
                    bad(p, ".zattrs", "\"_ARRAY_DIMENSIONS\" names axis '" + t + "' twice");
                m.names[i] = t;
            }
        }
    }
    return m;
}

std::string zarr_attributes_with_names(const std::string& attributes, const std::vector<std::string>& names,
                                       std::string_view where) {
    std::optional<json_document> doc;
    try {
        doc = json_document::parse(attributes, json_rules::lenient);
    } catch (const error&) {
    }
    if (!doc || !doc->root().is_object())
        throw_error(errc::parse_error, std::string(where) + ": the attributes must be a JSON object, such as {\"units\": \"HU\"}");
    json_out j = json_out::copy(doc->root());
    json_out dims = json_out::array();
    for (std::size_t i = 0; i < names.size(); ++i)
        dims.push(json_out::string(names[i].empty() ? "dim_" + std::to_string(i) : names[i]));
    j.set("_ARRAY_DIMENSIONS", std::move(dims));
    j.sort_keys();  // nlohmann::json's order, which these files have always had
    json_style style;
    style.indent = 4;
    return j.dump(style);
}

}  // namespace nt::detail
