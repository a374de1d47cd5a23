// The zarr chunk codecs, as numcodecs spells and frames them: Zlib is a zlib stream,
// GZip a gzip member, Zstd one or more zstd frames, Blosc a blosc1 buffer.
#include "zarr_codec.hpp"

#include <blosc.h>
#include <zlib.h>
#include <zstd.h>

#include <climits>
#include <cstring>
#include <string>

#include "nt/error.hpp"

namespace nt::detail {
namespace {

[[noreturn]] void corrupt(std::string_view where, const zarr::codec& c, const std::string& why) {
    throw_error(errc::format_error, std::string(where) + ": the " + c.str() + " data is corrupt or truncated (" + why +
                                        "); rewrite the chunk, or delete it to read the fill value");
}

[[noreturn]] void wrong_size(std::string_view where, const zarr::codec& c, std::size_t got, std::size_t want) {
    throw_error(errc::format_error, std::string(where) + ": the chunk decodes (" + c.str() + ") to " +
                                        std::to_string(got) + " bytes, but the array's chunks hold " +
                                        std::to_string(want) + "; the chunk does not belong to this .zarray");
}

bool blosc_name_known(const std::string& cname) {
    return cname == "lz4" || cname == "lz4hc" || cname == "zstd" || cname == "zlib" || cname == "blosclz";
}

// zlib's inflate over the whole input; gzip adds 16 to the window bits. A gzip file
// may hold several members (numcodecs writes one): each is inflated in turn.
void inflate_all(const zarr::codec& c, std::string_view in, std::byte* out, std::size_t size, bool gzip,
                 std::string_view where) {
    z_stream z{};
    if (inflateInit2(&z, gzip ? 15 + 16 : 15) != Z_OK) throw_error(errc::io_error, std::string(where) + ": zlib cannot start");
    std::size_t done = 0;
    std::size_t used = 0;
    int rc = Z_OK;
    for (;;) {
        const std::size_t in_left = in.size() - used;
        const std::size_t out_left = size - done;
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + used));
        z.avail_in = static_cast<uInt>(in_left > UINT_MAX ? UINT_MAX : in_left);
        // One byte of room past the chunk lets an over-long stream show itself.
        std::byte spare{};
        z.next_out = out_left ? reinterpret_cast<Bytef*>(out + done) : reinterpret_cast<Bytef*>(&spare);
        z.avail_out = static_cast<uInt>(out_left ? (out_left > UINT_MAX ? UINT_MAX : out_left) : 1);
        const uInt before_in = z.avail_in;
        const uInt before_out = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        used += before_in - z.avail_in;
        const std::size_t produced = before_out - z.avail_out;
        if (!out_left && produced) {
            inflateEnd(&z);
            wrong_size(where, c, size + 1, size);
        }
        done += produced;
        if (rc == Z_STREAM_END) {
            if (gzip && used < in.size() && in[used] == '\x1f') {  // another member
                inflateReset(&z);
                continue;
            }
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            const std::string msg = z.msg ? z.msg : "zlib error " + std::to_string(rc);
            inflateEnd(&z);
            corrupt(where, c, msg);
        }
        if (produced == 0 && before_in == z.avail_in) {
            inflateEnd(&z);
            if (used >= in.size()) corrupt(where, c, "the stream ends early");
            corrupt(where, c, "inflate makes no progress");
        }
    }
    inflateEnd(&z);
    if (done != size) wrong_size(where, c, done, size);
}

void deflate_all(const std::byte* data, std::size_t size, int level, bool gzip, std::string_view where, std::string& out) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw_error(errc::invalid_argument, std::string(where) + ": zlib refuses level " + std::to_string(level) +
                                                "; give a level from 0 to 9");
    out.resize(deflateBound(&z, static_cast<uLong>(size)));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data));
    z.avail_in = static_cast<uInt>(size);
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const std::size_t n = out.size() - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw_error(errc::io_error, std::string(where) + ": zlib could not compress the chunk");
    out.resize(n);
}

}  // namespace

void check_codec(const zarr::codec& c, std::string_view where) {
    if (c.id.empty() || c.id == "zlib" || c.id == "gzip" || c.id == "zstd") return;
    if (c.id == "blosc") {
        if (!blosc_name_known(c.cname))
            throw_error(errc::unsupported_dtype, std::string(where) + ": the blosc codec '" + c.cname +
                                                     "' is not one ntensor reads; use lz4, lz4hc, zstd, zlib or blosclz");
        if (c.shuffle < -1 || c.shuffle > 2)
            throw_error(errc::unsupported_dtype, std::string(where) + ": blosc shuffle " + std::to_string(c.shuffle) +
                                                     " is unknown; use 0 (none), 1 (byte), 2 (bit) or -1 (auto)");
        return;
    }
    throw_error(errc::unsupported_dtype, std::string(where) + ": the compressor '" + c.id +
                                             "' is not one ntensor reads; recompress the store with blosc, zstd, "
                                             "zlib or gzip (numcodecs), or none");
}

void decode_chunk(const zarr::codec& c, std::string_view stored, std::byte* out, std::size_t size,
                  std::string_view where) {
    if (c.id.empty()) {
        if (stored.size() != size) wrong_size(where, c, stored.size(), size);
        std::memcpy(out, stored.data(), size);
    } else if (c.id == "zlib" || c.id == "gzip") {
        inflate_all(c, stored, out, size, c.id == "gzip", where);
    } else if (c.id == "zstd") {
        const unsigned long long content = ZSTD_getFrameContentSize(stored.data(), stored.size());
        if (content == ZSTD_CONTENTSIZE_ERROR) corrupt(where, c, "not a zstd frame");
        if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != size) wrong_size(where, c, content, size);
        const std::size_t n = ZSTD_decompress(out, size, stored.data(), stored.size());
        if (ZSTD_isError(n)) corrupt(where, c, ZSTD_getErrorName(n));
        if (n != size) wrong_size(where, c, n, size);
    } else if (c.id == "blosc") {
        std::size_t nbytes = 0;
        if (blosc_cbuffer_validate(stored.data(), stored.size(), &nbytes) < 0)
            corrupt(where, c, "the blosc header does not fit the " + std::to_string(stored.size()) + " bytes stored");
        if (nbytes != size) wrong_size(where, c, nbytes, size);
        const int n = blosc_decompress_ctx(stored.data(), out, size, 1);
        if (n < 0) corrupt(where, c, "blosc error " + std::to_string(n));
        if (static_cast<std::size_t>(n) != size) wrong_size(where, c, static_cast<std::size_t>(n), size);
    } else {
        check_codec(c, where);
    }
}

void encode_chunk(const zarr::codec& c, const std::byte* data, std::size_t size, std::size_t item_size,
                  std::string_view where, std::string& out) {
    if (c.id.empty()) {
        out.assign(reinterpret_cast<const char*>(data), size);
    } else if (c.id == "zlib" || c.id == "gzip") {
        if (size > UINT_MAX)
            throw_error(errc::invalid_argument, std::string(where) + ": zlib compresses chunks below 4 GiB; use smaller chunks");
        deflate_all(data, size, c.level, c.id == "gzip", where, out);
    } else if (c.id == "zstd") {
        out.resize(ZSTD_compressBound(size));
        const std::size_t n = ZSTD_compress(out.data(), out.size(), data, size, c.level);
        if (ZSTD_isError(n))
            throw_error(errc::invalid_argument, std::string(where) + ": zstd: " + ZSTD_getErrorName(n));
        out.resize(n);
    } else if (c.id == "blosc") {
        check_codec(c, where);
        if (size > static_cast<std::size_t>(BLOSC_MAX_BUFFERSIZE))
            throw_error(errc::invalid_argument, std::string(where) + ": blosc compresses chunks up to " +
                                                    std::to_string(BLOSC_MAX_BUFFERSIZE) +
                                                    " bytes; use smaller chunks or zstd");
        // numcodecs' AUTOSHUFFLE (-1): bit shuffle for bytes, byte shuffle otherwise.
        const int shuffle = c.shuffle == -1 ? (item_size == 1 ? BLOSC_BITSHUFFLE : BLOSC_SHUFFLE) : c.shuffle;
        const std::size_t type_size = item_size > BLOSC_MAX_TYPESIZE ? 1 : item_size;
        out.resize(size + BLOSC_MAX_OVERHEAD);
        const int n = blosc_compress_ctx(c.level, shuffle, type_size, size, data, out.data(), out.size(),
                                         c.cname.c_str(), 0, 1);
        if (n <= 0)
            throw_error(errc::invalid_argument, std::string(where) + ": blosc could not compress the chunk with " +
                                                    c.str() + " (error " + std::to_string(n) + ")");
        out.resize(static_cast<std::size_t>(n));
    } else {
        check_codec(c, where);
    }
}

}  // namespace nt::detail

namespace nt::zarr {

std::string codec::str() const {
    if (id.empty()) return "none";
    if (id == "blosc") {
        const char* shuffles[] = {"no shuffle", "byte shuffle", "bit shuffle"};
        const std::string sh = shuffle >= 0 && shuffle <= 2 ? shuffles[shuffle] : "auto shuffle";
        return "blosc(" + cname + ", level " + std::to_string(level) + ", " + sh + ")";
    }
    return id + "(level " + std::to_string(level) + ")";
}

}  // namespace nt::zarr
