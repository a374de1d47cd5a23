// half_convert.hpp (private): bulk half <-> float conversion, with the CPU's F16C
// instructions when it has them (chosen at run time: the library is built for
// plain x86-64) and the portable scalar conversions of nt/half.hpp elsewhere.
#pragma once

#include <cstddef>

#include "nt/half.hpp"

namespace nt::detail {

enum class half_path { portable, f16c };

/// True when this CPU (and OS) can run F16C code.
[[nodiscard]] bool cpu_has_f16c() noexcept;
/// The conversion path in use: f16c when the CPU has it, unless set otherwise.
[[nodiscard]] half_path get_half_path() noexcept;
/// Selects a path (for tests and benchmarks; not thread-safe against running
/// conversions). Returns false, changing nothing, when the CPU lacks F16C.
bool set_half_path(half_path path) noexcept;

/// out[i] = float(in[i]) for i < n (exact).
void halves_to_floats(const half* in, float* out, std::size_t n) noexcept;
/// out[i] = half(in[i]) for i < n (round to nearest even).
void floats_to_halves(const float* in, half* out, std::size_t n) noexcept;

}  // namespace nt::detail
