// vector_sort.hpp (private): ascending sorts of 32- and 64-bit keys by Highway's
// vqsort, which picks SSE4, AVX2 or AVX-512 code when it runs; it beat an LSD radix
// sort and NumPy's sort (figures: docs/performance.md, "Figures behind the engine's
// thresholds"). Only vector_sort.cpp sees Highway.
#pragma once

#include <cstdint>

namespace nt::detail {

/// Sorts keys[0, n) ascending; equal keys in any order. Floats must be finite: vqsort
/// 1.0.3 pads with infinity and misplaces real infinities (and NaN).
void vector_sort(float* keys, std::int64_t n);
void vector_sort(double* keys, std::int64_t n);
void vector_sort(std::int32_t* keys, std::int64_t n);
void vector_sort(std::int64_t* keys, std::int64_t n);
void vector_sort(std::uint32_t* keys, std::int64_t n);
void vector_sort(std::uint64_t* keys, std::int64_t n);

/// A 128-bit key ordered by `hi`, then `lo` (Highway's uint128_t: the same layout).
struct alignas(16) key128 {
    std::uint64_t lo;
    std::uint64_t hi;
};
/// Sorts keys[0, n) ascending by (hi, lo).
void vector_sort(key128* keys, std::int64_t n);

}  // namespace nt::detail
