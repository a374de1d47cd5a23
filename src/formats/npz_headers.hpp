// Internal: the .npy headers of an .npz archive's members, without their data (for
// `ntensor info`).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "npy_header.hpp"

namespace nt::detail {

/// (name without ".npy", header) per member in archive order; only each member's
/// first bytes are read (inflated). Throws as load_npz, naming `op`.
[[nodiscard]] std::vector<std::pair<std::string, npy_header>> read_npz_headers(const std::string& path,
                                                                               std::string_view op);

}  // namespace nt::detail
