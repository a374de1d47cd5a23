// The sorts of nt/sort.hpp: sort and argsort along an axis, top-k and unique. The
// values-only sort is an LSD radix sort on order-preserving unsigned keys (Highway's
// vqsort for 32- and 64-bit keys); each works on a contiguous copy whose sorted axis
// comes last, with the element type dispatched once per call.
#include <algorithm>
#include <charconv>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "allocator.hpp"
#include "element_types.hpp"
#include "graph.hpp"
#include "line_algorithms.hpp"
#include "vector_sort.hpp"
#include "nt/error.hpp"
#include "nt/names.hpp"
#include "nt/sort.hpp"
#include "nt/statistics.hpp"

namespace nt::detail {
using namespace lines;

namespace {

// Comparison sorts of large rows lose several times to NumPy's vectorised quicksort;
// a radix sort on keys that order as the values do reads and writes each element
// once per 8-bit digit (digits all keys share are skipped), whatever the data.

template <class T>
using sort_key_t = std::conditional_t<sizeof(T) <= 2, std::uint16_t,
                                      std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;

template <class T>
auto raw_bits(T x) {
    if constexpr (std::is_same_v<T, half>) {
        return x.bits();
    } else {
        std::conditional_t<sizeof(T) == 1, std::uint8_t,
                           std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                              std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>
            b;
        std::memcpy(&b, &x, sizeof(T));
        return b;
    }
}

template <class T>
struct key_bits {
    using K = sort_key_t<T>;
    static constexpr unsigned bits = sizeof(T) * 8;
    static constexpr K mask = bits == sizeof(K) * 8 ? static_cast<K>(~K{0}) : static_cast<K>((K{1} << bits) - 1);
    static constexpr K sign = static_cast<K>(K{1} << (bits - 1));
};

/// An unsigned key whose order is the order of the (non-NaN) values: floats flip
/// every bit when negative, else the sign bit; signed integers flip the sign bit.
template <class T>
sort_key_t<T> to_key(T x) {
    using B = key_bits<T>;
    using K = typename B::K;
    const K b = static_cast<K>(raw_bits(x));
    if constexpr (is_float_like<T>) return (b & B::sign) ? static_cast<K>(~b & B::mask) : static_cast<K>(b | B::sign);
    else if constexpr (std::is_signed_v<T>) return static_cast<K>((b ^ B::sign) & B::mask);
    else return b;
}

/// The value of a key (the inverse of to_key).
template <class T>
T from_key(sort_key_t<T> k) {
    using B = key_bits<T>;
    using K = typename B::K;
    K b = k;
    if constexpr (is_float_like<T>) b = (k & B::sign) ? static_cast<K>(k & ~B::sign & B::mask) : static_cast<K>(~k & B::mask);
    else if constexpr (std::is_signed_v<T>) b = static_cast<K>((k ^ B::sign) & B::mask);
    if constexpr (std::is_same_v<T, half>) {
        return half::from_bits(static_cast<std::uint16_t>(b));
    } else {
        const auto narrow = static_cast<decltype(raw_bits(T{}))>(b);
        T x;
        std::memcpy(&x, &narrow, sizeof(T));
        return x;
    }
}

/// Puts row[0, n), which holds no NaN, in ascending order in O(n) when it is monotonic
/// already: ascending as it is, descending reversed (any order among equal values is a
/// sort's). False when it is neither. The test reads blocks of 1024 pairs without a
/// branch per pair and stops after the first block that breaks both orders, which for
/// most data is the first.
template <class T>
bool order_if_monotonic(T* row, std::int64_t n) {
    constexpr std::int64_t block = 1024;
    bool up = true, down = true;
    for (std::int64_t i = 0; i + 1 < n; i += block) {
        const std::int64_t last = std::min(n - 1, i + block);
        for (std::int64_t j = i; j < last; ++j) {
            up &= !ascending_numbers(row[j + 1], row[j]);
            down &= !ascending_numbers(row[j], row[j + 1]);
        }
        if (!up && !down) return false;
    }
    if (!up) std::reverse(row, row + n);
    return true;
}

/// Sorts row[0, m), which holds no NaN, ascending (any order among equal values, -0
/// and +0 included): vqsort for 32- and 64-bit types, an LSD radix sort for long rows
/// of narrower ones; a row in order already, or in reverse order, in one pass.
template <class T>
void sort_numbers(T* row, std::int64_t m, scratch_buffer& scratch) {
    constexpr std::int64_t radix_from = 512;  // below: a comparison sort is as fast
    T* const numbers_end = row + m;
    if (order_if_monotonic(row, m)) return;
    if constexpr (std::is_same_v<T, bool>) {
        std::sort(row, numbers_end);
        return;
    } else {
        if constexpr (sizeof(T) >= 4) {
            // Highway's vector quicksort beats std::sort from about 256 keys, and the
            // radix sort below at every size. vqsort 1.0 pads with infinity and
            // misplaces real infinities: they are placed here.
            if (m >= 256) {
                if constexpr (std::is_integral_v<T>) {
                    vector_sort(row, m);
                } else {
                    // Infinities go to the ends, the finite values are sorted between.
                    constexpr T inf = std::numeric_limits<T>::infinity();
                    std::int64_t finite = 0, below = 0;
                    for (std::int64_t i = 0; i < m; ++i) {
                        const T x = row[i];
                        if (x == -inf) ++below;
                        else if (x != inf) row[finite++] = x;
                    }
                    std::memmove(row + below, row, static_cast<std::size_t>(finite) * sizeof(T));
                    std::fill(row, row + below, -inf);
                    std::fill(row + below + finite, row + m, inf);
                    vector_sort(row + below, finite);
                }
                return;
            }
        }
        if (m < radix_from) {
            std::sort(row, numbers_end, [](T a, T b) { return static_cast<double>(a) < static_cast<double>(b); });
            return;
        }
        using K = sort_key_t<T>;
        scratch.reserve(static_cast<std::size_t>(m) * 2 * sizeof(K));
        K* keys = scratch.as<K>();
        K* other = keys + m;
        // Every digit's histogram in the pass that makes the keys: one read, not one
        // per digit.
        constexpr unsigned digits = sizeof(K);
        std::array<std::int64_t, digits * 257> counts{};
        for (std::int64_t i = 0; i < m; ++i) {
            const K k = to_key(row[i]);
            keys[i] = k;
            for (unsigned d = 0; d < digits; ++d) ++counts[d * 257 + ((k >> (8 * d)) & 0xff) + 1];
        }
        for (unsigned d = 0; d < digits; ++d) {
            std::int64_t* count = counts.data() + d * 257;
            const unsigned shift = 8 * d;
            if (count[((keys[0] >> shift) & 0xff) + 1] == m) continue;  // every key shares this digit
            for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
            for (std::int64_t i = 0; i < m; ++i) other[count[(keys[i] >> shift) & 0xff]++] = keys[i];
            std::swap(keys, other);
        }
        for (std::int64_t i = 0; i < m; ++i) row[i] = from_key<T>(keys[i]);
    }
}

/// What a float row holds that sort_numbers would not keep in order: NaNs, and zeros
/// of both signs. One pass over the bits, without a branch per element.
struct float_census {
    std::int64_t nans = 0, negative_zeros = 0, positive_zeros = 0;
};
template <class T>
float_census census(const T* row, std::int64_t n) {
    using B = decltype(raw_bits(T{}));
    constexpr B sign = static_cast<B>(B{1} << (sizeof(B) * 8 - 1));
    const B inf = raw_bits(static_cast<T>(std::numeric_limits<float>::infinity()));
    float_census c;
    for (std::int64_t i = 0; i < n; ++i) {
        const B b = raw_bits(row[i]);
        c.nans += static_cast<B>(b & ~sign) > inf;
        c.negative_zeros += b == sign;
        c.positive_zeros += b == 0;
    }
    return c;
}

/// Sorts row[0, n) ascending with NaN last, and stably where it shows: equal
/// numbers are identical except -0 and +0, which compare equal (as in argsort and
/// NumPy's kind="stable") and so keep their input order, as NaNs do among themselves
/// (their sign bits and payloads differ). The number sorts place zeros by sign (the
/// radix keys), in any order (vqsort) or reversed (a descending row), so the zeros'
/// signs are written back in input order once the zero run is in place.
template <class T>
void sort_values(T* row, std::int64_t n, scratch_buffer& scratch) {
    if constexpr (!is_float_like<T>) {
        sort_numbers(row, n, scratch);
    } else {
        const float_census c = census(row, n);
        std::int64_t m = n;
        if (c.nans > 0) {  // through the scratch, not std::stable_partition's heap buffer
            scratch.reserve(static_cast<std::size_t>(c.nans) * sizeof(T));
            T* nans = scratch.as<T>();
            std::int64_t moved = 0;
            m = 0;
            for (std::int64_t i = 0; i < n; ++i) {
                const T x = row[i];
                if (is_nan(x)) nans[moved++] = x;
                else row[m++] = x;
            }
            std::copy(nans, nans + moved, row + m);
        }
        const bool mixed_zeros = c.negative_zeros > 0 && c.positive_zeros > 0;
        const std::int64_t zero_count = mixed_zeros ? c.negative_zeros + c.positive_zeros : 0;
        scratch_buffer zeros;  // not in `scratch`: sort_numbers reuses that
        if (zero_count > 0) {
            zeros.reserve(static_cast<std::size_t>(zero_count) * sizeof(T));
            T* z = zeros.as<T>();
            for (std::int64_t i = 0; i < m; ++i)
                if (row[i] == static_cast<T>(0)) *z++ = row[i];
        }
        sort_numbers(row, m, scratch);
        if (zero_count > 0) {
            T* run = std::lower_bound(row, row + m, static_cast<T>(0), ascending_numbers<T>);
            std::copy(zeros.as<T>(), zeros.as<T>() + zero_count, run);
        }
    }
}

// --- argsort and topk: positions by packed keys ------------------------------------------

/// A key in `ascending`'s order (32 bits for types of up to 32 bits, else 64): -0 as
/// +0, and every NaN one key above all numbers.
template <class T>
using order_key_t = std::conditional_t<sizeof(T) <= 4, std::uint32_t, std::uint64_t>;
template <class T>
order_key_t<T> order_key(T x) {
    using K = order_key_t<T>;
    if constexpr (std::is_same_v<T, bool>) {
        return x ? 1 : 0;
    } else {
        if constexpr (is_float_like<T>) {
            if (is_nan(x)) return ~K{0};
            if (x == static_cast<T>(0)) return to_key(static_cast<T>(0));
        }
        return to_key(x);
    }
}

/// The positions of row[0, n) in a stable sort by `ascending` (largest_first: by its
/// reverse, NaN first, equal values still in order) into pos[0, k): each value's order
/// key and its position packed into one key (64 bits for types of up to 32 bits, else
/// 128) and sorted by vqsort. The positions make the keys distinct, which makes the
/// order stable. A stable comparison sort of positions takes several times as long on
/// long rows. Returns false for rows where the comparison sort is as fast: under 256
/// elements, and for 128-bit keys, which cost more to sort, under 16384 (figures:
/// docs/performance.md, "Figures behind the engine's thresholds").
template <class T>
bool packed_positions(const T* row, std::int64_t n, bool largest_first, std::int64_t k, std::int64_t* pos,
                      scratch_buffer& scratch) {
    constexpr std::int64_t shortest = sizeof(T) <= 4 ? 256 : 16384;
    if (n < shortest || n > (std::int64_t{1} << 32)) return false;
    using K = order_key_t<T>;
    const K flip = largest_first ? ~K{0} : K{0};
    if constexpr (sizeof(T) <= 4) {
        // argsort sorts in its output; topk, whose output holds k, in the scratch.
        std::uint64_t* keys = reinterpret_cast<std::uint64_t*>(pos);
        if (k < n) {
            scratch.reserve(static_cast<std::size_t>(n) * sizeof(std::uint64_t));
            keys = scratch.as<std::uint64_t>();
        }
        for (std::int64_t i = 0; i < n; ++i)
            keys[i] = static_cast<std::uint64_t>(order_key(row[i]) ^ flip) << 32 | static_cast<std::uint64_t>(i);
        vector_sort(keys, n);
        for (std::int64_t i = 0; i < k; ++i) pos[i] = static_cast<std::int64_t>(keys[i] & 0xffffffffu);
    } else {
        scratch.reserve(static_cast<std::size_t>(n) * sizeof(key128));
        key128* keys = scratch.as<key128>();
        for (std::int64_t i = 0; i < n; ++i) keys[i] = key128{static_cast<std::uint64_t>(i), order_key(row[i]) ^ flip};
        vector_sort(keys, n);
        for (std::int64_t i = 0; i < k; ++i) pos[i] = static_cast<std::int64_t>(keys[i].lo);
    }
    return true;
}

}  // namespace
// --- reading and writing through positions (the backward of sort, topk, median, quantile) ---

namespace {
bool is_floating_type(dtype d) { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }
}  // namespace

tensor_base take_along(const tensor_base& x, const tensor_base& positions, std::size_t a, std::string_view op) {
    const tensor_base xl = with_axis_last(x.without_grad_node(), a);
    const tensor_base pl = with_axis_last(positions, a);
    const std::int64_t n = xl.shape().back(), k = pl.shape().back();
    tensor_base out = tensor_base::allocate(x.type(), pl.shape(), xl.names(), op);
    if (out.size() > 0) {
        const std::int64_t rows = out.size() / k;
        on_type(xl, [&](auto type) {
            using T = typename decltype(type)::type;
            const T* src = elements<const T>(xl);
            const std::int64_t* pos = elements<const std::int64_t>(pl);
            T* dst = elements<T>(out);
            for (std::int64_t r = 0; r < rows; ++r)
                for (std::int64_t j = 0; j < k; ++j) dst[r * k + j] = src[r * n + pos[r * k + j]];
        });
    }
    tensor_base result = axis_back(out, a);
    if (records(x) && is_floating_type(x.type())) {
        const std::string name(op);
        attach_node(op, result, {&x}, [positions, a, n, name](const any_tensor& g) -> input_gradients {
            return {any_tensor(put_along(g.base(), positions, a, n, name))};
        });
    }
    return result;
}

tensor_base put_along(const tensor_base& g, const tensor_base& positions, std::size_t a, std::int64_t n,
                      std::string_view op) {
    const tensor_base gl = with_axis_last(g.without_grad_node(), a);
    const tensor_base pl = with_axis_last(positions, a);
    const std::int64_t k = gl.shape().back();
    dims sizes(gl.shape());
    sizes.back() = n;
    tensor_base out = tensor_base::allocate(g.type(), sizes.span(), gl.names(), op);
    const std::uint64_t zero = 0;
    out.fill(&zero);
    if (gl.size() > 0 && n > 0) {
        const std::int64_t rows = gl.size() / k;
        on_type(gl, [&](auto type) {
            using T = typename decltype(type)::type;
            if constexpr (is_float_like<T>) {
                const T* src = elements<const T>(gl);
                const std::int64_t* pos = elements<const std::int64_t>(pl);
                T* dst = elements<T>(out);
                // Added, not written: several positions may name one element (a median's
                // two middle ranks in a row of ties).
                for (std::int64_t r = 0; r < rows; ++r)
                    for (std::int64_t j = 0; j < k; ++j) {
                        T& d = dst[r * n + pos[r * k + j]];
                        d = static_cast<T>(static_cast<double>(d) + static_cast<double>(src[r * k + j]));
                    }
            }
        });
    }
    tensor_base result = axis_back(out, a);
    if (records(g) && is_floating_type(g.type())) {
        const std::string name(op);
        attach_node(op, result, {&g}, [positions, a, name](const any_tensor& gg) -> input_gradients {
            return {any_tensor(take_along(gg.base(), positions, a, name))};
        });
    }
    return result;
}

tensor_base sort_along(const tensor_base& t, const Axis& axis, bool indices, std::string_view op) {
    // The sorted values of a tensor in a graph read it through the argsort positions,
    // which carry the gradient back to where each value came from.
    if (!indices && records(t) && is_floating_type(t.type())) [[unlikely]] {
        const std::size_t a = axis_index(t, axis, op);
        return take_along(t, sort_along(t.without_grad_node(), axis, true, op), a, op);
    }
    const std::size_t a = axis_index(t, axis, op);
    tensor_base lines = with_axis_last(t, a);
    const std::int64_t n = lines.rank() ? lines.shape().back() : 1;
    tensor_base positions;
    if (indices) positions = tensor_base::allocate(dtype::i64, lines.shape(), lines.names(), op);
    if (n > 0) {
        const std::int64_t rows = lines.size() / n;
        scratch_buffer scratch;
        on_type(lines, [&](auto type) {
            using T = typename decltype(type)::type;
            T* row = elements<T>(lines);
            std::int64_t* pos = indices ? elements<std::int64_t>(positions) : nullptr;
            for (std::int64_t r = 0; r < rows; ++r, row += n) {
                if (!indices) {
                    sort_values(row, n, scratch);
                    continue;
                }
                if (!packed_positions(row, n, false, n, pos, scratch)) {
                    std::iota(pos, pos + n, std::int64_t{0});
                    std::stable_sort(pos, pos + n,
                                     [&](std::int64_t i, std::int64_t j) { return ascending(row[i], row[j]); });
                }
                pos += n;
            }
        });
    }
    return axis_back(indices ? positions : lines, a);
}

std::pair<tensor_base, tensor_base> top_k(const tensor_base& t, std::int64_t k, const Axis& axis) {
    if (records(t) && is_floating_type(t.type())) [[unlikely]] {
        auto [values, positions] = top_k(t.without_grad_node(), k, axis);
        // The rule keeps its own copy: the caller may write into the returned positions.
        return {take_along(t, positions.clone(), axis_index(t, axis, "topk"), "topk"), positions};
    }
    const std::size_t a = axis_index(t, axis, "topk");
    const std::int64_t n = t.shape()[a];
    if (k < 0 || k > n)
        throw_error(errc::invalid_argument, "topk: k = " + std::to_string(k) + " for axis " + axis.str() + " of size " +
                                                std::to_string(n) + " of tensor " + t.describe() +
                                                ". Fix: choose k between 0 and the axis size");
    const tensor_base lines = with_axis_last(t, a);
    std::vector<std::int64_t> shape(lines.shape().begin(), lines.shape().end());
    shape.back() = k;
    tensor_base values = tensor_base::allocate(t.type(), shape, lines.names(), "topk");
    tensor_base positions = tensor_base::allocate(dtype::i64, shape, lines.names(), "topk");
    if (k > 0) {
        const std::int64_t rows = lines.size() / n;
        on_type(lines, [&](auto type) {
            using T = typename decltype(type)::type;
            const T* row = elements<T>(lines);
            T* val = elements<T>(values);
            std::int64_t* pos = elements<std::int64_t>(positions);
            std::vector<std::int64_t> order;
            scratch_buffer scratch;
            // Largest first: b before a when a sorts before b (NaN is the largest).
            auto larger = [&](std::int64_t i, std::int64_t j) { return ascending(row[j], row[i]); };
            for (std::int64_t r = 0; r < rows; ++r, row += n, val += k, pos += k) {
                if (!packed_positions(row, n, true, k, pos, scratch)) {
                    order.resize(static_cast<std::size_t>(n));
                    std::iota(order.begin(), order.end(), std::int64_t{0});
                    std::stable_sort(order.begin(), order.end(), larger);
                    std::copy(order.begin(), order.begin() + k, pos);
                }
                for (std::int64_t i = 0; i < k; ++i) val[i] = row[pos[i]];
            }
        });
    }
    return {axis_back(values, a), axis_back(positions, a)};
}

tensor_base unique_values(const tensor_base& t, tensor_base* counts) {
    const std::int64_t total = t.size();
    const std::int64_t all[1] = {total};
    tensor_base sorted = t.reshape(all, order::c).clone();
    std::vector<std::int64_t> run_lengths;
    std::int64_t distinct = 0;
    on_type(sorted, [&](auto type) {
        using T = typename decltype(type)::type;
        T* p = elements<T>(sorted);
        scratch_buffer scratch;
        sort_values(p, total, scratch);
        for (std::int64_t i = 0; i < total; ++i) {
            if (distinct > 0 && same_value(p[distinct - 1], p[i])) {
                ++run_lengths.back();
            } else {
                p[distinct++] = p[i];
                run_lengths.push_back(1);
            }
        }
    });
    const std::int64_t out_shape[1] = {distinct};
    tensor_base values = tensor_base::allocate(t.type(), out_shape, {}, "unique");
    if (distinct > 0) std::memcpy(values.data(), sorted.data(), static_cast<std::size_t>(distinct) * t.element_size());
    if (counts) {
        *counts = tensor_base::allocate(dtype::i64, out_shape, {}, "unique_counts");
        if (distinct > 0)
            std::memcpy(counts->data(), run_lengths.data(), run_lengths.size() * sizeof(std::int64_t));
    }
    return values;
}

}  // namespace nt::detail
