// The .npy header reader: magic and version, the Python-literal header dict, the
// dtype table, and the check that the header's shape fits the stream length.
#include "npy_header.hpp"
#include "regular_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nt/dtype.hpp"
#include "nt/error.hpp"
#include "nt/spec.hpp"

namespace nt::detail {

static_assert(std::endian::native == std::endian::little,
              "the .npy code assumes a little-endian machine (native '=' descrs, byte swaps of '>' data)");

namespace {

/// The dtype table, one row per element type of NT_FOR_EACH_ELEMENT_TYPE: NumPy's
/// kind and item size, ntensor's spelling, and the descr written ("|u1", "<f4").
struct npy_type {
    char kind;
    std::int64_t size;
    std::string_view name;
    std::array<char, 3> descr_chars;

    [[nodiscard]] constexpr std::string_view descr() const noexcept { return {descr_chars.data(), descr_chars.size()}; }
};

template <class T>
constexpr npy_type npy_type_of(std::string_view name) noexcept {
    char kind = 'u';
    if constexpr (std::is_same_v<T, bool>) kind = 'b';
    else if constexpr (std::is_same_v<T, half> || std::is_floating_point_v<T>) kind = 'f';
    else if constexpr (std::is_signed_v<T>) kind = 'i';
    static_assert(sizeof(T) <= 9, "a one-digit item size");
    return {kind, sizeof(T), name, {sizeof(T) == 1 ? '|' : '<', kind, static_cast<char>('0' + sizeof(T))}};
}

#define NT_NPY_TYPE(T, tag, numpy_name) npy_type_of<T>(#tag),
constexpr std::array npy_types{NT_FOR_EACH_ELEMENT_TYPE(NT_NPY_TYPE)};
#undef NT_NPY_TYPE

constexpr std::string_view magic{"\x93NUMPY", 6};
/// Longest piece of the file quoted in a message.
constexpr std::size_t max_quoted = 40;
/// Nesting depth of the header literal (a structured descr nests a few levels).
constexpr int max_depth = 32;

struct parsed_descr {
    char order = '<';
    char kind = 0;
    std::int64_t size = 0;
    const npy_type* type = nullptr;
};

/// Splits "<u2" into order, kind and size; type is null when outside the table.
parsed_descr split_descr(std::string_view d) noexcept {
    parsed_descr p;
    if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
        p.order = d[0];
        d.remove_prefix(1);
    } else {
        p.order = '=';
    }
    if (d == "?") d = "b1";
    if (!d.empty()) p.kind = d[0];
    if (d.size() < 2 || d.size() > 3) return p;
    std::int64_t size = 0;
    for (const char c : d.substr(1)) {
        if (c < '0' || c > '9') return p;
        size = size * 10 + (c - '0');
    }
    p.size = size;
    for (const auto& t : npy_types)
        if (t.kind == p.kind && t.size == size) p.type = &t;
    return p;
}

/// Printable form of raw file bytes for a message.
std::string quote_bytes(std::string_view raw) {
    std::string out = "\"";
    const bool cut = raw.size() > max_quoted;
    for (const char c : raw.substr(0, max_quoted)) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    out += cut ? "...\"" : "\"";
    return out;
}

[[noreturn]] void fail(errc code, std::string_view where, const std::string& what) {
    throw_error(code, std::string(where) + ": " + what);
}

std::uint64_t read_le(std::span<const char> b, std::size_t at, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
    return v;
}

/// A parser of the Python literal NumPy writes with repr(dict), positions reported
/// as file byte offsets.
class header_parser {
public:
    header_parser(std::string_view text, std::uint64_t base, std::string_view where)
        : text_(text), base_(base), where_(where) {}

    npy_header parse() {
        npy_header h;
        bool have_descr = false, have_order = false, have_shape = false;
        skip_space();
        expect('{', "the header dict's '{'");
        skip_space();
        while (!at('}')) {
            const std::size_t key_at = pos_;
            const std::string key = parse_string("a key string ('descr', 'fortran_order' or 'shape')");
            skip_space();
            expect(':', "':' after the key");
            skip_space();
            const auto once = [&](bool& seen) {
                if (seen) fail_at(key_at, "the key '" + key + "' appears twice; a header has each key once");
                seen = true;
            };
            if (key == "descr") {
                once(have_descr);
                parse_descr(h);
            } else if (key == "fortran_order") {
                once(have_order);
                h.fortran_order = parse_bool();
            } else if (key == "shape") {
                once(have_shape);
                parse_shape(h);
            } else {
                fail_at(key_at, "unexpected key " + quote_bytes(key) +
                                    "; a .npy header has exactly 'descr', 'fortran_order' and 'shape'");
            }
            skip_space();
            if (at(',')) {
                ++pos_;
                skip_space();
            } else if (!at('}')) {
                fail_here("',' or '}' after the value of '" + key + "'");
            }
        }
        ++pos_;
        skip_space();
        if (pos_ != text_.size()) fail_here("only padding (spaces and a newline) after the header dict");
        const char* missing = !have_descr ? "descr" : !have_order ? "fortran_order" : !have_shape ? "shape" : nullptr;
        if (missing)
            fail(errc::format_error, where_,
                 "the header has no '" + std::string(missing) +
                     "' key; a .npy header has 'descr', 'fortran_order' and 'shape' (write it with np.save)");
        return h;
    }

private:
    [[nodiscard]] bool at(char c) const noexcept { return pos_ < text_.size() && text_[pos_] == c; }

    void skip_space() noexcept {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' ||
                                       text_[pos_] == '\r'))
            ++pos_;
    }

    [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const {
        fail(errc::format_error, where_, "header byte " + std::to_string(base_ + pos) + ": " + what);
    }

    [[noreturn]] void fail_here(const std::string& expected) const {
        const std::string found =
            pos_ < text_.size() ? quote_bytes(text_.substr(pos_)) : std::string("the end of the header");
        fail_at(pos_, "expected " + expected + ", found " + found +
                          "; the header is not what np.save writes (is the file damaged?)");
    }

    void expect(char c, const char* what) {
        if (!at(c)) fail_here(what);
        ++pos_;
    }

    std::string parse_string(const char* what) {
        if (!at('\'') && !at('"')) fail_here(what);
        const char quote = text_[pos_++];
        std::string out;
        while (pos_ < text_.size() && text_[pos_] != quote) {
            if (text_[pos_] == '\\' || text_[pos_] == '\n') fail_here("a plain string without escapes");
            out += text_[pos_++];
        }
        if (pos_ >= text_.size()) fail_here("the closing quote of a string");
        ++pos_;
        return out;
    }

    bool parse_bool() {
        for (const std::string_view word : {"True", "False"})
            if (text_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return word == "True";
            }
        fail_here("True or False for 'fortran_order'");
    }

    std::int64_t parse_size() {
        const std::size_t start = pos_;
        if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9')
            fail_here("a size (a non-negative integer) in 'shape'");
        std::int64_t v = 0;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
            const int digit = text_[pos_++] - '0';
            if (v > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
                fail_at(start, "the size " + quote_bytes(text_.substr(start, 24)) + " in 'shape' exceeds 2^63-1");
            v = v * 10 + digit;
        }
        if (at('L') || at('l')) ++pos_;  // Python 2 long literals in old files
        return v;
    }

    void parse_shape(npy_header& h) {
        const std::size_t start = pos_;
        if (!at('(') && !at('[')) fail_here("a tuple of sizes for 'shape', e.g. (3, 4)");
        const char close = text_[pos_++] == '(' ? ')' : ']';
        skip_space();
        while (!at(close)) {
            if (h.shape.size() == max_rank)
                fail_at(start, "'shape' has more than " + std::to_string(max_rank) + " axes, ntensor's max_rank");
            h.shape.push_back(parse_size());
            skip_space();
            if (at(',')) {
                ++pos_;
                skip_space();
            } else if (!at(close)) {
                fail_here(std::string("',' or '") + close + "' in 'shape'");
            }
        }
        ++pos_;
    }

    /// Skips any literal (for a structured descr), bounded in depth.
    void skip_value(int depth) {
        if (depth > max_depth) fail_here("a descr nested at most " + std::to_string(max_depth) + " levels");
        skip_space();
        if (at('\'') || at('"')) {
            (void)parse_string("a string");
            return;
        }
        if (at('(') || at('[') || at('{')) {
            const char close = text_[pos_] == '(' ? ')' : text_[pos_] == '[' ? ']' : '}';
            ++pos_;
            skip_space();
            while (!at(close)) {
                skip_value(depth + 1);
                skip_space();
                if (at(',') || at(':')) {
                    ++pos_;
                    skip_space();
                } else if (!at(close)) {
                    fail_here(std::string("',' or '") + close + "'");
                }
            }
            ++pos_;
            return;
        }
        const std::size_t start = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                       text_[pos_] == '-' || text_[pos_] == '.'))
            ++pos_;
        if (pos_ == start) fail_here("a value");
    }

    void parse_descr(npy_header& h) {
        const std::size_t start = pos_;
        if (at('[') || at('(') || at('{')) {
            skip_value(0);
            fail(errc::unsupported_dtype, where_,
                 "the descr " + quote_bytes(text_.substr(start, pos_ - start)) +
                     " is a structured dtype; ntensor holds plain numbers (b1, i1-i8, u1-u8, f2-f8): save each "
                     "field as its own array");
        }
        h.descr = parse_string("a dtype string for 'descr', e.g. '<i2'");
        const parsed_descr d = split_descr(h.descr);
        if (!d.type) {
            const char* what = d.kind == 'c'   ? "complex numbers"
                               : d.kind == 'O' ? "Python objects"
                               : d.kind == 'M' || d.kind == 'm' ? "dates or time deltas"
                               : d.kind == 'S' || d.kind == 'a' || d.kind == 'U' ? "strings"
                               : d.kind == 'V' ? "raw bytes (void)"
                                               : "an unknown type";
            fail(errc::unsupported_dtype, where_,
                 "the descr " + quote_bytes(h.descr) + " holds " + what +
                     "; ntensor reads bool, int8-64, uint8-64 and float16-64 ('|b1', '<i2', '<f4', ...): "
                     "convert with arr.astype(...) before np.save");
        }
        h.kind = d.type->kind;
        h.item_size = d.type->size;
        h.dtype = d.type->name;
        h.byte_order = d.order == '>' ? npy_byte_order::big
                       : d.size == 1  ? npy_byte_order::not_applicable
                                      : npy_byte_order::little;
    }

    std::string_view text_;
    std::uint64_t base_;
    std::string_view where_;
    std::size_t pos_ = 0;
};

}  // namespace

std::int64_t npy_header::element_count() const noexcept {
    std::int64_t n = 1;
    for (const std::int64_t s : shape) n *= s;
    return n;
}

std::uint64_t npy_header::data_bytes() const noexcept {
    return static_cast<std::uint64_t>(element_count()) * static_cast<std::uint64_t>(item_size);
}

std::string npy_header::version_string() const {
    return std::to_string(major_version) + "." + std::to_string(minor_version);
}

std::string_view npy_dtype_name(std::string_view descr) noexcept {
    const parsed_descr d = split_descr(descr);
    return d.type ? d.type->name : std::string_view{};
}

std::size_t npy_item_size(std::string_view dtype) noexcept {
    for (const auto& t : npy_types)
        if (t.name == dtype) return static_cast<std::size_t>(t.size);
    return 0;
}

std::string_view npy_descr_for(std::string_view dtype) noexcept {
    for (const auto& t : npy_types)
        if (t.name == dtype) return t.descr();
    return {};
}

std::uint64_t npy_data_offset(std::span<const char> first, std::uint64_t stream_size, std::string_view where) {
    const std::string_view b(first.data(), std::min<std::size_t>(first.size(), 12));
    if (b.substr(0, magic.size()) != magic)
        fail(errc::format_error, where,
             "byte 0: expected the .npy magic \"\\x93NUMPY\", found " + quote_bytes(b.substr(0, 8)) +
                 "; this is not a .npy file (write one with np.save)");
    if (b.size() < 10)
        fail(errc::format_error, where,
             "the file ends at byte " + std::to_string(stream_size) +
                 ", inside the 10-byte preamble (magic, version, header length): it is truncated");
    const int major = static_cast<unsigned char>(b[6]);
    const int minor = static_cast<unsigned char>(b[7]);
    if (major < 1 || major > 3 || minor != 0)
        fail(errc::format_error, where,
             "byte 6: format version " + std::to_string(major) + "." + std::to_string(minor) +
                 " is not one of 1.0, 2.0, 3.0; write the file with np.save");
    const std::size_t len_bytes = major == 1 ? 2 : 4;
    if (b.size() < 8 + len_bytes)
        fail(errc::format_error, where,
             "the file ends at byte " + std::to_string(stream_size) + ", inside the " +
                 std::to_string(8 + len_bytes) + "-byte preamble: it is truncated");
    const std::uint64_t offset = 8 + len_bytes + read_le(first, 8, len_bytes);
    if (offset > stream_size)
        fail(errc::format_error, where,
             "byte 8: the header length says the header ends at byte " + std::to_string(offset) +
                 " but the file has " + std::to_string(stream_size) + " bytes: it is truncated or damaged");
    return offset;
}

npy_header parse_npy_header(std::span<const char> bytes, std::uint64_t stream_size, std::string_view where) {
    const std::uint64_t offset = npy_data_offset(bytes, stream_size, where);
    if (bytes.size() < offset)
        fail(errc::format_error, where,
             "the header runs to byte " + std::to_string(offset) + " but only " + std::to_string(bytes.size()) +
                 " bytes were given: it is truncated");
    const std::size_t preamble = static_cast<unsigned char>(bytes[6]) == 1 ? 10 : 12;
    const std::string_view text(bytes.data() + preamble, static_cast<std::size_t>(offset) - preamble);
    npy_header h = header_parser(text, preamble, where).parse();
    h.major_version = static_cast<unsigned char>(bytes[6]);
    h.minor_version = static_cast<unsigned char>(bytes[7]);
    h.data_offset = offset;

    // Sizes: the non-zero sizes' product (strides use it even when one size is 0)
    // and the byte count must fit in int64 before they are compared with the file.
    std::int64_t span = h.item_size;
    for (const std::int64_t s : h.shape)
        if (s > 1 && span > std::numeric_limits<std::int64_t>::max() / s)
            fail(errc::format_error, where,
                 "'shape' " + shape_string(h.shape) + " of " + std::to_string(h.item_size) +
                     "-byte elements exceeds 2^63 bytes; the header is damaged");
        else if (s > 1)
            span *= s;
    const std::uint64_t have = stream_size - offset;
    if (h.data_bytes() != have)
        fail(errc::format_error, where,
             "'shape' " + shape_string(h.shape) + " of '" + h.descr + "' needs " + std::to_string(h.data_bytes()) +
                 " data bytes after the header (byte " + std::to_string(offset) + ") but the file has " +
                 std::to_string(have) + (h.data_bytes() > have ? ": it is truncated" : ": the header is wrong") +
                 "; save it again with np.save");
    return h;
}

npy_header read_npy_header(const std::string& path) {
    const std::string where = "'" + path + "'";
    const regular_file file(path, where);
    const int fd = file.fd();
    const auto size = file.size();

    const auto read_at = [&](std::uint64_t from, std::string& into, std::size_t n) {
        into.resize(n);
        std::size_t done = 0;
        while (done < n) {
            const ::ssize_t got = ::pread(fd, into.data() + done, n - done, static_cast<off_t>(from + done));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) fail(errc::io_error, where, "cannot read: " + system_reason());
            if (got == 0)
                fail(errc::format_error, where,
                     "the file ended at byte " + std::to_string(from + done) + " while reading its header");
            done += static_cast<std::size_t>(got);
        }
    };
    std::string head;
    read_at(0, head, static_cast<std::size_t>(std::min<std::uint64_t>(size, 12)));
    const std::uint64_t offset = npy_data_offset(head, size, where);
    if (offset > head.size()) {
        std::string rest;
        read_at(head.size(), rest, static_cast<std::size_t>(offset - head.size()));
        head += rest;
    }
    return parse_npy_header(head, size, where);
}

std::string make_npy_header(std::string_view descr, bool fortran_order, std::span<const std::int64_t> shape) {
    std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': " +
                       (fortran_order ? "True" : "False") + ", 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) dict += ", ";
        dict += std::to_string(shape[i]);
    }
    dict += shape.size() == 1 ? ",), }" : "), }";
    // Version 1.0 stores the header length in 2 bytes; 2.0 in 4.
    const auto padded = [&](std::size_t preamble) { return (preamble + dict.size() + 1 + 63) / 64 * 64; };
    const bool v1 = padded(10) - 10 <= 65535;
    const std::size_t preamble = v1 ? 10 : 12;
    const std::size_t total = padded(preamble);
    dict.append(total - preamble - dict.size() - 1, ' ');
    dict += '\n';
    const std::size_t len = dict.size();
    std::string out(magic);
    out += static_cast<char>(v1 ? 1 : 2);
    out += '\0';
    for (std::size_t i = 0; i < (v1 ? 2u : 4u); ++i) out += static_cast<char>((len >> (8 * i)) & 0xff);
    return out + dict;
}

}  // namespace nt::detail
