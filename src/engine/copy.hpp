// copy.hpp (private): the one type-erased entry point for strided element copies.
//
// Every copy the tensor core makes (clone, contiguous, reshape copies, assign,
// to_vector) goes through copy_elements, and every fill through fill_elements, so a
// faster engine can be swapped in behind these two calls.
#pragma once

#include <cstddef>

#include "nt/layout.hpp"

namespace nt::detail {

/// Copies every element of `src` (elements at src_base + offsets of src_layout) to
/// the element at the same index of `dst`. The layouts must have the same sizes
/// (throws invalid_argument otherwise); the two regions must not overlap (callers
/// copy the source first when they might). `element_size` is in bytes.
void copy_elements(void* dst_base, const layout& dst_layout, const void* src_base, const layout& src_layout,
                   std::size_t element_size);

/// Writes the `element_size` bytes at `value` to every element of `dst_layout`.
void fill_elements(void* dst_base, const layout& dst_layout, const void* value, std::size_t element_size);

}  // namespace nt::detail
