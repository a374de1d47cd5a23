// The JSON layer (see json_document.hpp): a read-only document built by nlohmann's
// SAX parser, and json_out, the writer.
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
    explicit json_builder(json_rules rules) noexcept : rules_(rules) {}

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
        if (repeated(top, text, members)) {
            if (rules_ == json_rules::config)
                throw_error(errc::parse_error, where(path_of(frames_.size() - 1)) + ": the key " + json_quoted(text) +
                                                   " appears twice; JSON readers disagree on which one wins, keep one");
            forget(top, text);  // lenient: the last value wins, as in nlohmann::json
        }
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
        if (rules_ == json_rules::config && frames_.size() == max_json_depth)
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

    /// Drops the earlier member `text` of the open object (its children stay in the
    /// arena, unreachable).
    void forget(const frame& top, const std::string& text) {
        for (std::size_t i = top.pending_start; i < pending_.size(); ++i)
            if (doc_.text(pending_[i].key_offset, pending_[i].key_length) == text) {
                pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
                return;
            }
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

    json_rules rules_;
    json_document doc_;
    std::vector<json_document::node> pending_;
    std::vector<frame> frames_;
};

json_document json_document::parse(std::string_view text, json_rules rules) {
    json_builder builder(rules);
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

std::optional<json_value> json_value::find(std::string_view key_text) const noexcept {
    json_value out = *this;
    if (!find(key_text, out)) return std::nullopt;
    return out;
}

bool json_value::boolean() const noexcept { return doc_->at(index_).flag; }
std::int64_t json_value::integer() const noexcept { return doc_->at(index_).number.i; }
std::uint64_t json_value::unsigned_integer() const noexcept { return doc_->at(index_).number.u; }
double json_value::floating() const noexcept { return doc_->at(index_).number.d; }

std::int64_t json_value::int64() const noexcept {
    return kind() == json_kind::unsigned_integer ? static_cast<std::int64_t>(unsigned_integer()) : integer();
}

double json_value::number() const noexcept {
    switch (kind()) {
        case json_kind::integer: return static_cast<double>(integer());
        case json_kind::unsigned_integer: return static_cast<double>(unsigned_integer());
        case json_kind::floating: return floating();
        default: return 0;
    }
}

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

std::string json_text(json_value value) {
    json_out out = json_out::copy(value);
    out.sort_keys();
    return out.dump();
}

std::string string_of(json_value value) {
    if (value.is_string()) return std::string(value.str());
    return nlohmann::json::parse(json_text(value)).get<std::string>();  // throws nlohmann's type_error
}

std::vector<double> doubles_of(json_value value) {
    std::vector<double> out;
    const bool numbers = value.is_array() && [&] {
        for (std::size_t i = 0; i < value.size(); ++i)
            if (!value[i].is_number()) return false;
        return true;
    }();
    if (!numbers) return nlohmann::json::parse(json_text(value)).get<std::vector<double>>();  // throws
    for (std::size_t i = 0; i < value.size(); ++i) out.push_back(value[i].number());
    return out;
}

// ---------------------------------------------------------------------------------
// Writing

json_out json_out::boolean(bool b) {
    json_out v(json_kind::boolean);
    v.boolean_ = b;
    return v;
}

json_out json_out::integer(std::int64_t n) {
    json_out v(json_kind::integer);
    v.number_.i = n;
    return v;
}

json_out json_out::unsigned_integer(std::uint64_t n) {
    json_out v(json_kind::unsigned_integer);
    v.number_.u = n;
    return v;
}

json_out json_out::floating(double d) {
    json_out v(json_kind::floating);
    v.number_.d = d;
    return v;
}

json_out json_out::string(std::string_view s) {
    json_out v(json_kind::string);
    v.text_ = s;
    return v;
}

json_out json_out::copy(json_value value) {
    switch (value.kind()) {
        case json_kind::null: return null();
        case json_kind::boolean: return boolean(value.boolean());
        case json_kind::integer: return integer(value.integer());
        case json_kind::unsigned_integer: return unsigned_integer(value.unsigned_integer());
        case json_kind::floating: return floating(value.floating());
        case json_kind::string: return string(value.str());
        case json_kind::array: {
            json_out out = array();
            out.items_.reserve(value.size());
            for (std::size_t i = 0; i < value.size(); ++i) out.push(copy(value[i]));
            return out;
        }
        case json_kind::object: {
            json_out out = object();
            out.items_.reserve(value.size());
            for (std::size_t i = 0; i < value.size(); ++i) out.add(std::string(value.key(i)), copy(value[i]));
            return out;
        }
    }
    return null();
}

json_out& json_out::push(json_out v) {
    items_.push_back(std::move(v));
    return *this;
}

json_out& json_out::add(std::string key, json_out v) {
    keys_.push_back(std::move(key));
    items_.push_back(std::move(v));
    return *this;
}

json_out& json_out::set(std::string_view key, json_out v) {
    for (std::size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i] == key) {
            items_[i] = std::move(v);
            return *this;
        }
    return add(std::string(key), std::move(v));
}

json_out& json_out::update(json_out other) {
    for (std::size_t i = 0; i < other.keys_.size(); ++i) set(other.keys_[i], std::move(other.items_[i]));
    return *this;
}

json_out& json_out::sort_keys() {
    for (json_out& item : items_) item.sort_keys();
    if (kind_ != json_kind::object || keys_.size() < 2) return *this;
    std::vector<std::size_t> order(keys_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys_[a] < keys_[b]; });
    std::vector<std::string> keys;
    std::vector<json_out> items;
    keys.reserve(order.size());
    items.reserve(order.size());
    for (std::size_t i : order) {
        keys.push_back(std::move(keys_[i]));
        items.push_back(std::move(items_[i]));
    }
    keys_ = std::move(keys);
    items_ = std::move(items);
    return *this;
}

std::string json_out::dump(json_style style) const {
    std::string out;
    write(out, style);
    return out;
}

namespace {

void write_string(std::string& out, std::string_view text, const json_style& style) {
    out += nlohmann::json(std::string(text))
               .dump(-1, ' ', false,
                     style.replace_invalid_utf8 ? nlohmann::json::error_handler_t::replace
                                                : nlohmann::json::error_handler_t::strict);
}

}  // namespace

void json_out::write_scalar(std::string& out, const json_style& style) const {
    switch (kind_) {
        case json_kind::null: out += "null"; break;
        case json_kind::boolean: out += boolean_ ? "true" : "false"; break;
        case json_kind::integer: out += std::to_string(number_.i); break;
        case json_kind::unsigned_integer: out += std::to_string(number_.u); break;
        case json_kind::floating: out += nlohmann::json(number_.d).dump(); break;
        case json_kind::string: write_string(out, text_, style); break;
        default: break;
    }
}

void json_out::write(std::string& out, const json_style& style, std::size_t depth) const {
    if (!is_structured()) return write_scalar(out, style);
    const int indent = style.indent;
    const bool flat = indent < 0 || (style.flat_scalar_arrays && kind_ == json_kind::array &&
                                     std::none_of(items_.begin(), items_.end(),
                                                  [](const json_out& v) { return v.is_structured(); }));
    const bool is_object = kind_ == json_kind::object;
    out += is_object ? '{' : '[';
    if (items_.empty()) {
        out += is_object ? '}' : ']';
        return;
    }
    const auto step = static_cast<std::size_t>(indent < 0 ? 0 : indent);
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (indent < 0) {
            if (i) out += ',';
        } else if (flat) {
            if (i) out += ", ";
        } else {
            out += i ? ",\n" : "\n";
            out.append(step * (depth + 1), ' ');
        }
        if (is_object) {
            write_string(out, keys_[i], style);
            out += indent < 0 ? ":" : ": ";
        }
        items_[i].write(out, style, depth + 1);
    }
    if (!flat) {
        out += '\n';
        out.append(step * depth, ' ');
    }
    out += is_object ? '}' : ']';
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
