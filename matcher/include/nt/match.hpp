// nt/match.hpp: the axis-matching solver (docs/matching.md).
//
// Given specs with partly named axes, decide which axes correspond: equal names
// first, then the unnamed axes right-aligned; the host (highest rank) gives the
// output's order. The result is a plan: the output spec and, per input, a source
// map telling how to view that input as the output (permute, insert singletons,
// broadcast). No tensor data is involved.
//
//     auto p = nt::match({nt::parse_spec("(10,3,256,384 | ?,CHANNEL,H,W)"),
//                         nt::parse_spec("(10,256,384 | ?,H,W)")});
//     // p.output == (10,3,256,384 | ?,CHANNEL,H,W); p.inputs[1].source_axes == {0,-1,1,2}
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "nt/error.hpp"
#include "nt/spec.hpp"

namespace nt {

/// How unnamed axes are paired (docs/matching.md).
enum class policy : std::uint8_t {
    names,       ///< equal names match, then unnamed axes right-aligned (default)
    positional,  ///< NumPy: every axis right-aligned, names must agree
    search,      ///< as names, but searches the best placement where right-alignment fails
};
[[nodiscard]] std::string to_string(policy p);
/// Parses "names", "positional" or "search"; returns false otherwise.
[[nodiscard]] bool policy_from_string(std::string_view text, policy& p) noexcept;

struct match_options {
    nt::policy policy = policy::names;
    /// Lift the rank rule: a group absent from the host becomes a new output axis.
    bool union_axes = false;
    /// Optional labels for the inputs ("img", "lbl"), used in error messages.
    /// Must outlive the call. Missing labels print as "input 2".
    std::span<const std::string_view> labels = {};
    /// Sizes not known yet (the unbound symbols of a pipeline config, before its
    /// files are read or its tensors checked). A size s < 0 in an input or target
    /// stands for the size named unknown_sizes[-1 - s]: it pairs with any size, and
    /// messages print its name. An output axis where only unknown sizes (and 1s)
    /// meet gets the first of them. Empty (the default): sizes < 0 are invalid_spec.
    /// Must outlive the call.
    std::span<const std::string> unknown_sizes = {};
    /// Whether the caller can turn on `union_axes` (a config or match_options can;
    /// an operator such as `a + b` cannot): a no_counterpart message suggests
    /// 'union' only then, and otherwise unsqueeze / align_to / broadcast_tensors.
    bool union_settable = true;
};

/// Marks an output axis at which a singleton is inserted into an input.
inline constexpr std::int32_t inserted_axis = -1;

/// How one input is viewed as the output.
struct input_plan {
    /// One entry per output axis: the input axis feeding it, or inserted_axis.
    small_vector<std::int32_t, 8> source_axes;
    /// True when policy `search` placed this input's unnamed axes.
    bool searched = false;
    /// The input's spec as given (for explanations and broadcast flags).
    spec input;

    /// The input's axes in output order (source_axes without the insertions).
    [[nodiscard]] small_vector<std::int32_t, 8> permutation() const;
    /// Output positions at which singletons are inserted.
    [[nodiscard]] small_vector<std::int32_t, 8> inserted() const;
    friend bool operator==(const input_plan&, const input_plan&) = default;
};

/// Why an output axis exists / how its members were paired.
enum class axis_rule : std::uint8_t {
    by_name,        ///< its members share a name
    right_aligned,  ///< unnamed, paired by right alignment (or positionally)
    searched,       ///< unnamed, and at least one input was placed on it by `search`
};

/// The result of matching: output spec and one input_plan per input, in order.
struct plan {
    spec output;
    std::vector<input_plan> inputs;
    /// Per output axis: how it was paired.
    small_vector<axis_rule, 8> rules;
    /// Per output axis: 1 when the axis is not in the host (added by `union`).
    small_vector<std::uint8_t, 8> added_by_union;
    /// Index of the host input; for broadcast_to, npos (the target is the host).
    std::size_t host = 0;
    nt::policy policy = policy::names;
    bool union_axes = false;

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

/// Why matching failed: the error code and a message naming inputs, axes, sizes
/// and the fix. For `ambiguous`, also the best candidates as source maps.
struct mismatch {
    errc code = errc::incompatible_sizes;
    std::string message;
    /// For `ambiguous`: the number of equally good placements (saturates at 2^63)
    /// and up to 8 of them, as source maps of the searched input.
    std::uint64_t candidate_count = 0;
    std::vector<small_vector<std::int32_t, 8>> candidates;

    /// Throws this mismatch as an nt::error.
    [[noreturn]] void raise() const;
};

/// A plan or the reason there is none; never throws for matching failures.
class match_result {
public:
    match_result(plan p) : value_(std::move(p)) {}          // NOLINT
    match_result(mismatch m) : value_(std::move(m)) {}      // NOLINT

    [[nodiscard]] bool ok() const noexcept { return value_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }
    /// The plan; throws the mismatch as nt::error when there is none.
    [[nodiscard]] const plan& value() const&;
    [[nodiscard]] plan&& value() &&;
    [[nodiscard]] const mismatch& error() const& { return std::get<1>(value_); }
    const plan& operator*() const& { return std::get<0>(value_); }
    const plan* operator->() const { return &std::get<0>(value_); }

private:
    std::variant<plan, mismatch> value_;
};

/// Matches k >= 1 specs. Throws nt::error with the mismatch's code on failure
/// (incompatible_sizes, no_counterpart, name_mismatch, ambiguous, duplicate_name,
/// invalid_spec).
[[nodiscard]] plan match(std::span<const spec> specs, const match_options& options = {});
[[nodiscard]] plan match(std::initializer_list<spec> specs, const match_options& options = {});
/// As match, but reports failures as a mismatch instead of throwing.
[[nodiscard]] match_result try_match(std::span<const spec> specs, const match_options& options = {});
/// As try_match, reusing `out`'s storage (no allocation once warm); returns false
/// and fills `why` (when not null) on failure.
bool try_match_into(std::span<const spec> specs, const match_options& options, plan& out, mismatch* why);

/// Fits `input` into `target` (the target is the host and the output; nothing in it
/// may shrink). Only `policy` (names, positional, search) and `labels[0]` of the
/// options are used. Throws incompatible_sizes, no_counterpart, name_mismatch.
[[nodiscard]] plan broadcast_to(const spec& input, const spec& target, const match_options& options = {});
[[nodiscard]] match_result try_broadcast_to(const spec& input, const spec& target,
                                            const match_options& options = {});
/// As try_broadcast_to, reusing `out`'s storage (no allocation once warm); returns
/// false and fills `why` (when not null) on failure.
bool try_broadcast_to_into(const spec& input, const spec& target, const match_options& options, plan& out,
                           mismatch* why);

/// NumPy's broadcasting rule on bare shapes (np.broadcast_shapes): every axis
/// right-aligned, sizes equal or 1. Writes the common shape to `out`; false when the
/// shapes do not broadcast. The one home of the rule: the matcher's unnamed axes and
/// the tensor core's unnamed fast paths both call it.
bool numpy_broadcast_shape(std::span<const std::span<const std::int64_t>> shapes, dims& out);

/// NumPy's rule for one shape onto `target` (np.broadcast_to): output axis k takes
/// axis map[k] of `sizes`, or none (inserted_axis); every size of `sizes` is 1 or the
/// target's. False when it does not fit.
bool numpy_broadcast_map(std::span<const std::int64_t> sizes, std::span<const std::int64_t> target,
                         small_vector<std::int32_t, 8>& map);

/// A table for people: one row per output axis (index, name, size, rule) and one
/// column per input (which of its axes feeds the row, or "+1" for an insertion).
/// Sizes < 0 print as `unknown_sizes` names them (see match_options).
[[nodiscard]] std::string explain(const plan& p, std::span<const std::string_view> labels = {},
                                  std::span<const std::string> unknown_sizes = {});

}  // namespace nt
