// json_document.hpp (private to ntensor): the one JSON layer. Everything that reads
// JSON (configs, pipelines, zarr and OME-Zarr metadata) reads a json_document;
// everything that writes JSON (plans, reports, .zarray, .zattrs, `ntensor info
// --json`) builds a json_out. Only json_document.cpp includes nlohmann/json.
//
// Why not nlohmann::ordered_json: its objects are vectors searched linearly on every
// insert, so reading a config of n tensors took O(n^2) time, seconds for a large one
// (figures: docs/performance.md, "Figures behind the engine's thresholds").
// This document is built by nlohmann's SAX parser into one arena: members keep the
// file order, reading is linear in the text, and a value is 48 bytes plus its text.
// The config reader's rules live here too (json_rules::config): a key repeated in
// one object and nesting deeper than 64 levels are parse errors, raised as they are
// read, with the path of the value (`tensors.a`) in the message. File formats'
// metadata is read with nlohmann::json's rules (json_rules::lenient).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nt::detail {

/// Deepest nesting of arrays and objects accepted. A valid config needs 5 levels;
/// the limit only guards against pathological input.
inline constexpr std::size_t max_json_depth = 64;

class json_document;

enum class json_kind : std::uint8_t { null, boolean, integer, unsigned_integer, floating, string, array, object };

/// A view of one value of a json_document (valid while the document lives).
class json_value {
public:
    json_value(const json_document& doc, std::size_t index) noexcept : doc_(&doc), index_(index) {}

    [[nodiscard]] json_kind kind() const noexcept;
    [[nodiscard]] bool is_null() const noexcept { return kind() == json_kind::null; }
    [[nodiscard]] bool is_boolean() const noexcept { return kind() == json_kind::boolean; }
    [[nodiscard]] bool is_string() const noexcept { return kind() == json_kind::string; }
    [[nodiscard]] bool is_array() const noexcept { return kind() == json_kind::array; }
    [[nodiscard]] bool is_object() const noexcept { return kind() == json_kind::object; }
    [[nodiscard]] bool is_number() const noexcept {
        return kind() == json_kind::integer || kind() == json_kind::unsigned_integer || kind() == json_kind::floating;
    }

    /// Elements of an array or members of an object (0 for scalars).
    [[nodiscard]] std::size_t size() const noexcept;
    [[nodiscard]] bool empty() const noexcept { return size() == 0; }
    /// Element i of an array, or the value of member i of an object (file order).
    [[nodiscard]] json_value operator[](std::size_t i) const noexcept;
    /// The key of member i of an object.
    [[nodiscard]] std::string_view key(std::size_t i) const noexcept;
    /// The member `key` of an object, by a linear scan (objects of a config have a
    /// handful of keys; index large objects yourself). False when absent.
    [[nodiscard]] bool find(std::string_view key, json_value& out) const noexcept;
    /// The member `key` of an object (nothing when absent, or when this is not an object).
    [[nodiscard]] std::optional<json_value> find(std::string_view key) const noexcept;
    [[nodiscard]] bool contains(std::string_view key) const noexcept { return find(key).has_value(); }

    [[nodiscard]] bool boolean() const noexcept;
    /// integer: a negative number (or "-0"); unsigned_integer: a number >= 0.
    [[nodiscard]] std::int64_t integer() const noexcept;
    [[nodiscard]] std::uint64_t unsigned_integer() const noexcept;
    [[nodiscard]] double floating() const noexcept;
    [[nodiscard]] std::string_view str() const noexcept;
    /// integer and unsigned_integer: the value as nlohmann's get<std::int64_t>() gives
    /// it (an unsigned value over INT64_MAX wraps).
    [[nodiscard]] bool is_integral() const noexcept {
        return kind() == json_kind::integer || kind() == json_kind::unsigned_integer;
    }
    [[nodiscard]] std::int64_t int64() const noexcept;
    /// Any number as a double (0 for other kinds).
    [[nodiscard]] double number() const noexcept;

    /// The value as JSON text on one line, ASCII only (for messages).
    [[nodiscard]] std::string dump() const;

private:
    const json_document* doc_;
    std::size_t index_;
};

/// What parse() refuses beyond malformed JSON.
enum class json_rules : std::uint8_t {
    /// The config reader's: a key repeated within one object, or nesting deeper than
    /// max_json_depth, is a parse_error naming the path ("tensors.a").
    config,
    /// nlohmann::json::parse's, for file formats' metadata (zarr, OME-Zarr): a
    /// repeated key keeps its last value, nesting has no limit.
    lenient,
};

/// A parsed document. parse() throws nt::error (parse_error) for malformed JSON and
/// for what `rules` refuses.
class json_document {
public:
    struct node {
        json_kind kind = json_kind::null;
        bool flag = false;
        std::size_t first = 0;       // arrays, objects: first child in nodes; strings: offset in text
        std::size_t count = 0;       // arrays, objects: children; strings: length
        std::size_t key_offset = 0;  // members of objects: the key in text
        std::size_t key_length = 0;
        union {
            std::int64_t i;
            std::uint64_t u;
            double d;
        } number{};
    };

    [[nodiscard]] static json_document parse(std::string_view text, json_rules rules = json_rules::config);

    [[nodiscard]] json_value root() const noexcept { return {*this, nodes_.size() - 1}; }
    [[nodiscard]] const node& at(std::size_t index) const noexcept { return nodes_[index]; }
    [[nodiscard]] std::string_view text(std::size_t offset, std::size_t length) const noexcept {
        return std::string_view(text_).substr(offset, length);
    }

private:
    friend class json_builder;
    std::vector<node> nodes_;  // children before their parent; the root is last
    std::string text_;         // keys and strings, back to back
};

/// `value` on one line as nlohmann::json::dump() wrote it: object keys sorted, UTF-8
/// kept, numbers as in json_out. What zarr messages quote, and zarr's JSON texts.
[[nodiscard]] std::string json_text(json_value value);

/// value.str() when `value` is a string; otherwise throws what nlohmann's
/// get<std::string>() throws (a std::exception that is not an nt::error).
[[nodiscard]] std::string string_of(json_value value);

/// The numbers of an array as doubles; otherwise throws what nlohmann's
/// get<std::vector<double>>() throws (a std::exception that is not an nt::error).
[[nodiscard]] std::vector<double> doubles_of(json_value value);

// ---------------------------------------------------------------------------------
// Writing

/// How json_out::dump() lays a value out.
struct json_style {
    /// < 0: one line without spaces, {"a":[1,2]}. >= 0: each member and element on a
    /// line of its own, indented by `indent` spaces per level, "key": value (the
    /// layout of nlohmann's dump(indent)).
    int indent = -1;
    /// With indent >= 0: an array holding no array or object stays on one line,
    /// "shape": [10, 3, 256, 384] (plans and reports).
    bool flat_scalar_arrays = false;
    /// false: a string that is not valid UTF-8 throws nlohmann's type_error.316 (a
    /// std::exception that is not an nt::error); true: it is written with U+FFFD.
    bool replace_invalid_utf8 = false;
};

/// A JSON value to write: object members keep the order in which they were added
/// (add() never searches, so a plan of 40,000 inputs is written in linear time).
/// Numbers are written as nlohmann writes them: integers in full, doubles in the
/// shortest form that reads back to the same double ("1.0", "1e+20"), NaN and
/// infinities as null (zarr spells those as the strings "NaN", "Infinity").
/// Strings are escaped as JSON requires, non-ASCII kept as UTF-8.
class json_out {
public:
    static json_out null() { return json_out(json_kind::null); }
    static json_out boolean(bool b);
    static json_out integer(std::int64_t n);
    static json_out unsigned_integer(std::uint64_t n);
    static json_out floating(double d);
    static json_out string(std::string_view s);
    static json_out array() { return json_out(json_kind::array); }
    static json_out object() { return json_out(json_kind::object); }
    /// A copy of a read value (members in the document's order).
    static json_out copy(json_value value);

    [[nodiscard]] json_kind kind() const noexcept { return kind_; }

    /// Appends an element to an array.
    json_out& push(json_out v);
    /// Appends a member to an object; the caller keeps keys unique.
    json_out& add(std::string key, json_out v);
    /// Replaces member `key` of an object, or appends it (a linear search: for small
    /// objects).
    json_out& set(std::string_view key, json_out v);
    /// set() for every member of the object `other`, in its order.
    json_out& update(json_out other);
    /// Sorts the members of every object by key, bytewise: the order nlohmann::json
    /// (a std::map) wrote, which zarr's .zarray and .zattrs files keep.
    json_out& sort_keys();

    [[nodiscard]] std::string dump(json_style style = {}) const;
    void write(std::string& out, const json_style& style, std::size_t depth = 0) const;

private:
    explicit json_out(json_kind k) noexcept : kind_(k) {}
    [[nodiscard]] bool is_structured() const noexcept { return kind_ == json_kind::array || kind_ == json_kind::object; }
    void write_scalar(std::string& out, const json_style& style) const;

    json_kind kind_;
    bool boolean_ = false;
    union {
        std::int64_t i;
        std::uint64_t u;
        double d;
    } number_{};
    std::string text_;
    std::vector<std::string> keys_;
    std::vector<json_out> items_;
};

// ---------------------------------------------------------------------------------
// Message helpers shared by the config reader and writer.

/// A JSON string literal for `text`, ASCII only (control and non-ASCII characters
/// escaped), so that messages print safely on any terminal. Long text is cut at 80
/// bytes (a cut inside a UTF-8 sequence prints as U+FFFD).
[[nodiscard]] std::string json_quoted(std::string_view text);

/// `text` as a JSON string literal, unabridged, non-ASCII kept as UTF-8 (invalid
/// UTF-8 replaced): for output documents.
[[nodiscard]] std::string json_string(std::string_view text);

/// What a value is, for "found ..." in messages: `the string "3"`, `the number 2.5`.
[[nodiscard]] std::string describe(json_value value);

/// The path of member `key` of the value at `parent`: "tensors.img", or
/// `tensors["a b"]` when the key is not a plain word.
[[nodiscard]] std::string member_path(std::string_view parent, std::string_view key);
[[nodiscard]] std::string element_path(std::string_view parent, std::size_t index);

/// How a path reads at the start of a message ("" is the whole document).
[[nodiscard]] std::string where(std::string_view path);

/// " (did you mean "policy"?)" when one candidate is within two edits of `word`.
[[nodiscard]] std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates);

/// "\"a\", \"b\"".
[[nodiscard]] std::string joined(const std::vector<std::string_view>& items);

/// "1 name", "3 names"; count_of(3, "axis", "axes").
[[nodiscard]] std::string count_of(std::size_t n, std::string_view noun, std::string_view plural = {});

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
[[nodiscard]] std::string without_json_prefix(const char* what);

}  // namespace nt::detail
