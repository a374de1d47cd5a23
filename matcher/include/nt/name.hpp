// nt/name.hpp: interned axis names.
//
// A name is 1 to 64 characters of [A-Za-z_][A-Za-z0-9_]*. Names are interned in a
// process-wide table so that an axis name is a 32-bit id: matching compares
// integers, and specs stay trivially copyable. The table only grows; interning the
// same text twice gives the same id. Thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

namespace nt {

/// Maximum length of an axis name.
inline constexpr std::size_t max_name_length = 64;

/// An optional axis name: either unnamed (the default) or an interned identifier.
class name {
public:
    constexpr name() noexcept = default;
    /// Interns `text`. "?" and "" give the unnamed name. Throws nt::error
    /// (invalid_spec) when `text` is not a valid identifier of at most 64 characters.
    name(std::string_view text);  // NOLINT(google-explicit-constructor): names read naturally as strings
    name(const char* text) : name(std::string_view(text)) {}  // NOLINT

    /// Returns the name's text, or "?" when unnamed. The view stays valid for the
    /// life of the process.
    [[nodiscard]] std::string_view str() const noexcept;
    [[nodiscard]] constexpr bool has_value() const noexcept { return id_ != 0; }
    [[nodiscard]] constexpr explicit operator bool() const noexcept { return id_ != 0; }
    [[nodiscard]] constexpr std::uint32_t id() const noexcept { return id_; }

    friend constexpr bool operator==(name a, name b) noexcept { return a.id_ == b.id_; }

    /// True when `text` is a valid (non-empty) axis name.
    [[nodiscard]] static bool is_valid(std::string_view text) noexcept;

private:
    std::uint32_t id_ = 0;
};

/// The unnamed name, for readability: `nt::unnamed`.
inline constexpr name unnamed{};

}  // namespace nt
