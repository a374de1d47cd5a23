// The axis-matching solver under policies names and search: equal names pair
// first, the remaining unnamed axes right-aligned (or, under search, placed by the
// best order-preserving placement when right alignment fails).
#include <algorithm>
#include <cctype>
#include <string>

#include "nt/detail/edit_distance.hpp"
#include "search.hpp"
#include "solver.hpp"

namespace nt::detail {

namespace {

class names_solver : public solver_base {
public:
    using solver_base::solver_base;

private:
    bool solve() override {
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

    static bool has_unknown(const dims& sizes) noexcept {
        return std::any_of(sizes.begin(), sizes.end(), [](std::int64_t s) { return s < 0; });
    }

    void unnamed_sizes(std::size_t i, dims& sizes) const {
        sizes.clear();
        for (const axis_spec& ax : specs_[i])
            if (!ax.name) sizes.push_back(ax.size);
    }

    // NumPy's rule on the unnamed sizes: onto the target (broadcast_to), or mutual.
    bool right_alignment_fits(std::size_t i) {
        unnamed_sizes(i, scratch_from_);
        unnamed_sizes(host_, scratch_onto_);
        if (has_unknown(scratch_from_) || has_unknown(scratch_onto_)) {
            // A size not known yet (match_options::unknown_sizes) pairs with anything.
            const std::size_t shift = scratch_onto_.size() - scratch_from_.size();
            for (std::size_t t = 0; t < scratch_from_.size(); ++t) {
                const std::int64_t x = scratch_from_[t];
                const std::int64_t y = scratch_onto_[t + shift];
                if (x < 0 || y < 0 || x == 1 || x == y || (!target_mode_ && y == 1)) continue;
                return false;
            }
            return true;
        }
        if (target_mode_) return numpy_broadcast_map(scratch_from_.span(), scratch_onto_.span(), scratch_map_);
        const std::span<const std::int64_t> both[] = {scratch_from_.span(), scratch_onto_.span()};
        return numpy_broadcast_shape(both, scratch_common_);
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
                if (groups_.size() > max_rank)
                    return fail(why_, errc::invalid_spec,
                                "union: adding " + say_.axis(i, a) + " of " + say_.input_with_spec(i) +
                                    " would give the output " + std::to_string(groups_.size()) +
                                    " axes, over the limit of " + std::to_string(max_rank) +
                                    ". Fix: pair more axes by name, or reduce the inputs' ranks before the union");
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
        // A name one edit away from a host name is most likely a typo of it (but two
        // different one-letter names are not, unless they differ only in case). So is
        // the one name each side lacks, when sizes allow them to pair: `? Z H W` with
        // `? D H W`, whatever the distance.
        const spec& other = specs_[target_mode_ ? 1 : host_];
        std::string near;
        if (s.name(a))
            for (const axis_spec& ax : other) {
                if (!ax.name || !near.empty()) continue;
                const std::string_view mine = s.name(a).str(), theirs = ax.name.str();
                const bool case_only = mine.size() == 1 && theirs.size() == 1 &&
                                       std::tolower(static_cast<unsigned char>(mine[0])) ==
                                           std::tolower(static_cast<unsigned char>(theirs[0]));
                if (detail::edit_distance(mine, theirs) == 1 && (std::max(mine.size(), theirs.size()) >= 2 || case_only))
                    near = theirs;
            }
        if (s.name(a) && near.empty()) {
            auto lacking = [](const spec& from, const spec& in, std::size_t& at) {
                std::size_t count = 0;
                for (std::size_t k = 0; k < from.rank(); ++k)
                    if (from.name(k) && std::none_of(in.begin(), in.end(), [&](const axis_spec& x) {
                            return x.name == from.name(k);
                        })) {
                        ++count;
                        at = k;
                    }
                return count;
            };
            std::size_t mine_at = 0, theirs_at = 0;
            if (lacking(s, other, mine_at) == 1 && lacking(other, s, theirs_at) == 1 && mine_at == a) {
                const std::int64_t m = s.size(a), t = other.size(theirs_at);
                if (m == t || m == 1 || t == 1 || m < 0 || t < 0) near = other.name(theirs_at).str();
            }
        }
        if (!near.empty()) message += " (did you mean '" + near + "'?)";
        const std::string insert = "unsqueeze(" + std::to_string(insert_position(keys_of(i), a)) +
                                   (s.name(a) ? ", \"" + std::string(s.name(a).str()) + "\")" : std::string(")"));
        if (!near.empty() && !target_mode_)
            message += "; a broadcast never adds axes to the host. Fix: rename the axis '" +
                       std::string(s.name(a).str()) + "' to '" + near + "'" +
                       (options_.union_settable ? std::string(", or set 'union' if it is a new axis")
                                                : ", or, if it is a new axis, give it to the host (host." + insert +
                                                      ") or mark an operand with nt::with_union");
        else if (target_mode_)
            message += "; a broadcast never removes axes. Fix: add the axis to the target";
        else if (options_.union_settable)
            message += "; a broadcast never adds axes to the host. Fix: set 'union' to add it as a new output axis";
        else
            message += "; a broadcast never adds axes to the host. Fix: give the host that axis (host." + insert +
                       " or align_to), or make it a new output axis with nt::with_union(operand) or "
                       "nt::broadcast_tensors(inputs, nt::match_options{.union_axes = true})";
        if (!near.empty()) {
            if (target_mode_) message += ", or rename the axis '" + std::string(s.name(a).str()) + "' to '" + near + "'";
        } else if (s.name(a)) message += ", or rename the matching axis of the host to '" + std::string(s.name(a).str()) + "'";
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

    small_vector<group_key, 32> keys_;
    small_vector<std::size_t, 8> key_start_;
    small_vector<std::uint8_t, 8> searched_;
    small_vector<std::int32_t, 8> placement_;
    dims scratch_from_;
    dims scratch_onto_;
    dims scratch_common_;
    small_vector<std::int32_t, 8> scratch_map_;
};

}  // namespace

bool solve_by_names(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out,
                    mismatch* why) {
    return names_solver(specs, options, target_mode, out, why).run();
}

}  // namespace nt::detail
