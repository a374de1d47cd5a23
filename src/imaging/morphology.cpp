// Binary morphology (erosion, dilation, opening, closing, fill_holes) and the per-label
// measurements (center_of_mass, find_objects, region_stats), as scipy.ndimage 1.10.
// label is in labels.cpp, distance_transform_edt in distance.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "morph_common.hpp"
#include "nt/error.hpp"
#include "nt/morphology.hpp"

namespace nt::detail {

namespace {

using imaging::morph::plan;

// One slice framed by a border of one element on every side: every neighbour of an
// interior element is then one fixed linear offset away, with no bounds test. The
// frame holds 0, scipy's border_value, and is never written.
struct framed {
    small_vector<std::int64_t, 6> sizes;    // interior sizes
    small_vector<std::int64_t, 6> strides;  // of the framed block
    std::int64_t count = 1;                 // elements of the framed block

    explicit framed(const plan& p) : sizes(p.sizes), strides(p.sizes.size(), 0) {
        for (std::size_t i = sizes.size(); i-- > 0;) {
            strides[i] = count;
            count *= sizes[i] + 2;
        }
    }
    // Calls f(first, n): the framed offset of the first element of each interior line
    // along the last axis, and its length.
    template <class F>
    void for_each_line(F&& f) const {
        const std::size_t r = sizes.size();
        for (std::int64_t s : sizes)
            if (s == 0) return;
        small_vector<std::int64_t, 6> idx(r, 0);
        std::int64_t first = 0;
        for (std::size_t i = 0; i < r; ++i) first += strides[i];
        for (;;) {
            f(first, sizes[r - 1]);
            std::size_t k = r - 1;
            for (;;) {
                if (k == 0) return;
                --k;
                if (++idx[k] < sizes[k]) {
                    first += strides[k];
                    break;
                }
                first -= strides[k] * (sizes[k] - 1);
                idx[k] = 0;
            }
        }
    }
    std::vector<std::int64_t> linear(const std::vector<small_vector<int, 6>>& offsets) const {
        std::vector<std::int64_t> out;
        for (const auto& d : offsets) {
            std::int64_t o = 0;
            for (std::size_t i = 0; i < d.size(); ++i) o += d[i] * strides[i];
            out.push_back(o);
        }
        return out;
    }
    // Writes the interior only: the frame of a zeroed block stays 0 from slice to slice.
    void load(const std::uint8_t* slice, std::uint8_t* block) const {
        for_each_line([&](std::int64_t first, std::int64_t n) {
            std::memcpy(block + first, slice, static_cast<std::size_t>(n));
            slice += n;
        });
    }
    void store(const std::uint8_t* block, bool* slice) const {
        for_each_line([&](std::int64_t first, std::int64_t n) {
            for (std::int64_t x = 0; x < n; ++x) slice[x] = block[first + x] != 0;
            slice += n;
        });
    }
};

// One erosion (every neighbour true) or dilation (some neighbour true) of `in` into
// `out`; returns whether any element changed. A line at a time, one neighbour offset
// at a time, so that each inner loop is a run of byte ands / ors the compiler vectorises.
bool step(const framed& g, const std::vector<std::int64_t>& offsets, bool erosion, const std::uint8_t* in,
          std::uint8_t* out) {
    std::uint8_t changed = 0;
    g.for_each_line([&](std::int64_t first, std::int64_t n) {
        std::uint8_t* o = out + first;
        std::memcpy(o, in + first + offsets[0], static_cast<std::size_t>(n));
        for (std::size_t k = 1; k < offsets.size(); ++k) {
            const std::uint8_t* s = in + first + offsets[k];
            if (erosion)
                for (std::int64_t x = 0; x < n; ++x) o[x] &= s[x];
            else
                for (std::int64_t x = 0; x < n; ++x) o[x] |= s[x];
        }
        const std::uint8_t* before = in + first;
        for (std::int64_t x = 0; x < n; ++x) changed |= o[x] ^ before[x];
    });
    return changed != 0;
}

// `iterations` steps (< 1: until stable) of one operation, in place in `a` with `b` as
// scratch. Until stable has a closed form with a false border: erosion shrinks every
// nonempty slice until it is empty, dilation grows it until it is full.
void repeat(const framed& g, const std::vector<std::int64_t>& offsets, bool erosion, std::int64_t iterations,
            std::vector<std::uint8_t>& a, std::vector<std::uint8_t>& b) {
    if (iterations < 1) {
        bool any = false;
        g.for_each_line([&](std::int64_t first, std::int64_t n) {
            for (std::int64_t p = first; p < first + n; ++p) any |= a[p] != 0;
        });
        const std::uint8_t v = (!erosion && any) ? 1 : 0;
        g.for_each_line([&](std::int64_t first, std::int64_t n) {
            std::fill(a.begin() + first, a.begin() + first + n, v);
        });
        return;
    }
    for (std::int64_t i = 0; i < iterations; ++i) {
        const bool changed = step(g, offsets, erosion, a.data(), b.data());
        std::swap(a, b);
        if (!changed) return;  // a fixed point stays one
    }
}

const char* op_name(morph_op op) {
    switch (op) {
        case morph_op::erosion: return "binary_erosion";
        case morph_op::dilation: return "binary_dilation";
        case morph_op::opening: return "binary_opening";
        case morph_op::closing: return "binary_closing";
    }
    return "binary_morphology";
}

void check_same_shape(const tensor_base& values, const tensor_base& labels, std::string_view op) {
    auto a = values.shape(), b = labels.shape();
    if (!std::equal(a.begin(), a.end(), b.begin(), b.end()))
        throw_error(errc::incompatible_sizes, std::string(op) + ": values " + values.describe() + " and labels " +
                                                  labels.describe() +
                                                  " differ in shape; pass values and labels of one shape");
}

std::int64_t max_label(const std::vector<std::int64_t>& labels) {
    std::int64_t n = 0;
    for (std::int64_t l : labels) n = std::max(n, l);
    return n;
}

// Calls f(i, coords) for each element in stored C order, coords its index along the
// spatial axes in the order the caller named them.
template <class F>
void for_each_coords(const tensor_base& x, const plan& p, F&& f) {
    const std::size_t r = x.rank();
    const auto shape = x.shape();
    const std::int64_t total = x.size();
    small_vector<std::int64_t, 8> idx(r, 0);
    small_vector<std::int64_t, 6> coords(p.given.size(), 0);
    for (std::int64_t i = 0; i < total; ++i) {
        for (std::size_t k = 0; k < p.given.size(); ++k) coords[k] = idx[p.given[k]];
        f(i, coords);
        for (std::size_t k = r; k-- > 0;) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
}

}  // namespace

tensor_base binary_morphology(const tensor_base& mask, std::span<const Axis> axes, morph_op op,
                              const morphology_options& options) {
    const char* name = op_name(op);
    const plan p = imaging::morph::make_plan(mask, axes, name);
    imaging::morph::check_connectivity(options.connectivity, p.sizes.size(), name);
    const std::vector<std::uint8_t> bytes = imaging::morph::mask_bytes(mask, p);
    tensor_base work = imaging::morph::allocate_work(dtype::b8, mask, p, name);
    const framed g(p);
    const auto offsets = g.linear(imaging::morph::structure_offsets(p.sizes.size(), options.connectivity));
    std::vector<std::uint8_t> a(static_cast<std::size_t>(g.count), 0), b(static_cast<std::size_t>(g.count), 0);
    bool* out = reinterpret_cast<bool*>(work.data());
    for (std::int64_t s = 0; s < p.batch && p.slice > 0; ++s) {
        g.load(bytes.data() + s * p.slice, a.data());
        const bool erode_first = op == morph_op::erosion || op == morph_op::opening;
        repeat(g, offsets, erode_first, options.iterations, a, b);
        if (op == morph_op::opening || op == morph_op::closing)
            repeat(g, offsets, !erode_first, options.iterations, a, b);
        g.store(a.data(), out + s * p.slice);
    }
    return imaging::morph::to_stored(work, p);
}

tensor_base binary_fill_holes(const tensor_base& mask, std::span<const Axis> axes, int connectivity) {
    const char* name = "binary_fill_holes";
    const plan p = imaging::morph::make_plan(mask, axes, name);
    imaging::morph::check_connectivity(connectivity, p.sizes.size(), name);
    // scipy fills by dilating the outside into the background; the same is: the
    // background components that reach an edge of the slice stay false, every other
    // element is true. The structure always holds the axis neighbours, so a component
    // reaches the outside exactly when it has an element on an edge.
    std::vector<std::uint8_t> background = imaging::morph::mask_bytes(mask, p);
    for (auto& b : background) b ^= 1;
    std::vector<std::int32_t> prov(static_cast<std::size_t>(p.total));
    const auto root = imaging::morph::components(p, background.data(), connectivity, prov.data(), name);
    std::vector<std::uint8_t> outside(root.size(), 0);
    const std::size_t r = p.sizes.size();
    small_vector<std::int64_t, 6> inner(r, 1);  // elements of a slice per step along axis k
    for (std::size_t k = r - 1; k-- > 0;) inner[k] = inner[k + 1] * p.sizes[k + 1];
    const std::int64_t w = p.total ? p.sizes[r - 1] : 1;
    for (std::int64_t line = 0; line * w < p.total; ++line) {
        const std::int64_t pos = (line * w) % p.slice;  // within its slice
        bool edge_line = false;
        for (std::size_t k = 0; k + 1 < r; ++k) {
            const std::int64_t c = (pos / inner[k]) % p.sizes[k];
            edge_line |= c == 0 || c == p.sizes[k] - 1;
        }
        const std::int32_t* l = prov.data() + line * w;
        if (edge_line)
            for (std::int64_t x = 0; x < w; ++x) outside[root[l[x]]] = 1;
        else {
            outside[root[l[0]]] = 1;
            outside[root[l[w - 1]]] = 1;
        }
    }
    outside[0] = 0;  // label 0: the foreground, which stays true
    tensor_base work = imaging::morph::allocate_work(dtype::b8, mask, p, name);
    bool* out = reinterpret_cast<bool*>(work.data());
    for (std::int64_t i = 0; i < p.total; ++i) out[i] = !outside[root[prov[i]]];
    return imaging::morph::to_stored(work, p);
}

tensor_base center_of_mass(const tensor_base& values, const tensor_base& labels, std::span<const Axis> axes) {
    const char* name = "center_of_mass";
    const plan p = imaging::morph::make_plan(labels, axes, name);
    check_same_shape(values, labels, name);
    const auto lab = imaging::morph::labels_as_int64(labels, name);
    const auto val = imaging::morph::values_as_double(values);
    const std::int64_t n = max_label(lab);
    const std::size_t k = p.given.size();
    std::vector<double> weight(static_cast<std::size_t>(n), 0.0), moment(static_cast<std::size_t>(n) * k, 0.0);
    for_each_coords(labels, p, [&](std::int64_t i, const small_vector<std::int64_t, 6>& c) {
        const std::int64_t l = lab[i];
        if (l < 1) return;
        const double w = val[i];
        weight[l - 1] += w;
        for (std::size_t j = 0; j < k; ++j) moment[(l - 1) * k + j] += w * static_cast<double>(c[j]);
    });
    const std::int64_t shape[2] = {n, static_cast<std::int64_t>(k)};
    tensor_base out = tensor_base::allocate(dtype::f64, shape, {}, name);
    double* dst = reinterpret_cast<double*>(out.data());
    // A label without elements (or of zero weight) is 0/0, NaN, as scipy's.
    for (std::int64_t l = 0; l < n; ++l)
        for (std::size_t j = 0; j < k; ++j) dst[l * k + j] = moment[l * k + j] / weight[l];
    return out;
}

std::vector<std::optional<object_box>> find_objects(const tensor_base& labels, std::span<const Axis> axes) {
    const char* name = "find_objects";
    const plan p = imaging::morph::make_plan(labels, axes, name);
    const auto lab = imaging::morph::labels_as_int64(labels, name);
    const std::int64_t n = max_label(lab);
    std::vector<std::optional<object_box>> out(static_cast<std::size_t>(n));
    for_each_coords(labels, p, [&](std::int64_t i, const small_vector<std::int64_t, 6>& c) {
        const std::int64_t l = lab[i];
        if (l < 1) return;
        auto& box = out[l - 1];
        if (!box) {
            box = object_box{std::vector<std::int64_t>(c.begin(), c.end()), std::vector<std::int64_t>(c.begin(), c.end())};
            for (auto& e : box->end) ++e;
            return;
        }
        for (std::size_t j = 0; j < c.size(); ++j) {
            box->begin[j] = std::min(box->begin[j], c[j]);
            box->end[j] = std::max(box->end[j], c[j] + 1);
        }
    });
    return out;
}

region_stats_result region_stats(const tensor_base& values, const tensor_base& labels, std::span<const Axis> axes) {
    const char* name = "region_stats";
    (void)imaging::morph::make_plan(labels, axes, name);  // the axes must name labels' axes
    check_same_shape(values, labels, name);
    const auto lab = imaging::morph::labels_as_int64(labels, name);
    const auto val = imaging::morph::values_as_double(values);
    const std::int64_t n = max_label(lab);
    const std::int64_t shape[1] = {n};
    region_stats_result r{Tensor<std::int64_t>(tensor_base::allocate(dtype::i64, shape, {}, name)),
                          Tensor<double>(tensor_base::allocate(dtype::f64, shape, {}, name)),
                          Tensor<double>(tensor_base::allocate(dtype::f64, shape, {}, name)),
                          Tensor<double>(tensor_base::allocate(dtype::f64, shape, {}, name)),
                          Tensor<double>(tensor_base::allocate(dtype::f64, shape, {}, name))};
    auto* count = reinterpret_cast<std::int64_t*>(r.count.base().data());
    auto* sum = reinterpret_cast<double*>(r.sum.base().data());
    auto* mean = reinterpret_cast<double*>(r.mean.base().data());
    auto* mn = reinterpret_cast<double*>(r.min.base().data());
    auto* mx = reinterpret_cast<double*>(r.max.base().data());
    for (std::int64_t l = 0; l < n; ++l) {
        count[l] = 0;
        sum[l] = 0.0;
        mn[l] = std::numeric_limits<double>::infinity();
        mx[l] = -std::numeric_limits<double>::infinity();
    }
    for (std::size_t i = 0; i < lab.size(); ++i) {
        const std::int64_t l = lab[i];
        if (l < 1) continue;
        ++count[l - 1];
        sum[l - 1] += val[i];
        mn[l - 1] = std::min(mn[l - 1], val[i]);
        mx[l - 1] = std::max(mx[l - 1], val[i]);
    }
    for (std::int64_t l = 0; l < n; ++l) {
        mean[l] = sum[l] / static_cast<double>(count[l]);
        if (count[l] == 0) mn[l] = mx[l] = 0.0;  // scipy's minimum/maximum of an absent label
    }
    return r;
}

}  // namespace nt::detail
