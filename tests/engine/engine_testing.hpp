// Shared helpers for the engine tests: random strided layouts and a naive reference.
#pragma once

#include "core_testing.hpp"
#include "nt/small_vector.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace engine_testing {

using nt::dims;

// The core tests' generator, seeded from Catch's --rng-seed.
using core_testing::rng;
using core_testing::uniform;
inline bool chance(double p) { return std::bernoulli_distribution(p)(rng()); }

inline std::string text(const dims& d) {
    std::ostringstream o;
    o << "(";
    for (std::size_t i = 0; i < d.size(); ++i) o << (i ? ", " : "") << d[i];
    o << ")";
    return o.str();
}

/// A random shape of rank 0..6; total elements kept under `max_elements`.
inline dims random_shape(std::int64_t max_elements = 4000, bool allow_zero = true) {
    for (;;) {
        const auto rank = static_cast<std::size_t>(uniform(0, 6));
        dims s(rank, 1);
        std::int64_t total = 1;
        for (auto& n : s) {
            const std::int64_t pick = uniform(0, 9);
            n = pick == 0 ? (allow_zero && chance(0.3) ? 0 : 1) : pick <= 2 ? 1 : uniform(2, 9);
            total *= n;
        }
        if (total <= max_elements) return s;
    }
}

/// A layout for one operand over `shape`: strides in elements and the offset (elements)
/// of element (0, ...) in a buffer of `span` elements. Random axis order, occasional
/// padding, negative strides and (if broadcast_ok) stride-0 axes.
struct layout {
    dims strides;
    std::int64_t offset = 0;
    std::int64_t span = 1;
};

inline layout random_layout(const dims& shape, bool broadcast_ok, bool negative_ok = true) {
    const std::size_t r = shape.size();
    std::vector<std::size_t> perm(r);
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    if (chance(0.6)) std::shuffle(perm.begin(), perm.end(), rng());
    layout l;
    l.strides = dims(r, 0);
    std::int64_t acc = chance(0.2) ? 2 : 1;
    for (std::size_t i = r; i-- > 0;) {
        const std::size_t ax = perm[i];
        if (broadcast_ok && chance(0.2)) continue;  // stride 0
        l.strides[ax] = acc;
        acc *= std::max<std::int64_t>(shape[ax], 1) + (chance(0.1) ? 1 : 0);
    }
    l.span = acc;
    if (negative_ok)
        for (std::size_t ax = 0; ax < r; ++ax)
            if (l.strides[ax] != 0 && chance(0.25)) {
                l.offset += l.strides[ax] * (std::max<std::int64_t>(shape[ax], 1) - 1);
                l.strides[ax] = -l.strides[ax];
            }
    return l;
}

/// Calls f(offsets...) for every multi-index of shape, in row-major order; offsets are
/// computed from each stride list.
template <class F>
void for_each_index(const dims& shape, const std::vector<const dims*>& strides, F&& f) {
    std::int64_t total = 1;
    for (auto n : shape) total *= n;
    if (total == 0) return;
    std::vector<std::int64_t> idx(shape.size(), 0);
    std::vector<std::int64_t> off(strides.size(), 0);
    for (std::int64_t e = 0; e < total; ++e) {
        std::fill(off.begin(), off.end(), 0);
        for (std::size_t d = 0; d < shape.size(); ++d)
            for (std::size_t k = 0; k < strides.size(); ++k) off[k] += idx[d] * (*strides[k])[d];
        f(off);
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
}

/// Restores the thread count on scope exit.
struct thread_guard {
    int saved;
    thread_guard();
    ~thread_guard();
};

}  // namespace engine_testing
