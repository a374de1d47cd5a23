// Element conversion between dtypes (assign from a tensor of another element type):
// the cast kernels, picked from the two runtime dtypes.
#include "convert.hpp"

#include <algorithm>

#include "core_errors.hpp"
#include "element_types.hpp"
#include "nt/detail/ops_kernels.hpp"

namespace nt::detail {

void convert_elements(void* dst_base, const layout& dst_layout, dtype dst_type, const void* src_base,
                      const layout& src_layout, dtype src_type) {
    if (!std::equal(dst_layout.sizes().begin(), dst_layout.sizes().end(), src_layout.sizes().begin(),
                    src_layout.sizes().end()))
        fail(errc::invalid_argument, "convert_elements",
             "destination shape " + shape_text(dst_layout.sizes()) + " differs from source shape " +
                 shape_text(src_layout.sizes()));
    if (dst_layout.element_count() == 0) return;
    visit_dtype(dst_type, [&](auto to) {
        visit_dtype(src_type, [&](auto from) {
            using To = typename decltype(to)::type;
            using From = typename decltype(from)::type;
            run_cast<To, From>(dst_layout.sizes(), static_cast<To*>(dst_base) + dst_layout.offset(),
                               dst_layout.strides(), static_cast<const From*>(src_base) + src_layout.offset(),
                               src_layout.strides());
        });
    });
}

}  // namespace nt::detail
