// The axis-matching entry points (docs/matching.md): plans, results, and the
// choice of solver by policy (solver.hpp).
#include <string>

#include "nt/match.hpp"
#include "solver.hpp"

namespace nt {

std::string to_string(policy p) {
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
bool solve(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out, mismatch* why) {
    return options.policy == policy::positional ? detail::solve_positional(specs, options, target_mode, out, why)
                                                : detail::solve_by_names(specs, options, target_mode, out, why);
}
}  // namespace

bool try_match_into(std::span<const spec> specs, const match_options& options, plan& out, mismatch* why) {
    return solve(specs, options, false, out, why);
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
    return solve(pair, target_options, true, out, why);
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
