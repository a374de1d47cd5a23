// nt/detail/list_arg.hpp: the one class behind every list parameter of the API:
//   nt::shape_arg       list_arg<std::int64_t>   (nt/layout.hpp)
//   nt::names_arg       list_arg<nt::name>       (nt/names.hpp)
//   nt::axes_arg        list_arg<nt::Axis>, plus one axis held by value (nt/axis.hpp)
//   nt::axis_pairs      list_arg<nt::axis_pair>  (nt/linalg.hpp)
//   nt::sizes_arg       list_arg<nt::axis_size>  (nt/rearrange.hpp)
//   nt::pad_widths_arg  list_arg<nt::pad_width>  (nt/structure.hpp)
// The public names are aliases (axes_arg a class derived from it); callers spell
// those.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <vector>

#include "nt/small_vector.hpp"

namespace nt::detail {

/// A list of T as a parameter: binds to a braced list `{a, b}`, a std::vector<T>, an
/// nt::small_vector<T, N> or a span; empty by default. Non-owning: valid for the call
/// it is passed to (a braced list lives until the end of the full expression).
template <class T>
class list_arg {
public:
    list_arg() noexcept = default;
    list_arg(std::initializer_list<T> values) noexcept : values_(values.begin(), values.size()) {}  // NOLINT
    list_arg(std::span<const T> values) noexcept : values_(values) {}                             // NOLINT
    list_arg(const std::vector<T>& values) noexcept : values_(values) {}                          // NOLINT
    template <std::size_t N>
    list_arg(const small_vector<T, N>& values) noexcept : values_(values.data(), values.size()) {}  // NOLINT

    [[nodiscard]] std::span<const T> span() const noexcept { return values_; }
    [[nodiscard]] std::size_t size() const noexcept { return values_.size(); }
    [[nodiscard]] bool empty() const noexcept { return values_.empty(); }
    [[nodiscard]] const T& operator[](std::size_t i) const noexcept { return values_[i]; }
    [[nodiscard]] const T* begin() const noexcept { return values_.data(); }
    [[nodiscard]] const T* end() const noexcept { return values_.data() + values_.size(); }

protected:
    std::span<const T> values_;
};

}  // namespace nt::detail
