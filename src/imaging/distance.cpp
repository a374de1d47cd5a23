// distance_transform_edt: exact Euclidean distance to the nearest zero, separable
// (Felzenszwalb & Huttenlocher, "Distance transforms of sampled functions", 2012).
//
// Squared distances are computed one axis at a time: along the last axis the distance
// to the nearest zero of each line (two sweeps); along every other axis the lower
// envelope of the parabolas w^2 (q - p)^2 + f(p) of each line, in linear time. Lines
// are independent, so each pass splits among threads; a pass along a strided axis
// moves tiles of adjacent lines through a small buffer so that memory is read in rows.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "morph_common.hpp"
#include "nt/error.hpp"
#include "nt/morphology.hpp"
#include "nt/threads.hpp"

namespace nt::detail {

namespace {

using imaging::morph::plan;
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::int64_t tile = 16;  // adjacent lines moved together along a strided axis

// Along the last axis: squared distance to the nearest zero of the line (inf if none).
void nearest_zero(const std::uint8_t* in, double* out, std::int64_t n, double w2) {
    std::int64_t last = -1;
    for (std::int64_t i = 0; i < n; ++i) {
        if (!in[i]) last = i;
        out[i] = last < 0 ? inf : static_cast<double>(i - last);
    }
    last = -1;
    for (std::int64_t i = n - 1; i >= 0; --i) {
        if (!in[i]) last = i;
        if (last >= 0) out[i] = std::min(out[i], static_cast<double>(last - i));
        out[i] = out[i] == inf ? inf : out[i] * out[i] * w2;
    }
}

// The lower envelope of w2 (q - p)^2 + f[p] over the finite f[p], evaluated at every q
// (inf everywhere if no f[p] is finite). v, z: scratch of n and n + 1.
void envelope(const double* f, double* d, std::int64_t n, double w2, std::int64_t* v, double* z) {
    std::int64_t k = -1;
    for (std::int64_t q = 0; q < n; ++q) {
        if (f[q] == inf) continue;
        const double fq = f[q] + w2 * static_cast<double>(q) * static_cast<double>(q);
        double s = -inf;
        while (k >= 0) {
            const std::int64_t pv = v[k];
            const double fp = f[pv] + w2 * static_cast<double>(pv) * static_cast<double>(pv);
            // Where the parabolas from pv and q meet.
            s = (fq - fp) / (2.0 * w2 * static_cast<double>(q - pv));
            if (s <= z[k]) --k;
            else break;
        }
        ++k;
        v[k] = q;
        z[k] = k == 0 ? -inf : s;
        z[k + 1] = inf;
    }
    if (k < 0) {
        std::fill(d, d + n, inf);
        return;
    }
    std::int64_t j = 0;
    for (std::int64_t q = 0; q < n; ++q) {
        while (z[j + 1] < static_cast<double>(q)) ++j;
        const double dq = static_cast<double>(q - v[j]);
        d[q] = w2 * dq * dq + f[v[j]];
    }
}

template <class F>
void run(std::int64_t units, std::int64_t cost, F&& f) {
    if (want_parallel(cost)) parallel_for(units, f);
    else f(0, units);
}

}  // namespace

tensor_base distance_transform_edt(const tensor_base& mask, std::span<const Axis> axes,
                                   std::span<const double> spacing) {
    const char* op = "distance_transform_edt";
    const plan p = imaging::morph::make_plan(mask, axes, op);
    const std::size_t r = p.sizes.size();
    if (!spacing.empty() && spacing.size() != 1 && spacing.size() != r)
        throw_error(errc::invalid_argument, std::string(op) + ": " + std::to_string(spacing.size()) +
                                                " spacings for " + std::to_string(r) +
                                                " spatial axes; give one per axis, one for all, or none");
    for (double s : spacing)
        if (!(s > 0.0) || !std::isfinite(s))
            throw_error(errc::invalid_argument, std::string(op) + ": spacing " + std::to_string(s) +
                                                    " is not a positive finite size; give each axis's element size");
    // Spacing per working axis (stored order of the spatial axes).
    std::vector<double> w(r, 1.0);
    for (std::size_t k = 0; k < r; ++k) {
        const std::size_t g = static_cast<std::size_t>(
            std::find(p.given.begin(), p.given.end(), p.sorted[k]) - p.given.begin());
        if (spacing.size() == 1) w[k] = spacing[0];
        else if (!spacing.empty()) w[k] = spacing[g];
    }
    const imaging::morph::mask_view m = imaging::morph::mask_nonzero(mask, p);
    const std::uint8_t* bytes = m.data;
    tensor_base work = imaging::morph::allocate_work(dtype::f64, mask, p, op);
    auto* out = reinterpret_cast<double*>(work.data());
    if (p.total == 0) return imaging::morph::to_stored(work, p);

    small_vector<std::int64_t, 6> strides(r, 1);
    for (std::size_t k = r - 1; k-- > 0;) strides[k] = strides[k + 1] * p.sizes[k + 1];

    // scipy measures a slice without zeros to the point one step before its first
    // element along the first axis.
    std::vector<char> no_zero(static_cast<std::size_t>(p.batch));
    for (std::int64_t s = 0; s < p.batch; ++s) {
        const std::uint8_t* in = bytes + s * p.slice;
        no_zero[s] = std::find(in, in + p.slice, std::uint8_t{0}) == in + p.slice;
    }

    // Pass along the last axis.
    const std::int64_t n_last = p.sizes[r - 1];
    const std::int64_t lines = p.total / n_last;
    const double w2_last = w[r - 1] * w[r - 1];
    run(lines, p.total, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t l = b; l < e; ++l)
            nearest_zero(bytes + l * n_last, out + l * n_last, n_last, w2_last);
    });

    // Passes along the other axes, in tiles of adjacent lines.
    for (std::size_t k = r - 1; k-- > 0;) {
        const std::int64_t n = p.sizes[k], st = strides[k];
        const std::int64_t outer = p.slice / (n * st);
        const std::int64_t chunks = (st + tile - 1) / tile;
        const double w2 = w[k] * w[k];
        run(p.batch * outer * chunks, p.total, [&](std::int64_t b, std::int64_t e) {
            std::vector<double> f(static_cast<std::size_t>(n * tile)), d(static_cast<std::size_t>(n));
            std::vector<std::int64_t> v(static_cast<std::size_t>(n));
            std::vector<double> z(static_cast<std::size_t>(n + 1));
            for (std::int64_t u = b; u < e; ++u) {
                const std::int64_t c = u % chunks, so = u / chunks;  // so: slice * outer + o
                const std::int64_t j0 = c * tile, tw = std::min(tile, st - j0);
                double* base = out + so * n * st + j0;
                for (std::int64_t i = 0; i < n; ++i)
                    for (std::int64_t j = 0; j < tw; ++j) f[j * n + i] = base[i * st + j];
                for (std::int64_t j = 0; j < tw; ++j) {
                    envelope(f.data() + j * n, d.data(), n, w2, v.data(), z.data());
                    std::copy(d.begin(), d.end(), f.begin() + j * n);
                }
                for (std::int64_t i = 0; i < n; ++i)
                    for (std::int64_t j = 0; j < tw; ++j) base[i * st + j] = f[j * n + i];
            }
        });
    }

    run(p.batch, p.total, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t s = b; s < e; ++s) {
            double* o = out + s * p.slice;
            if (!no_zero[s]) {
                for (std::int64_t i = 0; i < p.slice; ++i) o[i] = std::sqrt(o[i]);
                continue;
            }
            for (std::int64_t i = 0; i < p.slice; ++i) {
                double sq = 0.0;
                for (std::size_t a = 0; a < r; ++a) {
                    const double c = static_cast<double>((i / strides[a]) % p.sizes[a] + (a == 0 ? 1 : 0)) * w[a];
                    sq += c * c;
                }
                o[i] = std::sqrt(sq);
            }
        }
    });
    return imaging::morph::to_stored(work, p);
}

}  // namespace nt::detail
