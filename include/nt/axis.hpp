// nt/axis.hpp: an axis argument, given by position or by name.
//
// Every operation that takes an axis takes an nt::Axis, which converts implicitly
// from an integer (negative counts from the end) or from a name:
//
//     t.squeeze(0);  t.squeeze(-1);  t.squeeze("C");  t.squeeze(nt::name("C"));
//
// Resolving an Axis against a tensor (nt::resolve_axis in names.hpp) throws
// axis_out_of_range when the index is outside -rank..rank-1 or the name is absent.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nt/detail/list_arg.hpp"
#include "nt/name.hpp"
#include "nt/small_vector.hpp"

namespace nt {

/// An axis by index (may be negative) or by name. Cheap to copy.
class Axis {
public:
    /// By position; negative values count from the end.
    template <std::integral I>
        requires(!std::same_as<I, bool>)
    constexpr Axis(I index) noexcept : index_(static_cast<std::int64_t>(index)) {}  // NOLINT
    /// By name. Throws invalid_spec when the text is not a valid axis name.
    Axis(nt::name n) noexcept : name_(n), by_name_(true) {}                  // NOLINT
    Axis(std::string_view text) : Axis(nt::name(text)) {}                    // NOLINT
    Axis(const char* text) : Axis(nt::name(text)) {}                         // NOLINT
    Axis(const std::string& text) : Axis(nt::name(std::string_view(text))) {}  // NOLINT

    /// True when given by name.
    [[nodiscard]] constexpr bool is_name() const noexcept { return by_name_; }
    /// The index as given (meaningful when !is_name()).
    [[nodiscard]] constexpr std::int64_t index() const noexcept { return index_; }
    /// The name (meaningful when is_name()).
    [[nodiscard]] constexpr nt::name name() const noexcept { return name_; }

    /// "1", "-1" or "'C'", for messages.
    [[nodiscard]] std::string str() const;

private:
    std::int64_t index_ = 0;
    nt::name name_{};
    bool by_name_ = false;
};

/// A list of axes as a parameter: binds to `{0, "C", -1}`, to a one-element `{1}`
/// (NumPy's `axis=(1,)`), to a single axis (`0`, `"C"`, an nt::Axis), a
/// std::vector<Axis> or a span. Non-owning except for a single axis, which it holds;
/// valid for the call it is passed to.
class axes_arg : public detail::list_arg<Axis> {
public:
    using detail::list_arg<Axis>::list_arg;
    axes_arg() noexcept = default;
    // One axis binds here rather than to a separate single-axis overload: a braced
    // `{1}` would convert equally well to both, and the call would be ambiguous.
    template <class A>
        requires(std::convertible_to<const A&, Axis> && !std::same_as<A, axes_arg>)
    axes_arg(const A& axis) : one_(axis) {  // NOLINT
        values_ = std::span<const Axis>(&one_, 1);
    }
    axes_arg(const axes_arg& other) noexcept : list_arg(other), one_(other.one_) {
        if (other.holds_one()) values_ = std::span<const Axis>(&one_, 1);
    }
    axes_arg& operator=(const axes_arg& other) noexcept {
        one_ = other.one_;
        values_ = other.holds_one() ? std::span<const Axis>(&one_, 1) : other.values_;
        return *this;
    }

private:
    [[nodiscard]] bool holds_one() const noexcept { return values_.data() == &one_; }
    Axis one_{0};
};

}  // namespace nt
