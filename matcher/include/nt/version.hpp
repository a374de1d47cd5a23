// nt/version.hpp: the library version.
#pragma once

#include <string_view>

#define NT_VERSION_MAJOR 0
#define NT_VERSION_MINOR 1
#define NT_VERSION_PATCH 0
#define NT_VERSION_STRING "0.1.0"

namespace nt {
/// The version of the compiled library, e.g. "0.1.0".
[[nodiscard]] std::string_view version() noexcept;
}  // namespace nt
