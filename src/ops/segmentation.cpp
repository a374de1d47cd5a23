// nt/segmentation.hpp: label checks, the class axis of one_hot, bincount and
// histogram. The element type is dispatched once per call; the loops read a
// contiguous copy (or the tensor itself when it is contiguous).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "element_types.hpp"
#include "nt/error.hpp"
#include "nt/segmentation.hpp"

namespace nt::detail {

namespace {

template <class T>
const T* elements(const tensor_base& t) {
    return reinterpret_cast<const T*>(t.data());
}

/// Calls f(values, n) with the elements of an integer tensor in row-major order.
template <class F>
void with_integers(const tensor_base& t, std::string_view op, F&& f) {
    const tensor_base c = t.contiguous();
    bool integral = false;
    visit_dtype(c.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            integral = true;
            f(elements<T>(c), c.size());
        }
    });
    if (!integral)
        throw_error(errc::type_mismatch, std::string(op) + ": the tensor " + t.describe() + " holds " +
                                             std::string(to_string(t.type())) +
                                             " elements; it needs integers. Fix: convert with astype<std::int64_t>()");
}

}  // namespace

void check_labels(const tensor_base& labels, std::int64_t classes, std::string_view op) {
    if (classes < 1)
        throw_error(errc::invalid_argument, std::string(op) + ": classes = " + std::to_string(classes) +
                                                "; it must be at least 1");
    with_integers(labels, op, [&](const auto* v, std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) {
            const auto x = v[i];
            if (x < 0 || static_cast<std::uint64_t>(x) >= static_cast<std::uint64_t>(classes))
                throw_error(errc::invalid_argument,
                            std::string(op) + ": the labels " + labels.describe() + " hold " + std::to_string(x) +
                                " (element " + std::to_string(i) + " in row-major order), outside 0.." +
                                std::to_string(classes - 1) + " for " + std::to_string(classes) +
                                " classes. Fix: pass the number of classes, or map the label (e.g. an ignore "
                                "index) first");
        }
    });
}

tensor_base class_axis(const tensor_base& labels, std::int64_t classes, std::int64_t pos, name n) {
    // Shaped as labels.unsqueeze(pos, n) with every size 1 but the new axis.
    const tensor_base shape_of = labels.unsqueeze(pos, n);
    std::vector<std::int64_t> sizes(shape_of.rank(), 1);
    const std::int64_t rank = static_cast<std::int64_t>(shape_of.rank());
    const std::size_t at = static_cast<std::size_t>(pos < 0 ? pos + rank : pos);
    sizes[at] = classes;
    tensor_base out = tensor_base::allocate(labels.type(), sizes, shape_of.names(), "one_hot");
    visit_dtype(labels.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (!std::is_same_v<T, bool>) {
            T* p = reinterpret_cast<T*>(out.data());
            for (std::int64_t k = 0; k < classes; ++k) p[k] = static_cast<T>(k);
        }
    });
    return out;
}

tensor_base bincount(const tensor_base& x, std::int64_t minlength, const tensor_base* weights) {
    if (x.rank() != 1)
        throw_error(errc::invalid_argument, "bincount: the tensor " + x.describe() +
                                                " must be 1-D. Fix: flatten() it first");
    if (minlength < 0)
        throw_error(errc::invalid_argument,
                    "bincount: minlength = " + std::to_string(minlength) + " is negative; pass 0 or more");
    if (weights && (weights->rank() != 1 || weights->size() != x.size()))
        throw_error(errc::invalid_argument, "bincount: the weights " + weights->describe() +
                                                " must be 1-D with the length of x " + x.describe() +
                                                ". Fix: one weight per element");
    std::vector<double> sums;
    std::vector<std::int64_t> counts;
    const tensor_base w = weights ? weights->contiguous() : tensor_base();
    with_integers(x, "bincount", [&](const auto* v, std::int64_t n) {
        std::int64_t length = minlength;
        for (std::int64_t i = 0; i < n; ++i) {
            if (v[i] < 0)
                throw_error(errc::invalid_argument,
                            "bincount: element " + std::to_string(i) + " of " + x.describe() + " is " +
                                std::to_string(v[i]) + "; bincount counts non-negative values only");
            length = std::max<std::int64_t>(length, static_cast<std::int64_t>(v[i]) + 1);
        }
        if (weights) {
            sums.assign(static_cast<std::size_t>(length), 0.0);
            const double* wv = reinterpret_cast<const double*>(w.data());
            for (std::int64_t i = 0; i < n; ++i) sums[static_cast<std::size_t>(v[i])] += wv[i];
        } else {
            counts.assign(static_cast<std::size_t>(length), 0);
            for (std::int64_t i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(v[i])];
        }
    });
    const std::int64_t length = static_cast<std::int64_t>(weights ? sums.size() : counts.size());
    const std::int64_t shape[1] = {length};
    tensor_base out = tensor_base::allocate(weights ? dtype::f64 : dtype::i64, shape, {}, "bincount");
    if (length > 0)
        std::memcpy(out.data(), weights ? static_cast<const void*>(sums.data()) : static_cast<const void*>(counts.data()),
                    static_cast<std::size_t>(length) * 8);
    return out;
}

void histogram(const tensor_base& x, std::int64_t bins, double lo, double hi, tensor_base& counts,
               tensor_base& edges) {
    if (bins < 1)
        throw_error(errc::invalid_argument, "histogram: bins = " + std::to_string(bins) + "; it must be at least 1");
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        throw_error(errc::invalid_argument, "histogram: the range [" + std::to_string(lo) + ", " +
                                                std::to_string(hi) +
                                                "] must be finite with lo < hi. Fix: pass the data's bounds");
    const std::int64_t edge_shape[1] = {bins + 1}, count_shape[1] = {bins};
    edges = tensor_base::allocate(dtype::f64, edge_shape, {}, "histogram");
    counts = tensor_base::allocate(dtype::i64, count_shape, {}, "histogram");
    double* e = reinterpret_cast<double*>(edges.data());
    // np.linspace(lo, hi, bins + 1): step = (hi - lo) / bins, lo + i * step, last = hi.
    const double step = (hi - lo) / static_cast<double>(bins);
    for (std::int64_t i = 0; i <= bins; ++i) e[i] = lo + static_cast<double>(i) * step;
    e[bins] = hi;
    auto* c = reinterpret_cast<std::int64_t*>(counts.data());
    std::fill(c, c + bins, 0);
    const tensor_base values = x.contiguous();
    visit_dtype(values.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        const T* v = elements<T>(values);
        for (std::int64_t i = 0; i < values.size(); ++i) {
            const double a = static_cast<double>(v[i]);
            if (!(a >= lo && a <= hi)) continue;  // outside, or NaN
            // NumPy's binning: a first guess from the scaled value, then corrected
            // against the edges themselves, the last bin closed on the right.
            auto k = static_cast<std::int64_t>((a - lo) / (hi - lo) * static_cast<double>(bins));
            if (k == bins) --k;
            if (a < e[k]) --k;
            else if (k != bins - 1 && a >= e[k + 1]) ++k;
            ++c[k];
        }
    });
}

}  // namespace nt::detail
