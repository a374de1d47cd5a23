// npy_header.hpp (private to ntensor): the shape-only reader of NumPy .npy headers.
//
// One reader and one dtype table serve the core's load_npy / map_npy / npz code,
// `ntensor info` and `"npy"` keys in shape configs. Format:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
//
//     \x93NUMPY <major> <minor> <header_len: u16 LE (1.0) or u32 LE (2.0, 3.0)>
//     {'descr': '<i2', 'fortran_order': False, 'shape': (3, 4), }   (padded, '\n')
//     <data: product(shape) * item_size bytes>
//
// Every problem is an nt::error: io_error (open/read), format_error (magic, version,
// header syntax, keys, sizes that disagree with the stream length), unsupported_dtype
// (descr outside the table). Nothing is allocated beyond the bytes the stream holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nt::detail {

/// Byte order of the data as the descr spells it.
enum class npy_byte_order : char {
    little = '<',
    big = '>',
    not_applicable = '|',  ///< one-byte types
};

/// What a .npy header says. Plain data; `dtype` is ntensor's short spelling.
struct npy_header {
    std::string descr;              ///< as written, e.g. "<i2", ">f8", "|b1"
    char kind = 0;                  ///< NumPy kind: 'b', 'i', 'u' or 'f'
    std::int64_t item_size = 0;     ///< bytes per element
    npy_byte_order byte_order = npy_byte_order::little;
    std::string_view dtype;         ///< "i16", "f64", "b8", ... (see npy_dtype_name)
    bool fortran_order = false;
    std::vector<std::int64_t> shape;
    std::uint64_t data_offset = 0;  ///< bytes before the data (preamble + header)
    int major_version = 1;
    int minor_version = 0;

    /// product(shape); checked against overflow by the parser.
    [[nodiscard]] std::int64_t element_count() const noexcept;
    /// element_count() * item_size.
    [[nodiscard]] std::uint64_t data_bytes() const noexcept;
    /// True when the data needs a byte swap on this (little-endian) machine.
    [[nodiscard]] bool needs_swap() const noexcept {
        return byte_order == npy_byte_order::big && item_size > 1;
    }
    /// "1.0", "2.0", "3.0".
    [[nodiscard]] std::string version_string() const;
};

/// ntensor's short dtype spelling of a NumPy descr ("<u2" -> "u16", "|b1" -> "b8",
/// ">f4" -> "f32"); "" for a descr outside the table (complex, object, strings,
/// datetimes, structured, unknown). Accepts byte order '<', '>', '|', '=' or none.
[[nodiscard]] std::string_view npy_dtype_name(std::string_view descr) noexcept;

/// Bytes per element of a short dtype spelling ("u16" -> 2); 0 when unknown.
[[nodiscard]] std::size_t npy_item_size(std::string_view dtype) noexcept;

/// The NumPy descr ntensor writes for a short dtype spelling, little-endian
/// ("i16" -> "<i2", "b8" -> "|b1"); "" if unknown.
[[nodiscard]] std::string_view npy_descr_for(std::string_view dtype) noexcept;

/// Bytes before the data, from the preamble alone: `first` holds the stream's first
/// min(12, stream_size) bytes. Throws format_error (magic, version, a header that
/// runs past `stream_size`). `where` names the file in messages.
[[nodiscard]] std::uint64_t npy_data_offset(std::span<const char> first, std::uint64_t stream_size,
                                            std::string_view where);

/// Parses a header. `bytes` holds at least the first npy_data_offset() bytes of a
/// stream of `stream_size` bytes; the data must be exactly data_bytes() long. Throws
/// format_error or unsupported_dtype naming `where`, the field or byte offset, what
/// was expected and the fix.
[[nodiscard]] npy_header parse_npy_header(std::span<const char> bytes, std::uint64_t stream_size,
                                          std::string_view where);

/// Opens `path`, reads only its header and checks the file length. Throws io_error,
/// format_error or unsupported_dtype.
[[nodiscard]] npy_header read_npy_header(const std::string& path);

/// The header text NumPy's np.save would write for these fields (version 1.0 when
/// it fits, else 2.0; padded so the data starts at a multiple of 64).
[[nodiscard]] std::string make_npy_header(std::string_view descr, bool fortran_order,
                                          std::span<const std::int64_t> shape);

}  // namespace nt::detail
