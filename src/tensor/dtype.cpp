// dtype names and the run-time promotion table.
#include "nt/dtype.hpp"

#include <array>
#include <utility>

#include <boost/hana/size.hpp>

#include "element_types.hpp"
#include "nt/promote.hpp"

namespace nt {

namespace {

namespace hana = boost::hana;

// Hana checks that its list and the dtype enumeration agree, in order and in size.
constexpr bool element_list_matches_dtypes() {
    std::size_t i = 0;
    bool ok = decltype(hana::size(detail::element_types))::value == dtype_count;
    hana::for_each(detail::element_types, [&](auto t) {
        using T = typename decltype(t)::type;
        ok = ok && static_cast<std::size_t>(dtype_of<T>) == i++ && size_of(dtype_of<T>) == sizeof(T);
    });
    return ok;
}
static_assert(element_list_matches_dtypes());
#ifdef NT_KERNEL_FILE_COUNT
static_assert(NT_KERNEL_FILE_COUNT == dtype_count,
              "src/CMakeLists.txt generated a kernel file for fewer types than NT_FOR_EACH_ELEMENT_TYPE lists: "
              "keep each X(...) line of the list on one line");
#endif

struct spelling {
    std::string_view tag, numpy;
};
constexpr std::array<spelling, dtype_count> spellings{{
#define NT_DTYPE_SPELLING(T, TAG, NAME) {#TAG, NAME},
    NT_FOR_EACH_ELEMENT_TYPE(NT_DTYPE_SPELLING)
#undef NT_DTYPE_SPELLING
}};

// promote_types(a, b) = promotion[a][b], filled from promote_t over every pair of the
// Hana list at compile time: one rule (nt/promote.hpp), two forms.
constexpr auto promotion = [] {
    std::array<std::array<dtype, dtype_count>, dtype_count> table{};
    hana::for_each(detail::element_types, [&](auto a) {
        hana::for_each(detail::element_types, [&](auto b) {
            using A = typename decltype(a)::type;
            using B = typename decltype(b)::type;
            table[static_cast<std::size_t>(dtype_of<A>)][static_cast<std::size_t>(dtype_of<B>)] =
                dtype_of<promote_t<A, B>>;
        });
    });
    return table;
}();

}  // namespace

std::string to_string(dtype d) {
    const auto i = static_cast<std::size_t>(d);
    return std::string(i < dtype_count ? spellings[i].tag : "unknown");
}

std::string_view numpy_name(dtype d) noexcept {
    const auto i = static_cast<std::size_t>(d);
    return i < dtype_count ? spellings[i].numpy : "unknown";
}

bool dtype_from_string(std::string_view text, dtype& d) noexcept {
    for (std::size_t i = 0; i < dtype_count; ++i)
        if (spellings[i].tag == text || spellings[i].numpy == text) {
            d = static_cast<dtype>(i);
            return true;
        }
    return false;
}

dtype promote_types(dtype a, dtype b) noexcept {
    const auto i = static_cast<std::size_t>(a), j = static_cast<std::size_t>(b);
    if (i >= dtype_count || j >= dtype_count) return dtype::f64;
    return promotion[i][j];
}

}  // namespace nt
