// Internal: the axis-matching solver's shared part. The steps every policy needs
// (validation, the host, settling sizes, size-clash messages) live in solver_base;
// each policy's solver derives from it in a file of its own (solve_positional.cpp,
// solve_names.cpp for `names` and `search`), and match.cpp picks one.
//
// Every axis of every input gets a group key: a named axis the key of its name, an
// unnamed axis its position counted from the right among the input's unnamed axes
// (or, under `search`, the host position the search chose). Groups become output
// axes in the host's order (plus, with `union`, new groups inserted by the
// placement rule); source maps then follow by looking keys up. Nothing allocates
// on the success path beyond the plan itself: scratch space is inline.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "nt/match.hpp"

namespace nt::detail {


// A group key: > 0 is a name id; <= 0 is an unnamed axis at right-aligned
// position -key (0 = the last unnamed axis).
using group_key = std::int64_t;

inline group_key unnamed_key(std::size_t from_right) { return -static_cast<group_key>(from_right); }
inline bool is_named_key(group_key key) { return key > 0; }

// Message helpers: built only on failure.

inline std::string ordinal_from_right(std::size_t from_right) {
    if (from_right == 0) return "last";
    const std::size_t n = from_right + 1;
    const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix + "-from-last";
}

class describer {
public:
    describer(std::span<const spec> specs, const match_options& options, bool target_mode)
        : specs_(specs), options_(options), target_mode_(target_mode) {}

    // "input 1 'lbl'", or "the target" in broadcast_to mode.
    [[nodiscard]] std::string input(std::size_t i) const {
        if (target_mode_ && i == 1) return "the target";
        std::string out = "input " + std::to_string(i);
        if (i < options_.labels.size() && !options_.labels[i].empty()) out += " '" + std::string(options_.labels[i]) + "'";
        return out;
    }
    [[nodiscard]] std::string input_with_spec(std::size_t i) const { return input(i) + " " + to_string(specs_[i]); }
    // "axis 2 'H' (size 256)" / "axis 0 (unnamed, size 10)"
    [[nodiscard]] std::string axis(std::size_t i, std::size_t a) const {
        const axis_spec& ax = specs_[i][a];
        std::string out = "axis " + std::to_string(a);
        if (ax.name) return out + " '" + std::string(ax.name.str()) + "' (size " + std::to_string(ax.size) + ")";
        return out + " (unnamed, size " + std::to_string(ax.size) + ")";
    }
    [[nodiscard]] std::string shapes() const {
        std::string out;
        for (std::size_t i = 0; i < specs_.size(); ++i) out += (i ? ", " : "") + input_with_spec(i);
        return out;
    }

private:
    std::span<const spec> specs_;
    const match_options& options_;
    bool target_mode_;
};

inline std::string count_of(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

inline bool fail(mismatch* why, errc code, std::string message) {
    if (why) {
        why->code = code;
        why->message = std::move(message);
        why->candidate_count = 0;
        why->candidates.clear();
    }
    return false;
}

inline std::string source_map_string(std::span<const std::int32_t> map) {
    std::string out = "[";
    for (std::size_t o = 0; o < map.size(); ++o) {
        if (o) out += ',';
        out += map[o] == inserted_axis ? std::string("null") : std::to_string(map[o]);
    }
    return out + "]";
}

class solver_base {
public:
    solver_base(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out,
                mismatch* why)
        : specs_(specs), options_(options), target_mode_(target_mode), out_(out), why_(why),
          say_(specs, options, target_mode) {}

    virtual ~solver_base() = default;

    // Validates the inputs and picks the host; then the policy's solve() runs.
    bool run() {
        if (specs_.empty())
            return fail(why_, errc::invalid_argument, "match needs at least one input spec; none was given");
        for (std::size_t i = 0; i < specs_.size(); ++i)
            if (!validate(i)) return false;
        host_ = target_mode_ ? 1 : pick_host();
        if (!solve()) return false;
        finish_plan();
        return true;
    }

protected:
    // The policy's part: groups, source maps and sizes into out_.
    virtual bool solve() = 0;


    bool validate(std::size_t i) {
        const spec& s = specs_[i];
        if (s.rank() > max_rank)
            return fail(why_, errc::invalid_spec, say_.input(i) + " has rank " + std::to_string(s.rank()) +
                                                      ", over the limit of " + std::to_string(max_rank));
        for (std::size_t a = 0; a < s.rank(); ++a) {
            if (s.size(a) < 0)
                return fail(why_, errc::invalid_spec, say_.input_with_spec(i) + ": " + say_.axis(i, a) +
                                                          " has a negative size; sizes must be >= 0");
            if (!s.name(a)) continue;
            for (std::size_t b = 0; b < a; ++b)
                if (s.name(b) == s.name(a))
                    return fail(why_, errc::duplicate_name,
                                say_.input_with_spec(i) + ": name '" + std::string(s.name(a).str()) + "' is used by axis " +
                                    std::to_string(b) + " and axis " + std::to_string(a) +
                                    "; names must be unique within a spec (rename one, or leave it unnamed)");
        }
        return true;
    }

    std::size_t pick_host() const {
        std::size_t host = 0;
        for (std::size_t i = 1; i < specs_.size(); ++i)
            if (specs_[i].rank() > specs_[host].rank()) host = i;
        return host;
    }

    std::size_t plan_inputs() const { return target_mode_ ? 1 : specs_.size(); }

    void finish_plan() {
        out_.host = target_mode_ ? plan::npos : host_;
        out_.policy = options_.policy;
        out_.union_axes = options_.union_axes && !target_mode_;
        for (std::size_t i = 0; i < plan_inputs(); ++i) out_.inputs[i].input = specs_[i];
    }

    // Checks sizes along output axis `o` and returns the common size via `size`.
    bool settle_size(std::size_t o, const char* rule, std::int64_t& size) {
        if (target_mode_) return settle_target_size(o, rule, size);
        std::int64_t common = 1;
        bool clash = false;
        for (std::size_t i = 0; i < specs_.size(); ++i) {
            const std::int32_t a = out_.inputs[i].source_axes[o];
            if (a == inserted_axis) continue;
            const std::int64_t s = specs_[i].size(static_cast<std::size_t>(a));
            if (s == 1) continue;
            if (common == 1) common = s;
            else if (s != common) clash = true;
        }
        if (clash) return fail(why_, errc::incompatible_sizes, size_clash_message(o, rule));
        size = common;
        return true;
    }

    bool settle_target_size(std::size_t o, const char* rule, std::int64_t& size) {
        size = specs_[1].size(o);
        const std::int32_t a = out_.inputs[0].source_axes[o];
        if (a == inserted_axis) return true;
        const std::int64_t s = specs_[0].size(static_cast<std::size_t>(a));
        if (s == 1 || s == size) return true;
        std::string message = "cannot broadcast " + say_.input_with_spec(0) + " to the target " + to_string(specs_[1]) +
                              ": " + say_.axis(0, static_cast<std::size_t>(a)) + " is paired " + rule +
                              " with target axis " + std::to_string(o) + " of size " + std::to_string(size) +
                              "; an input axis must have size 1 or the target's size";
        if (size == 1) message += " (nothing in the target may shrink)";
        message += ". Fix: give the target size " + std::to_string(s) + " there";
        if (!is_named_key(key_of_output(o))) message += ", or name the axes so they pair by name";
        return fail(why_, errc::incompatible_sizes, message);
    }

    std::string size_clash_message(std::size_t o, const char* rule) const {
        std::string members;
        for (std::size_t i = 0; i < specs_.size(); ++i) {
            const std::int32_t a = out_.inputs[i].source_axes[o];
            if (a == inserted_axis) continue;
            if (!members.empty()) members += ", ";
            members += say_.input(i) + " " + say_.axis(i, static_cast<std::size_t>(a));
        }
        const group_key key = key_of_output(o);
        const std::string group =
            is_named_key(key) ? "axis '" + std::string(name_of_group(key).str()) + "' (paired " + rule + ")"
            : options_.policy == policy::positional
                ? "output axis " + std::to_string(o) + " (paired " + rule + ")"
                : "output axis " + std::to_string(o) + " (the " + ordinal_from_right(static_cast<std::size_t>(-key)) +
                      " unnamed axes, paired " + rule + ")";
        std::string message = "cannot broadcast " + group + ": " + members +
                              "; sizes in a group must be equal or 1. Shapes: " + say_.shapes() + ". Fix: ";
        if (is_named_key(key))
            message += "make the sizes agree, or rename one of the axes if they are different dimensions";
        else if (options_.policy == policy::positional)
            message += "name the axes and use policy 'names', or insert axes (unsqueeze) so the right ones align";
        else
            message += "name the axes so they pair by name (refine_names), or use policy 'search' to look for "
                       "another placement of the unnamed axes";
        return message;
    }

    group_key key_of_output(std::size_t o) const { return o < groups_.size() ? groups_[o] : 0; }

    std::size_t unnamed_count(std::size_t i) const {
        std::size_t n = 0;
        for (const axis_spec& ax : specs_[i])
            if (!ax.name) ++n;
        return n;
    }

    nt::name name_of_group(group_key key) const {
        for (const spec& s : specs_)
            for (const axis_spec& ax : s)
                if (static_cast<group_key>(ax.name.id()) == key) return ax.name;
        return {};
    }

    std::span<const spec> specs_;
    const match_options& options_;
    bool target_mode_;
    plan& out_;
    mismatch* why_;
    describer say_;
    std::size_t host_ = 0;
    small_vector<group_key, 8> groups_;
};

/// Policy positional (NumPy: every axis right-aligned, names must agree).
bool solve_positional(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out,
                      mismatch* why);
/// Policies names and search.
bool solve_by_names(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out,
                    mismatch* why);

}  // namespace nt::detail
