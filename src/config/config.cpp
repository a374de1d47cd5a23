// Reading shape configs: today's one-step form and pipelines (docs/config.md).
//
// The reader is deliberately strict: a config is usually written by hand next to a
// pipeline, and a typo that passes silently ("polcy": "search") is worse than an
// error. Every problem is an nt::error whose message says where (a path such as
// `tensors.lbl.shape[2]` or `steps.score.broadcast[1]`), what was found there, and
// how to fix it. Reading is linear in the size of the text: the document is built
// by a SAX parser (json_document.hpp) and tensors are found through a hash index.
#include "nt/shape_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "json_document.hpp"
#include "nt/dtype.hpp"
#include "nt/error.hpp"
#include "nt/pipeline.hpp"

namespace nt {

using detail::count_of;
using detail::describe;
using detail::did_you_mean;
using detail::element_path;
using detail::joined;
using detail::json_quoted;
using detail::json_value;
using detail::member_path;
using detail::where;

namespace {

const std::vector<std::string_view> top_level_keys{"tensors", "broadcast", "to", "policy", "union", "sizes", "steps"};
const std::vector<std::string_view> tensor_keys{"shape", "names", "dtype", "npy", "zarr"};
const std::vector<std::string_view> spec_keys{"shape", "names"};
const std::vector<std::string_view> step_keys{"name", "broadcast", "to", "policy", "union", "as"};

/// Keys listed in an unknown_tensor message; more are counted, not listed.
constexpr std::size_t max_listed_keys = 20;

/// dtype spellings of a config: ntensor's short names and NumPy's names, from the
/// one list of element types (nt/dtype.hpp; only its macro is used here).
constexpr std::pair<std::string_view, std::string_view> dtype_spellings[] = {
#define NT_DTYPE_SPELLINGS(T, TAG, NAME) {#TAG, #TAG}, {NAME, #TAG},
    NT_FOR_EACH_ELEMENT_TYPE(NT_DTYPE_SPELLINGS)
#undef NT_DTYPE_SPELLINGS
};

[[noreturn]] void fail_at(errc code, std::string_view path, const std::string& problem_and_fix) {
    throw_error(code, where(path) + ": " + problem_and_fix);
}

[[noreturn]] void fail_found(std::string_view path, json_value found, const std::string& expected) {
    fail_at(errc::invalid_spec, path, "found " + describe(found) + "; " + expected);
}

/// Runs `read`, prepending `path` to the message of an nt::error it throws.
template <class Read>
auto at_path(std::string_view path, Read&& read) {
    try {
        return read();
    } catch (const error& e) {
        fail_at(e.code(), path, e.message());
    }
}

void reject_unknown_keys(json_value object, std::string_view path, const std::vector<std::string_view>& known) {
    for (std::size_t i = 0; i < object.size(); ++i) {
        const std::string_view key = object.key(i);
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        fail_at(errc::invalid_spec, path,
                "unknown key " + json_quoted(key) + did_you_mean(key, known) + "; the keys allowed here are " +
                    joined(known));
    }
}

void require_object(json_value value, std::string_view path, const std::string& expected) {
    if (!value.is_object()) fail_found(path, value, expected);
}

/// `object[key]`, or throws invalid_spec naming the missing key.
json_value required_member(json_value object, std::string_view path, std::string_view key, const std::string& expected) {
    json_value out = object;
    if (!object.find(key, out))
        fail_at(errc::invalid_spec, path, "the key " + json_quoted(key) + " is missing; " + expected);
    return out;
}

std::int64_t read_size(json_value value, std::string_view path) {
    constexpr std::string_view fix = "a size is an integer >= 0, written without a fraction or exponent (e.g. 256)";
    const std::string too_large = "found " + describe(value) + ", too large for a 64-bit signed size (the limit is 2^63-1)";
    switch (value.kind()) {
        case detail::json_kind::unsigned_integer:
            if (value.unsigned_integer() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                fail_at(errc::invalid_spec, path, too_large);
            return static_cast<std::int64_t>(value.unsigned_integer());
        case detail::json_kind::integer:
            if (value.integer() == 0) return 0;  // "-0" is 0
            fail_at(errc::invalid_spec, path, "found " + describe(value) + "; sizes must be >= 0");
        case detail::json_kind::floating: {
            // Integers beyond 2^64 reach us as floats too: say "too large" for those.
            const double size = value.floating();
            if (std::isfinite(size) && std::trunc(size) == size && std::fabs(size) >= 0x1p63)
                fail_at(errc::invalid_spec, path, too_large);
            break;
        }
        default: break;
    }
    fail_found(path, value, std::string(fix));
}

bool all_digits(std::string_view text) noexcept {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// nt::name(text), with the path prepended to its error message.
nt::name read_name(std::string_view text, std::string_view path) {
    return at_path(path, [&] { return nt::name(text); });
}

small_vector<nt::name, 8> read_names_array(json_value value, std::string_view path) {
    small_vector<nt::name, 8> names;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json_value item = value[i];
        const std::string item_path = element_path(path, i);
        if (item.is_null()) {
            names.push_back(nt::unnamed);
        } else if (!item.is_string()) {
            fail_found(item_path, item, "a name is a string such as \"H\", or null (or \"?\") for an unnamed axis");
        } else if (item.str().empty()) {
            fail_at(errc::invalid_spec, item_path, "found an empty name; write null or \"?\" for an unnamed axis");
        } else {
            names.push_back(read_name(item.str(), item_path));
        }
    }
    return names;
}

/// Names of a spec. `rank` < 0: not known (a file whose header gives the shape),
/// any length is accepted.
small_vector<nt::name, 8> read_names(json_value value, std::string_view path, std::int64_t rank) {
    small_vector<nt::name, 8> names;
    const auto expected = static_cast<std::size_t>(rank);
    if (value.is_array()) {
        if (rank >= 0 && value.size() != expected)
            fail_at(errc::invalid_spec, path,
                    "found " + count_of(value.size(), "name") + " for a shape of " + count_of(expected, "axis", "axes") +
                        "; give one name per axis (null for unnamed), or leave \"names\" out");
        if (value.size() > max_rank)
            fail_at(errc::invalid_spec, path, "found " + count_of(value.size(), "name") + "; a spec has at most " +
                                                  count_of(max_rank, "axis", "axes"));
        names = read_names_array(value, path);
    } else if (value.is_string()) {
        names = at_path(path, [&] { return parse_names(value.str()); });
        if (rank >= 0 && names.size() != expected)
            fail_at(errc::invalid_spec, path,
                    "found " + count_of(names.size(), "name") + " in " + value.dump() + " for a shape of " +
                        count_of(expected, "axis", "axes") + "; give one name per axis, '?' for unnamed");
    } else {
        fail_found(path, value,
                   "\"names\" is an array of strings and nulls, e.g. [null, \"H\", \"W\"], or a string such as "
                   "\"? H W\"");
    }
    return names;
}

std::string read_dtype(json_value value, std::string_view path) {
    std::vector<std::string_view> spellings;
    for (const auto& [spelled, canonical] : dtype_spellings) spellings.push_back(spelled);
    const std::string expected = "\"dtype\" is one of " + joined(spellings);
    if (!value.is_string()) fail_found(path, value, expected);
    for (const auto& [spelled, canonical] : dtype_spellings)
        if (spelled == value.str()) return std::string(canonical);
    fail_at(errc::invalid_spec, path,
            "found the unknown dtype " + json_quoted(value.str()) + did_you_mean(value.str(), spellings) + "; " +
                expected);
}

nt::policy read_policy(json_value value, std::string_view path) {
    const std::vector<std::string_view> policies{"names", "positional", "search"};
    const std::string expected = "\"policy\" is one of " + joined(policies);
    if (!value.is_string()) fail_found(path, value, expected);
    nt::policy p{};
    if (!policy_from_string(value.str(), p))
        fail_at(errc::invalid_spec, path,
                "found the unknown policy " + json_quoted(value.str()) + did_you_mean(value.str(), policies) + "; " +
                    expected);
    return p;
}

bool read_union(json_value value, std::string_view path) {
    if (!value.is_boolean()) fail_found(path, value, "\"union\" is true or false");
    return value.boolean();
}

/// The unknown_tensor message: the key, a suggestion, and (some of) the keys defined.
std::string no_such_tensor(std::string_view key, const std::vector<std::string_view>& keys) {
    std::string listed;
    if (keys.size() <= max_listed_keys) {
        listed = joined(keys);
    } else {
        listed = joined(std::vector<std::string_view>(keys.begin(), keys.begin() + max_listed_keys)) + " and " +
                 std::to_string(keys.size() - max_listed_keys) + " more";
    }
    return "no tensor " + json_quoted(key) + " under \"tensors\"" + did_you_mean(key, keys) +
           (keys.empty() ? std::string("; \"tensors\" is empty") : "; defined: " + listed) +
           ". Define it under \"tensors\" or fix the key";
}

std::string read_key_string(json_value value, std::string_view path, const std::string& expected) {
    if (!value.is_string() || value.str().empty()) fail_found(path, value, expected);
    return std::string(value.str());
}

}  // namespace

// ---------------------------------------------------------------------------------
// The reader

/// Reads a json_document into a pipeline, in the order of docs/config.md: "sizes",
/// "tensors", then "steps" or today's top-level "broadcast", "to", "policy",
/// "union" (whose messages stay as they were).
class pipeline_reader {
public:
    explicit pipeline_reader(pipeline& out) : p_(out) {}

    void read(json_value document) {
        require_object(document, "", "a shape config is an object with \"tensors\" and \"broadcast\" (or \"steps\")");
        reject_unknown_keys(document, "", top_level_keys);
        json_value value = document;
        if (document.find("sizes", value)) read_sizes(value);
        read_tensors(document);
        json_value steps = document;
        const bool has_steps = document.find("steps", steps);
        if (has_steps) {
            for (std::string_view key : {"broadcast", "to", "policy", "union"})
                if (document.find(key, value))
                    fail_at(errc::invalid_spec, key,
                            "found with \"steps\"; a config has either \"steps\" or one top-level \"broadcast\". Move "
                            "it into the steps that need it");
            read_steps(steps);
        } else {
            read_one_step(document);
        }
        check_symbols_bindable();
        p_.check_sizes();
    }

private:
    // --- sizes and tensors -----------------------------------------------------------

    void read_sizes(json_value sizes) {
        require_object(sizes, "sizes", "\"sizes\" is an object from symbols to sizes, e.g. {\"K\": 3}");
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const std::string_view key = sizes.key(i);
            const std::string path = member_path("sizes", key);
            if (!nt::name::is_valid(key) || key == "?")
                fail_at(errc::invalid_spec, "sizes",
                        json_quoted(key) + " is not a symbol; a symbol is 1 to 64 characters of [A-Za-z_][A-Za-z0-9_]*");
            const std::uint32_t symbol = p_.symbols_.intern(key);
            grow_sizes();
            p_.sizes_[symbol] = read_size(sizes[i], path);
            p_.sources_[symbol] = "\"sizes\"";
            bindable_[symbol] = true;
        }
    }

    std::uint32_t file_symbol(std::string_view key, std::size_t a) {
        const std::uint32_t s = p_.file_symbol(key, a);
        grow_sizes();
        bindable_[s] = true;
        return s;
    }

    void grow_sizes() {
        p_.sizes_.resize(p_.symbols_.size(), -1);
        p_.sources_.resize(p_.symbols_.size());
        bindable_.resize(p_.symbols_.size(), false);
    }

    void read_tensors(json_value document) {
        const json_value tensors = required_member(
            document, "", "tensors", "define the tensors, e.g. \"tensors\": {\"img\": {\"shape\": [3, 4]}}");
        require_object(tensors, "tensors",
                       "\"tensors\" is an object from keys to specs, e.g. {\"img\": {\"shape\": [3, 4]}}");
        p_.tensors_.reserve(tensors.size());
        p_.index_.reserve(tensors.size());
        for (std::size_t i = 0; i < tensors.size(); ++i) {
            const std::string_view key = tensors.key(i);
            if (key.empty())
                fail_at(errc::invalid_spec, "tensors", "found an empty key; give each tensor a name such as \"img\"");
            pipeline_tensor t = read_tensor(tensors[i], member_path("tensors", key), true);
            t.key = key;
            if (t.source == pipeline_tensor::origin::file && !t.names.empty()) {
                // The rank is known from the names: one symbol per axis, bound by the header.
                for (std::size_t a = 0; a < t.names.size(); ++a)
                    t.sizes.push_back(size_expr::symbol(file_symbol(t.key, a)));
            }
            p_.index_.emplace(t.key, p_.tensors_.size());
            p_.tensors_.push_back(std::move(t));
        }
    }

    /// A {"shape", "names", ...} object. `file_keys`: a tensor of "tensors" (dtype,
    /// npy, zarr allowed); otherwise a target ("to"), shape and names only.
    pipeline_tensor read_tensor(json_value value, const std::string& path, bool file_keys) {
        pipeline_tensor t;
        t.path = path;
        require_object(value, path, "a spec is an object such as {\"shape\": [10, 256, 384], \"names\": \"? H W\"}");
        reject_unknown_keys(value, path, file_keys ? tensor_keys : spec_keys);
        json_value member = value;
        if (value.find("npy", member))
            t.npy = read_key_string(member, member_path(path, "npy"),
                                    "\"npy\" is the path of a .npy file, relative to the config's folder");
        if (value.find("zarr", member)) {
            if (!t.npy.empty())
                fail_at(errc::invalid_spec, member_path(path, "zarr"),
                        "a tensor takes its shape from one file; give \"npy\" or \"zarr\", not both");
            t.zarr = read_key_string(member, member_path(path, "zarr"),
                                     "\"zarr\" is the path of a zarr array (the folder holding .zarray), relative "
                                     "to the config's folder");
        }
        const bool has_shape = value.find("shape", member);
        if (has_shape) {
            t.sizes = read_shape(member, member_path(path, "shape"), file_keys);
        } else if (t.file().empty()) {
            (void)required_member(value, path, "shape", "give the sizes, e.g. \"shape\": [10, 256, 384]");
        } else {
            t.source = pipeline_tensor::origin::file;
        }
        const std::int64_t rank = has_shape ? static_cast<std::int64_t>(t.sizes.size()) : -1;
        if (value.find("names", member)) t.names = read_names(member, member_path(path, "names"), rank);
        if (value.find("dtype", member)) t.dtype = read_dtype(member, member_path(path, "dtype"));
        check_names_unique(t);
        return t;
    }

    /// `binds`: a declared tensor, whose lone symbols can be bound by its file or a check.
    std::vector<size_expr> read_shape(json_value value, const std::string& path, bool binds) {
        if (!value.is_array())
            fail_found(path, value, "\"shape\" is an array of sizes, e.g. [10, 256, 384] or [\"N\", 3, \"H\", \"W\"]");
        if (value.size() > max_rank)
            fail_at(errc::invalid_spec, path,
                    "found " + count_of(value.size(), "size") + "; a spec has at most " +
                        count_of(max_rank, "axis", "axes"));
        std::vector<size_expr> sizes;
        sizes.reserve(value.size());
        for (std::size_t i = 0; i < value.size(); ++i) {
            sizes.push_back(read_size_expr(value[i], element_path(path, i)));
            if (binds && sizes.back().is_symbol()) {
                grow_sizes();
                bindable_[sizes.back().symbol_index()] = true;
            }
        }
        return sizes;
    }

    size_expr read_size_expr(json_value value, const std::string& path) {
        if (!value.is_string()) return size_expr::literal(read_size(value, path));
        const std::string_view text = value.str();
        if (all_digits(text))
            fail_at(errc::invalid_spec, path,
                    "found the string " + value.dump() + "; write a literal size as a number, without quotes " +
                        "(strings hold symbols and expressions such as \"N\" or \"(H - 8) / 6 + 1\")");
        size_expr e = at_path(path, [&] { return size_expr::parse(text, p_.symbols_); });
        grow_sizes();
        return e;
    }

    /// duplicate_name, worded as spec::validate words it, with symbolic sizes shown.
    void check_names_unique(const pipeline_tensor& t) {
        if (t.names.empty()) return;
        spec shown;
        std::vector<std::string> texts;
        for (std::size_t a = 0; a < t.names.size(); ++a) {
            std::int64_t size = -1 - static_cast<std::int64_t>(texts.size());
            if (a < t.sizes.size() && t.sizes[a].is_literal()) size = t.sizes[a].literal_value();
            else texts.push_back(a < t.sizes.size() ? t.sizes[a].text(p_.symbols_) : "?");
            shown.push_back({size, t.names[a]});
        }
        shown.validate(t.path, texts);
    }

    // --- steps -------------------------------------------------------------------------

    void read_steps(json_value steps) {
        if (!steps.is_array() || steps.empty())
            fail_found("steps", steps,
                       "\"steps\" is a non-empty array of steps, e.g. [{\"name\": \"overlay\", \"broadcast\": "
                       "[\"image\", \"labels\"]}]");
        // First the names and outputs, so that a reference to a later step's output
        // says so instead of "no such tensor".
        std::unordered_map<std::string, std::size_t, pipeline::key_hash, std::equal_to<>> step_names;
        for (std::size_t s = 0; s < steps.size(); ++s) {
            const std::string path = element_path("steps", s);
            const json_value step = steps[s];
            require_object(step, path,
                           "a step is an object such as {\"name\": \"overlay\", \"broadcast\": [\"image\", \"labels\"]}");
            reject_unknown_keys(step, path, step_keys);
            pipeline_step out;
            out.name = read_key_string(required_member(step, path, "name", "give each step a name, e.g. \"overlay\""),
                                       member_path(path, "name"), "a step's \"name\" is a non-empty string");
            out.path = member_path("steps", out.name);
            if (const auto [it, fresh] = step_names.emplace(out.name, s); !fresh)
                fail_at(errc::invalid_spec, member_path(path, "name"),
                        json_quoted(out.name) + " also names steps[" + std::to_string(it->second) +
                            "]; give each step its own name");
            json_value as = step;
            if (step.find("as", as)) {
                out.as = read_key_string(as, member_path(out.path, "as"),
                                         "\"as\" is the key under which the step's output joins the tensors");
                if (const std::int64_t other = p_.find(out.as); other >= 0)
                    fail_at(errc::invalid_spec, member_path(out.path, "as"),
                            json_quoted(out.as) + " is already defined by " + p_.tensors_[other].path +
                                "; give the step's output a new key");
                pipeline_tensor output;
                output.key = out.as;
                output.path = member_path(out.path, "as");
                output.source = pipeline_tensor::origin::step;
                output.step = s;
                out.output = p_.tensors_.size();
                p_.index_.emplace(output.key, p_.tensors_.size());
                p_.tensors_.push_back(std::move(output));
            }
            p_.steps_.push_back(std::move(out));
        }
        for (std::size_t s = 0; s < steps.size(); ++s) read_step_body(steps[s], s, p_.steps_[s].path);
    }

    void read_one_step(json_value document) {
        pipeline_step step;
        step.path = "";
        p_.one_step_ = true;
        p_.steps_.push_back(std::move(step));
        read_step_body(document, 0, "");
    }

    /// broadcast, to, policy, union of step `s`; `base` is the step's path ("" for
    /// today's one-step form, whose keys sit at the top level).
    void read_step_body(json_value object, std::size_t s, const std::string& base) {
        pipeline_step& step = p_.steps_[s];
        const std::string broadcast_path = member_path(base, "broadcast");
        const json_value value = required_member(
            object, base, "broadcast",
            base.empty() ? "list the tensors to match, e.g. \"broadcast\": [\"img\", \"lbl\"] (or describe a pipeline "
                           "with \"steps\")"
                         : "list the tensors to match, e.g. \"broadcast\": [\"img\", \"lbl\"]");
        const std::string expected = "\"broadcast\" is a non-empty array of tensor keys, e.g. [\"img\", \"lbl\"]";
        if (!value.is_array() || value.empty()) fail_found(broadcast_path, value, expected);
        std::unordered_map<std::string_view, std::size_t> seen;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string path = element_path(broadcast_path, i);
            if (!value[i].is_string()) fail_found(path, value[i], expected);
            const std::string_view key = value[i].str();
            if (const auto [it, fresh] = seen.emplace(key, i); !fresh)
                fail_at(errc::invalid_spec, path,
                        "found " + json_quoted(key) + " again (it is also " + element_path(broadcast_path, it->second) +
                            "); list each tensor once");
            step.broadcast.emplace_back(key);
        }
        json_value member = object;
        if (object.find("to", member)) step.target = read_tensor(member, member_path(base, "to"), false);
        if (object.find("policy", member)) step.policy = read_policy(member, member_path(base, "policy"));
        if (object.find("union", member)) step.union_axes = read_union(member, member_path(base, "union"));
        if (step.target && step.broadcast.size() != 1)
            fail_at(errc::invalid_spec, broadcast_path,
                    "found " + std::to_string(step.broadcast.size()) +
                        " keys with \"to\"; broadcasting to a target takes exactly one tensor (or drop \"to\" to match "
                        "them with each other)");
        if (step.target && step.union_axes)
            fail_at(errc::invalid_spec, member_path(base, "union"),
                    "found true with \"to\"; a target never grows, so \"union\" has no meaning there (remove it)");
        for (std::size_t i = 0; i < step.broadcast.size(); ++i)
            step.inputs.push_back(resolve_input(s, step.broadcast[i], element_path(broadcast_path, i)));
    }

    /// The tensor index of a broadcast key of step `s`.
    std::size_t resolve_input(std::size_t s, const std::string& key, const std::string& path) {
        const std::int64_t found = p_.find(key);
        if (found >= 0) {
            const pipeline_tensor& t = p_.tensors_[static_cast<std::size_t>(found)];
            if (t.source == pipeline_tensor::origin::step && t.step == s)
                fail_at(errc::invalid_spec, path,
                        json_quoted(key) + " is this step's own output (\"as\"); a step cannot use its output (a cycle)");
            if (t.source == pipeline_tensor::origin::step && t.step > s)
                fail_at(errc::invalid_spec, path,
                        json_quoted(key) + " is the output of a later step, " + json_quoted(p_.steps_[t.step].name) +
                            " (steps[" + std::to_string(t.step) + "]); steps run in order, so move that step before " +
                            "this one");
            return static_cast<std::size_t>(found);
        }
        fail_at(errc::unknown_tensor, path, no_such_tensor(key, keys_before(s)));
    }

    /// Keys a step may use: declared tensors and earlier steps' outputs.
    std::vector<std::string_view> keys_before(std::size_t s) const {
        std::vector<std::string_view> keys;
        for (const auto& t : p_.tensors_)
            if (t.source != pipeline_tensor::origin::step || t.step < s) keys.push_back(t.key);
        return keys;
    }

    // --- symbols -------------------------------------------------------------------------

    /// Every symbol needs a way to get its size: "sizes", or a declared tensor that
    /// has it alone as a size (bound by its file's header or a run-time check).
    /// Otherwise it is most likely a typo.
    void check_symbols_bindable() {
        grow_sizes();
        const auto check = [&](const pipeline_tensor& t, const std::string& shape_path) {
            for (std::size_t a = 0; a < t.sizes.size(); ++a)
                for (std::uint32_t s : t.sizes[a].symbols())
                    if (!bindable_[s]) fail_unbindable(s, element_path(shape_path, a));
        };
        for (const auto& t : p_.tensors_) check(t, member_path(t.path, "shape"));
        for (const auto& step : p_.steps_)
            if (step.target) check(*step.target, member_path(step.target->path, "shape"));
    }

    [[noreturn]] void fail_unbindable(std::uint32_t symbol, const std::string& path) const {
        std::vector<std::string_view> candidates;
        for (std::uint32_t s = 0; s < p_.symbols_.size(); ++s)
            if (bindable_[s]) candidates.push_back(p_.symbols_.name(s));
        const std::string& name = p_.symbols_.name(symbol);
        fail_at(errc::invalid_spec, path,
                "unknown symbol " + json_quoted(name) + did_you_mean(name, candidates) +
                    ": a symbol gets its size from \"sizes\", or from a tensor that has it alone as a size (as \"H\" "
                    "in [\"N\", \"H\"]) when its file is read or it is checked at run time, and " +
                    json_quoted(name) + " is in none of them. Fix the spelling, or add it to \"sizes\"");
    }

    pipeline& p_;
    std::vector<bool> bindable_;
};

// ---------------------------------------------------------------------------------
// Public functions

pipeline pipeline::parse(std::string_view json_text, std::string folder) {
    const detail::json_document document = detail::json_document::parse(json_text);
    pipeline p;
    p.folder_ = std::move(folder);
    pipeline_reader(p).read(document.root());
    return p;
}

pipeline parse_pipeline(std::string_view json_text, std::string folder) {
    return pipeline::parse(json_text, std::move(folder));
}

const spec& shape_config::tensor(std::string_view key) const {
    for (const auto& [k, s] : tensors)
        if (k == key) return s;
    std::vector<std::string_view> keys;
    for (const auto& entry : tensors) keys.push_back(entry.first);
    throw_error(errc::unknown_tensor, no_such_tensor(key, keys));
}

shape_config parse_config(std::string_view json_text) {
    const pipeline p = pipeline::parse(json_text);
    if (!p.one_step())
        throw_error(errc::invalid_spec,
                    "steps: this config describes a pipeline of several steps; read it with nt::parse_pipeline "
                    "(nt/pipeline.hpp) or nt::load_config");
    shape_config config;
    const pipeline_step& step = p.steps().front();
    const auto to_spec = [&](const pipeline_tensor& t) {
        spec s;
        for (std::size_t a = 0; a < t.rank(); ++a) {
            const std::int64_t size = t.source == pipeline_tensor::origin::file ? -1 : p.axis_size(t, a);
            if (size < 0)
                throw_error(errc::invalid_spec,
                            t.path + ": its size on axis " + std::to_string(a) + " is " + p.axis_text(t, a) +
                                ", not known from the config alone; read the config with nt::parse_pipeline or "
                                "nt::load_config");
            s.push_back({size, t.name(a)});
        }
        if (t.source == pipeline_tensor::origin::file)
            throw_error(errc::invalid_spec, t.path + ": its shape comes from " + t.file() +
                                                "; read the config with nt::parse_pipeline or nt::load_config");
        return s;
    };
    config.tensors.reserve(p.tensors().size());
    for (const pipeline_tensor& t : p.tensors()) config.tensors.emplace_back(t.key, to_spec(t));
    config.broadcast = step.broadcast;
    if (step.target) config.target = to_spec(*step.target);
    config.policy = step.policy;
    config.union_axes = step.union_axes;
    return config;
}

plan plan_config(const shape_config& config) {
    std::vector<std::string_view> labels(config.broadcast.begin(), config.broadcast.end());
    match_options options;
    options.policy = config.policy;
    options.union_axes = config.union_axes;
    options.labels = labels;
    // One index for all keys: looking each key up in turn would be quadratic.
    std::unordered_map<std::string_view, const spec*> index;
    index.reserve(config.tensors.size());
    for (const auto& [key, s] : config.tensors) index.emplace(key, &s);
    const auto spec_of = [&](const std::string& key) -> const spec& {
        const auto it = index.find(key);
        return it != index.end() ? *it->second : config.tensor(key);
    };
    if (config.target) return broadcast_to(spec_of(config.broadcast.front()), *config.target, options);
    std::vector<spec> specs;
    specs.reserve(config.broadcast.size());
    for (const auto& key : config.broadcast) specs.push_back(spec_of(key));
    return match(specs, options);
}

}  // namespace nt
