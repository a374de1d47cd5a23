// dtype spellings.
#include "nt/dtype.hpp"

#include <array>
#include <utility>

#include "nt/detail/element_types.hpp"

namespace nt {

namespace {
// Hana checks that the element list and the dtype enumeration agree, in order.
constexpr bool element_list_matches_dtypes() {
    std::size_t i = 0;
    bool ok = true;
    boost::hana::for_each(detail::element_types, [&](auto t) {
        using T = typename decltype(t)::type;
        ok = ok && static_cast<std::size_t>(dtype_of<T>) == i++ && size_of(dtype_of<T>) == sizeof(T);
    });
    return ok;
}
static_assert(element_list_matches_dtypes());

constexpr std::array<std::pair<dtype, std::string_view>, 6> spellings{{
    {dtype::f32, "f32"},
    {dtype::f64, "f64"},
    {dtype::i32, "i32"},
    {dtype::i64, "i64"},
    {dtype::u8, "u8"},
    {dtype::b8, "b8"},
}};
constexpr std::array<std::pair<dtype, std::string_view>, 6> long_spellings{{
    {dtype::f32, "float32"},
    {dtype::f64, "float64"},
    {dtype::i32, "int32"},
    {dtype::i64, "int64"},
    {dtype::u8, "uint8"},
    {dtype::b8, "bool"},
}};
}  // namespace

std::string_view to_string(dtype d) noexcept {
    for (const auto& [value, text] : spellings)
        if (value == d) return text;
    return "unknown";
}

bool dtype_from_string(std::string_view text, dtype& d) noexcept {
    for (const auto* table : {&spellings, &long_spellings})
        for (const auto& [value, spelling] : *table)
            if (spelling == text) {
                d = value;
                return true;
            }
    return false;
}

}  // namespace nt
