// nt/shape_config.hpp: JSON shape configs and JSON plans (docs/config.md).
//
// nlohmann/json stays in the implementation: this header exposes strings only.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nt/match.hpp"

namespace nt {

/// A parsed shape config: named tensor specs and what to match.
struct shape_config {
    /// Tensors in file order, by key.
    std::vector<std::pair<std::string, spec>> tensors;
    /// Keys to match, in argument order (at least one, each defined, no repeats).
    std::vector<std::string> broadcast;
    /// The `to` target; when present, `broadcast` has exactly one key.
    std::optional<spec> target;
    nt::policy policy = policy::names;
    bool union_axes = false;

    /// The spec of `key`; throws unknown_tensor.
    [[nodiscard]] const spec& tensor(std::string_view key) const;
};

/// Parses a config of the one-step form (a top-level "broadcast") whose sizes are
/// all known from the config itself (literals, or symbols of "sizes"); see
/// nt/pipeline.hpp for pipelines. Reading is linear in the length of the text.
/// Throws parse_error (malformed JSON, duplicate keys), invalid_spec (wrong types,
/// unknown keys, bad sizes or names, unknown policy, a pipeline), duplicate_name,
/// unknown_tensor. Never lets another exception escape.
[[nodiscard]] shape_config parse_config(std::string_view json_text);

/// Matches what the config asks for (match, or broadcast_to with `to`), with the
/// broadcast keys as input labels; linear in the number of tensors and keys.
/// Throws as match / broadcast_to.
[[nodiscard]] plan plan_config(const shape_config& config);

/// The plan as JSON: {"shape", "names", "inputs": {label: {"source_axes", ...}}, ...}.
/// `labels` name the inputs in order (missing or empty ones print as "input i").
/// Extra keys, after those of docs/config.md and in a stable order: per input
/// "permutation", "inserted", "searched"; then "policy", "union", "host" (null for
/// broadcast_to), "rules" and "explanation" (nt::explain's table). `indent` < 0
/// gives one line; otherwise arrays of numbers stay on one line. A size < 0 (not
/// known yet, see match_options::unknown_sizes) prints as the string that
/// `unknown_sizes` gives it ("N"). Throws invalid_argument when two inputs get the
/// same label.
[[nodiscard]] std::string plan_to_json(const plan& p, std::span<const std::string> labels, int indent = 2,
                                       std::span<const std::string> unknown_sizes = {});

/// {"error": {"code": "...", "message": "..."}}
[[nodiscard]] std::string error_to_json(const error& e, int indent = 2);

}  // namespace nt
