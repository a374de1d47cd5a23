// nt/zarr.hpp: chunked Zarr v2 stores, named as xarray names them, and OME-Zarr images.
//
//     # Python
//     xr.DataArray(vol, dims=("Z", "Y", "X")).to_dataset(name="ct").to_zarr("ct.zarr")
//
//     // C++
//     auto ct = nt::zarr::open("ct.zarr/ct");                 // names (Z, Y, X)
//     nt::any_tensor slab = ct.read({{"Z", nt::range(10, 20)}});   // reads 10 slices' chunks
//     auto out = nt::zarr::create("seg.zarr/mask", nt::dtype::u8, ct.shape(), ct.chunks(),
//                                 ct.names());
//     nt::zarr::map_chunks(ct, out, [](const nt::zarr::chunk_view& c) {
//         return nt::any_tensor(c.data.as<std::int16_t>() > 300);
//     });
//
// Stores: Zarr v2 directory stores (".zarray", ".zattrs", ".zgroup"), both dimension
// separators, C and F order, every ntensor element type, fill values including NaN
// and the infinities (a missing chunk reads as the fill value), compressors none,
// zlib, gzip, zstd and blosc (lz4, lz4hc, zstd, zlib, blosclz; no, byte or bit
// shuffle). zarr-python's defaults (blosc lz4, level 5, byte shuffle) open and are the
// defaults here. Names follow xarray: ".zattrs" "_ARRAY_DIMENSIONS"; an unnamed axis
// is written "dim_<i>" and such a name reads back as unnamed.
//
// Errors (nt::error): io_error (a file cannot be read or written: the path and the
// system's reason), format_error (malformed metadata, a corrupt, truncated or
// wrongly sized chunk: the message names the store and the chunk key),
// unsupported_dtype (a dtype, codec or filter ntensor does not read: it names it),
// axis_out_of_range / index_out_of_range (a region outside the array), the matcher's
// errors when a written tensor does not match the array's names and shape.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/dtype.hpp"
#include "nt/index.hpp"
#include "nt/io_options.hpp"
#include "nt/layout.hpp"
#include "nt/names.hpp"

namespace nt::zarr {

/// A chunk codec as ".zarray" "compressor" spells it.
struct codec {
    /// "" (none), "zlib", "gzip", "zstd" or "blosc".
    std::string id = "blosc";
    /// blosc's inner codec: "lz4", "lz4hc", "zstd", "zlib" or "blosclz".
    std::string cname = "lz4";
    /// The level: blosc's clevel (0-9), zlib/gzip's level (0-9), zstd's level.
    int level = 5;
    /// blosc's shuffle: 0 none, 1 byte, 2 bit.
    int shuffle = 1;

    [[nodiscard]] static codec none() { return {"", "", 0, 0}; }
    [[nodiscard]] static codec blosc(std::string cname = "lz4", int level = 5, int shuffle = 1) {
        return {"blosc", std::move(cname), level, shuffle};
    }
    [[nodiscard]] static codec zlib(int level = 1) { return {"zlib", "", level, 0}; }
    [[nodiscard]] static codec gzip(int level = 1) { return {"gzip", "", level, 0}; }
    [[nodiscard]] static codec zstd(int level = 1) { return {"zstd", "", level, 0}; }
    /// "blosc(lz4, level 5, byte shuffle)", "zstd(level 3)", "none", for messages and `ntensor info`.
    [[nodiscard]] std::string str() const;
    friend bool operator==(const codec&, const codec&) = default;
};

/// The fill value of a new array (its missing chunks read as it). By default what
/// xarray itself writes: none for integer and bool arrays, NaN for floating ones, so
/// that xarray opens the store with the same dtype and values (xarray reads any fill
/// value as its missing-value marker: a fill of 0 would turn an int16 label map into
/// float32 with NaN for every background 0). Give a value, or std::nullopt for none.
class fill_choice {
public:
    constexpr fill_choice() noexcept = default;
    constexpr fill_choice(double value) noexcept : chosen_(true), value_(value) {}                  // NOLINT
    constexpr fill_choice(std::nullopt_t) noexcept : chosen_(true) {}                               // NOLINT
    constexpr fill_choice(std::optional<double> value) noexcept : chosen_(true), value_(value) {}  // NOLINT

    /// Whether the caller chose (a value or none); false: the dtype's default.
    [[nodiscard]] constexpr bool chosen() const noexcept { return chosen_; }
    /// The fill value an array of `d` gets (nullopt: none, written `null`).
    [[nodiscard]] std::optional<double> for_dtype(nt::dtype d) const noexcept;

private:
    bool chosen_ = false;
    std::optional<double> value_;
};

/// The options of create(): how chunks are stored.
struct create_options {
    codec compressor = codec::blosc();
    /// 'C' or 'F': the element order inside each chunk.
    char order = 'C';
    /// '.' or '/': the separator in chunk keys ("0.3.1" or "0/3/1").
    char dimension_separator = '.';
    /// The value of missing chunks (see fill_choice): by default none for integer
    /// and bool arrays, NaN for floating ones. std::nullopt writes `null` (ntensor
    /// reads missing chunks as 0 then; zarr-python leaves them undefined, so write
    /// every chunk). NaN and +-infinity are written as zarr spells them.
    fill_choice fill_value;
    /// Replace an existing array at the path (else io_error names it). The new
    /// array is made beside the old one, which is removed only once the new one
    /// has taken its place: a failure leaves the old array whole.
    bool overwrite = false;
    /// Durable writes of the metadata and of every chunk written through the array.
    io_options io;
};

/// One axis's part of a region: an axis (by index or name) and the elements on it.
/// Steps other than 1 are refused (invalid_argument); axes not listed are whole.
using region = std::vector<std::pair<Axis, nt::range>>;

struct chunk_view;
struct map_options;

/// A Zarr v2 array in a directory store. Copies share the open array; reads and
/// writes of disjoint chunks may run from several threads.
class array {
public:
    /// The store's folder, as given to open() or create().
    [[nodiscard]] const std::string& path() const noexcept;
    [[nodiscard]] nt::dtype dtype() const noexcept;
    [[nodiscard]] const std::vector<std::int64_t>& shape() const noexcept;
    [[nodiscard]] const std::vector<std::int64_t>& chunks() const noexcept;
    /// One name per axis ("?" for unnamed, from "_ARRAY_DIMENSIONS").
    [[nodiscard]] std::vector<name> names() const;
    /// Shape and names as a spec, as tensors report them: "(Z=64, Y=512, X=512)".
    [[nodiscard]] nt::spec spec() const;
    [[nodiscard]] const codec& compressor() const noexcept;
    [[nodiscard]] char order() const noexcept;
    [[nodiscard]] char dimension_separator() const noexcept;
    /// The fill value (nullopt when the store says null).
    [[nodiscard]] std::optional<double> fill_value() const noexcept;
    /// The number of chunks along each axis, and in all.
    [[nodiscard]] std::vector<std::int64_t> chunk_grid() const;
    [[nodiscard]] std::int64_t chunk_count() const;
    /// ".zattrs" as JSON text ("{}" when absent).
    [[nodiscard]] std::string attributes() const;
    /// Replaces ".zattrs" (written atomically) with the JSON object `json`, keeping
    /// "_ARRAY_DIMENSIONS". Throws parse_error when `json` is not an object.
    void set_attributes(const std::string& json);

    /// A handle on the same store whose reads and writes name the axes `names`
    /// (OME-Zarr levels take the image's axis names this way). Nothing is written.
    /// Throws invalid_argument for a names length other than the rank.
    [[nodiscard]] array rename(names_arg names) const;

    /// The whole array, named, in a new C-contiguous tensor.
    [[nodiscard]] any_tensor read() const;
    /// The elements of `r`; reads and decodes only the chunks the region touches, on
    /// the library's thread pool.
    [[nodiscard]] any_tensor read(const region& r) const;
    /// Writes `t` broadcast to the whole array; `t` is matched to the array's names as
    /// assign matches (names first, then right-aligned unnamed axes), and converted
    /// to the array's dtype as astype converts.
    void write(const any_tensor& t);
    /// Writes `t` into the region `r`; chunks the region covers only in part are read,
    /// updated and written back. Each chunk file is replaced atomically.
    void write(const region& r, const any_tensor& t);

    /// An array in a store (used by open and create).
    struct state;
    explicit array(std::shared_ptr<state> s) noexcept : s_(std::move(s)) {}

private:
    // map_chunks reads halos through a cache of decoded chunks.
    friend void map_chunks(const array&, array&, const std::function<any_tensor(const chunk_view&)>&,
                           const std::vector<std::pair<Axis, std::int64_t>>&, const map_options&);
    std::shared_ptr<state> s_;
};

/// Opens the array at `path` (a folder holding ".zarray"); its chunk writes are
/// durable unless `io.durable` is false. Throws io_error, format_error,
/// unsupported_dtype.
[[nodiscard]] array open(const std::string& path, const io_options& io = {});

/// Creates an array: writes ".zarray" (and ".zattrs" with the names), and a
/// ".zgroup" in each parent folder that has none, up to the first folder that
/// exists, as zarr-python does. No chunk is written: the array reads as the fill
/// value. `chunks` entries of 0 mean the whole axis. Throws invalid_argument (chunk
/// sizes, a non-positive shape), io_error (the path exists and !overwrite).
/// `shape`, `chunks` and `names` take braced lists, vectors and a tensor's or
/// array's own: `create(p, t.dtype(), t.shape(), {64, 64}, t.names())`.
[[nodiscard]] array create(const std::string& path, nt::dtype dtype, shape_arg shape, shape_arg chunks,
                           names_arg names = {}, const create_options& options = {});

// --- chunk-wise processing ----------------------------------------------------------

/// A halo: extra elements on both sides of each chunk, per axis (by name or index).
using halo = std::vector<std::pair<Axis, std::int64_t>>;

/// What map_chunks hands the function for one chunk.
struct chunk_view {
    /// The chunk with its halo, named as the source is. Near the array's edges the
    /// halo is cut where the array ends (no padding): compare `inner`.
    any_tensor data;
    /// Where the chunk itself (without halo) lies in the source array.
    region inner;
    /// Where the chunk itself lies inside `data`.
    region inner_in_data;
    /// The chunk's index along each axis.
    std::vector<std::int64_t> chunk_index;
};

/// The options of map_chunks.
struct map_options {
    /// At most this many decoded chunks are held at once: two per chunk in flight
    /// (its input with halo and its result), the rest keeps decoded source chunks
    /// that neighbouring halos read again. 0: one chunk in flight per thread, and 27
    /// kept chunks (a 3x3x3 neighbourhood) when there is a halo. The peak memory is
    /// documented in docs/zarr.md as a formula of this number.
    std::int64_t max_chunks_in_memory = 0;
    /// Called as progress(done, total) after each chunk, from the calling thread.
    std::function<void(std::int64_t done, std::int64_t total)> progress;
};

/// Runs `f` on every chunk of `src` (with `h` around it) and writes what it returns
/// to the same place in `dst`, which has src's shape. `f` returns either the chunk's
/// shape or data's shape (halo included, then cut away). Chunks run on the thread
/// pool. Throws what f throws, and invalid_argument when shapes disagree.
void map_chunks(const array& src, array& dst, const std::function<any_tensor(const chunk_view&)>& f,
                const halo& h = {}, const map_options& options = {});

// --- OME-Zarr (OME-NGFF 0.4) ---------------------------------------------------------

/// One axis of an OME-Zarr image: its name ("t", "c", "z", "y", "x", ...), its type
/// ("time", "channel", "space" or other) and its unit ("micrometer", "second", "").
struct ome_axis {
    std::string name;
    std::string type;
    std::string unit;
    friend bool operator==(const ome_axis&, const ome_axis&) = default;
};

/// One resolution level: its array and its coordinate transformations.
struct ome_level {
    std::string path;                  ///< the dataset's path inside the image ("0", "1", ...)
    std::vector<double> scale;         ///< one per axis
    std::vector<double> translation;   ///< one per axis (zeros when absent)
    zarr::array data;
};

/// An OME-Zarr image: the first multiscale of the group's "multiscales".
struct ome_image {
    std::string name;
    std::vector<ome_axis> axes;
    std::vector<ome_level> levels;  ///< finest first
};

/// Opens the OME-Zarr image at `path` (a group with "multiscales" in ".zattrs"). The
/// levels' arrays are named after the axes. Throws format_error naming the broken
/// rule of NGFF 0.4 (see validate_ome), io_error.
[[nodiscard]] ome_image open_ome(const std::string& path);

/// How write_ome writes an image.
struct ome_options {
    /// One per axis of the tensor; empty: from the tensor's names ("t" time, "c"
    /// channel, "z"/"y"/"x" space, case-insensitive; others are refused).
    std::vector<ome_axis> axes;
    /// The finest level's scale per axis (empty: 1 each).
    std::vector<double> scale;
    /// Chunks per axis (empty: 1 on time and channel axes, 64 on spatial axes).
    std::vector<std::int64_t> chunks;
    codec compressor = codec::blosc();
    std::string name;
    /// Replace an existing image: made beside it and swapped in when complete.
    bool overwrite = false;
    io_options io;
};

/// Writes `t` as an OME-Zarr image with a pyramid: each level halves the spatial
/// axes (mean of 2 per axis, the last odd element averaged alone) until a level fits
/// in one chunk. Returns the image as open_ome would.
ome_image write_ome(const std::string& path, const any_tensor& t, const ome_options& options = {});

/// NGFF 0.4's rules for the multiscales metadata of the image at `path`, checked from
/// the specification's text; returns the rules broken (empty: valid).
[[nodiscard]] std::vector<std::string> validate_ome(const std::string& path);

}  // namespace nt::zarr
