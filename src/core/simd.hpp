// simd.hpp (private): kernels compiled for several instruction sets with Google
// Highway (libhwy-dev) and picked when they first run (SSE4, AVX2, AVX-512, ...: the
// best the CPU has). Only simd_*.cpp files see Highway.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nt::detail {

/// dst(r, i) = src(i, r) for r < rows, i < cols, elements of `element_size` 4 or 8
/// bytes: row r of dst is contiguous in i (dst + r * dst_row bytes), row i of src is
/// contiguous in r (src + i * src_row bytes). Moves 4x4 (or 2x2) blocks through
/// registers, so every load and store is a vector. Returns false (nothing done) for
/// other element sizes.
bool transpose_block(void* dst, std::int64_t dst_row, const void* src, std::int64_t src_row, std::int64_t rows,
                     std::int64_t cols, std::size_t element_size);

/// The instruction sets this binary has kernels for and this CPU runs, best first
/// ("AVX3", "AVX2", "SSE4", ...), and the one the dispatcher picks now.
[[nodiscard]] std::vector<std::string> simd_targets();
[[nodiscard]] std::string simd_target();
/// For tests: restricts dispatch to the named target (one of simd_targets()), or with
/// "" restores the CPU's best. Throws invalid_argument for another name.
void force_simd_target(const std::string& name);

}  // namespace nt::detail
