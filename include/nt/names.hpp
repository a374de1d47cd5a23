// nt/names.hpp: the names layer (xframe's xdimension): maps axis names to positions
// and computes how names propagate through structural operations. Owns no data; a
// tensor's names are always one nt::name per axis (nt::unnamed where absent).
//
//     nt::name_list names{"N", "C"};
//     nt::resolve_axis("C", names, "squeeze");   // 1
//     nt::resolve_axis(-2, names, "squeeze");    // 0
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nt/axis.hpp"
#include "nt/detail/list_arg.hpp"
#include "nt/name.hpp"
#include "nt/small_vector.hpp"

namespace nt {

/// One name per axis; rank <= 8 is stored inline.
using name_list = small_vector<name, 8>;

/// A list of names as a parameter: binds to `{"N", "C"}`, `{"?", "C"}`, a
/// std::vector<name>, nt::name_list or a span. An empty list means "all unnamed".
/// Non-owning; valid for the call it is passed to.
using names_arg = detail::list_arg<name>;

/// Position of `axis` among `names.size()` axes. Throws axis_out_of_range (index
/// outside -rank..rank-1, or no axis with that name) with a message naming `op`,
/// the axis and the available ones (`sizes`, when given, are shown too).
[[nodiscard]] std::size_t resolve_axis(const Axis& axis, std::span<const name> names, std::string_view op,
                                       std::span<const std::int64_t> sizes = {});

/// Position at which to insert into a result of rank `result_rank` (accepts
/// -result_rank..result_rank-1). Throws axis_out_of_range naming `op`.
[[nodiscard]] std::size_t resolve_insert_position(std::int64_t pos, std::size_t result_rank, std::string_view op);

/// Position of `n` in `names`, or -1.
[[nodiscard]] std::int64_t find_name(std::span<const name> names, name n) noexcept;

/// Throws duplicate_name, naming `op` and the repeated name, if a name (other than
/// unnamed) occurs twice.
void check_unique_names(std::span<const name> names, std::string_view op);

/// `names` expanded to `rank` entries: an empty list gives all unnamed. Throws
/// invalid_spec if the length is neither 0 nor rank, duplicate_name on repeats.
[[nodiscard]] name_list names_for_rank(std::span<const name> names, std::size_t rank, std::string_view op);

/// Names after a reshape from `old_sizes` to `new_sizes`: the longest common prefix
/// of sizes keeps its names, then the longest common suffix of what remains; every
/// other axis is unnamed.
[[nodiscard]] name_list reshape_names(std::span<const std::int64_t> old_sizes, std::span<const name> old_names,
                                      std::span<const std::int64_t> new_sizes);

/// "N, C, ?" (empty for rank 0).
[[nodiscard]] std::string names_text(std::span<const name> names);

}  // namespace nt
