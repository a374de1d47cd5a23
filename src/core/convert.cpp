// Element conversion between dtypes (assign from a tensor of another element type).
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core_errors.hpp"
#include "nt/detail/convert.hpp"
#include "nt/detail/element_types.hpp"

namespace nt::detail {

namespace {

// static_cast, but defined for every input: NaN becomes 0 and out-of-range floating
// values saturate when converting to an integer type.
template <class To, class From>
To convert_one(From v) {
    if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
        if (std::isnan(v)) return To(0);
        if (v <= static_cast<From>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
        if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
        return static_cast<To>(v);
    } else {
        return static_cast<To>(v);
    }
}

template <class To, class From>
void convert_typed(std::byte* dst, const layout& dl, const std::byte* src, const layout& sl) {
    if (dl.element_count() == 0) return;
    const std::size_t rank = dl.rank();
    dims idx(rank, 0);
    std::int64_t doff = dl.offset(), soff = sl.offset();
    for (;;) {
        From v;
        std::memcpy(&v, src + soff * static_cast<std::int64_t>(sizeof(From)), sizeof(From));
        const To w = convert_one<To>(v);
        std::memcpy(dst + doff * static_cast<std::int64_t>(sizeof(To)), &w, sizeof(To));
        std::size_t d = rank;
        for (;;) {
            if (d == 0) return;
            --d;
            doff += dl.stride(d);
            soff += sl.stride(d);
            if (++idx[d] < dl.size(d)) break;
            doff -= dl.size(d) * dl.stride(d);
            soff -= sl.size(d) * sl.stride(d);
            idx[d] = 0;
        }
    }
}

}  // namespace

void convert_elements(void* dst_base, const layout& dst_layout, dtype dst_type, const void* src_base,
                      const layout& src_layout, dtype src_type) {
    if (!std::equal(dst_layout.sizes().begin(), dst_layout.sizes().end(), src_layout.sizes().begin(),
                    src_layout.sizes().end()))
        fail(errc::invalid_argument, "convert_elements",
             "destination shape " + shape_text(dst_layout.sizes()) + " differs from source shape " +
                 shape_text(src_layout.sizes()));
    visit_dtype(dst_type, [&](auto to) {
        visit_dtype(src_type, [&](auto from) {
            using To = typename decltype(to)::type;
            using From = typename decltype(from)::type;
            convert_typed<To, From>(static_cast<std::byte*>(dst_base), dst_layout,
                                    static_cast<const std::byte*>(src_base), src_layout);
        });
    });
}

}  // namespace nt::detail
