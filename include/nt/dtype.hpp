// nt/dtype.hpp: the element types a tensor may hold, as a runtime tag.
//
//     static_assert(nt::dtype_of<float> == nt::dtype::f32);
//     nt::to_string(nt::dtype::i64);   // "i64"
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace nt {

/// The runtime tag of a tensor's element type.
enum class dtype : std::uint8_t {
    f32,  ///< float
    f64,  ///< double
    i32,  ///< std::int32_t
    i64,  ///< std::int64_t
    u8,   ///< std::uint8_t
    b8,   ///< bool (one byte)
};

/// True for the element types nt::Tensor supports: float, double, std::int32_t,
/// std::int64_t, std::uint8_t and bool (cv-unqualified).
template <class T>
concept element =
    std::same_as<T, float> || std::same_as<T, double> || std::same_as<T, std::int32_t> ||
    std::same_as<T, std::int64_t> || std::same_as<T, std::uint8_t> || std::same_as<T, bool>;

namespace detail {
template <element T>
consteval dtype dtype_of_impl() {
    if constexpr (std::same_as<T, float>) return dtype::f32;
    else if constexpr (std::same_as<T, double>) return dtype::f64;
    else if constexpr (std::same_as<T, std::int32_t>) return dtype::i32;
    else if constexpr (std::same_as<T, std::int64_t>) return dtype::i64;
    else if constexpr (std::same_as<T, std::uint8_t>) return dtype::u8;
    else return dtype::b8;
}
}  // namespace detail

/// The tag of element type T (a compile error for unsupported types).
template <element T>
inline constexpr dtype dtype_of = detail::dtype_of_impl<T>();

/// "f32", "f64", "i32", "i64", "u8" or "b8".
[[nodiscard]] std::string_view to_string(dtype d) noexcept;

/// Parses a spelling produced by to_string (also "float32", "float64", "int32",
/// "int64", "uint8", "bool"); returns false if unknown.
[[nodiscard]] bool dtype_from_string(std::string_view text, dtype& d) noexcept;

/// Size of one element in bytes.
[[nodiscard]] constexpr std::size_t size_of(dtype d) noexcept {
    switch (d) {
        case dtype::f32: return sizeof(float);
        case dtype::f64: return sizeof(double);
        case dtype::i32: return sizeof(std::int32_t);
        case dtype::i64: return sizeof(std::int64_t);
        case dtype::u8: return sizeof(std::uint8_t);
        case dtype::b8: return sizeof(bool);
    }
    return 1;
}

}  // namespace nt
