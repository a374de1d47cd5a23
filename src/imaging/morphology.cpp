// Binary morphology (erosion, dilation, opening, closing, fill_holes) and the per-label
// measurements (center_of_mass, find_objects, region_stats), as scipy.ndimage 1.10.
// label is in labels.cpp, distance_transform_edt in distance.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "morph_common.hpp"
#include "nt/error.hpp"
#include "nt/morphology.hpp"

namespace nt::detail {

namespace {

using imaging::morph::plan;

// One erosion (every neighbour true) or dilation (some neighbour true) of the slice
// `in` (nonzero is true) into `out` (0/1); returns whether any element changed.
// Outside the slice is false (scipy's border_value=0): a neighbour line outside makes
// an eroded line false and adds nothing to a dilated one. A line at a time and one
// neighbour at a time, so that each inner loop is a run of byte ands / ors the
// compiler vectorises.
bool step(const plan& p, const std::vector<small_vector<int, 6>>& offsets, bool erosion, const std::uint8_t* in,
          std::uint8_t* out) {
    const std::size_t r = p.sizes.size();
    small_vector<std::int64_t, 6> strides(r, 1);
    for (std::size_t k = r - 1; k-- > 0;) strides[k] = strides[k + 1] * p.sizes[k + 1];
    const std::int64_t w = p.sizes[r - 1];
    const std::int64_t lines = p.slice / w;
    small_vector<std::int64_t, 6> idx(r, 0);
    std::uint8_t changed = 0;
    for (std::int64_t line = 0; line < lines; ++line) {
        std::uint8_t* o = out + line * w;
        bool first = true, dead = false;
        for (const auto& d : offsets) {
            std::int64_t shift = 0;
            bool inside = true;
            for (std::size_t k = 0; k + 1 < r; ++k) {
                const std::int64_t c = idx[k] + d[k];
                inside &= c >= 0 && c < p.sizes[k];
                shift += d[k] * strides[k];
            }
            if (!inside) {
                if (erosion) {
                    dead = true;
                    break;
                }
                continue;
            }
            const std::uint8_t* src = in + line * w + shift;
            // o[x] op= (src[x + dx] != 0), and the element past the line's end is false.
            const int dx = d[r - 1];
            const std::int64_t lo = dx < 0 ? 1 : 0, hi = dx > 0 ? w - 1 : w;
            if (first) {
                if (lo == 1) o[0] = 0;
                if (hi == w - 1) o[w - 1] = 0;
                for (std::int64_t x = lo; x < hi; ++x) o[x] = src[x + dx] != 0;
                first = false;
            } else if (erosion) {
                if (lo == 1) o[0] = 0;
                if (hi == w - 1) o[w - 1] = 0;
                for (std::int64_t x = lo; x < hi; ++x) o[x] &= src[x + dx] != 0;
            } else {
                for (std::int64_t x = lo; x < hi; ++x) o[x] |= src[x + dx] != 0;
            }
        }
        if (dead || first) std::memset(o, 0, static_cast<std::size_t>(w));
        const std::uint8_t* before = in + line * w;
        for (std::int64_t x = 0; x < w; ++x) changed |= o[x] ^ static_cast<std::uint8_t>(before[x] != 0);
        for (std::size_t k = r - 1; k-- > 0;) {
            if (++idx[k] < p.sizes[k]) break;
            idx[k] = 0;
        }
    }
    return changed != 0;
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
    const imaging::morph::mask_view bytes = imaging::morph::mask_nonzero(mask, p);
    tensor_base work = imaging::morph::allocate_work(dtype::b8, mask, p, name);
    const auto offsets = imaging::morph::structure_offsets(p.sizes.size(), options.connectivity);
    const bool erode_first = op == morph_op::erosion || op == morph_op::opening;
    const bool two = op == morph_op::opening || op == morph_op::closing;
    std::vector<std::uint8_t> scratch;  // allocated only when a chain needs a second buffer
    auto* out = reinterpret_cast<std::uint8_t*>(work.data());
    for (std::int64_t s = 0; s < p.batch && p.slice > 0; ++s) {
        // The steps alternate between the result and one scratch slice; the input is
        // only read.
        const std::uint8_t* cur = bytes.data + s * p.slice;
        std::uint8_t* result = out + s * p.slice;
        auto target = [&]() -> std::uint8_t* {
            if (cur != result) return result;
            if (scratch.empty()) scratch.resize(static_cast<std::size_t>(p.slice));
            return scratch.data();
        };
        for (int phase = 0; phase < (two ? 2 : 1); ++phase) {
            const bool erosion = phase == 0 ? erode_first : !erode_first;
            if (options.iterations < 1) {
                // Until stable has a closed form with a false border: erosion empties
                // every nonempty slice, dilation fills it.
                bool any = false;
                for (std::int64_t i = 0; i < p.slice && !any; ++i) any = cur[i] != 0;
                std::uint8_t* t = target();
                std::memset(t, (!erosion && any) ? 1 : 0, static_cast<std::size_t>(p.slice));
                cur = t;
                continue;
            }
            for (std::int64_t i = 0; i < options.iterations; ++i) {
                std::uint8_t* t = target();
                const bool changed = step(p, offsets, erosion, cur, t);
                cur = t;
                if (!changed) break;  // a fixed point stays one
            }
        }
        if (cur != result)
            for (std::int64_t i = 0; i < p.slice; ++i) result[i] = cur[i] != 0;
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
    // Every element is written by the scan: no zeroing pass over the largest buffer.
    const std::unique_ptr<std::int32_t[]> prov(new std::int32_t[static_cast<std::size_t>(p.total)]);
    const auto root = imaging::morph::components(p, background.data(), connectivity, prov.get(), name);
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
        const std::int32_t* l = prov.get() + line * w;
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
