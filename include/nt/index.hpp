// nt/index.hpp: index arguments for Tensor::index and element orders.
//
//     t.index(nt::all, 1);                        // column 1 (drops axis 1)
//     t.index(nt::range(1, 4, 2), -1);            // rows 1 and 3 of the last column
//     t.index(nt::range(std::nullopt, std::nullopt, -1));   // reversed (Python [::-1])
#pragma once

#include <cstdint>
#include <optional>

#include "nt/axis.hpp"

namespace nt {

/// Keeps a whole axis (Python `:`). Called as a function, `nt::all` is also the
/// reduction "every element is true" (defined in <nt/reduce.hpp>):
///     t.index(nt::all, 1);   nt::all(mask);   nt::all(mask, "H", true);
struct all_t {
    explicit constexpr all_t() = default;
    template <class Tensor>
    auto operator()(const Tensor& t) const;
    template <class Tensor>
    auto operator()(const Tensor& t, axes_arg axes, bool keepdims = false) const;
};
/// Keeps a whole axis (Python `:`).
inline constexpr all_t all{};

/// A Python slice `start:stop:step` that keeps its axis. Omitted bounds default as
/// in Python (to the start or end, depending on the sign of step); negative bounds
/// count from the end; out-of-range bounds are clamped. Note that one argument is the
/// start (`nt::range(2)` is `2:`), unlike Python's `slice(2)`. A step of 0 throws
/// invalid_argument when applied.
struct range {
    std::optional<std::int64_t> start;
    std::optional<std::int64_t> stop;
    std::int64_t step = 1;

    constexpr range(std::optional<std::int64_t> start_ = std::nullopt, std::optional<std::int64_t> stop_ = std::nullopt,
                    std::int64_t step_ = 1) noexcept
        : start(start_), stop(stop_), step(step_) {}
};

/// A range resolved against an axis of `size` elements (Python's slice.indices).
struct resolved_range {
    std::int64_t start = 0;
    std::int64_t count = 0;
    std::int64_t step = 1;
};

/// Resolves `r` for an axis of `size` elements. Throws invalid_argument if the step
/// is 0, naming `op`.
[[nodiscard]] resolved_range resolve_range(const range& r, std::int64_t size, const char* op = "slice");

/// The order in which elements are read and written by reshape: C (row-major, last
/// index fastest) or Fortran (column-major, first index fastest), by index, not memory.
enum class order : std::uint8_t { c, fortran };

}  // namespace nt
