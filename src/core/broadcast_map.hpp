// Internal: NumPy's broadcasting rule as a source map, shared by the broadcasting
// views (broadcast.cpp) and the destinations of in-place forms and assign
// (elementwise.cpp), so that both skip the matcher the same way when nothing is named.
#pragma once

#include <cstdint>
#include <span>

#include "nt/small_vector.hpp"

namespace nt::detail {

/// NumPy's rule for one input onto `target` (every axis right-aligned, an input size
/// of 1 or the target's): output axis k takes input axis map[k], or none
/// (nt::inserted_axis). False when the input does not fit; the caller then runs the
/// matcher, which says why.
bool right_aligned_map(std::span<const std::int64_t> sizes, std::span<const std::int64_t> target,
                       small_vector<std::int32_t, 8>& map);

}  // namespace nt::detail
