// Order-preserving placement search for policy `search` (internal).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nt/small_vector.hpp"

namespace nt::detail {

/// The best order-preserving, size-compatible placements of `from` (an input's
/// unnamed sizes) onto `onto` (the host's unnamed sizes). Score: pairs of equal
/// sizes other than 1.
struct placement_search {
    /// Number of best placements (saturating); 0 when none is compatible.
    std::uint64_t count = 0;
    int best_score = -1;
    /// Up to `max_examples` best placements: for each `from` index, its `onto` index.
    std::vector<small_vector<std::int32_t, 8>> examples;
};

/// `one_sided`: an `onto` size of 1 cannot absorb a larger `from` size (broadcast_to).
/// Dynamic programme over the two lists, O(|from| * |onto|) time and cells;
/// never enumerates subsets. Examples are traced back, output-sensitively.
[[nodiscard]] placement_search search_placements(std::span<const std::int64_t> from,
                                                 std::span<const std::int64_t> onto, bool one_sided,
                                                 std::size_t max_examples);

/// The unique best placement if there is exactly one, written to `placement`
/// without allocating; returns the count of best placements (0, 1 or more).
std::uint64_t best_placement(std::span<const std::int64_t> from, std::span<const std::int64_t> onto, bool one_sided,
                             small_vector<std::int32_t, 8>& placement);

}  // namespace nt::detail
