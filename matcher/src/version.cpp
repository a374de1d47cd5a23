#include "nt/version.hpp"

namespace nt {
std::string_view version() noexcept { return NT_VERSION_STRING; }
}  // namespace nt
