// nt/npy.hpp: NumPy's .npy and .npz files.
//
//     # Python
//     np.save("ct.npy", volume)                       # int16, (D, H, W)
//
//     // C++
//     nt::any_tensor ct = nt::map_npy("ct.npy");      // no read: a memory mapping
//     auto hu = ct.as<std::int16_t>();                // Tensor<int16_t>, same memory
//     nt::save_npy("mask.npy", hu > 300);             // np.load("mask.npy") reads it
//
// Formats: .npy versions 1.0, 2.0 and 3.0, little- and big-endian data (big-endian
// is byte-swapped on load), C and Fortran order (`fortran_order: True` loads as a
// Fortran-strided tensor, no copy); element types bool, int8-64, uint8-64 and
// float16-64. .npz archives as np.savez and np.savez_compressed write them (zip,
// stored or deflate, zip64). NPY headers cannot carry axis names (NumPy rejects extra
// header keys): names are given at load time.
//
// Errors (nt::error): io_error (a file cannot be opened, read, written, mapped or
// renamed: the message names the path and the system's reason), format_error (bad
// magic, malformed header, sizes that disagree with the file length, truncated or
// corrupt data: it names the path, the byte offset or field and what was expected),
// unsupported_dtype (complex, object, string, datetime or structured dtypes, zip
// methods other than stored and deflate), type_mismatch (load_npy<T> of another
// dtype), invalid_spec / duplicate_name (names). A lying header never makes the
// library allocate more than the file holds, and a failed save leaves no file.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/io_options.hpp"
#include "nt/names.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// How map_npy maps a file.
enum class map_mode : std::uint8_t {
    read_only,      ///< a read-only tensor; writes throw read_only
    read_write,     ///< writes through the tensor reach the file
    copy_on_write,  ///< writable, but writes stay in this process: the file never changes
};

/// How save_npz stores its entries.
enum class npz_compression : std::uint8_t {
    none,     ///< np.savez (zip method "stored")
    deflate,  ///< np.savez_compressed (zip method "deflate")
};

/// Reads a .npy file into a new C- (or, for `fortran_order: True`, F-) contiguous
/// tensor, with `names` for its axes (empty: unnamed; else one per axis, "?" for
/// unnamed). Throws io_error, format_error, unsupported_dtype, invalid_spec.
///     auto ct = nt::load_npy("ct.npy", {"D", "H", "W"});
[[nodiscard]] any_tensor load_npy(const std::string& path, names_arg names = {});

namespace detail {
/// load_npy that throws type_mismatch (naming both dtypes and the path) before
/// reading any data when the file does not hold `expected`.
[[nodiscard]] tensor_base load_npy_as(const std::string& path, names_arg names, dtype expected);
}  // namespace detail

/// load_npy for a known element type. Throws type_mismatch when the file holds
/// another dtype (`nt::load_npy(path).astype<T>()` converts).
template <element T>
[[nodiscard]] Tensor<T> load_npy(const std::string& path, names_arg names = {}) {
    return Tensor<T>(detail::load_npy_as(path, names, dtype_of<T>));
}

/// Writes `t` (any strides; a Fortran-contiguous tensor is written with
/// `fortran_order: True` as NumPy does) in .npy format 1.0 (2.0 for headers over
/// 64 KiB), little-endian. The file appears complete or not at all (a temporary
/// in the same folder, renamed), synced to the disk unless `io.durable` is false.
/// Throws io_error.
void save_npy(const std::string& path, const any_tensor& t, const io_options& io = {});

/// A tensor over a memory mapping of a .npy file: nothing is read until used, files
/// larger than memory work, and the mapping lives as long as any view of it.
/// `read_only` tensors throw read_only on writes; `read_write` writes reach the file;
/// `copy_on_write` writes stay private. Throws io_error, format_error,
/// unsupported_dtype (also for big-endian files: use load_npy, which swaps bytes,
/// and for data not aligned to its element size), invalid_spec.
/// Note: another process truncating the file while it is mapped makes later reads
/// fail with SIGBUS, as for any mapping; bool files are not checked for bytes other
/// than 0 and 1 (load_npy normalises them).
///     auto vol = nt::map_npy("big.npy", nt::map_mode::read_only, {"D", "H", "W"});
[[nodiscard]] any_tensor map_npy(const std::string& path, map_mode mode = map_mode::read_only,
                                 names_arg names = {});

/// One named array of an .npz archive.
struct npz_entry {
    std::string name;  ///< without the ".npy" suffix the archive stores
    any_tensor array;
};

/// The arrays of an .npz archive, in archive order.
///     nt::npz z = nt::load_npz("data.npz");
///     for (const auto& [name, array] : z) std::cout << name << " " << array.spec() << "\n";
///     auto img = z["img"];
class npz {
public:
    npz() = default;
    explicit npz(std::vector<npz_entry> entries) : entries_(std::move(entries)) {}

    /// Entry names in archive order, without ".npy".
    [[nodiscard]] std::vector<std::string> names() const;
    /// The array stored as `name` (with or without ".npy"). Throws invalid_argument
    /// naming the available entries.
    [[nodiscard]] const any_tensor& operator[](std::string_view name) const;
    /// True when an entry `name` (with or without ".npy") exists.
    [[nodiscard]] bool contains(std::string_view name) const noexcept;
    [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
    [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
    [[nodiscard]] auto begin() const noexcept { return entries_.begin(); }
    [[nodiscard]] auto end() const noexcept { return entries_.end(); }

private:
    [[nodiscard]] const npz_entry* find(std::string_view name) const noexcept;
    std::vector<npz_entry> entries_;
};

/// Reads every array of an .npz archive (what np.savez and np.savez_compressed
/// write). Throws io_error, format_error (not a zip, damaged directory, CRC or
/// deflate errors, sizes that disagree, duplicate or non-.npy members),
/// unsupported_dtype (an entry's dtype, a zip method other than stored/deflate, an
/// encrypted entry).
[[nodiscard]] npz load_npz(const std::string& path);

/// Writes arrays as an .npz archive readable by np.load: entries `<name>.npy` in the
/// given order, stored or deflate-compressed, zip64 when sizes need it. Atomic as
/// save_npy. Throws invalid_argument (an empty, repeated or '/'-containing name) and
/// io_error.
///     nt::save_npz("out.npz", {{"img", img}, {"lbl", lbl}}, nt::npz_compression::deflate);
void save_npz(const std::string& path, std::span<const npz_entry> entries,
              npz_compression compression = npz_compression::none, const io_options& io = {});
void save_npz(const std::string& path, std::initializer_list<npz_entry> entries,
              npz_compression compression = npz_compression::none, const io_options& io = {});

}  // namespace nt
