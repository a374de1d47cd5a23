// The tensor core's element copies and fills, on the element-wise engine (axis
// merging, cache blocking for transposed operands, threads for large work).
#include "copy.hpp"

#include <algorithm>

#include "engine.hpp"

#include "core_errors.hpp"

namespace nt::detail {

void copy_elements(void* dst_base, const layout& dst_layout, const void* src_base, const layout& src_layout,
                   std::size_t element_size) {
    if (!std::equal(dst_layout.sizes().begin(), dst_layout.sizes().end(), src_layout.sizes().begin(),
                    src_layout.sizes().end()))
        fail(errc::invalid_argument, "copy_elements",
             "destination shape " + shape_text(dst_layout.sizes()) + " differs from source shape " +
                 shape_text(src_layout.sizes()) + "; broadcast the source first");
    if (dst_layout.element_count() == 0) return;
    const auto es = static_cast<std::int64_t>(element_size);
    copy_strided(static_cast<std::byte*>(dst_base) + dst_layout.offset() * es, dst_layout.strides(),
                 static_cast<const std::byte*>(src_base) + src_layout.offset() * es, src_layout.strides(),
                 dst_layout.sizes(), element_size);
}

void fill_elements(void* dst_base, const layout& dst_layout, const void* value, std::size_t element_size) {
    if (dst_layout.element_count() == 0) return;
    const auto es = static_cast<std::int64_t>(element_size);
    fill_strided(static_cast<std::byte*>(dst_base) + dst_layout.offset() * es, dst_layout.strides(),
                 dst_layout.sizes(), value, element_size);
}

}  // namespace nt::detail
