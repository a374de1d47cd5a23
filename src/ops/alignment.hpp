// The one home of an alignment's result plan, shared by the run-time matcher's path
// (elementwise.cpp) and the compile-time plans' path (static_names.cpp).
#pragma once

#include <cstddef>

#include "nt/detail/elementwise_dispatch.hpp"

namespace nt::detail {

/// The fresh result of an aligned operation: its C-order layout, names and element
/// count, and the row plan over the result and `operand_count` operands (element size 1).
void plan_result(alignment& al, std::size_t operand_count);

}  // namespace nt::detail
