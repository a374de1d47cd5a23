// The generic strided copy and fill: the single entry point for element copies in
// the tensor core (a faster engine can replace the bodies behind the same calls).
#include "nt/detail/copy.hpp"

#include <cstring>

#include "core_errors.hpp"

namespace nt::detail {

namespace {

// Copies `n` elements of `Size` bytes with element strides `ds` and `ss`.
template <std::size_t Size>
void copy_run(std::byte* d, std::int64_t ds, const std::byte* s, std::int64_t ss, std::int64_t n) {
    if (ds == 1 && ss == 1) {
        std::memcpy(d, s, static_cast<std::size_t>(n) * Size);
        return;
    }
    const std::int64_t dstep = ds * static_cast<std::int64_t>(Size);
    const std::int64_t sstep = ss * static_cast<std::int64_t>(Size);
    for (std::int64_t i = 0; i < n; ++i, d += dstep, s += sstep) std::memcpy(d, s, Size);
}

void copy_run_any(std::byte* d, std::int64_t ds, const std::byte* s, std::int64_t ss, std::int64_t n,
                  std::size_t size) {
    switch (size) {
        case 1: return copy_run<1>(d, ds, s, ss, n);
        case 2: return copy_run<2>(d, ds, s, ss, n);
        case 4: return copy_run<4>(d, ds, s, ss, n);
        case 8: return copy_run<8>(d, ds, s, ss, n);
        default: break;
    }
    if (ds == 1 && ss == 1) {
        std::memcpy(d, s, static_cast<std::size_t>(n) * size);
        return;
    }
    const auto es = static_cast<std::int64_t>(size);
    for (std::int64_t i = 0; i < n; ++i) std::memcpy(d + i * ds * es, s + i * ss * es, size);
}

// Walks the index space of `sizes` (rank >= 1) calling run(dst_off, src_off, n) for
// every run along the last axis; offsets in elements.
template <class Run>
void walk(std::span<const std::int64_t> sizes, std::span<const std::int64_t> a_strides, std::int64_t a_off,
          std::span<const std::int64_t> b_strides, std::int64_t b_off, Run run) {
    const std::size_t rank = sizes.size();
    if (rank == 0) {
        run(a_off, b_off, 1, 1, 1);
        return;
    }
    const std::int64_t n = sizes[rank - 1];
    dims idx(rank, 0);
    for (;;) {
        run(a_off, b_off, n, a_strides[rank - 1], b_strides[rank - 1]);
        std::size_t d = rank - 1;
        for (;;) {
            if (d == 0) return;
            --d;
            ++idx[d];
            a_off += a_strides[d];
            b_off += b_strides[d];
            if (idx[d] < sizes[d]) break;
            a_off -= sizes[d] * a_strides[d];
            b_off -= sizes[d] * b_strides[d];
            idx[d] = 0;
        }
    }
}

// Drops size-1 axes and merges axes contiguous in both operands.
void simplify(const layout& a, const layout* b, dims& sizes, dims& as, dims& bs) {
    for (std::size_t i = 0; i < a.rank(); ++i) {
        if (a.size(i) == 1) continue;
        const std::int64_t sa = a.stride(i), sb = b ? b->stride(i) : 0;
        if (!sizes.empty() && as.back() == sa * a.size(i) && bs.back() == sb * a.size(i)) {
            sizes.back() *= a.size(i);
            as.back() = sa;
            bs.back() = sb;
            continue;
        }
        sizes.push_back(a.size(i));
        as.push_back(sa);
        bs.push_back(sb);
    }
}

}  // namespace

void copy_elements(void* dst_base, const layout& dst_layout, const void* src_base, const layout& src_layout,
                   std::size_t element_size) {
    if (!std::equal(dst_layout.sizes().begin(), dst_layout.sizes().end(), src_layout.sizes().begin(),
                    src_layout.sizes().end()))
        fail(errc::invalid_argument, "copy_elements",
             "destination shape " + shape_text(dst_layout.sizes()) + " differs from source shape " +
                 shape_text(src_layout.sizes()) + "; broadcast the source first");
    if (dst_layout.element_count() == 0) return;
    dims sizes, ds, ss;
    simplify(dst_layout, &src_layout, sizes, ds, ss);
    auto* d = static_cast<std::byte*>(dst_base);
    const auto* s = static_cast<const std::byte*>(src_base);
    const auto es = static_cast<std::int64_t>(element_size);
    walk(sizes.span(), ds.span(), dst_layout.offset(), ss.span(), src_layout.offset(),
         [&](std::int64_t doff, std::int64_t soff, std::int64_t n, std::int64_t dstr, std::int64_t sstr) {
             copy_run_any(d + doff * es, dstr, s + soff * es, sstr, n, element_size);
         });
}

void fill_elements(void* dst_base, const layout& dst_layout, const void* value, std::size_t element_size) {
    if (dst_layout.element_count() == 0) return;
    dims sizes, ds, unused;
    simplify(dst_layout, nullptr, sizes, ds, unused);
    auto* d = static_cast<std::byte*>(dst_base);
    const auto* v = static_cast<const std::byte*>(value);
    const auto es = static_cast<std::int64_t>(element_size);
    walk(sizes.span(), ds.span(), dst_layout.offset(), unused.span(), 0,
         [&](std::int64_t doff, std::int64_t, std::int64_t n, std::int64_t dstr, std::int64_t) {
             copy_run_any(d + doff * es, dstr, v, 0, n, element_size);
         });
}

}  // namespace nt::detail
