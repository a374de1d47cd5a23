// nt/detail/static_core.hpp (internal): the compiled part of <nt/static.hpp>, which
// src/ops/static_names.cpp defines. Kept apart so that the library compiles without
// Boost.Hana or class-type template arguments (clang 14 builds the library too).
//
// The element-wise work of tensor_of operands is here, out of every consumer's
// translation unit: the header solves the plan while compiling and hands its source
// maps over as data; these functions check the sizes, lay the operands out by the
// maps and run the kernels. A header body per result type cost each consumer the
// compile time of the body at -O3 (docs/performance.md, "Compile cost of
// <nt/static.hpp>").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "nt/detail/ops_kernels.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/dtype.hpp"
#include "nt/error.hpp"

namespace nt::static_detail {

/// Throws `code` (rank_mismatch, name_mismatch) for a tensor that does not fit a
/// tensor_of type; out of line (src/ops/static_names.cpp), as every message.
[[noreturn]] void throw_type_spec(errc code, std::span<const std::string_view> expected, std::string_view actual);

/// `a op b` into a fresh result of dtype `result`; `a` and `b` have the computation's
/// dtype. `map_a`, `map_b`: the compile-time plan's source maps (`rank` entries each,
/// static storage: their addresses identify the plan in the per-thread memo).
/// `trailing`: both maps put the operand's axes last and in order, so the unnamed
/// add's row plan may apply (a check of strides, not a match). Sizes that do not fit
/// throw incompatible_sizes naming the output axis and the shapes.
[[nodiscard]] detail::tensor_base binary_by_maps(detail::binary_op op, std::string_view op_name, dtype result,
                                                 const detail::tensor_base& a, const detail::tensor_base& b,
                                                 const std::int32_t* map_a, const std::int32_t* map_b,
                                                 std::size_t rank, bool trailing);

/// `where(cond, a, b)` by the plan's maps (cond is bool, a and b of one dtype).
[[nodiscard]] detail::tensor_base where_by_maps(const detail::tensor_base& cond, const detail::tensor_base& a,
                                                const detail::tensor_base& b, const std::int32_t* map_cond,
                                                const std::int32_t* map_a, const std::int32_t* map_b,
                                                std::size_t rank);

}  // namespace nt::static_detail
