// nt/spec.hpp: shape specs, the matcher's only input: sizes with optional names.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

#include "nt/name.hpp"
#include "nt/small_vector.hpp"

namespace nt {

/// Largest rank a spec (and a tensor) may have.
inline constexpr std::size_t max_rank = 64;

/// One axis: a size (>= 0) and an optional name.
struct axis_spec {
    std::int64_t size = 0;
    nt::name name{};
    friend bool operator==(const axis_spec&, const axis_spec&) = default;
};

/// An ordered list of axes: the shape and names of one tensor. Rank 0 is a scalar.
/// Rank <= 8 is stored inline.
class spec {
public:
    spec() = default;
    /// All axes unnamed.
    spec(std::initializer_list<std::int64_t> sizes);
    explicit spec(std::span<const std::int64_t> sizes);
    /// Sizes with names; `names` must be empty (all unnamed) or as long as `sizes`.
    /// Throws invalid_spec (length, negative size) or duplicate_name.
    spec(std::span<const std::int64_t> sizes, std::span<const nt::name> names);
    spec(std::initializer_list<std::int64_t> sizes, std::initializer_list<nt::name> names);

    [[nodiscard]] std::size_t rank() const noexcept { return axes_.size(); }
    [[nodiscard]] const axis_spec& operator[](std::size_t i) const noexcept { return axes_[i]; }
    [[nodiscard]] const axis_spec* begin() const noexcept { return axes_.begin(); }
    [[nodiscard]] const axis_spec* end() const noexcept { return axes_.end(); }
    [[nodiscard]] std::int64_t size(std::size_t i) const noexcept { return axes_[i].size; }
    [[nodiscard]] nt::name name(std::size_t i) const noexcept { return axes_[i].name; }
    [[nodiscard]] dims sizes() const;
    [[nodiscard]] bool has_names() const noexcept;
    /// Position of `n`, or -1.
    [[nodiscard]] std::int64_t find(nt::name n) const noexcept;

    /// Appends an axis without checking (see validate()).
    void push_back(axis_spec axis) { axes_.push_back(axis); }
    /// Rank 0 again, keeping the storage (for specs reused across calls).
    void clear() noexcept { axes_.clear(); }
    /// Throws invalid_spec (negative size, rank over max_rank) or duplicate_name.
    /// `what` names the spec in the message (e.g. "input 1 'lbl'"). Sizes < 0 that
    /// `unknown_sizes` names are allowed (see match_options::unknown_sizes).
    void validate(std::string_view what = "spec", std::span<const std::string> unknown_sizes = {}) const;

    friend bool operator==(const spec&, const spec&) = default;

private:
    small_vector<axis_spec, 8> axes_;
};

/// Parses "(10,3,256,384 | ?,CHANNEL,H,W)", "(2,3)", "()" or "2 3". Throws parse_error
/// for malformed text, invalid_spec / duplicate_name for bad content.
[[nodiscard]] spec parse_spec(std::string_view text);

/// Parses the names form "? CHANNEL H W" (space separated, `?` for unnamed).
/// Throws invalid_spec for a bad name.
[[nodiscard]] small_vector<name, 8> parse_names(std::string_view text);

/// "(10,3,256,384 | ?,CHANNEL,H,W)", or "(2,3)" when no axis is named, "()" for rank 0.
/// A size s < 0 prints as unknown_sizes[-1 - s] when there is one (sizes of a
/// pipeline config not known yet, see match_options::unknown_sizes).
[[nodiscard]] std::string to_string(const spec& s, std::span<const std::string> unknown_sizes = {});
/// "? CHANNEL H W" ("" for rank 0).
[[nodiscard]] std::string names_string(const spec& s);
/// "(2,3,4)"; unknown sizes as in to_string.
[[nodiscard]] std::string shape_string(std::span<const std::int64_t> sizes,
                                       std::span<const std::string> unknown_sizes = {});
/// One size as text: the number, or unknown_sizes[-1 - size] for a size < 0.
[[nodiscard]] std::string size_text(std::int64_t size, std::span<const std::string> unknown_sizes = {});
/// to_string of the spec with these sizes and names (one name per size, or none),
/// without building it: the one home of the "(2,3 | N,C)" format.
[[nodiscard]] std::string spec_string(std::span<const std::int64_t> sizes, std::span<const name> names,
                                      std::span<const std::string> unknown_sizes = {});

std::ostream& operator<<(std::ostream& os, const spec& s);

}  // namespace nt
