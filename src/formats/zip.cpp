// The zip container of .npz files: central directory (with zip64), member reads
// through zlib's inflate and crc32, and the writer.
#include "zip.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include <zlib.h>

#include "nt/error.hpp"

namespace nt::detail {

namespace {

constexpr std::uint32_t local_signature = 0x04034b50;
constexpr std::uint32_t central_signature = 0x02014b50;
constexpr std::uint32_t end_signature = 0x06054b50;
constexpr std::uint32_t zip64_end_signature = 0x06064b50;
constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
constexpr std::size_t local_header_size = 30;
constexpr std::size_t central_header_size = 46;
constexpr std::size_t end_size = 22;
constexpr std::size_t zip64_end_size = 56;
constexpr std::size_t zip64_locator_size = 20;
constexpr std::uint16_t zip64_extra_id = 0x0001;
constexpr std::uint32_t u32_max = 0xffffffffu;
constexpr std::uint16_t u16_max = 0xffffu;
constexpr std::uint16_t method_stored = 0;
constexpr std::uint16_t method_deflate = 8;
/// Deflate cannot expand data by more than about 1032:1 (a 258-byte match in at
/// least 2 bits); a member claiming more is lying about its size.
constexpr std::uint64_t max_deflate_ratio = 1032;
/// Compressed bytes read per step of inflate.
constexpr std::size_t input_chunk = std::size_t{1} << 20;

std::uint64_t get(std::string_view b, std::size_t at, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
    return v;
}

void put(std::string& b, std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) b += static_cast<char>((v >> (8 * i)) & 0xff);
}

const char* method_name(std::uint16_t m) {
    switch (m) {
        case 1: return "shrink";
        case 6: return "implode";
        case 9: return "deflate64";
        case 12: return "bzip2";
        case 14: return "lzma";
        case 93: return "zstd";
        case 95: return "xz";
        case 99: return "AES encryption";
        default: return "unknown";
    }
}

std::string quoted_member(std::string_view name) {
    std::string out = "'";
    for (const char c : name.substr(0, 80)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out + (name.size() > 80 ? "...'" : "'");
}

[[noreturn]] void bad(const input_file& f, const std::string& what) {
    throw_error(errc::format_error, f.where() + ": " + what);
}

struct end_record {
    std::uint64_t count = 0;
    std::uint64_t directory_size = 0;
    std::uint64_t directory_offset = 0;
};

end_record read_end_record(const input_file& f) {
    // The end record (22 bytes plus a comment of at most 64 KiB) is searched backwards.
    const std::uint64_t size = f.size();
    const std::size_t tail_size = static_cast<std::size_t>(std::min<std::uint64_t>(size, end_size + u16_max));
    const std::string tail = f.read_string(size - tail_size, tail_size, "the zip end record");
    std::size_t at = std::string::npos;
    for (std::size_t i = tail_size >= end_size ? tail_size - end_size + 1 : 0; i-- > 0;)
        if (get(tail, i, 4) == end_signature) {
            at = i;
            break;
        }
    if (at == std::string::npos)
        bad(f, "no zip end record (signature PK\\5\\6) in the last " + std::to_string(tail_size) +
                   " bytes; this is not an .npz (zip) file, or it is truncated (write it with np.savez)");
    const std::uint64_t end_at = size - tail_size + at;
    end_record r;
    const std::uint64_t disk = get(tail, at + 4, 2), cd_disk = get(tail, at + 6, 2);
    const std::uint64_t disk_count = get(tail, at + 8, 2);
    r.count = get(tail, at + 10, 2);
    r.directory_size = get(tail, at + 12, 4);
    r.directory_offset = get(tail, at + 16, 4);
    const bool zip64 = r.count == u16_max || disk_count == u16_max || r.directory_size == u32_max ||
                       r.directory_offset == u32_max;
    if (zip64) {
        if (end_at < zip64_locator_size)
            bad(f, "byte " + std::to_string(end_at) + ": the end record asks for zip64 but there is no room for its locator");
        const std::string loc = f.read_string(end_at - zip64_locator_size, zip64_locator_size, "the zip64 locator");
        if (get(loc, 0, 4) != zip64_locator_signature)
            bad(f, "byte " + std::to_string(end_at - zip64_locator_size) +
                       ": expected the zip64 end locator (PK\\6\\7) before the end record");
        const std::uint64_t rec_at = get(loc, 8, 8);
        const std::string rec = f.read_string(rec_at, zip64_end_size, "the zip64 end record");
        if (get(rec, 0, 4) != zip64_end_signature)
            bad(f, "byte " + std::to_string(rec_at) + ": expected the zip64 end record (PK\\6\\6)");
        r.count = get(rec, 32, 8);
        r.directory_size = get(rec, 40, 8);
        r.directory_offset = get(rec, 48, 8);
        if (get(rec, 16, 4) != 0 || get(rec, 20, 4) != 0)
            bad(f, "the zip64 end record names several disks; multi-part archives are not supported");
    } else if (disk != 0 || cd_disk != 0 || disk_count != r.count) {
        bad(f, "byte " + std::to_string(end_at) + ": the end record names several disks; multi-part archives are not supported");
    }
    if (r.directory_offset > size || r.directory_size > size - r.directory_offset)
        bad(f, "the central directory (byte " + std::to_string(r.directory_offset) + ", " +
                   std::to_string(r.directory_size) + " bytes) lies outside the file of " + std::to_string(size) +
                   " bytes: it is truncated or damaged");
    if (r.count > r.directory_size / central_header_size)
        bad(f, "the end record counts " + std::to_string(r.count) + " members but the central directory has " +
                   std::to_string(r.directory_size) + " bytes: it is damaged");
    return r;
}

/// Applies a zip64 extra field (id 1) to the values stored as 0xffffffff.
void apply_zip64(const input_file& f, std::string_view extra, zip_member& m, std::uint64_t& local_offset,
                 bool size_max, bool compressed_max, bool offset_max) {
    std::size_t at = 0;
    while (at + 4 <= extra.size()) {
        const auto id = get(extra, at, 2);
        const auto len = static_cast<std::size_t>(get(extra, at + 2, 2));
        if (at + 4 + len > extra.size()) break;
        if (id == zip64_extra_id) {
            std::size_t p = at + 4;
            const auto take = [&](std::uint64_t& v) {
                if (p + 8 > at + 4 + len)
                    bad(f, "member " + quoted_member(m.name) + ": its zip64 extra field is too short for the sizes it must hold");
                v = get(extra, p, 8);
                p += 8;
            };
            if (size_max) take(m.size);
            if (compressed_max) take(m.compressed_size);
            if (offset_max) take(local_offset);
            return;
        }
        at += 4 + len;
    }
    if (size_max || compressed_max || offset_max)
        bad(f, "member " + quoted_member(m.name) + ": sizes marked 0xffffffff but no zip64 extra field gives them");
}

}  // namespace

std::vector<zip_member> read_zip_directory(const input_file& f) {
    const end_record r = read_end_record(f);
    const std::string dir = f.read_string(r.directory_offset, static_cast<std::size_t>(r.directory_size),
                                          "the central directory");
    std::vector<zip_member> members;
    members.reserve(static_cast<std::size_t>(r.count));
    // Each member's bytes in the file, [local header, end of data): members may not
    // share bytes. With that and the per-member ratio check below, everything the
    // archive expands to is bounded by the file's size times deflate's largest ratio,
    // where a directory listing one member many times under other names made a
    // 146 KB file fill 2 GB.
    struct extent {
        std::uint64_t begin, end;
        std::size_t member;
    };
    std::vector<extent> extents;
    extents.reserve(static_cast<std::size_t>(r.count));
    std::size_t at = 0;
    for (std::uint64_t i = 0; i < r.count; ++i) {
        const std::uint64_t file_at = r.directory_offset + at;
        if (at + central_header_size > dir.size() || get(dir, at, 4) != central_signature)
            bad(f, "byte " + std::to_string(file_at) + ": expected central directory entry " + std::to_string(i) +
                       " (PK\\1\\2): the directory is damaged");
        const auto flags = static_cast<std::uint16_t>(get(dir, at + 8, 2));
        zip_member m;
        m.method = static_cast<std::uint16_t>(get(dir, at + 10, 2));
        m.crc = static_cast<std::uint32_t>(get(dir, at + 16, 4));
        m.compressed_size = get(dir, at + 20, 4);
        m.size = get(dir, at + 24, 4);
        const auto name_len = static_cast<std::size_t>(get(dir, at + 28, 2));
        const auto extra_len = static_cast<std::size_t>(get(dir, at + 30, 2));
        const auto comment_len = static_cast<std::size_t>(get(dir, at + 32, 2));
        std::uint64_t local_offset = get(dir, at + 42, 4);
        const std::size_t next = at + central_header_size + name_len + extra_len + comment_len;
        if (next > dir.size())
            bad(f, "byte " + std::to_string(file_at) + ": central directory entry " + std::to_string(i) +
                       " runs past the directory's end: it is damaged");
        m.name = dir.substr(at + central_header_size, name_len);
        apply_zip64(f, std::string_view(dir).substr(at + central_header_size + name_len, extra_len), m, local_offset,
                    m.size == u32_max, m.compressed_size == u32_max, local_offset == u32_max);
        at = next;

        if (flags & 1u)
            throw_error(errc::unsupported_dtype,
                        f.where() + ": member " + quoted_member(m.name) + " is encrypted; ntensor reads plain archives");
        if (m.method != method_stored && m.method != method_deflate)
            throw_error(errc::unsupported_dtype,
                        f.where() + ": member " + quoted_member(m.name) + " uses zip method " +
                            std::to_string(m.method) + " (" + method_name(m.method) +
                            "); ntensor reads stored and deflate members (what np.savez and np.savez_compressed write)");
        if (m.method == method_stored && m.compressed_size != m.size)
            bad(f, "member " + quoted_member(m.name) + " is stored but its sizes differ (" +
                       std::to_string(m.compressed_size) + " and " + std::to_string(m.size) + " bytes): it is damaged");
        if (m.method == method_deflate && m.size / max_deflate_ratio > m.compressed_size + 1)
            bad(f, "member " + quoted_member(m.name) + " claims " + std::to_string(m.size) + " bytes from " +
                       std::to_string(m.compressed_size) +
                       " deflated bytes, more than deflate can produce: its size is damaged");

        // The local header repeats the name and has its own extra field length.
        const std::string local = f.read_string(local_offset, local_header_size, "a zip local header");
        if (get(local, 0, 4) != local_signature)
            bad(f, "byte " + std::to_string(local_offset) + ": expected the local header (PK\\3\\4) of member " +
                       quoted_member(m.name) + ": the archive is damaged");
        m.data_offset = local_offset + local_header_size + get(local, 26, 2) + get(local, 28, 2);
        if (m.data_offset > f.size() || m.compressed_size > f.size() - m.data_offset)
            bad(f, "member " + quoted_member(m.name) + ": " + std::to_string(m.compressed_size) +
                       " bytes of data at byte " + std::to_string(m.data_offset) + " run past the end of the file (" +
                       std::to_string(f.size()) + " bytes): it is truncated or its size is damaged");
        extents.push_back({local_offset, m.data_offset + m.compressed_size, members.size()});
        members.push_back(std::move(m));
    }
    std::sort(extents.begin(), extents.end(), [](const extent& a, const extent& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < extents.size(); ++i)
        if (extents[i].begin < extents[i - 1].end)
            bad(f, "members " + quoted_member(members[extents[i - 1].member].name) + " and " +
                       quoted_member(members[extents[i].member].name) + " share bytes (from byte " +
                       std::to_string(extents[i].begin) +
                       "): the directory is damaged or crafted; a zip member owns its bytes");
    return members;
}

struct zip_member_reader::inflater {
    z_stream z{};
    std::vector<unsigned char> input;
    bool ended = false;
    inflater() {
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw std::bad_alloc();
    }
    ~inflater() { inflateEnd(&z); }
};

zip_member_reader::zip_member_reader(const input_file& f, const zip_member& m, std::string where)
    : file_(f), member_(m), where_(std::move(where)) {
    if (m.method == method_deflate) {
        inflate_ = std::make_unique<inflater>();
        inflate_->input.resize(static_cast<std::size_t>(std::min<std::uint64_t>(m.compressed_size, input_chunk)));
    }
}

zip_member_reader::~zip_member_reader() = default;

void zip_member_reader::read(void* dst, std::size_t n) {
    if (n > member_.size - produced_)
        throw_error(errc::format_error, where_ + ": needs " + std::to_string(produced_ + n) +
                                            " bytes but the member holds " + std::to_string(member_.size) +
                                            ": its size and its .npy header disagree");
    auto* out = static_cast<unsigned char*>(dst);
    if (!inflate_) {
        file_.read_at(member_.data_offset + produced_, out, n, "the member's data");
    } else {
        inflater& in = *inflate_;
        std::size_t done = 0;
        while (done < n) {
            if (in.ended)
                throw_error(errc::format_error, where_ + ": the deflate stream ends after " +
                                                    std::to_string(produced_ + done) + " bytes, before the " +
                                                    std::to_string(member_.size) + " its directory entry promises");
            if (in.z.avail_in == 0) {
                const std::size_t want =
                    static_cast<std::size_t>(std::min<std::uint64_t>(member_.compressed_size - consumed_, in.input.size()));
                if (want == 0)
                    throw_error(errc::format_error, where_ + ": the compressed data (" +
                                                        std::to_string(member_.compressed_size) +
                                                        " bytes) ends before the deflate stream does: it is truncated");
                file_.read_at(member_.data_offset + consumed_, in.input.data(), want, "the member's compressed data");
                consumed_ += want;
                in.z.next_in = in.input.data();
                in.z.avail_in = static_cast<uInt>(want);
            }
            const std::size_t room = std::min<std::size_t>(n - done, std::numeric_limits<uInt>::max());
            in.z.next_out = out + done;
            in.z.avail_out = static_cast<uInt>(room);
            const int rc = ::inflate(&in.z, Z_NO_FLUSH);
            done += room - in.z.avail_out;
            if (rc == Z_STREAM_END) in.ended = true;
            else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR)
                throw_error(errc::format_error,
                            where_ + ": corrupt deflate data near compressed byte " +
                                std::to_string(member_.data_offset + consumed_ - in.z.avail_in) + " (" +
                                (in.z.msg ? in.z.msg : "invalid stream") + ")");
            else if (rc == Z_MEM_ERROR)
                throw std::bad_alloc();
        }
    }
    crc_ = static_cast<std::uint32_t>(crc32_z(crc_, out, n));
    produced_ += n;
}

void zip_member_reader::finish() {
    if (produced_ != member_.size)
        throw_error(errc::format_error, where_ + ": " + std::to_string(member_.size - produced_) +
                                            " bytes of the member are left after its .npy data: its size and its "
                                            "header disagree");
    if (inflate_ && !inflate_->ended) {
        // The stream must end exactly here: one more call may only report the end.
        unsigned char probe = 0;
        inflater& in = *inflate_;
        for (;;) {
            if (in.z.avail_in == 0 && consumed_ < member_.compressed_size) {
                const std::size_t want = static_cast<std::size_t>(
                    std::min<std::uint64_t>(member_.compressed_size - consumed_, in.input.size()));
                file_.read_at(member_.data_offset + consumed_, in.input.data(), want, "the member's compressed data");
                consumed_ += want;
                in.z.next_in = in.input.data();
                in.z.avail_in = static_cast<uInt>(want);
            }
            in.z.next_out = &probe;
            in.z.avail_out = 1;
            const int rc = ::inflate(&in.z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END && in.z.avail_out == 1) break;
            if (in.z.avail_out == 0 || rc != Z_OK || (in.z.avail_in == 0 && consumed_ == member_.compressed_size))
                throw_error(errc::format_error,
                            where_ + ": the deflate stream does not end after the " + std::to_string(member_.size) +
                                " bytes its directory entry gives: the data or the size is damaged");
        }
        in.ended = true;
    }
    if (crc_ != member_.crc)
        throw_error(errc::format_error, where_ + ": CRC-32 mismatch (computed " + std::to_string(crc_) +
                                            ", the directory says " + std::to_string(member_.crc) +
                                            "): the data is damaged");
}

void zip_writer::add(std::string_view name, bool deflate,
                     const std::function<void(const std::function<void(const void*, std::size_t)>&)>& produce) {
    entry e{std::string(name), deflate ? method_deflate : method_stored, 0, 0, 0, out_.position()};
    // Local header with zip64 sizes always present (as np.savez writes with
    // force_zip64): the sizes are not known before the data is written.
    std::string local;
    put(local, local_signature, 4);
    put(local, 45, 2);  // version needed: zip64
    put(local, 0, 2);   // flags
    put(local, e.method, 2);
    put(local, 0, 2);     // time 00:00
    put(local, 0x21, 2);  // date 1980-01-01: reproducible archives
    put(local, 0, 4);     // crc, patched below
    put(local, u32_max, 4);
    put(local, u32_max, 4);
    put(local, e.name.size(), 2);
    put(local, 20, 2);
    local += e.name;
    put(local, zip64_extra_id, 2);
    put(local, 16, 2);
    put(local, 0, 8);  // uncompressed size, patched below
    put(local, 0, 8);  // compressed size, patched below
    out_.write(local);
    const std::uint64_t data_start = out_.position();

    std::uint32_t crc = 0;
    std::uint64_t size = 0;
    if (!deflate) {
        produce([&](const void* p, std::size_t n) {
            crc = static_cast<std::uint32_t>(crc32_z(crc, static_cast<const unsigned char*>(p), n));
            size += n;
            out_.write(p, n);
        });
    } else {
        z_stream z{};
        if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::bad_alloc();
        const std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, deflateEnd);
        std::vector<unsigned char> buffer(std::size_t{1} << 20);
        const auto pump = [&](int flush) {
            int rc = Z_OK;
            do {
                z.next_out = buffer.data();
                z.avail_out = static_cast<uInt>(buffer.size());
                rc = ::deflate(&z, flush);
                out_.write(buffer.data(), buffer.size() - z.avail_out);
            } while (z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
        };
        produce([&](const void* p, std::size_t n) {
            const auto* in = static_cast<const unsigned char*>(p);
            crc = static_cast<std::uint32_t>(crc32_z(crc, in, n));
            size += n;
            while (n > 0) {
                const std::size_t step = std::min<std::size_t>(n, std::size_t{1} << 30);
                z.next_in = const_cast<unsigned char*>(in);
                z.avail_in = static_cast<uInt>(step);
                pump(Z_NO_FLUSH);
                in += step;
                n -= step;
            }
        });
        z.next_in = nullptr;
        z.avail_in = 0;
        pump(Z_FINISH);
    }
    e.crc = crc;
    e.size = size;
    e.compressed_size = out_.position() - data_start;
    std::string patch;
    put(patch, e.crc, 4);
    out_.write_at(e.offset + 14, patch.data(), 4);
    patch.clear();
    put(patch, e.size, 8);
    put(patch, e.compressed_size, 8);
    out_.write_at(e.offset + local_header_size + e.name.size() + 4, patch.data(), 16);
    entries_.push_back(std::move(e));
}

void zip_writer::finish() {
    const std::uint64_t directory_offset = out_.position();
    for (const entry& e : entries_) {
        std::string extra;
        const bool big_size = e.size >= u32_max, big_compressed = e.compressed_size >= u32_max,
                   big_offset = e.offset >= u32_max;
        if (big_size) put(extra, e.size, 8);
        if (big_compressed) put(extra, e.compressed_size, 8);
        if (big_offset) put(extra, e.offset, 8);
        std::string c;
        put(c, central_signature, 4);
        put(c, (3u << 8) | 45u, 2);  // made by Unix, zip 4.5
        put(c, 45, 2);
        put(c, 0, 2);
        put(c, e.method, 2);
        put(c, 0, 2);
        put(c, 0x21, 2);
        put(c, e.crc, 4);
        put(c, big_compressed ? u32_max : e.compressed_size, 4);
        put(c, big_size ? u32_max : e.size, 4);
        put(c, e.name.size(), 2);
        put(c, extra.empty() ? 0 : extra.size() + 4, 2);
        put(c, 0, 2);  // comment
        put(c, 0, 2);  // disk
        put(c, 0, 2);  // internal attributes
        put(c, std::uint64_t{0100644} << 16, 4);  // a regular file, rw-r--r--
        put(c, big_offset ? u32_max : e.offset, 4);
        c += e.name;
        if (!extra.empty()) {
            put(c, zip64_extra_id, 2);
            put(c, extra.size(), 2);
            c += extra;
        }
        out_.write(c);
    }
    const std::uint64_t directory_size = out_.position() - directory_offset;
    const std::uint64_t count = entries_.size();
    const bool zip64 = count >= u16_max || directory_offset >= u32_max || directory_size >= u32_max;
    std::string end;
    if (zip64) {
        const std::uint64_t record_at = out_.position();
        put(end, zip64_end_signature, 4);
        put(end, zip64_end_size - 12, 8);
        put(end, (3u << 8) | 45u, 2);
        put(end, 45, 2);
        put(end, 0, 4);
        put(end, 0, 4);
        put(end, count, 8);
        put(end, count, 8);
        put(end, directory_size, 8);
        put(end, directory_offset, 8);
        put(end, zip64_locator_signature, 4);
        put(end, 0, 4);
        put(end, record_at, 8);
        put(end, 1, 4);
    }
    put(end, end_signature, 4);
    put(end, 0, 2);
    put(end, 0, 2);
    put(end, zip64 ? u16_max : count, 2);
    put(end, zip64 ? u16_max : count, 2);
    put(end, zip64 ? u32_max : directory_size, 4);
    put(end, zip64 ? u32_max : directory_offset, 4);
    put(end, 0, 2);
    out_.write(end);
}

}  // namespace nt::detail
