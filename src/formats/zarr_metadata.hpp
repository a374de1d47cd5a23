// Internal: a zarr v2 array's metadata (.zarray and the names of .zattrs), read
// without its data. One reader serves the tensor core's nt::zarr::open, the
// pipeline's "zarr" tensors and `ntensor info`. Errors (nt::error) name the store
// and the file: io_error (no .zarray), format_error (malformed or lying metadata),
// unsupported_dtype (a dtype or filter ntensor does not read).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nt::detail {

struct zarr_metadata {
    std::string path;                   ///< the array's folder, without a trailing '/'
    std::string descr;                  ///< as written, e.g. "<u2"
    std::string_view dtype;             ///< ntensor's short spelling ("u16")
    bool big_endian = false;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> chunks;
    char order = 'C';
    char separator = '.';
    std::string compressor;             ///< the "compressor" value as JSON text ("null" for none)
    std::string fill_value;             ///< the "fill_value" value as JSON text
    std::vector<std::string> names;     ///< one per axis; "" for unnamed (dim_<i>, absent, or not a valid name)
    std::string attributes;             ///< .zattrs as JSON text ("{}" when absent)
};

/// The largest chunk ntensor reads or writes, in bytes (blosc's limit; it also
/// bounds what a lying .zarray can make ntensor allocate).
inline constexpr std::int64_t zarr_max_chunk_bytes = std::int64_t{2147483647} - 16;

/// "zarr 'ct.zarr/ct'", the start of every message about one store.
[[nodiscard]] std::string zarr_where(std::string_view path);

/// Reads `path`/.zarray and `path`/.zattrs.
[[nodiscard]] zarr_metadata read_zarr_metadata(const std::string& path);

/// The parsed .zattrs object as JSON text, for writing back with "_ARRAY_DIMENSIONS"
/// set to `names` ("" written as dim_<i>). Throws parse_error when `attributes` is not
/// a JSON object.
[[nodiscard]] std::string zarr_attributes_with_names(const std::string& attributes,
                                                     const std::vector<std::string>& names, std::string_view where);

/// "dim_<digits>": xarray's name for an axis without one, read back as unnamed.
[[nodiscard]] bool is_zarr_placeholder_name(std::string_view s) noexcept;

}  // namespace nt::detail
