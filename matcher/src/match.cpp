// The axis-matching solver (docs/matching.md).
//
// Every axis of every input gets a group key: a named axis the key of its name, an
// unnamed axis its position counted from the right among the input's unnamed axes
// (or, under `search`, the host position the search chose). Groups become output
// axes in the host's order (plus, with `union`, new groups inserted by the
// placement rule); source maps then follow by looking keys up. Nothing allocates
// on the success path beyond the plan itself: scratch space is inline.
#include <algorithm>
#include <string>

#include "nt/match.hpp"
#include "search.hpp"

namespace nt {

std::string_view to_string(policy p) noexcept {
    switch (p) {
        case policy::names: return "names";
        case policy::positional: return "positional";
        case policy::search: return "search";
    }
    return "names";
}

bool policy_from_string(std::string_view text, policy& p) noexcept {
    for (policy candidate : {policy::names, policy::positional, policy::search})
        if (to_string(candidate) == text) {
            p = candidate;
            return true;
        }
    return false;
}

small_vector<std::int32_t, 8> input_plan::permutation() const {
    small_vector<std::int32_t, 8> order;
    for (std::int32_t a : source_axes)
        if (a != inserted_axis) order.push_back(a);
    return order;
}

small_vector<std::int32_t, 8> input_plan::inserted() const {
    small_vector<std::int32_t, 8> positions;
    for (std::size_t o = 0; o < source_axes.size(); ++o)
        if (source_axes[o] == inserted_axis) positions.push_back(static_cast<std::int32_t>(o));
    return positions;
}

void mismatch::raise() const { throw_error(code, message); }

const plan& match_result::value() const& {
    if (!ok()) error().raise();
    return std::get<0>(value_);
}

plan&& match_result::value() && {
    if (!ok()) error().raise();
    return std::get<0>(std::move(value_));
}

namespace {

// A group key: > 0 is a name id; <= 0 is an unnamed axis at right-aligned
// position -key (0 = the last unnamed axis).
using group_key = std::int64_t;

group_key unnamed_key(std::size_t from_right) { return -static_cast<group_key>(from_right); }
bool is_named_key(group_key key) { return key > 0; }

// ---------------------------------------------------------------------------
// Message helpers: built only on failure.

std::string ordinal_from_right(std::size_t from_right) {
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
    [[nodiscard]] std::string input_with_spec(std::size_t i) const {
        return input(i) + " " + to_string(specs_[i], options_.unknown_sizes);
    }
    [[nodiscard]] std::string spec_text(std::size_t i) const { return to_string(specs_[i], options_.unknown_sizes); }
    [[nodiscard]] std::string size(std::int64_t s) const { return size_text(s, options_.unknown_sizes); }
    [[nodiscard]] std::string shape(std::span<const std::int64_t> sizes) const {
        return shape_string(sizes, options_.unknown_sizes);
    }
    // "axis 2 'H' (size 256)" / "axis 0 (unnamed, size 10)"
    [[nodiscard]] std::string axis(std::size_t i, std::size_t a) const {
        const axis_spec& ax = specs_[i][a];
        std::string out = "axis " + std::to_string(a);
        if (ax.name) return out + " '" + std::string(ax.name.str()) + "' (size " + size(ax.size) + ")";
        return out + " (unnamed, size " + size(ax.size) + ")";
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

std::string count_of(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool fail(mismatch* why, errc code, std::string message) {
    if (why) {
        why->code = code;
        why->message = std::move(message);
        why->candidate_count = 0;
        why->candidates.clear();
    }
    return false;
}

std::string source_map_string(std::span<const std::int32_t> map) {
    std::string out = "[";
    for (std::size_t o = 0; o < map.size(); ++o) {
        if (o) out += ',';
        out += map[o] == inserted_axis ? std::string("null") : std::to_string(map[o]);
    }
    return out + "]";
}

// ---------------------------------------------------------------------------

class solver {
public:
    solver(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out, mismatch* why)
        : specs_(specs), options_(options), target_mode_(target_mode), out_(out), why_(why),
          say_(specs, options, target_mode) {}

    bool run() {
        if (specs_.empty())
            return fail(why_, errc::invalid_argument, "match needs at least one input spec; none was given");
        for (std::size_t i = 0; i < specs_.size(); ++i)
            if (!validate(i)) return false;
        host_ = target_mode_ ? 1 : pick_host();
        const bool ok = options_.policy == policy::positional ? solve_positional() : solve_by_names();
        if (!ok) return false;
        finish_plan();
        return true;
    }

private:
    // --- shared steps -------------------------------------------------------

    bool validate(std::size_t i) {
        const spec& s = specs_[i];
        if (s.rank() > max_rank)
            return fail(why_, errc::invalid_spec, say_.input(i) + " has rank " + std::to_string(s.rank()) +
                                                      ", over the limit of " + std::to_string(max_rank));
        for (std::size_t a = 0; a < s.rank(); ++a) {
            if (s.size(a) < 0 && static_cast<std::uint64_t>(-1 - s.size(a)) >= options_.unknown_sizes.size())
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
    // Unknown sizes (< 0, see match_options::unknown_sizes) pair with anything.
    bool settle_size(std::size_t o, const char* rule, std::int64_t& size) {
        if (target_mode_) return settle_target_size(o, rule, size);
        std::int64_t common = 1;
        std::int64_t unknown = 1;  // the first unknown size, if any
        bool clash = false;
        for (std::size_t i = 0; i < specs_.size(); ++i) {
            const std::int32_t a = out_.inputs[i].source_axes[o];
            if (a == inserted_axis) continue;
            const std::int64_t s = specs_[i].size(static_cast<std::size_t>(a));
            if (s == 1) continue;
            if (s < 0) {
                if (unknown == 1) unknown = s;
            } else if (common == 1) {
                common = s;
            } else if (s != common) {
                clash = true;
            }
        }
        if (clash) return fail(why_, errc::incompatible_sizes, size_clash_message(o, rule));
        size = common != 1 ? common : unknown;
        return true;
    }

    bool settle_target_size(std::size_t o, const char* rule, std::int64_t& size) {
        size = specs_[1].size(o);
        const std::int32_t a = out_.inputs[0].source_axes[o];
        if (a == inserted_axis) return true;
        const std::int64_t s = specs_[0].size(static_cast<std::size_t>(a));
        if (s == 1 || s == size || s < 0 || size < 0) return true;
        std::string message = "cannot broadcast " + say_.input_with_spec(0) + " to the target " + say_.spec_text(1) +
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

    // --- policy positional ---------------------------------------------------

    bool solve_positional() {
        const std::size_t rank = specs_[host_].rank();
        if (target_mode_ && specs_[0].rank() > rank)
            return fail(why_, errc::no_counterpart,
                        "cannot broadcast " + say_.input_with_spec(0) + " to the target " + say_.spec_text(1) +
                            ": the input has more axes than the target, and a broadcast never removes axes. Fix: "
                            "squeeze or index away the extra leading axes first");
        groups_.clear();
        for (std::size_t o = 0; o < rank; ++o) groups_.push_back(unnamed_key(rank - 1 - o));
        out_.inputs.resize(plan_inputs());
        for (std::size_t i = 0; i < plan_inputs(); ++i) {
            input_plan& p = out_.inputs[i];
            p.searched = false;
            p.source_axes.clear();
            p.source_axes.resize(rank, inserted_axis);
            const std::size_t shift = rank - specs_[i].rank();
            for (std::size_t a = 0; a < specs_[i].rank(); ++a) p.source_axes[a + shift] = static_cast<std::int32_t>(a);
        }
        out_.output = spec();
        out_.rules.clear();
        out_.added_by_union.clear();
        for (std::size_t o = 0; o < rank; ++o) {
            nt::name common;
            std::size_t named_by = 0;
            for (std::size_t i = 0; i < specs_.size(); ++i) {
                const std::size_t shift = rank - specs_[i].rank();
                if (o < shift) continue;
                const nt::name n = specs_[i].name(o - shift);
                if (!n) continue;
                if (!common) {
                    common = n;
                    named_by = i;
                } else if (n != common && !(target_mode_ && i == 0)) {
                    return fail(why_, errc::name_mismatch,
                                "output axis " + std::to_string(o) + " (paired positionally, right-aligned) would get two names: " +
                                    say_.input(named_by) + " " + say_.axis(named_by, o - (rank - specs_[named_by].rank())) +
                                    " and " + say_.input(i) + " " + say_.axis(i, o - shift) + ". Shapes: " + say_.shapes() +
                                    ". Fix: rename one of the axes, or use policy 'names' to pair axes by name");
                }
            }
            if (target_mode_) common = specs_[1].name(o);
            for (std::size_t earlier = 0; earlier < o; ++earlier)
                if (common && out_.output.name(earlier) == common)
                    return fail(why_, errc::name_mismatch,
                                "policy 'positional' would give the name '" + std::string(common.str()) +
                                    "' to output axes " + std::to_string(earlier) + " and " + std::to_string(o) +
                                    ". Shapes: " + say_.shapes() + ". Fix: use policy 'names' to pair axes by name");
            std::int64_t size = 0;
            if (!settle_size(o, "positionally (right-aligned)", size)) return false;
            out_.output.push_back({size, common});
            out_.rules.push_back(axis_rule::right_aligned);
            out_.added_by_union.push_back(0);
        }
        // A name may mismatch between input and target in broadcast_to: the input's
        // name must then agree with the target's where both are named.
        if (target_mode_) {
            const std::size_t shift = rank - specs_[0].rank();
            for (std::size_t a = 0; a < specs_[0].rank(); ++a) {
                const nt::name n = specs_[0].name(a);
                const nt::name t = specs_[1].name(a + shift);
                if (n && t && n != t)
                    return fail(why_, errc::name_mismatch,
                                "cannot broadcast " + say_.input_with_spec(0) + " to the target " + say_.spec_text(1) +
                                    ": " + say_.axis(0, a) + " lands positionally on target axis " +
                                    std::to_string(a + shift) + " named '" + std::string(t.str()) +
                                    "'. Fix: rename the axis, or use policy 'names'");
            }
        }
        return true;
    }

    // --- policies names and search --------------------------------------------

    bool solve_by_names() {
        if (!assign_keys()) return false;
        if (!place_groups()) return false;
        return build_maps_and_sizes();
    }

    // Fills keys_ (flattened per input, offsets in key_start_) with each axis's group key.
    bool assign_keys() {
        keys_.clear();
        key_start_.clear();
        searched_.clear();
        const std::size_t host_unnamed = unnamed_count(host_);
        for (std::size_t i = 0; i < specs_.size(); ++i) {
            key_start_.push_back(keys_.size());
            const spec& s = specs_[i];
            const std::size_t unnamed = unnamed_count(i);
            bool searched = false;
            if (options_.policy == policy::search && i != host_ && unnamed <= host_unnamed && !right_alignment_fits(i)) {
                if (!search_placement(i)) return false;
                searched = true;
            }
            searched_.push_back(searched ? 1 : 0);
            std::size_t seen_unnamed = 0;
            for (std::size_t a = 0; a < s.rank(); ++a) {
                if (s.name(a)) {
                    keys_.push_back(static_cast<group_key>(s.name(a).id()));
                } else if (searched) {
                    keys_.push_back(unnamed_key(host_unnamed - 1 - static_cast<std::size_t>(placement_[seen_unnamed++])));
                } else {
                    keys_.push_back(unnamed_key(unnamed - 1 - seen_unnamed++));
                }
            }
        }
        key_start_.push_back(keys_.size());
        return true;
    }

    std::size_t unnamed_count(std::size_t i) const {
        std::size_t n = 0;
        for (const axis_spec& ax : specs_[i])
            if (!ax.name) ++n;
        return n;
    }

    void unnamed_sizes(std::size_t i, dims& sizes) const {
        sizes.clear();
        for (const axis_spec& ax : specs_[i])
            if (!ax.name) sizes.push_back(ax.size);
    }

    bool right_alignment_fits(std::size_t i) {
        unnamed_sizes(i, scratch_from_);
        unnamed_sizes(host_, scratch_onto_);
        const std::size_t shift = scratch_onto_.size() - scratch_from_.size();
        for (std::size_t t = 0; t < scratch_from_.size(); ++t) {
            const std::int64_t x = scratch_from_[t];
            const std::int64_t y = scratch_onto_[t + shift];
            if (x < 0 || y < 0) continue;  // an unknown size pairs with anything
            if (target_mode_ ? !(x == 1 || x == y) : !(x == y || x == 1 || y == 1)) return false;
        }
        return true;
    }

    // Policy search for input i: one best placement is used; none or several fail.
    bool search_placement(std::size_t i) {
        // scratch_from_/scratch_onto_ hold the unnamed sizes (right_alignment_fits).
        const std::uint64_t count = detail::best_placement(scratch_from_, scratch_onto_, target_mode_, placement_);
        if (count == 1) return true;
        if (count == 0)
            return fail(why_, errc::incompatible_sizes,
                        say_.input_with_spec(i) + ": its unnamed axes " + say_.shape(scratch_from_) +
                            " fit the host " + say_.input_with_spec(host_) + " neither right-aligned nor in any other "
                            "order-preserving placement onto its unnamed axes " + say_.shape(scratch_onto_) +
                            " (paired sizes must be equal or 1). Fix: check the shapes, or name the axes so they pair by name");
        return fail_ambiguous(i);
    }

    bool fail_ambiguous(std::size_t i) {
        const detail::placement_search found = detail::search_placements(scratch_from_, scratch_onto_, target_mode_, 8);
        if (!why_) return false;
        why_->code = errc::ambiguous;
        why_->candidate_count = found.count;
        why_->candidates.clear();
        // Express each placement as a source map of input i onto the host's axes.
        small_vector<std::size_t, 8> host_unnamed_axes;
        for (std::size_t a = 0; a < specs_[host_].rank(); ++a)
            if (!specs_[host_].name(a)) host_unnamed_axes.push_back(a);
        small_vector<std::size_t, 8> input_unnamed_axes;
        for (std::size_t a = 0; a < specs_[i].rank(); ++a)
            if (!specs_[i].name(a)) input_unnamed_axes.push_back(a);
        std::string listed;
        for (const auto& placement : found.examples) {
            small_vector<std::int32_t, 8> map(specs_[host_].rank(), inserted_axis);
            for (std::size_t a = 0; a < specs_[i].rank(); ++a)
                if (specs_[i].name(a)) {
                    const std::int64_t at = specs_[host_].find(specs_[i].name(a));
                    if (at >= 0) map[static_cast<std::size_t>(at)] = static_cast<std::int32_t>(a);
                }
            for (std::size_t t = 0; t < placement.size(); ++t)
                map[host_unnamed_axes[static_cast<std::size_t>(placement[t])]] = static_cast<std::int32_t>(input_unnamed_axes[t]);
            listed += (listed.empty() ? "" : ", ") + source_map_string(map);
            why_->candidates.push_back(map);
        }
        const std::string count = found.count >= (std::uint64_t{1} << 63) ? std::string("more than 2^63")
                                                                         : std::to_string(found.count);
        why_->message = say_.input_with_spec(i) + ": right alignment fails against the host " +
                        say_.input_with_spec(host_) + ", and " + count +
                        " order-preserving placements of its unnamed axes are equally good (" +
                        std::to_string(found.best_score) + " equal-size pairs each): " + listed +
                        (found.count > found.examples.size() ? ", ..." : "") +
                        " (as source maps onto the host's axes). Fix: name the axes so they pair by name (refine_names)";
        return false;
    }

    std::span<const group_key> keys_of(std::size_t i) const {
        return {keys_.data() + key_start_[i], key_start_[i + 1] - key_start_[i]};
    }

    std::int64_t find_group(group_key key) const {
        for (std::size_t o = 0; o < groups_.size(); ++o)
            if (groups_[o] == key) return static_cast<std::int64_t>(o);
        return -1;
    }

    // Output axes: the host's groups, then (union) new groups by the placement rule.
    bool place_groups() {
        groups_.clear();
        for (group_key key : keys_of(host_)) groups_.push_back(key);
        for (std::size_t i = 0; i < specs_.size(); ++i) {
            if (i == host_) continue;
            const auto keys = keys_of(i);
            for (std::size_t a = 0; a < keys.size(); ++a) {
                if (find_group(keys[a]) >= 0) continue;
                if (!options_.union_axes || target_mode_) return fail_no_counterpart(i, a);
                groups_.insert(groups_.begin() + insert_position(keys, a), keys[a]);
            }
        }
        return true;
    }

    // Just before the next axis of the same input that is already placed, else at the end.
    std::ptrdiff_t insert_position(std::span<const group_key> keys, std::size_t a) const {
        for (std::size_t b = a + 1; b < keys.size(); ++b)
            if (const std::int64_t at = find_group(keys[b]); at >= 0) return at;
        return static_cast<std::ptrdiff_t>(groups_.size());
    }

    bool fail_no_counterpart(std::size_t i, std::size_t a) {
        const spec& s = specs_[i];
        const std::string host = target_mode_ ? "the target " + say_.spec_text(1)
                                              : "the host, " + say_.input_with_spec(host_) + ",";
        std::string message = say_.input_with_spec(i) + ": " + say_.axis(i, a) + " has no counterpart in " + host;
        if (s.name(a)) {
            message += " which has no axis named '" + std::string(s.name(a).str()) + "'";
        } else {
            message += " which has " + count_of(unnamed_count(host_), "unnamed axis", "unnamed axes") + " while " +
                       say_.input(i) + " has " + std::to_string(unnamed_count(i)) + " (unnamed axes pair right-aligned)";
        }
        message += target_mode_ ? "; a broadcast never removes axes. Fix: add the axis to the target"
                                : "; a broadcast never adds axes to the host. Fix: set 'union' to add it as a new output "
                                  "axis";
        if (s.name(a)) message += ", or rename the matching axis of the host to '" + std::string(s.name(a).str()) + "'";
        else message += ", or name the axes (refine_names) so they pair by name";
        return fail(why_, errc::no_counterpart, message);
    }

    bool build_maps_and_sizes() {
        const std::size_t rank = groups_.size();
        out_.inputs.resize(plan_inputs());
        for (std::size_t i = 0; i < plan_inputs(); ++i) {
            input_plan& p = out_.inputs[i];
            p.searched = searched_[i] != 0;
            p.source_axes.clear();
            p.source_axes.resize(rank, inserted_axis);
            const auto keys = keys_of(i);
            for (std::size_t a = 0; a < keys.size(); ++a)
                p.source_axes[static_cast<std::size_t>(find_group(keys[a]))] = static_cast<std::int32_t>(a);
        }
        out_.output = spec();
        out_.rules.clear();
        out_.added_by_union.clear();
        for (std::size_t o = 0; o < rank; ++o) {
            const group_key key = groups_[o];
            const bool named = is_named_key(key);
            axis_rule rule = named ? axis_rule::by_name : axis_rule::right_aligned;
            for (std::size_t i = 0; i < plan_inputs() && !named; ++i)
                if (searched_[i] && out_.inputs[i].source_axes[o] != inserted_axis) rule = axis_rule::searched;
            const char* rule_text = rule == axis_rule::by_name         ? "by name"
                                    : rule == axis_rule::searched      ? "by search"
                                                                       : "by right alignment";
            std::int64_t size = 0;
            if (!settle_size(o, rule_text, size)) return false;
            out_.output.push_back({size, named ? name_feeding(o) : nt::name{}});
            out_.rules.push_back(rule);
            out_.added_by_union.push_back(host_feeds(o) ? 0 : 1);
        }
        return true;
    }

    // The name of output axis o, read from an input that feeds it (the target in
    // broadcast_to mode, which feeds every axis).
    nt::name name_feeding(std::size_t o) const {
        if (target_mode_) return specs_[1].name(o);
        for (std::size_t i = 0; i < plan_inputs(); ++i)
            if (const std::int32_t a = out_.inputs[i].source_axes[o]; a != inserted_axis)
                return specs_[i].name(static_cast<std::size_t>(a));
        return {};
    }

    bool host_feeds(std::size_t o) const {
        return target_mode_ || out_.inputs[host_].source_axes[o] != inserted_axis;
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
    small_vector<group_key, 32> keys_;
    small_vector<std::size_t, 8> key_start_;
    small_vector<std::uint8_t, 8> searched_;
    small_vector<group_key, 8> groups_;
    small_vector<std::int32_t, 8> placement_;
    dims scratch_from_;
    dims scratch_onto_;
};

}  // namespace

bool try_match_into(std::span<const spec> specs, const match_options& options, plan& out, mismatch* why) {
    return solver(specs, options, false, out, why).run();
}

match_result try_match(std::span<const spec> specs, const match_options& options) {
    plan out;
    mismatch why;
    if (try_match_into(specs, options, out, &why)) return out;
    return why;
}

plan match(std::span<const spec> specs, const match_options& options) {
    plan out;
    mismatch why;
    if (!try_match_into(specs, options, out, &why)) why.raise();
    return out;
}

plan match(std::initializer_list<spec> specs, const match_options& options) {
    return match(std::span<const spec>(specs.begin(), specs.size()), options);
}

bool try_broadcast_to_into(const spec& input, const spec& target, const match_options& options, plan& out,
                           mismatch* why) {
    const spec pair[2] = {input, target};
    match_options target_options = options;
    target_options.union_axes = false;
    return solver(pair, target_options, true, out, why).run();
}

match_result try_broadcast_to(const spec& input, const spec& target, const match_options& options) {
    plan out;
    mismatch why;
    if (try_broadcast_to_into(input, target, options, out, &why)) return out;
    return why;
}

plan broadcast_to(const spec& input, const spec& target, const match_options& options) {
    return try_broadcast_to(input, target, options).value();
}

}  // namespace nt
