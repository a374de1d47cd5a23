// convert.hpp (private): type-converting strided copies (assign across dtypes).
#pragma once

#include "nt/dtype.hpp"
#include "nt/layout.hpp"

namespace nt::detail {

/// Copies `src` into `dst` (same sizes; throws invalid_argument otherwise) converting
/// each element as static_cast would, except that NaN becomes 0, floating values
/// saturate at an integer type's limits and any non-zero value is `true`. The regions
/// must not overlap.
void convert_elements(void* dst_base, const layout& dst_layout, dtype dst_type, const void* src_base,
                      const layout& src_layout, dtype src_type);

}  // namespace nt::detail
