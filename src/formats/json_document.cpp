// A read-only JSON document built by nlohmann's SAX parser (see json_document.hpp).
#include "json_document.hpp"

#include "nt/detail/edit_distance.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "nt/error.hpp"

namespace nt::detail {

namespace {

/// Longest key or path quoted in a message; longer ones are cut with "...".
constexpr std::size_t max_quoted_length = 80;

/// Longest excerpt of a found value quoted in a message.
constexpr std::size_t max_excerpt_length = 40;

/// Objects up to this many members look for a repeated key by a linear scan;
/// larger ones keep a hash set of their keys.
constexpr std::size_t linear_key_scan = 16;

bool is_plain_key(std::string_view key) noexcept {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}


}  // namespace

// ---------------------------------------------------------------------------------
// Building: the SAX handler

/// nlohmann's SAX events -> json_document. Completed children wait in `pending_`
/// until their container closes, then move to the arena in one block, so every
/// value is copied once per level at most and the build is linear.
class json_builder {
public:
    json_document take() { return std::move(doc_); }

    bool null() { return scalar(json_kind::null); }
    bool boolean(bool value) {
        json_document::node n;
        n.kind = json_kind::boolean;
        n.flag = value;
        return add(n);
    }
    bool number_integer(std::int64_t value) {
        json_document::node n;
        n.kind = json_kind::integer;
        n.number.i = value;
        return add(n);
    }
    bool number_unsigned(std::uint64_t value) {
        json_document::node n;
        n.kind = json_kind::unsigned_integer;
        n.number.u = value;
        return add(n);
    }
    bool number_float(double value, const std::string& /*raw*/) {
        json_document::node n;
        n.kind = json_kind::floating;
        n.number.d = value;
        return add(n);
    }
    bool string(std::string& value) {
        json_document::node n;
        n.kind = json_kind::string;
        n.first = doc_.text_.size();
        n.count = value.size();
        doc_.text_ += value;
        return add(n);
    }
    bool binary(nlohmann::json::binary_t& /*value*/) { return scalar(json_kind::null); }  // never in JSON text

    bool start_object(std::size_t /*size*/) { return open(true); }
    bool start_array(std::size_t /*size*/) { return open(false); }
    bool end_object() { return close(json_kind::object); }
    bool end_array() { return close(json_kind::array); }

    bool key(std::string& text) {
        frame& top = frames_.back();
        const std::size_t members = pending_.size() - top.pending_start;
        if (repeated(top, text, members))
            throw_error(errc::parse_error, where(path_of(frames_.size() - 1)) + ": the key " + json_quoted(text) +
                                               " appears twice; JSON readers disagree on which one wins, keep one");
        top.key_offset = doc_.text_.size();
        top.key_length = text.size();
        doc_.text_ += text;
        if (top.keys) top.keys->insert({top.key_offset, top.key_length});
        return true;
    }

    bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/, const nlohmann::json::exception& e) {
        throw_error(errc::parse_error, "malformed JSON: " + without_json_prefix(e.what()));
    }

private:
    struct key_ref {
        std::size_t offset;
        std::size_t length;
    };
    struct key_hash {
        const std::string* text;
        std::size_t operator()(key_ref k) const noexcept {
            return std::hash<std::string_view>{}(std::string_view(*text).substr(k.offset, k.length));
        }
    };
    struct key_equal {
        const std::string* text;
        bool operator()(key_ref a, key_ref b) const noexcept {
            const std::string_view t(*text);
            return t.substr(a.offset, a.length) == t.substr(b.offset, b.length);
        }
    };
    using key_set = std::unordered_set<key_ref, key_hash, key_equal>;

    struct frame {
        bool is_object = false;
        std::size_t pending_start = 0;  // this container's finished children: pending_[pending_start...]
        std::size_t key_offset = 0;     // objects: the key of the value being read
        std::size_t key_length = 0;
        std::unique_ptr<key_set> keys;  // large objects only
    };

    bool scalar(json_kind kind) {
        json_document::node n;
        n.kind = kind;
        return add(n);
    }

    /// A finished value: a child of the open container, or the root.
    bool add(json_document::node n) {
        if (frames_.empty()) {
            doc_.nodes_.push_back(n);
            return true;
        }
        const frame& top = frames_.back();
        if (top.is_object) {
            n.key_offset = top.key_offset;
            n.key_length = top.key_length;
        }
        pending_.push_back(n);
        return true;
    }

    bool open(bool is_object) {
        if (frames_.size() == max_json_depth)
            throw_error(errc::parse_error, where(path_of(frames_.size())) + ": arrays and objects nest deeper than " +
                                               std::to_string(max_json_depth) + " levels; a shape config needs 5");
        frame f;
        f.is_object = is_object;
        f.pending_start = pending_.size();
        frames_.push_back(std::move(f));
        return true;
    }

    bool close(json_kind kind) {
        const std::size_t start = frames_.back().pending_start;
        json_document::node n;
        n.kind = kind;
        n.first = doc_.nodes_.size();
        n.count = pending_.size() - start;
        doc_.nodes_.insert(doc_.nodes_.end(), pending_.begin() + static_cast<std::ptrdiff_t>(start), pending_.end());
        pending_.resize(start);
        frames_.pop_back();
        return add(n);
    }

    bool repeated(frame& top, const std::string& text, std::size_t members) {
        if (!top.keys && members < linear_key_scan) {
            for (std::size_t i = top.pending_start; i < pending_.size(); ++i)
                if (doc_.text(pending_[i].key_offset, pending_[i].key_length) == text) return true;
            return false;
        }
        if (!top.keys) {
            top.keys = std::make_unique<key_set>(0, key_hash{&doc_.text_}, key_equal{&doc_.text_});
            for (std::size_t i = top.pending_start; i < pending_.size(); ++i)
                top.keys->insert({pending_[i].key_offset, pending_[i].key_length});
        }
        // Look the new key up without storing it first: append, probe, take back.
        const key_ref probe{doc_.text_.size(), text.size()};
        doc_.text_ += text;
        const bool found = top.keys->count(probe) != 0;
        doc_.text_.resize(probe.offset);
        return found;
    }

    /// The path of the value that frame `depth` is reading (depth == frames_.size():
    /// the value about to open). Built only for a message.
    std::string path_of(std::size_t depth) const {
        std::string path;
        for (std::size_t d = 0; d < depth && d < frames_.size(); ++d) {
            const frame& f = frames_[d];
            if (f.is_object) {
                path = member_path(path, doc_.text(f.key_offset, f.key_length));
            } else {
                const std::size_t next = d + 1 < frames_.size() ? frames_[d + 1].pending_start : pending_.size();
                path = element_path(path, next - f.pending_start);
            }
        }
        return path;
    }

    json_document doc_;
    std::vector<json_document::node> pending_;
    std::vector<frame> frames_;
};

json_document json_document::parse(std::string_view text) {
    json_builder builder;
    try {
        nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const nlohmann::json::exception& e) {
        throw_error(errc::parse_error, "malformed JSON: " + without_json_prefix(e.what()));
    }
    return builder.take();
}

// ---------------------------------------------------------------------------------
// Reading

json_kind json_value::kind() const noexcept { return doc_->at(index_).kind; }

std::size_t json_value::size() const noexcept {
    const auto& n = doc_->at(index_);
    return n.kind == json_kind::array || n.kind == json_kind::object ? n.count : 0;
}

json_value json_value::operator[](std::size_t i) const noexcept { return {*doc_, doc_->at(index_).first + i}; }

std::string_view json_value::key(std::size_t i) const noexcept {
    const auto& member = doc_->at(doc_->at(index_).first + i);
    return doc_->text(member.key_offset, member.key_length);
}

bool json_value::find(std::string_view key_text, json_value& out) const noexcept {
    if (!is_object()) return false;
    for (std::size_t i = 0; i < size(); ++i)
        if (key(i) == key_text) {
            out = (*this)[i];
            return true;
        }
    return false;
}

bool json_value::boolean() const noexcept { return doc_->at(index_).flag; }
std::int64_t json_value::integer() const noexcept { return doc_->at(index_).number.i; }
std::uint64_t json_value::unsigned_integer() const noexcept { return doc_->at(index_).number.u; }
double json_value::floating() const noexcept { return doc_->at(index_).number.d; }

std::string_view json_value::str() const noexcept {
    const auto& n = doc_->at(index_);
    return doc_->text(n.first, n.count);
}

std::string json_value::dump() const {
    nlohmann::json value;
    switch (kind()) {
        case json_kind::null: break;
        case json_kind::boolean: value = boolean(); break;
        case json_kind::integer: value = integer(); break;
        case json_kind::unsigned_integer: value = unsigned_integer(); break;
        case json_kind::floating: value = floating(); break;
        case json_kind::string: value = std::string(str()); break;
        case json_kind::array: return "[...]";
        case json_kind::object: return "{...}";
    }
    return value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

// ---------------------------------------------------------------------------------
// Message helpers

std::string json_quoted(std::string_view text) {
    const bool cut = text.size() > max_quoted_length;
    std::string quoted = nlohmann::json(std::string(text.substr(0, max_quoted_length)))
                             .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    if (cut) quoted.insert(quoted.size() - 1, "...");
    return quoted;
}

std::string json_string(std::string_view text) {
    return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string count_of(std::size_t n, std::string_view noun, std::string_view plural) {
    if (n == 1) return "1 " + std::string(noun);
    return std::to_string(n) + " " + (plural.empty() ? std::string(noun) + "s" : std::string(plural));
}

std::string member_path(std::string_view parent, std::string_view key) {
    if (!is_plain_key(key)) return std::string(parent) + "[" + json_quoted(key) + "]";
    return parent.empty() ? std::string(key) : std::string(parent) + "." + std::string(key);
}

std::string element_path(std::string_view parent, std::size_t index) {
    return std::string(parent) + "[" + std::to_string(index) + "]";
}

std::string where(std::string_view path) {
    if (path.empty()) return "the config";
    if (path.size() > 2 * max_quoted_length) return std::string(path.substr(0, 2 * max_quoted_length)) + "...";
    return std::string(path);
}

std::string describe(json_value value) {
    const auto excerpt = [&] {
        std::string text = value.dump();
        if (text.size() > max_excerpt_length) text = text.substr(0, max_excerpt_length) + "...";
        return text;
    };
    switch (value.kind()) {
        case json_kind::null: return "null";
        case json_kind::boolean: return value.boolean() ? "true" : "false";
        case json_kind::string: return "the string " + excerpt();
        case json_kind::integer:
        case json_kind::unsigned_integer:
        case json_kind::floating: return "the number " + excerpt();
        case json_kind::array: return value.empty() ? "an empty array" : "an array of " + count_of(value.size(), "element");
        case json_kind::object:
            return value.empty() ? "an empty object" : "an object with " + count_of(value.size(), "key");
    }
    return "a value of an unsupported type";
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates) {
    constexpr std::size_t max_word_length = 64;  // longer words are never typos of a key
    if (word.size() > max_word_length) return {};
    std::string_view best;
    std::size_t best_distance = 3;  // suggest only within two edits
    for (std::string_view candidate : candidates) {
        if (candidate.size() > max_word_length) continue;
        const std::size_t d = edit_distance(word, candidate);
        if (d < best_distance && d < std::max<std::size_t>(candidate.size(), 2)) {
            best = candidate;
            best_distance = d;
        }
    }
    return best.empty() ? std::string{} : " (did you mean " + json_quoted(best) + "?)";
}

std::string joined(const std::vector<std::string_view>& items) {
    std::string out;
    for (std::string_view item : items) {
        if (!out.empty()) out += ", ";
        out += json_quoted(item);
    }
    return out;
}

std::string without_json_prefix(const char* what) {
    std::string text = what;
    if (!text.empty() && text.front() == '[') {
        if (const auto end = text.find("] "); end != std::string::npos) text.erase(0, end + 2);
    }
    return text;
}

}  // namespace nt::detail
