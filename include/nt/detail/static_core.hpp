// nt/detail/static_core.hpp (internal): the compiled part of <nt/static.hpp>, which
// src/ops/static_names.cpp defines. Kept apart so that the library compiles without
// Boost.Hana or class-type template arguments (clang 14 builds the library too).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "nt/detail/tensor_base.hpp"
#include "nt/error.hpp"
#include "nt/match.hpp"
#include "nt/spec.hpp"

namespace nt::static_detail {

/// Throws `code` (rank_mismatch, name_mismatch) for a tensor that does not fit a
/// tensor_of type; out of line (src/ops/static_names.cpp), as every message.
[[noreturn]] void throw_type_spec(errc code, std::span<const std::string_view> expected, std::string_view actual);

/// Throws incompatible_sizes for output axis `axis` of a compile-time plan.
[[noreturn]] void throw_static_sizes(std::string_view op, std::size_t axis, std::string_view axis_name,
                                     std::span<const std::string> shapes);

// Output sizes and each operand's strides over the output, from the compile-time
// source maps; the one run-time check left is that paired sizes fit (equal or 1).
// Compiled once, in the library (src/ops/static_names.cpp).
struct map_alignment {
    dims shape;
    std::array<dims, 3> strides;
    spec output;
};
void align_by_maps(std::string_view op, std::span<const detail::tensor_base* const> bases,
                   std::span<const std::int32_t* const> maps, std::size_t rank, map_alignment& al);

}  // namespace nt::static_detail
