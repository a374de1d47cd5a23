// nt::layout: queries, view transforms and the no-copy reshape (NumPy's
// _attempt_nocopy_reshape).
#include "nt/layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include <range/v3/algorithm/sort.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/zip.hpp>

#include "core_errors.hpp"

namespace nt {

std::optional<std::int64_t> checked_element_count(std::span<const std::int64_t> sizes) noexcept {
    // NumPy's rule: the product of the non-zero sizes must fit even when another size
    // is 0, so that every stride of such a shape is representable too.
    std::int64_t count = 1;
    bool zero = false;
    for (std::int64_t s : sizes) {
        if (s < 0) return std::nullopt;
        if (s == 0) {
            zero = true;
            continue;
        }
        if (__builtin_mul_overflow(count, s, &count)) return std::nullopt;
    }
    return zero ? 0 : count;
}

layout::layout(std::span<const std::int64_t> sizes, std::span<const std::int64_t> strides, std::int64_t offset)
    : sizes_(sizes), strides_(strides), offset_(offset) {
    if (sizes.size() != strides.size())
        detail::fail(errc::invalid_argument, "layout",
                     std::to_string(sizes.size()) + " sizes but " + std::to_string(strides.size()) +
                         " strides; give one stride per axis");
    for (std::size_t i = 0; i < sizes.size(); ++i)
        if (sizes[i] < 0)
            detail::fail(errc::invalid_argument, "layout",
                         "size " + std::to_string(sizes[i]) + " of axis " + std::to_string(i) +
                             " is negative; sizes must be >= 0");
}

dims c_strides(std::span<const std::int64_t> sizes) {
    dims strides(sizes.size(), 0);
    // Unsigned: exact for every shape checked_element_count accepts, and no undefined
    // behaviour for one it would refuse.
    std::uint64_t s = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i] = static_cast<std::int64_t>(s);
        s *= static_cast<std::uint64_t>(std::max<std::int64_t>(sizes[i], 1));
    }
    return strides;
}

dims f_strides(std::span<const std::int64_t> sizes) {
    dims strides(sizes.size(), 0);
    std::uint64_t s = 1;  // unsigned, as in c_strides
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        strides[i] = static_cast<std::int64_t>(s);
        s *= static_cast<std::uint64_t>(std::max<std::int64_t>(sizes[i], 1));
    }
    return strides;
}

layout layout::c_contiguous(std::span<const std::int64_t> sizes, std::int64_t offset) {
    const dims strides = c_strides(sizes);
    return layout(sizes, strides.span(), offset);
}

layout layout::f_contiguous(std::span<const std::int64_t> sizes, std::int64_t offset) {
    const dims strides = f_strides(sizes);
    return layout(sizes, strides.span(), offset);
}

std::int64_t layout::element_count() const noexcept {
    // Unsigned, so a zero size anywhere gives 0 without the other sizes' product
    // overflowing first ((MAX, MAX, 0)); exact for every shape the library accepts.
    std::uint64_t n = 1;
    for (std::int64_t s : sizes_) n *= static_cast<std::uint64_t>(s);
    return static_cast<std::int64_t>(n);
}

bool layout::is_contiguous() const noexcept {
    if (element_count() == 0) return true;
    std::int64_t expected = 1;
    for (std::size_t i = rank(); i-- > 0;) {
        if (sizes_[i] == 1) continue;
        if (strides_[i] != expected) return false;
        expected *= sizes_[i];
    }
    return true;
}

bool layout::is_f_contiguous() const noexcept {
    if (element_count() == 0) return true;
    std::int64_t expected = 1;
    for (std::size_t i = 0; i < rank(); ++i) {
        if (sizes_[i] == 1) continue;
        if (strides_[i] != expected) return false;
        expected *= sizes_[i];
    }
    return true;
}

layout::span_bounds layout::required_span() const noexcept {
    span_bounds b;
    if (element_count() == 0) return b;
    b.min = b.max = offset_;
    for (std::size_t i = 0; i < rank(); ++i) {
        const std::int64_t reach = (sizes_[i] - 1) * strides_[i];
        if (reach < 0) b.min += reach;
        else b.max += reach;
    }
    b.empty = false;
    return b;
}

std::int64_t layout::required_span_size() const noexcept {
    const span_bounds b = required_span();
    return b.empty ? 0 : b.max - b.min + 1;
}

bool layout::has_self_overlap() const noexcept {
    if (element_count() <= 1) return false;
    // Axes that move (size > 1), by |stride|. Each stride must exceed the largest
    // offset reachable with the smaller ones; then every index tuple has its own offset.
    struct moving {
        std::int64_t stride;  // |stride|
        std::int64_t size;
    };
    small_vector<moving, 8> axes;
    for (auto [size, stride] : ranges::views::zip(sizes_, strides_)) {
        if (size <= 1) continue;
        if (stride == 0) return true;
        axes.push_back({std::abs(stride), size});
    }
    ranges::sort(axes, {}, &moving::stride);
    std::int64_t reach = 0;
    for (const moving& m : axes) {
        if (m.stride <= reach) return true;
        reach += m.stride * (m.size - 1);
    }
    return false;
}

std::int64_t layout::offset_of(std::span<const std::int64_t> index) const noexcept {
    std::int64_t off = offset_;
    for (std::size_t i = 0; i < index.size() && i < rank(); ++i) off += index[i] * strides_[i];
    return off;
}

layout layout::permuted(std::span<const std::int64_t> order) const {
    layout out;
    out.offset_ = offset_;
    for (std::int64_t k : order) {
        out.sizes_.push_back(sizes_[static_cast<std::size_t>(k)]);
        out.strides_.push_back(strides_[static_cast<std::size_t>(k)]);
    }
    return out;
}

layout layout::sliced(std::size_t axis, std::int64_t start, std::int64_t count, std::int64_t step) const {
    layout out = *this;
    if (count > 0) out.offset_ += start * strides_[axis];
    out.sizes_[axis] = count;
    // With fewer than two elements the stride is never used; keeping it avoids
    // overflowing on huge steps.
    if (count > 1) out.strides_[axis] = strides_[axis] * step;
    return out;
}

layout layout::indexed(std::size_t axis, std::int64_t index) const {
    layout out = *this;
    out.offset_ += index * strides_[axis];
    out.sizes_.erase(out.sizes_.begin() + axis);
    out.strides_.erase(out.strides_.begin() + axis);
    return out;
}

layout layout::inserted(std::size_t pos, std::int64_t size, std::int64_t stride) const {
    layout out = *this;
    out.sizes_.insert(out.sizes_.begin() + pos, size);
    out.strides_.insert(out.strides_.begin() + pos, stride);
    return out;
}

layout layout::removed(std::size_t axis) const {
    layout out = *this;
    out.sizes_.erase(out.sizes_.begin() + axis);
    out.strides_.erase(out.strides_.begin() + axis);
    return out;
}

layout layout::with_offset(std::int64_t offset) const {
    layout out = *this;
    out.offset_ = offset;
    return out;
}

std::optional<dims> reshape_strides(const layout& from, std::span<const std::int64_t> new_sizes, bool fortran) {
    // NumPy first: a layout contiguous in the requested order (or of zero size) is
    // viewed with the contiguous strides of the new shape.
    if (from.element_count() == 0 || (fortran ? from.is_f_contiguous() : from.is_contiguous()))
        return fortran ? f_strides(new_sizes) : c_strides(new_sizes);

    // _attempt_nocopy_reshape: drop size-1 axes (their strides do not matter), then
    // match runs of old axes with runs of new axes of equal product, requiring each old
    // run to be contiguous in the requested order.
    dims old_sizes, old_strides;
    for (auto [size, stride] : ranges::views::zip(from.sizes(), from.strides()) |
                                   ranges::views::filter([](auto p) { return std::get<0>(p) != 1; })) {
        old_sizes.push_back(size);
        old_strides.push_back(stride);
    }
    const std::size_t oldnd = old_sizes.size();
    const std::size_t newnd = new_sizes.size();
    dims new_strides(newnd, 0);

    std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        std::int64_t np = new_sizes[ni];
        std::int64_t op = old_sizes[oi];
        while (np != op) {
            if (np < op) {
                if (nj >= newnd) return std::nullopt;  // cannot happen for equal counts
                np *= new_sizes[nj++];
            } else {
                if (oj >= oldnd) return std::nullopt;
                op *= old_sizes[oj++];
            }
        }
        for (std::size_t ok = oi; ok + 1 < oj; ++ok) {
            if (fortran) {
                if (old_strides[ok + 1] != old_sizes[ok] * old_strides[ok]) return std::nullopt;
            } else {
                if (old_strides[ok] != old_sizes[ok + 1] * old_strides[ok + 1]) return std::nullopt;
            }
        }
        if (fortran) {
            new_strides[ni] = old_strides[oi];
            for (std::size_t nk = ni + 1; nk < nj; ++nk) new_strides[nk] = new_strides[nk - 1] * new_sizes[nk - 1];
        } else {
            new_strides[nj - 1] = old_strides[oj - 1];
            for (std::size_t nk = nj - 1; nk > ni; --nk) new_strides[nk - 1] = new_strides[nk] * new_sizes[nk];
        }
        ni = nj++;
        oi = oj++;
    }
    // Trailing size-1 axes of the new shape.
    std::int64_t last_stride = ni >= 1 ? new_strides[ni - 1] : 1;
    if (fortran && ni >= 1) last_stride *= new_sizes[ni - 1];
    for (std::size_t nk = ni; nk < newnd; ++nk) new_strides[nk] = last_stride;
    return new_strides;
}

}  // namespace nt
