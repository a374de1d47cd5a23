// Zarr v2 directory stores: metadata (.zarray, .zattrs, .zgroup), chunk keys, region
// reads and writes chunk by chunk, and map_chunks. The codecs are in zarr_codec.cpp;
// every element copy goes through the engine's copy_elements.
#include "nt/zarr.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <list>
#include <mutex>
#include <unordered_map>
#include <string>
#include <system_error>
#include <type_traits>

#include "copy.hpp"
#include "core_errors.hpp"
#include "file_io.hpp"
#include "json_document.hpp"
#include "npy_header.hpp"
#include "zarr_metadata.hpp"
#include "nt/detail/visit_dtype.hpp"
#include "nt/error.hpp"
#include "nt/threads.hpp"
#include "zarr_codec.hpp"

namespace nt::zarr {

using detail::json_document;
using detail::json_out;
using detail::json_value;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t max_chunk_bytes = detail::zarr_max_chunk_bytes;

std::string store_where(const std::string& path) { return detail::zarr_where(path); }

[[noreturn]] void bad_metadata(const std::string& path, const std::string& file, const std::string& why) {
    throw_error(errc::format_error, store_where(path) + ": " + file + ": " + why);
}

bool is_float(dtype d) { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

/// The value as `d`'s bytes, converted as astype converts.
template <class V>
void convert_scalar(V v, dtype from, dtype d, std::byte* out) {
    auto src = detail::tensor_base::wrap(from, &v, {}, {}, nullptr, {});
    auto dst = detail::tensor_base::wrap(d, out, {}, {}, nullptr, {});
    dst.assign(src);
}

/// Whether an integer fits `d` (an integer or bool dtype).
bool fits(dtype d, long double v) {
    return nt::detail::visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (std::is_same_v<T, bool>) return v == 0 || v == 1;
        else if constexpr (std::is_integral_v<T>)
            return v >= static_cast<long double>(std::numeric_limits<T>::min()) &&
                   v <= static_cast<long double>(std::numeric_limits<T>::max());
        else return true;
    });
}

}  // namespace

// --- the open array -------------------------------------------------------------------

struct array::state {
    std::string path;
    nt::dtype type = dtype::u8;
    bool big_endian = false;
    std::vector<std::int64_t> shape, chunks;
    std::vector<name> names;
    codec compressor;
    char order = 'C';
    char separator = '.';
    std::optional<double> fill;
    std::array<std::byte, 8> fill_bytes{};
    std::size_t item_size = 1;
    std::int64_t chunk_elements = 1;

    // The store's folder made absolute and free of links and dots: the key of its
    // locks, shared by every handle of the process that opens the same array.
    std::string lock_key;
    bool durable = true;

    std::string where() const { return store_where(path); }
    std::string key(std::span<const std::int64_t> index) const {
        if (index.empty()) return "0";
        std::string k;
        for (std::size_t i = 0; i < index.size(); ++i) {
            if (i) k += separator;
            k += std::to_string(index[i]);
        }
        return k;
    }
    std::string chunk_where(const std::string& k) const { return where() + " chunk '" + k + "'"; }
    /// The lock a read-modify-write of chunk `k` (or ".zattrs") holds.
    std::mutex& lock_for(const std::string& k) const { return process_lock(lock_key + "/" + k); }
    /// Locks of one table for the whole process, keyed by file: two handles of one
    /// array (opened separately, perhaps under different spellings of its path) that
    /// update one chunk from two threads must exclude each other, so the locks
    /// cannot live in a handle. Stripes: distinct chunks rarely share one.
    static std::mutex& process_lock(const std::string& key) {
        static std::array<std::mutex, 256> stripes;
        return stripes[std::hash<std::string>{}(key) % stripes.size()];
    }
    std::size_t chunk_bytes() const { return static_cast<std::size_t>(chunk_elements) * item_size; }
    nt::layout chunk_layout() const {
        return order == 'F' ? nt::layout::f_contiguous(chunks) : nt::layout::c_contiguous(chunks);
    }
};

namespace {

using state = array::state;

/// A worker's buffers, reused from chunk to chunk: fresh pages for every chunk cost
/// more than the copies (page faults).
struct scratch {
    std::unique_ptr<std::byte[]> chunk;
    std::string stored;
    explicit scratch(const state& s) : chunk(new std::byte[std::max<std::size_t>(s.chunk_bytes(), 1)]) {}
};

void fill_chunk(const state& s, std::byte* out) {
    if (std::all_of(s.fill_bytes.begin(), s.fill_bytes.begin() + static_cast<std::ptrdiff_t>(s.item_size),
                    [](std::byte b) { return b == std::byte{0}; })) {
        std::memset(out, 0, s.chunk_bytes());
        return;
    }
    for (std::int64_t i = 0; i < s.chunk_elements; ++i)
        std::memcpy(out + i * static_cast<std::int64_t>(s.item_size), s.fill_bytes.data(), s.item_size);
}

/// One chunk's bytes as stored (the elements in the array's order and dtype, native
/// byte order), or the fill value when the chunk file does not exist.
void load_chunk(const state& s, std::span<const std::int64_t> index, std::byte* out, std::string& stored) {
    const std::string k = s.key(index);
    const std::string file = s.path + "/" + k;
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        fill_chunk(s, out);
        return;
    }
    detail::input_file f(file, "zarr read");
    if (f.size() > static_cast<std::uint64_t>(max_chunk_bytes) + 65536)
        throw_error(errc::format_error, s.chunk_where(k) + ": " + std::to_string(f.size()) +
                                            " bytes stored for a chunk of " + std::to_string(s.chunk_bytes()) +
                                            " bytes; the file does not belong to this array");
    if (s.compressor.id.empty() && f.size() == s.chunk_bytes()) {
        f.read_at(0, out, s.chunk_bytes(), "the chunk");  // stored as is: no staging copy
    } else {
        stored.resize(static_cast<std::size_t>(f.size()));
        f.read_at(0, stored.data(), stored.size(), "the chunk");
        detail::decode_chunk(s.compressor, stored, out, s.chunk_bytes(), s.chunk_where(k));
    }
    if (s.big_endian && s.item_size > 1) {
        for (std::int64_t i = 0; i < s.chunk_elements; ++i)
            std::reverse(out + i * static_cast<std::int64_t>(s.item_size),
                         out + (i + 1) * static_cast<std::int64_t>(s.item_size));
    }
    if (s.type == dtype::b8)
        for (std::size_t i = 0; i < s.chunk_bytes(); ++i) out[i] = std::byte{out[i] != std::byte{0}};
}

/// Writes one chunk's elements (native byte order; swapped in place for a
/// big-endian store, so `data` is a scratch buffer then).
void store_chunk(const state& s, std::span<const std::int64_t> index, const std::byte* data, std::string& encoded) {
    const std::string k = s.key(index);
    if (s.big_endian && s.item_size > 1) {
        auto* bytes = const_cast<std::byte*>(data);
        for (std::int64_t i = 0; i < s.chunk_elements; ++i)
            std::reverse(bytes + i * static_cast<std::int64_t>(s.item_size),
                         bytes + (i + 1) * static_cast<std::int64_t>(s.item_size));
    }
    const bool raw = s.compressor.id.empty();
    if (!raw) detail::encode_chunk(s.compressor, data, s.chunk_bytes(), s.item_size, s.chunk_where(k), encoded);
    const std::string file = s.path + "/" + k;
    if (s.separator == '/') {
        std::error_code ec;
        fs::create_directories(fs::path(file).parent_path(), ec);
        if (ec)
            throw_error(errc::io_error, s.chunk_where(k) + ": cannot create its folder: " + ec.message());
    }
    detail::atomic_output_file out(file, "zarr write", s.durable);
    if (raw) out.write(data, s.chunk_bytes());
    else out.write(encoded);
    out.commit();
}

/// A box of elements: [lo, hi) per axis.
struct box {
    std::vector<std::int64_t> lo, hi;
    std::vector<std::int64_t> sizes() const {
        std::vector<std::int64_t> s(lo.size());
        for (std::size_t i = 0; i < lo.size(); ++i) s[i] = hi[i] - lo[i];
        return s;
    }
    bool empty() const {
        for (std::size_t i = 0; i < lo.size(); ++i)
            if (hi[i] <= lo[i]) return true;
        return false;
    }
};

/// "1 ('Y')" or "0": an axis as messages name it.
std::string axis_text(const state& s, std::size_t a) {
    return std::to_string(a) + (s.names[a] ? " ('" + std::string(s.names[a].str()) + "')" : std::string());
}

/// "{{"Y", nt::range(0, 4)}, {1, nt::range(2, 5)}}": a region as the caller writes it.
std::string region_text(const state& s, std::span<const std::int64_t> lo, std::span<const std::int64_t> hi) {
    std::string text = "{";
    for (std::size_t i = 0; i < lo.size(); ++i) {
        text += i ? ", {" : "{";
        text += s.names[i] ? "\"" + std::string(s.names[i].str()) + "\"" : std::to_string(i);
        text += ", nt::range(" + std::to_string(lo[i]) + ", " + std::to_string(hi[i]) + ")}";
    }
    return text + "}";
}

box resolve_region(const state& s, const region& r, std::string_view op) {
    box b{std::vector<std::int64_t>(s.shape.size(), 0), s.shape};
    std::vector<bool> given(s.shape.size(), false);
    for (const auto& [axis, rng] : r) {
        const std::size_t a = resolve_axis(axis, s.names, op, s.shape);
        if (given[a])
            throw_error(errc::invalid_argument, std::string(op) + ": " + s.where() + ": axis " + std::to_string(a) +
                                                    " is given twice in the region; give each axis once");
        given[a] = true;
        // A region lies inside the array: a bound past the end is a mistake (a
        // region in another array's coordinates), never a request for less.
        for (const auto bound : {rng.start, rng.stop})
            if (bound && (*bound > s.shape[a] || *bound < -s.shape[a]))
                throw_error(errc::index_out_of_range,
                            std::string(op) + ": " + s.where() + " " + nt::to_string(nt::spec(s.shape, s.names)) +
                                ": the region's bound " + std::to_string(*bound) + " on axis " + axis_text(s, a) +
                                " lies outside the axis's " + std::to_string(s.shape[a]) +
                                " elements; give bounds from -" + std::to_string(s.shape[a]) + " to " +
                                std::to_string(s.shape[a]));
        const auto rr = resolve_range(rng, s.shape[a], std::string(op).c_str());
        if (rr.step != 1)
            throw_error(errc::invalid_argument, std::string(op) + ": " + s.where() + ": a region takes steps of 1 (axis " +
                                                    std::to_string(a) + " has step " + std::to_string(rr.step) +
                                                    "); read the range and slice the result with a step");
        b.lo[a] = rr.start;
        b.hi[a] = rr.start + rr.count;
    }
    return b;
}

/// The error of a write whose tensor does not fit its region, rewritten to name the
/// region; sizes that differ are said as such, with the region that the tensor
/// would fill.
[[noreturn]] void throw_write_mismatch(const state& s, const box& b, const detail::tensor_base& given,
                                       const error& e) {
    const auto sizes = b.sizes();
    const std::string head = "zarr write: " + s.where() + ": the tensor " + nt::to_string(given.spec()) +
                             " into the region " + region_text(s, b.lo, b.hi) + " of shape " +
                             nt::to_string(nt::spec(sizes, s.names));
    if (e.code() != errc::incompatible_sizes) throw_error(e.code(), head + ": " + e.message());
    std::string fix = "give a tensor of the region's shape (or one that broadcasts to it)";
    if (given.rank() == sizes.size()) {
        std::vector<std::int64_t> hi(b.lo);
        bool fits = true;
        for (std::size_t i = 0; i < hi.size(); ++i) {
            hi[i] += given.shape()[i];
            fits = fits && hi[i] <= s.shape[i];
        }
        if (fits) fix += ", or write it into the region of its own size, " + region_text(s, b.lo, hi);
    }
    throw_error(e.code(), head + ": the sizes differ (" + e.message() + "); " + fix);
}

/// Runs `f(chunk index, the part of the chunk inside `b`, the worker's scratch)` for
/// every chunk that `b` touches, on the thread pool.
template <class F>
void for_each_chunk(const state& s, const box& b, F&& f) {
    if (b.empty()) return;
    const std::size_t rank = s.shape.size();
    std::vector<std::int64_t> first(rank), count(rank);
    std::int64_t total = 1;
    for (std::size_t i = 0; i < rank; ++i) {
        first[i] = b.lo[i] / s.chunks[i];
        count[i] = (b.hi[i] - 1) / s.chunks[i] - first[i] + 1;
        total *= count[i];
    }
    auto run = [&](std::int64_t begin, std::int64_t end) {
        scratch buffers(s);
        std::vector<std::int64_t> index(rank);
        box part{std::vector<std::int64_t>(rank), std::vector<std::int64_t>(rank)};
        for (std::int64_t n = begin; n < end; ++n) {
            std::int64_t rest = n;
            for (std::size_t i = rank; i-- > 0;) {
                index[i] = first[i] + rest % count[i];
                rest /= count[i];
                part.lo[i] = std::max(b.lo[i], index[i] * s.chunks[i]);
                part.hi[i] = std::min(b.hi[i], (index[i] + 1) * s.chunks[i]);
            }
            f(std::span<const std::int64_t>(index), part, buffers);
        }
    };
    // One chunk is worth a thread: each is a file read and a decode.
    if (total > 1 && get_num_threads() > 1 && !detail::in_parallel_region())
        detail::parallel_for(total, run);
    else
        run(0, total);
}

/// The layout of `part` inside a block whose element `origin` is at offset 0 of `l`.
nt::layout sub_layout(const nt::layout& l, const box& part, std::span<const std::int64_t> origin) {
    std::int64_t offset = l.offset();
    std::vector<std::int64_t> sizes(part.lo.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        offset += (part.lo[i] - origin[i]) * l.stride(i);
        sizes[i] = part.hi[i] - part.lo[i];
    }
    return nt::layout(sizes, l.strides(), offset);
}

std::vector<std::int64_t> chunk_origin(const state& s, std::span<const std::int64_t> index) {
    std::vector<std::int64_t> o(index.size());
    for (std::size_t i = 0; i < o.size(); ++i) o[i] = index[i] * s.chunks[i];
    return o;
}

json_out codec_json(const codec& c) {
    if (c.id.empty()) return json_out::null();
    json_out out = json_out::object();
    if (c.id == "blosc") {
        out.add("id", json_out::string("blosc"));
        out.add("cname", json_out::string(c.cname));
        out.add("clevel", json_out::integer(c.level));
        out.add("shuffle", json_out::integer(c.shuffle));
        out.add("blocksize", json_out::integer(0));
        return out;
    }
    out.add("id", json_out::string(c.id));
    out.add("level", json_out::integer(c.level));
    return out;
}

codec codec_from_json(const state& s, json_value j) {
    if (j.is_null()) return codec::none();
    const auto id = j.find("id");
    if (!id || !id->is_string())
        bad_metadata(s.path, ".zarray", "\"compressor\" must be null or an object with a string \"id\"");
    codec c;
    c.id = std::string(id->str());
    c.cname.clear();
    c.level = 0;
    c.shuffle = 0;
    auto integer = [&](const char* key, int fallback) {
        const auto v = j.find(key);
        if (!v) return fallback;
        if (!v->is_integral() || v->int64() < -1000 || v->int64() > 1000)
            bad_metadata(s.path, ".zarray", std::string("the compressor's \"") + key + "\" must be a small integer");
        return static_cast<int>(v->int64());
    };
    if (c.id == "blosc") {
        const auto cname = j.find("cname");
        if (!cname || !cname->is_string())
            bad_metadata(s.path, ".zarray", "the blosc compressor needs a string \"cname\"");
        c.cname = std::string(cname->str());
        c.level = integer("clevel", 5);
        c.shuffle = integer("shuffle", 1);
    } else if (c.id == "zlib" || c.id == "gzip") {
        c.level = integer("level", 1);
    } else if (c.id == "zstd") {
        c.level = integer("level", 1);
    }
    detail::check_codec(c, s.where());
    return c;
}

/// The fill value of .zarray in the array's dtype, and as a double for fill_value().
void read_fill(state& s, json_value j) {
    s.fill_bytes.fill(std::byte{0});
    if (j.is_null()) {
        s.fill.reset();
        return;
    }
    auto bad = [&](const std::string& why) {
        bad_metadata(s.path, ".zarray", "\"fill_value\" " + detail::json_text(j) + " " + why);
    };
    if (j.is_boolean()) {
        const bool v = j.boolean();
        convert_scalar<std::uint8_t>(v ? 1 : 0, dtype::u8, s.type, s.fill_bytes.data());
        s.fill = v ? 1.0 : 0.0;
    } else if (j.kind() == detail::json_kind::unsigned_integer) {
        const auto v = j.unsigned_integer();
        if (!fits(s.type, static_cast<long double>(v))) bad("does not fit " + std::string(to_string(s.type)));
        convert_scalar<std::uint64_t>(v, dtype::u64, s.type, s.fill_bytes.data());
        s.fill = static_cast<double>(v);
    } else if (j.kind() == detail::json_kind::integer) {
        const auto v = j.integer();
        if (!fits(s.type, static_cast<long double>(v))) bad("does not fit " + std::string(to_string(s.type)));
        convert_scalar<std::int64_t>(v, dtype::i64, s.type, s.fill_bytes.data());
        s.fill = static_cast<double>(v);
    } else if (j.kind() == detail::json_kind::floating || j.is_string()) {
        double v = 0;
        if (j.is_string()) {
            const auto t = j.str();
            if (t == "NaN") v = std::numeric_limits<double>::quiet_NaN();
            else if (t == "Infinity") v = std::numeric_limits<double>::infinity();
            else if (t == "-Infinity") v = -std::numeric_limits<double>::infinity();
            else bad("is not a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
        } else {
            v = j.floating();
        }
        if (!is_float(s.type) && (!std::isfinite(v) || std::trunc(v) != v || !fits(s.type, v)))
            bad("is not a value of " + std::string(to_string(s.type)));
        convert_scalar<double>(v, dtype::f64, s.type, s.fill_bytes.data());
        s.fill = v;
    } else {
        bad("must be null, a number, a boolean, \"NaN\", \"Infinity\" or \"-Infinity\"");
    }
}

json_out fill_json(dtype d, const std::optional<double>& fill, const std::string& path) {
    if (!fill) return json_out::null();
    const double v = *fill;
    if (is_float(d)) {
        if (std::isnan(v)) return json_out::string("NaN");
        if (std::isinf(v)) return json_out::string(v > 0 ? "Infinity" : "-Infinity");
        return json_out::floating(v);
    }
    if (!std::isfinite(v) || std::trunc(v) != v || !fits(d, v))
        throw_error(errc::invalid_argument, "zarr::create: " + store_where(path) + ": the fill value " +
                                                std::to_string(v) + " is not a value of " + std::string(to_string(d)) +
                                                "; give an integer in its range");
    if (d == dtype::b8) return json_out::boolean(v != 0);
    if (v < 0) return json_out::integer(static_cast<std::int64_t>(v));
    return json_out::unsigned_integer(static_cast<std::uint64_t>(v));
}

std::vector<std::string> name_texts(std::span<const name> names) {
    std::vector<std::string> out;
    for (const auto n : names) out.push_back(n ? std::string(n.str()) : std::string());
    return out;
}

}  // namespace

// --- array ----------------------------------------------------------------------------

const std::string& array::path() const noexcept { return s_->path; }
nt::dtype array::dtype() const noexcept { return s_->type; }
const std::vector<std::int64_t>& array::shape() const noexcept { return s_->shape; }
const std::vector<std::int64_t>& array::chunks() const noexcept { return s_->chunks; }
std::vector<name> array::names() const { return s_->names; }
nt::spec array::spec() const { return nt::spec(s_->shape, s_->names); }
const codec& array::compressor() const noexcept { return s_->compressor; }
char array::order() const noexcept { return s_->order; }
char array::dimension_separator() const noexcept { return s_->separator; }
std::optional<double> array::fill_value() const noexcept { return s_->fill; }

array array::rename(names_arg names) const {
    if (names.size() != s_->shape.size())
        throw_error(errc::invalid_argument, "zarr rename: " + s_->where() + ": " + std::to_string(names.size()) +
                                                " names for " + std::to_string(s_->shape.size()) + " axes");
    auto s = std::make_shared<state>();
    s->path = s_->path;
    s->type = s_->type;
    s->big_endian = s_->big_endian;
    s->shape = s_->shape;
    s->chunks = s_->chunks;
    s->names.assign(names.begin(), names.end());
    (void)nt::spec(s->shape, s->names);  // duplicate names are refused
    s->compressor = s_->compressor;
    s->order = s_->order;
    s->separator = s_->separator;
    s->fill = s_->fill;
    s->fill_bytes = s_->fill_bytes;
    s->item_size = s_->item_size;
    s->chunk_elements = s_->chunk_elements;
    s->lock_key = s_->lock_key;
    s->durable = s_->durable;
    return array(std::move(s));
}

std::vector<std::int64_t> array::chunk_grid() const {
    std::vector<std::int64_t> g(s_->shape.size());
    for (std::size_t i = 0; i < g.size(); ++i) g[i] = (s_->shape[i] + s_->chunks[i] - 1) / s_->chunks[i];
    return g;
}

std::int64_t array::chunk_count() const {
    std::int64_t n = 1;
    for (auto g : chunk_grid()) n *= g;
    return n;
}

std::string array::attributes() const {
    std::lock_guard lock(s_->lock_for(".zattrs"));
    return detail::read_zarr_metadata(s_->path).attributes;
}

void array::set_attributes(const std::string& text) {
    const std::string doc = detail::zarr_attributes_with_names(text, name_texts(s_->names),
                                                               "zarr set_attributes: " + s_->where());
    std::lock_guard lock(s_->lock_for(".zattrs"));
    detail::write_file_atomically(s_->path + "/.zattrs", doc, "zarr set_attributes", s_->durable);
}

any_tensor array::read() const { return read(region{}); }

namespace {

/// Decoded source chunks that map_chunks' halos read again, least recently used
/// first out. Shared by the workers; a chunk two workers miss at once is decoded
/// twice, never wrongly.
class chunk_cache {
public:
    explicit chunk_cache(std::size_t capacity) : capacity_(capacity) {}
    std::shared_ptr<const std::byte[]> find(std::int64_t key) {
        std::lock_guard lock(lock_);
        auto it = index_.find(key);
        if (it == index_.end()) return nullptr;
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
    }
    void put(std::int64_t key, std::shared_ptr<const std::byte[]> bytes) {
        if (capacity_ == 0) return;
        std::lock_guard lock(lock_);
        if (index_.count(key)) return;
        order_.emplace_front(key, std::move(bytes));
        index_[key] = order_.begin();
        if (order_.size() > capacity_) {
            index_.erase(order_.back().first);
            order_.pop_back();
        }
    }
    [[nodiscard]] bool enabled() const noexcept { return capacity_ > 0; }

private:
    std::size_t capacity_;
    std::mutex lock_;
    std::list<std::pair<std::int64_t, std::shared_ptr<const std::byte[]>>> order_;
    std::unordered_map<std::int64_t, decltype(order_)::iterator> index_;
};

/// The elements of box `b`, decoded chunk by chunk (through `cache` when given).
any_tensor read_box(const state& s, const box& b, chunk_cache* cache) {
    const auto sizes = b.sizes();
    auto out = detail::tensor_base::allocate(s.type, sizes, s.names, "zarr read");
    const nt::layout out_layout = nt::layout::c_contiguous(sizes);
    const nt::layout chunk_layout = s.chunk_layout();
    std::byte* out_data = out.data();
    std::vector<std::int64_t> grid(s.shape.size());
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = (s.shape[i] + s.chunks[i] - 1) / s.chunks[i];
    for_each_chunk(s, b, [&](std::span<const std::int64_t> index, const box& part, scratch& buf) {
        const std::byte* chunk = buf.chunk.get();
        std::shared_ptr<const std::byte[]> kept;
        if (cache && cache->enabled()) {
            std::int64_t key = 0;
            for (std::size_t i = 0; i < index.size(); ++i) key = key * grid[i] + index[i];
            kept = cache->find(key);
            if (!kept) {
                std::shared_ptr<std::byte[]> fresh(new std::byte[std::max<std::size_t>(s.chunk_bytes(), 1)]);
                load_chunk(s, index, fresh.get(), buf.stored);
                kept = fresh;
                cache->put(key, kept);
            }
            chunk = kept.get();
        } else {
            load_chunk(s, index, buf.chunk.get(), buf.stored);
        }
        detail::copy_elements(out_data, sub_layout(out_layout, part, b.lo), chunk,
                              sub_layout(chunk_layout, part, chunk_origin(s, index)), s.item_size);
    });
    return any_tensor(std::move(out));
}

}  // namespace

any_tensor array::read(const region& r) const { return read_box(*s_, resolve_region(*s_, r, "zarr read"), nullptr); }

void array::write(const any_tensor& t) { write(region{}, t); }

void array::write(const region& r, const any_tensor& t) {
    const state& s = *s_;
    const box b = resolve_region(s, r, "zarr write");
    const auto sizes = b.sizes();
    // The source in the region's shape and the array's dtype, matched by names as
    // assign matches (a (H,W) tile into a (Z=1,H,W) region). A tensor that already
    // is that (the common case) is read in place, strided or not.
    const detail::tensor_base& given = t.base();
    // One rule for every element type: a tensor with names is matched to the
    // region's names as assign matches; a tensor without names carries no claim
    // about them and is broadcast by position, as NumPy writes an array into a
    // region (zarr-python's and xarray's region writes do the same).
    const bool by_position = !given.spec().has_names();
    bool in_place = given.type() == s.type && given.rank() == sizes.size();
    for (std::size_t i = 0; in_place && i < sizes.size(); ++i)
        in_place = given.shape()[i] == sizes[i] && (by_position || given.names()[i] == s.names[i]);
    detail::tensor_base converted;
    if (!in_place) {
        converted = detail::tensor_base::allocate(s.type, sizes, by_position ? std::span<const name>() : s.names,
                                                  "zarr write");
        try {
            converted.assign(given);
        } catch (const error& e) {
            throw_write_mismatch(s, b, given, e);
        }
    }
    const detail::tensor_base& src = in_place ? given : converted;
    const nt::layout src_layout(src.shape(), src.strides(), 0);
    const std::byte* src_data = src.data();
    const nt::layout chunk_layout = s.chunk_layout();
    for_each_chunk(s, b, [&](std::span<const std::int64_t> index, const box& part, scratch& buf) {
        const auto origin = chunk_origin(s, index);
        bool covered = true;  // the region covers every element of the chunk inside the array
        bool inside = true;   // the chunk lies inside the array
        for (std::size_t i = 0; i < index.size(); ++i) {
            covered = covered && part.lo[i] == origin[i] && part.hi[i] == std::min(origin[i] + s.chunks[i], s.shape[i]);
            inside = inside && origin[i] + s.chunks[i] <= s.shape[i];
        }
        std::lock_guard lock(s.lock_for(s.key(index)));
        const nt::layout from = sub_layout(src_layout, part, b.lo);
        if (covered && inside && !s.big_endian && (s.order == 'C' ? from.is_contiguous() : from.is_f_contiguous())) {
            // The source holds the chunk in the store's order already (map_chunks'
            // results, whole-array writes of one chunk): encode it where it is.
            store_chunk(s, index, src_data + from.offset() * static_cast<std::int64_t>(s.item_size), buf.stored);
            return;
        }
        if (!covered) load_chunk(s, index, buf.chunk.get(), buf.stored);
        // Edge chunks are stored whole: the part past the array's end holds the fill
        // value, as zarr-python writes it.
        else if (!inside) fill_chunk(s, buf.chunk.get());
        detail::copy_elements(buf.chunk.get(), sub_layout(chunk_layout, part, origin), src_data, from, s.item_size);
        store_chunk(s, index, buf.chunk.get(), buf.stored);
    });
}

// --- open and create --------------------------------------------------------------------

array open(const std::string& path, const io_options& io) {
    const detail::zarr_metadata m = detail::read_zarr_metadata(path);
    auto s = std::make_shared<array::state>();
    s->path = m.path;
    std::error_code ec;
    s->lock_key = fs::weakly_canonical(fs::absolute(m.path, ec), ec).string();
    if (ec || s->lock_key.empty()) s->lock_key = m.path;
    s->durable = io.durable;
    if (!dtype_from_string(m.dtype, s->type))
        throw_error(errc::unsupported_dtype, s->where() + ": the dtype '" + m.descr + "' is not one ntensor reads");
    s->big_endian = m.big_endian;
    s->item_size = size_of(s->type);
    s->shape = m.shape;
    s->chunks = m.chunks;
    s->chunk_elements = 1;
    for (auto c : m.chunks) s->chunk_elements *= c;  // bounded by the reader
    s->order = m.order;
    s->separator = m.separator;
    // The reader left both as JSON text (json_text: keys sorted, numbers exact).
    s->compressor = codec_from_json(*s, json_document::parse(m.compressor, detail::json_rules::lenient).root());
    read_fill(*s, json_document::parse(m.fill_value, detail::json_rules::lenient).root());
    s->names.reserve(m.names.size());
    for (const auto& n : m.names) s->names.push_back(n.empty() ? name() : name(n));
    return array(std::move(s));
}

std::optional<double> fill_choice::for_dtype(nt::dtype d) const noexcept {
    if (chosen_) return value_;
    // xarray's own writes: floating arrays mark missing values with NaN; integer
    // and bool arrays get no fill value, since xarray reads any fill value as
    // "missing" and would turn an int16 array into float32 with NaN for it.
    if (is_float(d)) return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

array create(const std::string& path, nt::dtype dtype, shape_arg shape_in, shape_arg chunks_in, names_arg names,
             const create_options& options) {
    const std::string where = "zarr::create: " + store_where(path);
    const std::vector<std::int64_t> shape(shape_in.begin(), shape_in.end());
    if (shape.size() != chunks_in.size())
        throw_error(errc::invalid_argument, where + ": shape " + detail::shape_text(shape) + " and chunks " +
                                                detail::shape_text(chunks_in.span()) +
                                                " differ in length; give one chunk size per axis");
    if (!names.empty() && names.size() != shape.size())
        throw_error(errc::invalid_argument, where + ": " + std::to_string(names.size()) + " names for " +
                                                std::to_string(shape.size()) + " axes");
    std::vector<std::int64_t> chunks(chunks_in.begin(), chunks_in.end());
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] < 0 || chunks[i] < 0)
            throw_error(errc::invalid_argument, where + ": sizes must be >= 0 (shape " + detail::shape_text(shape) +
                                                    ", chunks " + detail::shape_text(chunks_in.span()) + ")");
        if (chunks[i] == 0) chunks[i] = std::max<std::int64_t>(shape[i], 1);
    }
    if (options.order != 'C' && options.order != 'F')
        throw_error(errc::invalid_argument, where + ": order must be 'C' or 'F'");
    if (options.dimension_separator != '.' && options.dimension_separator != '/')
        throw_error(errc::invalid_argument, where + ": the dimension separator must be '.' or '/'");
    detail::check_codec(options.compressor, where);
    const std::string_view descr = detail::npy_descr_for(to_string(dtype));
    json_out z = json_out::object();
    z.add("zarr_format", json_out::integer(2));
    json_out shape_json = json_out::array(), chunks_json = json_out::array();
    for (auto n : shape) shape_json.push(json_out::integer(n));
    for (auto n : chunks) chunks_json.push(json_out::integer(n));
    z.add("shape", std::move(shape_json));
    z.add("chunks", std::move(chunks_json));
    z.add("dtype", json_out::string(descr));
    z.add("compressor", codec_json(options.compressor));
    z.add("fill_value", fill_json(dtype, options.fill_value.for_dtype(dtype), path));
    z.add("order", json_out::string(std::string(1, options.order)));
    z.add("filters", json_out::null());
    z.add("dimension_separator", json_out::string(std::string(1, options.dimension_separator)));
    z.sort_keys();  // .zarray keeps the sorted keys nlohmann::json wrote (and zarr-python writes)
    detail::json_style zarray_style;
    zarray_style.indent = 4;
    const std::string zarray = z.dump(zarray_style);
    std::vector<name> axis_names(shape.size());
    for (std::size_t i = 0; i < names.size(); ++i) axis_names[i] = names[i];
    nt::spec(shape, axis_names);  // duplicate names are refused here, before any file exists
    const std::string attributes = detail::zarr_attributes_with_names("{}", name_texts(axis_names), where);
    const bool durable = options.io.durable;
    const auto write_metadata = [&](const std::string& folder) {
        detail::write_file_atomically(folder + "/.zattrs", attributes, "zarr::create", durable);
        detail::write_file_atomically(folder + "/.zarray", zarray, "zarr::create", durable);
    };

    std::error_code ec;
    fs::path dir(path);
    if (fs::exists(dir, ec)) {
        if (!options.overwrite)
            throw_error(errc::io_error, where + ": the path exists; pass overwrite = true to replace it, or choose another path");
        if (!fs::exists(dir / ".zarray", ec) && !fs::exists(dir / ".zgroup", ec) && !fs::is_empty(dir, ec))
            throw_error(errc::io_error, where + ": the path exists and is not a zarr array or group, so overwrite "
                                                "will not delete it; remove it yourself or choose another path");
        // The new metadata is written beside the old array, which is deleted only
        // after the new one has taken its place: a failed write keeps it whole.
        detail::replace_folder(path, where, durable, write_metadata);
        return open(path, options.io);
    }
    // The missing folders above the array become groups, as zarr-python makes them.
    std::vector<fs::path> missing;
    for (fs::path p = dir.parent_path(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) missing.push_back(p);
    fs::create_directories(dir, ec);
    if (ec) throw_error(errc::io_error, where + ": cannot create the folder: " + ec.message());
    for (const auto& g : missing)
        detail::write_file_atomically((g / ".zgroup").string(), R"({"zarr_format": 2})", "zarr::create", durable);
    write_metadata(path);
    if (durable) {
        // New folders are entries of their parents: those must reach the disk too.
        detail::sync_folder(dir.parent_path().string(), where);
        for (const auto& g : missing) detail::sync_folder(g.parent_path().string(), where);
    }
    return open(path, options.io);
}

// --- map_chunks -------------------------------------------------------------------------

void map_chunks(const array& src, array& dst, const std::function<any_tensor(const chunk_view&)>& f, const halo& h,
                const map_options& options) {
    if (src.shape() != dst.shape())
        throw_error(errc::invalid_argument, "zarr::map_chunks: the source " + nt::to_string(src.spec()) + " and the result " +
                                                nt::to_string(dst.spec()) + " differ in shape; create the result with the source's shape");
    const auto names = src.names();
    const std::size_t rank = src.shape().size();
    std::vector<std::int64_t> margin(rank, 0);
    for (const auto& [axis, width] : h) {
        const std::size_t a = resolve_axis(axis, names, "zarr::map_chunks", src.shape());
        if (width < 0)
            throw_error(errc::invalid_argument, "zarr::map_chunks: a halo of " + std::to_string(width) +
                                                    " elements on axis " + std::to_string(a) + "; give a width >= 0");
        margin[a] = width;
    }
    const auto grid = src.chunk_grid();
    const std::int64_t total = src.chunk_count();
    // Each chunk in flight holds its input (with halo) and f's result; the rest of
    // the budget keeps decoded source chunks for the neighbours' halos.
    const bool has_halo = std::any_of(margin.begin(), margin.end(), [](std::int64_t m) { return m > 0; });
    const std::int64_t threads = get_num_threads();
    std::int64_t workers = threads, kept = has_halo ? 27 : 0;
    if (options.max_chunks_in_memory > 0) {
        workers = std::max<std::int64_t>(1, std::min(threads, options.max_chunks_in_memory / 2));
        kept = std::max<std::int64_t>(0, options.max_chunks_in_memory - 2 * workers);
    }
    chunk_cache cache(has_halo ? static_cast<std::size_t>(kept) : 0);
    std::int64_t done = 0;
    std::vector<chunk_view> views(static_cast<std::size_t>(workers));
    for (std::int64_t wave = 0; wave < total; wave += workers) {
        const std::int64_t n = std::min(workers, total - wave);
        auto work = [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t k = begin; k < end; ++k) {
                chunk_view& v = views[static_cast<std::size_t>(k)];
                v.chunk_index.assign(rank, 0);
                std::int64_t rest = wave + k;
                for (std::size_t i = rank; i-- > 0;) {
                    v.chunk_index[i] = rest % grid[i];
                    rest /= grid[i];
                }
                region with_halo, inner, inner_in_data;
                for (std::size_t i = 0; i < rank; ++i) {
                    const std::int64_t lo = v.chunk_index[i] * src.chunks()[i];
                    const std::int64_t hi = std::min(lo + src.chunks()[i], src.shape()[i]);
                    const std::int64_t dlo = std::max<std::int64_t>(0, lo - margin[i]);
                    const std::int64_t dhi = std::min(src.shape()[i], hi + margin[i]);
                    const Axis axis(static_cast<std::int64_t>(i));
                    with_halo.emplace_back(axis, nt::range(dlo, dhi));
                    inner.emplace_back(axis, nt::range(lo, hi));
                    inner_in_data.emplace_back(axis, nt::range(lo - dlo, hi - dlo));
                }
                v.data = read_box(*src.s_, resolve_region(*src.s_, with_halo, "zarr::map_chunks"), &cache);
                v.inner = inner;
                v.inner_in_data = inner_in_data;
                any_tensor result = f(v);
                const auto rs = result.shape();
                const auto ds = v.data.shape();
                if (std::equal(rs.begin(), rs.end(), ds.begin(), ds.end()) && rs.size() == rank) {
                    detail::tensor_base cut = result.base();
                    for (std::size_t i = 0; i < rank; ++i)
                        cut = cut.slice(Axis(static_cast<std::int64_t>(i)), inner_in_data[i].second);
                    result = any_tensor(cut);
                } else {
                    bool chunk_shaped = rs.size() == rank;
                    for (std::size_t i = 0; chunk_shaped && i < rank; ++i) {
                        const auto& rr = inner[i].second;
                        chunk_shaped = rs[i] == *rr.stop - *rr.start;
                    }
                    if (!chunk_shaped)
                        throw_error(errc::invalid_argument,
                                    "zarr::map_chunks: the function returned shape " + detail::shape_text(rs) +
                                        " for chunk " + detail::shape_text(v.chunk_index) + ", whose data is " +
                                        detail::shape_text(ds) +
                                        "; return a tensor of the chunk's shape or of the data's shape (with halo)");
                }
                dst.write(inner, result);
                v.data = any_tensor();
            }
        };
        if (n > 1 && !detail::in_parallel_region()) detail::parallel_for(n, work);
        else work(0, n);
        for (std::int64_t k = 0; k < n; ++k) {
            ++done;
            if (options.progress) options.progress(done, total);
        }
    }
}

}  // namespace nt::zarr
