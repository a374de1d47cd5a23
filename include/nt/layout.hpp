// nt/layout.hpp: the name-agnostic strided layout of a tensor (kokkos/mdspan's
// layout_stride): sizes, strides in elements (any sign, 0 for broadcast axes) and an
// offset in elements from the start of the storage. Element (i0, .., in) lives at
// offset + sum(ik * stride(k)).
//
// The transforms below build the layouts of views; they do not validate their
// arguments (the tensor layer does, with messages). Queries are exact except
// has_self_overlap, which is conservative.
//
//     auto l = nt::layout::c_contiguous(std::array<std::int64_t, 2>{2, 3});
//     l.strides();            // {3, 1}
//     l.permuted({1, 0});     // sizes {3, 2}, strides {1, 3}
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "nt/detail/list_arg.hpp"
#include "nt/small_vector.hpp"

namespace nt {

/// A shape (or strides, or positions) as a parameter: binds to `{2, 3}`, a
/// std::vector<std::int64_t>, nt::dims or a span. Non-owning; valid for the call it
/// is passed to.
using shape_arg = detail::list_arg<std::int64_t>;

/// Sizes, strides (elements) and offset (elements) of a strided array.
class layout {
public:
    /// Rank 0 (one element) at offset 0.
    layout() = default;
    /// Throws invalid_argument if the lengths differ or a size is negative.
    layout(std::span<const std::int64_t> sizes, std::span<const std::int64_t> strides, std::int64_t offset = 0);

    /// Row-major (C order) layout: the last index varies fastest.
    [[nodiscard]] static layout c_contiguous(std::span<const std::int64_t> sizes, std::int64_t offset = 0);
    /// Column-major (Fortran order) layout: the first index varies fastest.
    [[nodiscard]] static layout f_contiguous(std::span<const std::int64_t> sizes, std::int64_t offset = 0);

    [[nodiscard]] std::size_t rank() const noexcept { return sizes_.size(); }
    [[nodiscard]] std::int64_t size(std::size_t i) const noexcept { return sizes_[i]; }
    [[nodiscard]] std::int64_t stride(std::size_t i) const noexcept { return strides_[i]; }
    [[nodiscard]] std::int64_t offset() const noexcept { return offset_; }
    [[nodiscard]] std::span<const std::int64_t> sizes() const noexcept { return sizes_.span(); }
    [[nodiscard]] std::span<const std::int64_t> strides() const noexcept { return strides_.span(); }

    /// Product of the sizes (1 for rank 0).
    [[nodiscard]] std::int64_t element_count() const noexcept;
    /// C-contiguous: the elements fill [offset, offset + count) in row-major order.
    /// Strides of size-1 axes are ignored and a zero-size layout is contiguous (NumPy).
    [[nodiscard]] bool is_contiguous() const noexcept;
    /// Fortran-contiguous, in the same relaxed sense.
    [[nodiscard]] bool is_f_contiguous() const noexcept;

    /// Smallest and largest reachable offsets; `empty` when no element is reachable.
    struct span_bounds {
        std::int64_t min = 0;
        std::int64_t max = -1;
        bool empty = true;
    };
    [[nodiscard]] span_bounds required_span() const noexcept;
    /// max - min + 1 of the reachable offsets, 0 when empty.
    [[nodiscard]] std::int64_t required_span_size() const noexcept;
    /// True when two index tuples might reach the same offset. Exact for stride 0
    /// (size > 1) and for layouts whose sorted |strides| nest; may report overlap for
    /// some interleaved layouts that have none (conservative).
    [[nodiscard]] bool has_self_overlap() const noexcept;

    /// offset + sum(index[k] * stride(k)); no checks.
    [[nodiscard]] std::int64_t offset_of(std::span<const std::int64_t> index) const noexcept;

    // --- view transforms (no validation) -------------------------------------------

    /// Axis k of the result is axis order[k] of this layout.
    [[nodiscard]] layout permuted(std::span<const std::int64_t> order) const;
    /// Keeps `count` elements of `axis` from `start` every `step` (any sign); when
    /// count is 0 the offset is left as it is, and below 2 the stride too.
    [[nodiscard]] layout sliced(std::size_t axis, std::int64_t start, std::int64_t count, std::int64_t step) const;
    /// Fixes `axis` at `index` and drops it.
    [[nodiscard]] layout indexed(std::size_t axis, std::int64_t index) const;
    /// Inserts an axis of `size` and `stride` before position `pos` (0..rank).
    [[nodiscard]] layout inserted(std::size_t pos, std::int64_t size, std::int64_t stride) const;
    /// Drops `axis` (meant for size-1 axes; the offset is unchanged).
    [[nodiscard]] layout removed(std::size_t axis) const;
    /// Same sizes and strides at another offset.
    [[nodiscard]] layout with_offset(std::int64_t offset) const;

    friend bool operator==(const layout&, const layout&) = default;

private:
    dims sizes_;
    dims strides_;
    std::int64_t offset_ = 0;
};

/// Row-major strides for `sizes` (the stride of a size-0 or size-1 axis is still the
/// product of the sizes after it, as NumPy computes it, with 0 sizes counted as 1).
[[nodiscard]] dims c_strides(std::span<const std::int64_t> sizes);
/// Column-major strides for `sizes`.
[[nodiscard]] dims f_strides(std::span<const std::int64_t> sizes);

/// Strides that view `from` with the sizes `new_sizes` (same element count) without
/// copying, reading and writing elements in C order (`fortran` false) or Fortran
/// order, or nullopt when that needs a copy. NumPy's _attempt_nocopy_reshape, plus
/// the contiguous and zero-size cases NumPy handles before calling it.
[[nodiscard]] std::optional<dims> reshape_strides(const layout& from, std::span<const std::int64_t> new_sizes,
                                                  bool fortran = false);

/// Product of `sizes`, or nullopt on a negative size or when the product of the
/// non-zero sizes overflows int64 (NumPy refuses such shapes even with a 0 among them).
[[nodiscard]] std::optional<std::int64_t> checked_element_count(std::span<const std::int64_t> sizes) noexcept;

}  // namespace nt
