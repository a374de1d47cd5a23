// json_document.hpp (private to the matcher): a read-only JSON document for configs.
//
// Why not nlohmann::ordered_json: its objects are vectors searched linearly on every
// insert, so reading a config of n tensors took O(n^2) time, seconds for a large one
// (figures: docs/performance.md, "Figures behind the engine's thresholds").
// This document is built by nlohmann's SAX parser into one arena: members keep the
// file order, reading is linear in the text, and a value is 48 bytes plus its text.
// The reader's rules live here too: a key repeated in one object and nesting deeper
// than 64 levels are parse errors, raised as they are read, with the path of the
// value (`tensors.a`) in the message.
#pragma once

#include <cstddef>
#include <cstdint>
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

    [[nodiscard]] bool boolean() const noexcept;
    /// integer: a negative number (or "-0"); unsigned_integer: a number >= 0.
    [[nodiscard]] std::int64_t integer() const noexcept;
    [[nodiscard]] std::uint64_t unsigned_integer() const noexcept;
    [[nodiscard]] double floating() const noexcept;
    [[nodiscard]] std::string_view str() const noexcept;

    /// The value as JSON text on one line, ASCII only (for messages).
    [[nodiscard]] std::string dump() const;

private:
    const json_document* doc_;
    std::size_t index_;
};

/// A parsed document. parse() throws nt::error (parse_error) for malformed JSON, a
/// key repeated within one object, or nesting deeper than max_json_depth.
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

    [[nodiscard]] static json_document parse(std::string_view text);

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
