// label: connected components numbered as scipy.ndimage.label numbers them.
//
// One raster scan, a run of foreground along the last axis at a time, gives each run
// the provisional label of an earlier neighbour (or a new one) and records in a
// union-find forest that the labels of its earlier neighbours belong together; a
// second pass replaces each provisional label by its component's final number.
// Linear time. fill_holes labels the background with the same scan (components()). The union always links the larger
// root under the smaller, so a component's root is the provisional label of its first
// element in raster order (that element has no earlier neighbour in the component and
// so opened the smallest of its labels): numbering the roots in increasing order is
// numbering the components by their first element, scipy's order.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "morph_common.hpp"
#include "nt/error.hpp"
#include "nt/morphology.hpp"

namespace nt::detail {

namespace {

using imaging::morph::plan;

struct forest {
    std::vector<std::int32_t> parent{0};  // label 0 is the background

    std::int32_t find(std::int32_t a) {
        while (parent[a] != a) {
            parent[a] = parent[parent[a]];  // path halving
            a = parent[a];
        }
        return a;
    }
    // Joins the sets of a and b and returns the smaller root.
    std::int32_t unite(std::int32_t a, std::int32_t b) {
        a = find(a);
        b = find(b);
        if (a == b) return a;
        if (a < b) {
            parent[b] = a;
            return a;
        }
        parent[a] = b;
        return b;
    }
    std::int32_t make(const char* op) {
        if (parent.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
            throw_error(errc::invalid_argument, std::string(op) +
                                                    ": more objects than int32 labels hold; label smaller slices");
        const auto l = static_cast<std::int32_t>(parent.size());
        parent.push_back(l);
        return l;
    }
};

struct neighbour {
    std::int64_t offset;  // linear, within the slice
    int dx;               // its step along the last axis
    // Also an earlier neighbour of the element to the left: when that one is
    // foreground, it has already been joined with this one.
    bool covered;
};

// The first scan over one slice: provisional labels into `prov` (0 for background).
void scan(const plan& p, const std::vector<small_vector<int, 6>>& earlier, int connectivity, const std::uint8_t* in,
          std::int32_t* prov, forest& f, const char* op) {
    const std::size_t r = p.sizes.size();
    small_vector<std::int64_t, 6> strides(r, 1);
    for (std::size_t k = r - 1; k-- > 0;) strides[k] = strides[k + 1] * p.sizes[k + 1];
    const std::int64_t w = p.sizes[r - 1];
    const std::int64_t lines = p.slice / w;
    small_vector<std::int64_t, 6> idx(r, 0);  // coordinates of the current line (last unused)
    std::vector<neighbour> valid, rest;  // rest: those the left neighbour has not joined
    for (std::int64_t line = 0; line < lines; ++line) {
        valid.clear();
        for (const auto& d : earlier) {
            bool inside = true;
            std::int64_t o = 0;
            for (std::size_t k = 0; k + 1 < r; ++k) {
                const std::int64_t c = idx[k] + d[k];
                inside &= c >= 0 && c < p.sizes[k];
                o += d[k] * strides[k];
            }
            // Seen from the left neighbour this offset is d + 1 along the last axis.
            int nonzero = d[r - 1] + 1 != 0;
            for (std::size_t k = 0; k + 1 < r; ++k) nonzero += d[k] != 0;
            const bool covered = d[r - 1] <= 0 && nonzero <= connectivity;
            if (inside) valid.push_back({o + d[r - 1], d[r - 1], covered});
        }
        rest.clear();
        for (const neighbour& nb : valid)
            if (!nb.covered) rest.push_back(nb);
        const std::int64_t base = line * w;
        const std::uint8_t* row = in + base;
        std::int32_t* out = prov + base;
        std::int64_t x = 0;
        while (x < w) {
            if (!row[x]) {
                out[x++] = 0;
                continue;
            }
            // A run [x, end) of foreground. Its first element looks at all its earlier
            // neighbours; the others only at those the element to their left has not
            // seen, one earlier line at a time, joining each earlier run once.
            std::int64_t end = x + 1;
            while (end < w && row[end]) ++end;
            std::int32_t cur = 0;
            for (const neighbour& nb : valid) {
                const std::int64_t xx = x + nb.dx;
                if (xx < 0 || xx >= w) continue;
                const std::int32_t l = out[x + nb.offset];
                if (l == 0 || l == cur) continue;
                cur = cur == 0 ? l : f.unite(cur, l);
            }
            if (cur == 0) cur = f.make(op);
            for (const neighbour& nb : rest) {
                const std::int64_t stop = nb.dx > 0 ? std::min(end, w - 1) : end;
                std::int32_t joined = 0;
                for (std::int64_t xx = x + 1; xx < stop; ++xx) {
                    const std::int32_t l = out[xx + nb.offset];
                    if (l != 0 && l != joined && l != cur) {
                        cur = f.unite(cur, l);
                        joined = l;
                    }
                }
            }
            std::fill(out + x, out + end, cur);
            x = end;
        }
        for (std::size_t k = r - 1; k-- > 0;) {
            if (++idx[k] < p.sizes[k]) break;
            idx[k] = 0;
        }
    }
}

}  // namespace

namespace imaging::morph {

std::vector<std::int32_t> components(const plan& p, const std::uint8_t* bytes, int connectivity, std::int32_t* prov,
                                     const char* op) {
    const std::size_t r = p.sizes.size();
    // The structure's earlier half: offsets whose first nonzero component is -1.
    std::vector<small_vector<int, 6>> earlier;
    for (const auto& d : structure_offsets(r, connectivity)) {
        for (int c : d)
            if (c != 0) {
                if (c < 0) earlier.push_back(d);
                break;
            }
    }
    forest f;
    f.parent.reserve(1024);
    // Slices never connect (each has its own scan); the forest spans them so that the
    // numbering runs on from one slice to the next.
    for (std::int64_t s = 0; s < p.batch && p.slice > 0; ++s)
        scan(p, earlier, connectivity, bytes + s * p.slice, prov + s * p.slice, f, op);
    // Every parent is smaller than its child, so one ascending pass resolves roots.
    std::vector<std::int32_t> root(f.parent.size(), 0);
    for (std::size_t i = 1; i < root.size(); ++i)
        root[i] = f.parent[i] == static_cast<std::int32_t>(i) ? static_cast<std::int32_t>(i) : root[f.parent[i]];
    return root;
}

}  // namespace imaging::morph

std::pair<tensor_base, std::int64_t> label(const tensor_base& mask, std::span<const Axis> axes, int connectivity) {
    const char* op = "label";
    const plan p = imaging::morph::make_plan(mask, axes, op);
    imaging::morph::check_connectivity(connectivity, p.sizes.size(), op);
    const imaging::morph::mask_view m = imaging::morph::mask_nonzero(mask, p);
    tensor_base work = imaging::morph::allocate_work(dtype::i32, mask, p, op);
    auto* prov = reinterpret_cast<std::int32_t*>(work.data());
    const std::vector<std::int32_t> root = imaging::morph::components(p, m.data, connectivity, prov, op);
    const std::size_t n_prov = root.size();
    std::vector<std::int32_t> final_label(n_prov, 0);
    std::int64_t count = 0;
    if (p.identity) {
        // Working order is stored order: roots ascending are components in raster order.
        for (std::size_t i = 1; i < n_prov; ++i)
            final_label[i] = root[i] == static_cast<std::int32_t>(i) ? static_cast<std::int32_t>(++count)
                                                                      : final_label[root[i]];
        for (std::int64_t i = 0; i < p.total; ++i) prov[i] = final_label[prov[i]];
        return {work, count};
    }
    // Batch axes after a spatial one interleave the slices in stored order: number the
    // components by their first element in that order.
    small_vector<Axis, 8> inverse(p.perm.size(), Axis(0));
    for (std::size_t i = 0; i < p.perm.size(); ++i) inverse[p.perm[i]] = Axis(i);
    const tensor_base view = work.permute(inverse.span());
    const bool named = mask.names().size() == mask.rank();
    tensor_base out = tensor_base::allocate(dtype::i32, mask.shape(), named ? mask.names() : std::span<const name>{}, op);
    auto* dst = reinterpret_cast<std::int32_t*>(out.data());
    imaging::morph::for_each_offset(view.shape(), view.strides(), [&](std::int64_t o) {
        const std::int32_t l = prov[o];
        if (l == 0) {
            *dst++ = 0;
            return;
        }
        std::int32_t& fl = final_label[root[l]];
        if (fl == 0) fl = static_cast<std::int32_t>(++count);
        *dst++ = fl;
    });
    return {out, count};
}

}  // namespace nt::detail
