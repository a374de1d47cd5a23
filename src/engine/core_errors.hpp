// Internal: out-of-line [[noreturn]] error helpers and message pieces shared by the
// tensor core's .cpp files.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "nt/error.hpp"
#include "nt/name.hpp"

namespace nt::detail {

/// "(2,3)".
std::string shape_text(std::span<const std::int64_t> sizes);
/// "(2,3 | N,C)" or "(2,3)" when nothing is named.
std::string spec_text(std::span<const std::int64_t> sizes, std::span<const name> names);
/// "[0,1,2]"
std::string list_text(std::span<const std::int64_t> values);

/// Throws nt::error(code, "<op>: <message>").
[[noreturn]] void fail(errc code, std::string_view op, const std::string& message);

/// Throws invalid_spec for a rank over max_rank or a negative size in `shape`.
void check_sizes(std::span<const std::int64_t> shape, std::string_view op);

}  // namespace nt::detail
