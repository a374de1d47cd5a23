// JSON shape configs and JSON plans (docs/config.md).
//
// The reader is deliberately strict: a config is usually written by hand next to a
// pipeline, and a typo that passes silently ("polcy": "search") is worse than an
// error. Every problem is an nt::error whose message says where (a path such as
// `tensors.lbl.shape[2]`), what was found there, and how to fix it. nlohmann/json
// stays in this file; its exceptions never escape.
#include "edit_distance.hpp"
#include "nt/shape_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "nt/error.hpp"

namespace nt {

namespace {

// ordered_json keeps the file order of tensors on input and a stable key order on
// output.
using json = nlohmann::ordered_json;

/// Deepest nesting of arrays and objects accepted. A valid config needs 4 levels;
/// the limit only guards against pathological input.
constexpr std::size_t max_json_depth = 64;

/// Longest excerpt of a found value quoted in a message.
constexpr std::size_t max_excerpt_length = 40;

constexpr std::string_view top_level_keys[] = {"tensors", "broadcast", "to", "policy", "union"};
constexpr std::string_view spec_keys[] = {"shape", "names"};

// ---------------------------------------------------------------------------------
// Locations and descriptions for messages

/// Longest key or path quoted in a message; longer ones are cut with "...".
constexpr std::size_t max_quoted_length = 80;

/// A JSON string literal for `text`, ASCII only (control and non-ASCII characters
/// escaped), so that messages print safely on any terminal. Long text is cut (a cut
/// inside a UTF-8 sequence prints as U+FFFD).
std::string json_quoted(std::string_view text) {
    const bool cut = text.size() > max_quoted_length;
    std::string quoted = json(std::string(text.substr(0, max_quoted_length)))
                             .dump(-1, ' ', true, json::error_handler_t::replace);
    if (cut) quoted.insert(quoted.size() - 1, "...");
    return quoted;
}

/// "1 name", "3 names"; "1 axis", "3 axes".
std::string count_of(std::size_t n, std::string_view noun, std::string_view plural = {}) {
    if (n == 1) return "1 " + std::string(noun);
    return std::to_string(n) + " " + (plural.empty() ? std::string(noun) + "s" : std::string(plural));
}

std::string axes_count(std::size_t n) { return count_of(n, "axis", "axes"); }

bool is_plain_key(std::string_view key) noexcept {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

/// The path of member `key` of the value at `parent`: "tensors.img", or
/// `tensors["a b"]` when the key is not a plain word.
std::string member_path(std::string_view parent, std::string_view key) {
    if (!is_plain_key(key)) return std::string(parent) + "[" + json_quoted(key) + "]";
    return parent.empty() ? std::string(key) : std::string(parent) + "." + std::string(key);
}

std::string element_path(std::string_view parent, std::size_t index) {
    return std::string(parent) + "[" + std::to_string(index) + "]";
}

/// How a path reads at the start of a message ("" is the whole document).
/// Paths deeper than a config needs (a nesting error) are cut to their start.
std::string where(std::string_view path) {
    if (path.empty()) return "the config";
    if (path.size() > 2 * max_quoted_length) return std::string(path.substr(0, 2 * max_quoted_length)) + "...";
    return std::string(path);
}

std::string excerpt(const json& value) {
    std::string text = value.dump(-1, ' ', true, json::error_handler_t::replace);
    if (text.size() > max_excerpt_length) text = text.substr(0, max_excerpt_length) + "...";
    return text;
}

/// What a value is, for "found ..." in messages: `the string "3"`, `the number 2.5`.
std::string describe(const json& value) {
    switch (value.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
        case json::value_t::string: return "the string " + excerpt(value);
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "the number " + excerpt(value);
        case json::value_t::array: return value.empty() ? "an empty array" : "an array of " + count_of(value.size(), "element");
        case json::value_t::object: return value.empty() ? "an empty object" : "an object with " + count_of(value.size(), "key");
        default: return "a value of an unsupported type";
    }
}

[[noreturn]] void fail_at(errc code, std::string_view path, const std::string& problem_and_fix) {
    throw_error(code, where(path) + ": " + problem_and_fix);
}

[[noreturn]] void fail_found(std::string_view path, const json& found, const std::string& expected) {
    fail_at(errc::invalid_spec, path, "found " + describe(found) + "; " + expected);
}

/// " (did you mean "policy"?)" when one candidate is close to `word`, else "".
template <class Candidates>
std::string did_you_mean(std::string_view word, const Candidates& candidates) {
    constexpr std::size_t max_word_length = 64;  // longer words are never typos of a key
    if (word.size() > max_word_length) return {};
    std::string_view best;
    std::size_t best_distance = 3;  // suggest only within two edits
    for (std::string_view candidate : candidates) {
        const std::size_t d = detail::edit_distance(word, candidate);
        if (d < best_distance && d < std::max<std::size_t>(candidate.size(), 2)) {
            best = candidate;
            best_distance = d;
        }
    }
    return best.empty() ? std::string{} : " (did you mean " + json_quoted(best) + "?)";
}

template <class Candidates>
std::string joined(const Candidates& items) {
    std::string out;
    for (std::string_view item : items) {
        if (!out.empty()) out += ", ";
        out += json_quoted(item);
    }
    return out;
}

// ---------------------------------------------------------------------------------
// Parsing: duplicate keys and the nesting limit

/// Parser callback state: one frame per open array or object. nlohmann silently
/// keeps the last of two equal keys, so duplicates are caught here, as they are
/// read, and the path of each value is tracked for the message.
class parse_guard {
public:
    bool on_event(json::parse_event_t event, const json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start: open(true); break;
            case json::parse_event_t::array_start: open(false); break;
            case json::parse_event_t::key: on_key(parsed.get_ref<const std::string&>()); break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end: close(); break;
            case json::parse_event_t::value: value_done(); break;
        }
        return true;  // keep every value: the reader checks them all afterwards
    }

private:
    struct frame {
        bool is_object = false;
        std::string path;
        std::set<std::string, std::less<>> keys;  // objects: the keys seen so far
        std::string key;                          // objects: the key of the next value
        std::size_t next_index = 0;               // arrays: the index of the next value
    };

    /// The path of the value about to be read.
    std::string next_path() const {
        if (frames_.empty()) return {};
        const frame& top = frames_.back();
        return top.is_object ? member_path(top.path, top.key) : element_path(top.path, top.next_index);
    }

    void open(bool is_object) {
        if (frames_.size() == max_json_depth)
            fail_at(errc::parse_error, next_path(),
                    "arrays and objects nest deeper than " + std::to_string(max_json_depth) +
                        " levels; a shape config needs 4");
        frame f;
        f.is_object = is_object;
        f.path = next_path();
        frames_.push_back(std::move(f));
    }

    void on_key(const std::string& key) {
        frame& top = frames_.back();
        if (!top.keys.insert(key).second)
            fail_at(errc::parse_error, top.path,
                    "the key " + json_quoted(key) + " appears twice; JSON readers disagree on which one wins, keep one");
        top.key = key;
    }

    void close() {
        frames_.pop_back();
        value_done();
    }

    void value_done() {
        if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().next_index;
    }

    std::vector<frame> frames_;
};

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string without_json_prefix(const char* what) {
    std::string text = what;
    if (!text.empty() && text.front() == '[') {
        if (const auto end = text.find("] "); end != std::string::npos) text.erase(0, end + 2);
    }
    return text;
}

json parse_json(std::string_view text) {
    parse_guard guard;
    try {
        return json::parse(
            text.begin(), text.end(),
            [&guard](int /*depth*/, json::parse_event_t event, json& parsed) { return guard.on_event(event, parsed); });
    } catch (const json::exception& e) {
        throw_error(errc::parse_error, "malformed JSON: " + without_json_prefix(e.what()));
    }
}

// ---------------------------------------------------------------------------------
// Reading the document

template <std::size_t N>
void reject_unknown_keys(const json& object, std::string_view path, const std::string_view (&known)[N]) {
    for (const auto& [key, value] : object.items()) {
        if (std::find(std::begin(known), std::end(known), key) != std::end(known)) continue;
        fail_at(errc::invalid_spec, path,
                "unknown key " + json_quoted(key) + did_you_mean(key, known) + "; the keys allowed here are " +
                    joined(known));
    }
}

void require_object(const json& value, std::string_view path, const std::string& expected) {
    if (!value.is_object()) fail_found(path, value, expected);
}

/// `object[key]`, or throws invalid_spec naming the missing key.
const json& required_member(const json& object, std::string_view path, std::string_view key,
                            const std::string& expected) {
    const auto it = object.find(key);
    if (it == object.end()) fail_at(errc::invalid_spec, path, "the key " + json_quoted(key) + " is missing; " + expected);
    return *it;
}

std::int64_t read_size(const json& value, std::string_view path) {
    constexpr std::string_view fix = "a size is an integer >= 0, written without a fraction or exponent (e.g. 256)";
    if (value.is_number_unsigned()) {
        const auto size = value.get<std::uint64_t>();
        if (size > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail_at(errc::invalid_spec, path,
                    "found " + describe(value) + ", too large for a 64-bit signed size (the limit is 2^63-1)");
        return static_cast<std::int64_t>(size);
    }
    if (value.is_number_integer())
        fail_at(errc::invalid_spec, path, "found " + describe(value) + "; sizes must be >= 0");
    if (value.is_number_float()) {
        // Integers beyond 2^64 reach us as floats too: say "too large" for those.
        const double size = value.get<double>();
        if (std::isfinite(size) && std::trunc(size) == size && std::fabs(size) >= 0x1p63)
            fail_at(errc::invalid_spec, path,
                    "found " + describe(value) + ", too large for a 64-bit signed size (the limit is 2^63-1)");
    }
    fail_found(path, value, std::string(fix));
}

dims read_shape(const json& value, std::string_view path) {
    if (!value.is_array()) fail_found(path, value, "\"shape\" is an array of sizes, e.g. [10, 256, 384]");
    if (value.size() > max_rank)
        fail_at(errc::invalid_spec, path,
                "found " + count_of(value.size(), "size") + "; a spec has at most " + axes_count(max_rank));
    dims sizes;
    for (std::size_t i = 0; i < value.size(); ++i) sizes.push_back(read_size(value[i], element_path(path, i)));
    return sizes;
}

/// nt::name(text), with the path prepended to its error message.
nt::name read_name(std::string_view text, std::string_view path) {
    try {
        return nt::name(text);
    } catch (const error& e) {
        fail_at(e.code(), path, e.message());
    }
}

small_vector<nt::name, 8> read_names_array(const json& value, std::string_view path) {
    small_vector<nt::name, 8> names;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json& item = value[i];
        const std::string item_path = element_path(path, i);
        if (item.is_null()) {
            names.push_back(nt::unnamed);
        } else if (!item.is_string()) {
            fail_found(item_path, item, "a name is a string such as \"H\", or null (or \"?\") for an unnamed axis");
        } else if (item.get_ref<const std::string&>().empty()) {
            fail_at(errc::invalid_spec, item_path, "found an empty name; write null or \"?\" for an unnamed axis");
        } else {
            names.push_back(read_name(item.get_ref<const std::string&>(), item_path));
        }
    }
    return names;
}

small_vector<nt::name, 8> read_names_string(const std::string& text, std::string_view path) {
    try {
        return parse_names(text);
    } catch (const error& e) {
        fail_at(e.code(), path, e.message());
    }
}

small_vector<nt::name, 8> read_names(const json& value, std::string_view path, std::size_t rank) {
    small_vector<nt::name, 8> names;
    if (value.is_array()) {
        if (value.size() != rank)
            fail_at(errc::invalid_spec, path,
                    "found " + count_of(value.size(), "name") + " for a shape of " + axes_count(rank) +
                        "; give one name per axis (null for unnamed), or leave \"names\" out");
        names = read_names_array(value, path);
    } else if (value.is_string()) {
        names = read_names_string(value.get_ref<const std::string&>(), path);
        if (names.size() != rank)
            fail_at(errc::invalid_spec, path,
                    "found " + count_of(names.size(), "name") + " in " + excerpt(value) + " for a shape of " +
                        axes_count(rank) + "; give one name per axis, '?' for unnamed");
    } else {
        fail_found(path, value,
                   "\"names\" is an array of strings and nulls, e.g. [null, \"H\", \"W\"], or a string such as "
                   "\"? H W\"");
    }
    return names;
}

/// A {"shape": [...], "names": ...} object, as a validated spec.
spec read_spec(const json& value, std::string_view path) {
    require_object(value, path, "a spec is an object such as {\"shape\": [10, 256, 384], \"names\": \"? H W\"}");
    reject_unknown_keys(value, path, spec_keys);
    const std::string shape_path = member_path(path, "shape");
    const dims sizes = read_shape(required_member(value, path, "shape", "give the sizes, e.g. \"shape\": [10, 256, 384]"),
                                  shape_path);
    small_vector<nt::name, 8> names;
    if (const auto it = value.find("names"); it != value.end())
        names = read_names(*it, member_path(path, "names"), sizes.size());

    spec result;
    for (std::size_t i = 0; i < sizes.size(); ++i) result.push_back({sizes[i], names.empty() ? nt::unnamed : names[i]});
    result.validate(path);  // repeated names: duplicate_name, naming the tensor
    return result;
}

std::vector<std::pair<std::string, spec>> read_tensors(const json& document) {
    const json& tensors = required_member(document, "", "tensors",
                                          "define the tensors, e.g. \"tensors\": {\"img\": {\"shape\": [3, 4]}}");
    require_object(tensors, "tensors", "\"tensors\" is an object from keys to specs, e.g. {\"img\": {\"shape\": [3, 4]}}");
    std::vector<std::pair<std::string, spec>> out;
    for (const auto& [key, value] : tensors.items()) {
        if (key.empty()) fail_at(errc::invalid_spec, "tensors", "found an empty key; give each tensor a name such as \"img\"");
        out.emplace_back(key, read_spec(value, member_path("tensors", key)));
    }
    return out;
}

std::vector<std::string> read_broadcast(const json& document) {
    const json& value = required_member(document, "", "broadcast",
                                        "list the tensors to match, e.g. \"broadcast\": [\"img\", \"lbl\"]");
    constexpr std::string_view expected = "\"broadcast\" is a non-empty array of tensor keys, e.g. [\"img\", \"lbl\"]";
    if (!value.is_array() || value.empty()) fail_found("broadcast", value, std::string(expected));
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string path = element_path("broadcast", i);
        if (!value[i].is_string()) fail_found(path, value[i], std::string(expected));
        const auto& key = value[i].get_ref<const std::string&>();
        if (const auto it = std::find(keys.begin(), keys.end(), key); it != keys.end())
            fail_at(errc::invalid_spec, path,
                    "found " + json_quoted(key) + " again (it is also broadcast[" +
                        std::to_string(it - keys.begin()) + "]); list each tensor once");
        keys.push_back(key);
    }
    return keys;
}

nt::policy read_policy(const json& value) {
    constexpr std::string_view policies[] = {"names", "positional", "search"};
    const std::string expected = "\"policy\" is one of " + joined(policies);
    if (!value.is_string()) fail_found("policy", value, expected);
    const auto& text = value.get_ref<const std::string&>();
    nt::policy p{};
    if (!policy_from_string(text, p))
        fail_at(errc::invalid_spec, "policy", "found the unknown policy " + json_quoted(text) + did_you_mean(text, policies) +
                                                  "; " + expected);
    return p;
}

bool read_union(const json& value) {
    if (!value.is_boolean()) fail_found("union", value, "\"union\" is true or false");
    return value.get<bool>();
}

const spec* find_tensor(const shape_config& config, std::string_view key) noexcept {
    for (const auto& [k, s] : config.tensors)
        if (k == key) return &s;
    return nullptr;
}

/// The unknown_tensor message: the key, a suggestion, and the keys defined.
std::string no_such_tensor(const shape_config& config, std::string_view key) {
    std::vector<std::string_view> keys;
    for (const auto& entry : config.tensors) keys.push_back(entry.first);
    return "no tensor " + json_quoted(key) + " under \"tensors\"" + did_you_mean(key, keys) +
           (keys.empty() ? std::string("; \"tensors\" is empty") : "; defined: " + joined(keys)) +
           ". Define it under \"tensors\" or fix the key";
}

/// Checks that ask for more than one key: `to` needs exactly one input, and every
/// broadcast key names a tensor.
void check_consistency(const shape_config& config) {
    if (config.target && config.broadcast.size() != 1)
        fail_at(errc::invalid_spec, "broadcast",
                "found " + std::to_string(config.broadcast.size()) +
                    " keys with \"to\"; broadcasting to a target takes exactly one tensor (or drop \"to\" to match "
                    "them with each other)");
    if (config.target && config.union_axes)
        fail_at(errc::invalid_spec, "union",
                "found true with \"to\"; a target never grows, so \"union\" has no meaning there (remove it)");
    for (std::size_t i = 0; i < config.broadcast.size(); ++i)
        if (!find_tensor(config, config.broadcast[i]))
            fail_at(errc::unknown_tensor, element_path("broadcast", i), no_such_tensor(config, config.broadcast[i]));
}

shape_config read_config(const json& document) {
    require_object(document, "", "a shape config is an object with \"tensors\" and \"broadcast\"");
    reject_unknown_keys(document, "", top_level_keys);
    shape_config config;
    config.tensors = read_tensors(document);
    config.broadcast = read_broadcast(document);
    if (const auto it = document.find("to"); it != document.end()) config.target = read_spec(*it, "to");
    if (const auto it = document.find("policy"); it != document.end()) config.policy = read_policy(*it);
    if (const auto it = document.find("union"); it != document.end()) config.union_axes = read_union(*it);
    check_consistency(config);
    return config;
}

// ---------------------------------------------------------------------------------
// Writing plans

json names_json(const spec& s) {
    json names = json::array();
    for (const axis_spec& axis : s) names.push_back(axis.name ? json(std::string(axis.name.str())) : json(nullptr));
    return names;
}

json source_axes_json(const input_plan& in) {
    json axes = json::array();
    for (std::int32_t a : in.source_axes) axes.push_back(a == inserted_axis ? json(nullptr) : json(a));
    return axes;
}

template <class Ints>
json int_array(const Ints& values) {
    json out = json::array();
    for (auto v : values) out.push_back(v);
    return out;
}

std::string_view rule_name(axis_rule rule) noexcept {
    switch (rule) {
        case axis_rule::by_name: return "by_name";
        case axis_rule::right_aligned: return "right_aligned";
        case axis_rule::searched: return "searched";
    }
    return "unknown";
}

/// Per output axis, how it was paired; "+union" marks an axis the host lacks.
json rules_json(const plan& p) {
    json rules = json::array();
    for (std::size_t o = 0; o < p.rules.size(); ++o) {
        std::string text(rule_name(p.rules[o]));
        if (o < p.added_by_union.size() && p.added_by_union[o]) text += "+union";
        rules.push_back(std::move(text));
    }
    return rules;
}

json input_json(const input_plan& in) {
    json out = json::object();
    out["source_axes"] = source_axes_json(in);
    out["permutation"] = int_array(in.permutation());
    out["inserted"] = int_array(in.inserted());
    out["searched"] = in.searched;
    return out;
}

std::vector<std::string> input_labels(std::size_t count, std::span<const std::string> labels) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) {
        std::string label = i < labels.size() && !labels[i].empty() ? labels[i] : "input " + std::to_string(i);
        if (std::find(out.begin(), out.end(), label) != out.end())
            throw_error(errc::invalid_argument, "plan_to_json: the label " + json_quoted(label) +
                                                    " names two inputs; labels are JSON keys and must be unique");
        out.push_back(std::move(label));
    }
    return out;
}

bool is_flat_array(const json& value) {
    return value.is_array() &&
           std::none_of(value.begin(), value.end(), [](const json& v) { return v.is_structured(); });
}

std::string dump_scalar(const json& value) {
    // Labels and names may hold any text; never throw on it, escape it.
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// Like json::dump(indent), except that arrays of scalars (shapes, source maps)
/// stay on one line: `"shape": [10, 3, 256, 384]` reads better than one number
/// per line.
void write_pretty(const json& value, std::size_t indent, std::size_t depth, std::string& out) {
    if (is_flat_array(value)) {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + dump_scalar(value[i]);
        out += ']';
        return;
    }
    if (!value.is_structured() || value.empty()) {
        out += dump_scalar(value);
        return;
    }
    const std::string inner(indent * (depth + 1), ' ');
    out += value.is_object() ? '{' : '[';
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        out += first ? "\n" : ",\n";
        first = false;
        out += inner;
        if (value.is_object()) out += dump_scalar(json(it.key())) + ": ";
        write_pretty(*it, indent, depth + 1, out);
    }
    out += '\n' + std::string(indent * depth, ' ') + (value.is_object() ? '}' : ']');
}

std::string dump(const json& value, int indent) {
    if (indent < 0) return dump_scalar(value);
    std::string out;
    write_pretty(value, static_cast<std::size_t>(indent), 0, out);
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------
// Public functions

const spec& shape_config::tensor(std::string_view key) const {
    if (const spec* found = find_tensor(*this, key)) return *found;
    throw_error(errc::unknown_tensor, no_such_tensor(*this, key));
}

shape_config parse_config(std::string_view json_text) {
    const json document = parse_json(json_text);
    try {
        return read_config(document);
    } catch (const error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const json::exception& e) {
        // Every access above checks the type first; this is a safety net so that the
        // contract (nt::error only) holds even if a check is missed.
        throw_error(errc::invalid_spec, "invalid config: " + without_json_prefix(e.what()));
    }
}

plan plan_config(const shape_config& config) {
    std::vector<std::string_view> labels(config.broadcast.begin(), config.broadcast.end());
    match_options options;
    options.policy = config.policy;
    options.union_axes = config.union_axes;
    options.labels = labels;
    if (config.target) return broadcast_to(config.tensor(config.broadcast.front()), *config.target, options);
    std::vector<spec> specs;
    specs.reserve(config.broadcast.size());
    for (const auto& key : config.broadcast) specs.push_back(config.tensor(key));
    return match(specs, options);
}

std::string plan_to_json(const plan& p, std::span<const std::string> labels, int indent) {
    const std::vector<std::string> names = input_labels(p.inputs.size(), labels);
    json out = json::object();
    out["shape"] = int_array(p.output.sizes());
    out["names"] = names_json(p.output);
    json inputs = json::object();
    for (std::size_t i = 0; i < p.inputs.size(); ++i) inputs[names[i]] = input_json(p.inputs[i]);
    out["inputs"] = std::move(inputs);
    out["policy"] = std::string(to_string(p.policy));
    out["union"] = p.union_axes;
    out["host"] = p.host < names.size() ? json(names[p.host]) : json(nullptr);
    out["rules"] = rules_json(p);
    const std::vector<std::string_view> label_views(names.begin(), names.end());
    out["explanation"] = explain(p, label_views);
    return dump(out, indent);
}

std::string error_to_json(const error& e, int indent) {
    json body = json::object();
    body["code"] = std::string(to_string(e.code()));
    body["message"] = e.message();
    json out = json::object();
    out["error"] = std::move(body);
    return dump(out, indent);
}

}  // namespace nt
