// The line-wise algorithms of nt/statistics.hpp and nt/sort.hpp: cumulative sums and
// products, median and quantiles, sorting, top-k and unique. Each works on a
// contiguous copy whose processed axis (or reduced axes) comes last, so every line is
// a contiguous run; the element type is dispatched once per call.
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
#include "engine_reduce.hpp"
#include "vector_sort.hpp"
#include "nt/error.hpp"
#include "nt/names.hpp"
#include "nt/reduce.hpp"
#include "nt/sort.hpp"
#include "nt/statistics.hpp"

namespace nt::detail {

namespace {

template <class T>
constexpr bool is_float_like = std::is_floating_point_v<T> || std::is_same_v<T, half>;

template <class T>
bool is_nan(T x) {
    if constexpr (is_float_like<T>) return std::isnan(static_cast<double>(x));
    else return false;
}

/// NumPy's sort order: ascending, NaN after every number.
template <class T>
bool ascending(T a, T b) {
    if constexpr (is_float_like<T>) {
        const double x = static_cast<double>(a), y = static_cast<double>(b);
        return x < y || (!std::isnan(x) && std::isnan(y));
    } else {
        return a < b;
    }
}

/// `ascending` for values that hold no NaN: the same order, compared in the element type
/// (float and double, without ascending's conversion to double and NaN tests: a median
/// compares each element a few times, a sort's order test once).
template <class T>
bool ascending_numbers(T a, T b) {
    if constexpr (std::is_same_v<T, half>) return static_cast<float>(a) < static_cast<float>(b);
    else return a < b;
}

template <class T>
bool same_value(T a, T b) {
    if constexpr (is_float_like<T>) {
        const double x = static_cast<double>(a), y = static_cast<double>(b);
        return x == y || (std::isnan(x) && std::isnan(y));
    } else {
        return a == b;
    }
}

std::size_t axis_index(const tensor_base& t, const Axis& axis, std::string_view op) {
    return resolve_axis(axis, t.names(), op, t.shape());
}

/// A writable C-contiguous copy of `t` with axis `a` moved last.
tensor_base with_axis_last(const tensor_base& t, std::size_t a) {
    return t.move_axis(static_cast<std::int64_t>(a), -1).clone();
}

/// Moves the last axis of `lines` back to position `a` and makes it C-contiguous.
tensor_base axis_back(const tensor_base& lines, std::size_t a) {
    return lines.move_axis(-1, static_cast<std::int64_t>(a)).contiguous();
}

template <class T>
T* elements(const tensor_base& t) {
    return reinterpret_cast<T*>(t.data());
}

/// Calls f(std::type_identity<T>{}) for the element type of `t` (detail::visit_dtype).
template <class F>
void on_type(const tensor_base& t, F&& f) {
    visit_dtype(t.type(), std::forward<F>(f));
}

// Integer running sums and products wrap (two's complement), as NumPy's.
template <class T>
T wrapping_add(T a, T b) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
        return static_cast<T>(a + b);
    }
}
template <class T>
T wrapping_mul(T a, T b) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    } else {
        return static_cast<T>(a * b);
    }
}

// --- the values-only sort: LSD radix on order-preserving unsigned keys ----------------

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
/// order stable. A stable comparison sort of positions took 5-13x as long for 4 Mi i16
/// and f32, 3x for 4 Mi i64 and f64. Returns false for rows where the comparison sort
/// is as fast: under 256 elements, and for 128-bit keys under 16384 (4 Mi f64 in rows
/// of 1024: 53 ms compared, 60 ms packed; in rows of 16384: 68-77 and 63-64 ms).
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

// --- cumsum / cumprod ------------------------------------------------------------------

namespace {

/// Running sums (or products) along the middle axis of a C-contiguous (outer, n, inner)
/// block, from `in` into `p` (in == p: in place): each line accumulates in order, as
/// NumPy's. Lines are independent,
/// so several advance together (eight interleaved rows when inner == 1, whole rows of
/// columns otherwise), which hides the add's latency, and the pool takes line groups.
template <class T>
void scan_lines(T* p, const T* in, std::int64_t outer, std::int64_t n, std::int64_t inner, bool product) {
    auto step = [product](T prev, T x) { return product ? wrapping_mul<T>(prev, x) : wrapping_add<T>(prev, x); };
    if (inner == 1) {
        constexpr std::int64_t group = 8, tile_width = 64;
        auto rows = [&](std::int64_t r0, std::int64_t r1) {
            std::int64_t r = r0;
            for (; r + group <= r1; r += group) {
                T* q = p + r * n;
                const T* x = in + r * n;
                // Eight rows advance together through a transposed tile: the rows are
                // read and written in contiguous runs (rows a power of two apart would
                // share cache sets, element by element), and the eight running values
                // sit in one vector.
                T acc[group];  // from each row's first element (0 + -0.0 would lose the sign)
                for (std::int64_t k = 0; k < group; ++k) q[k * n] = acc[k] = x[k * n];
                alignas(64) T tile[tile_width][group];
                for (std::int64_t i0 = 1; i0 < n; i0 += tile_width) {
                    const std::int64_t w = std::min(tile_width, n - i0);
                    for (std::int64_t k = 0; k < group; ++k)
                        for (std::int64_t i = 0; i < w; ++i) tile[i][k] = x[k * n + i0 + i];
                    for (std::int64_t i = 0; i < w; ++i)
                        for (std::int64_t k = 0; k < group; ++k) tile[i][k] = acc[k] = step(acc[k], tile[i][k]);
                    for (std::int64_t k = 0; k < group; ++k)
                        for (std::int64_t i = 0; i < w; ++i) q[k * n + i0 + i] = tile[i][k];
                }
            }
            for (; r < r1; ++r) {
                T* q = p + r * n;
                const T* x = in + r * n;
                T acc = q[0] = x[0];
                for (std::int64_t i = 1; i < n; ++i) q[i] = acc = step(acc, x[i]);
            }
        };
        if (want_parallel(outer * n) && outer >= 2 * group) {
            const std::int64_t groups = (outer + group - 1) / group;
            parallel_for(groups, [&](std::int64_t g0, std::int64_t g1) { rows(g0 * group, std::min(outer, g1 * group)); });
        } else {
            rows(0, outer);
        }
        return;
    }
    // Columns in blocks, so two threads can share one (n, inner) plane.
    constexpr std::int64_t block = 2048;
    const std::int64_t blocks = (inner + block - 1) / block;
    auto planes = [&](std::int64_t u0, std::int64_t u1) {
        for (std::int64_t u = u0; u < u1; ++u) {
            const std::int64_t o = u / blocks, j0 = (u % blocks) * block, j1 = std::min(inner, j0 + block);
            T* q = p + o * n * inner;
            const T* x = in + o * n * inner;
            if (x != q) std::copy(x + j0, x + j1, q + j0);
            for (std::int64_t i = 1; i < n; ++i) {
                T* cur = q + i * inner;
                const T* prev = cur - inner;
                const T* add = x + i * inner;
                for (std::int64_t j = j0; j < j1; ++j) cur[j] = step(prev[j], add[j]);
            }
        }
    };
    if (want_parallel(outer * n * inner) && outer * blocks > 1) parallel_for(outer * blocks, planes);
    else planes(0, outer * blocks);
}

}  // namespace

tensor_base cumulate(const tensor_base& t, const Axis& axis, bool product, dtype result, std::string_view op) {
    const std::size_t a = axis_index(t, axis, op);
    // The scan reads a C-contiguous input of the result's type where it lies; any other
    // is first converted into the result by the library's casts (bool -> 0/1, integers
    // widen) and scanned there.
    tensor_base out = tensor_base::allocate(result, t.shape(), t.names(), op);
    const bool direct = t.type() == result && t.is_contiguous();
    if (!direct) out.assign(t);
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < t.rank(); ++d) {
        if (d < a) outer *= t.shape()[d];
        if (d > a) inner *= t.shape()[d];
    }
    const std::int64_t n = t.rank() ? t.shape()[a] : 1;
    if (out.size() > 0) {
        on_type(out, [&](auto type) {
            using T = typename decltype(type)::type;
            if constexpr (!std::is_same_v<T, bool>)
                scan_lines(elements<T>(out), direct ? elements<const T>(t) : elements<const T>(out), outer, n, inner,
                           product);
        });
    }
    return out;
}

// --- median and quantiles ----------------------------------------------------------------

namespace {

/// The shortest text that reads back as `v` ("101", "1.01", "nan").
std::string number_text(double v) {
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
    return ec == std::errc() ? std::string(text, end) : std::to_string(v);
}

}  // namespace

void check_quantile(double q, std::string_view op) {
    if (!(q >= 0.0 && q <= 1.0))
        throw_error(errc::invalid_argument,
                    std::string(op) + ": the quantile " + number_text(q) +
                        " is outside [0, 1]. Fix: pass a fraction in [0, 1] (quantile), or a percentage in "
                        "[0, 100] to percentile");
}

void check_percentile(double p) {
    // Checked as given, not as p / 100: the message names the caller's number.
    if (!(p >= 0.0 && p <= 100.0))
        throw_error(errc::invalid_argument,
                    "percentile: the percentile " + number_text(p) +
                        " is outside [0, 100]. Fix: pass a percentage in [0, 100] (percentile), or a fraction in "
                        "[0, 1] to quantile");
}

tensor_base variance(const tensor_base& t, axes_arg axes, bool every_axis, std::int64_t ddof, bool keepdims,
                     bool root, std::string_view op) {
    reduction_shape rs;
    plan_reduction(op, reduce_op::sum, t.spec(), axes, every_axis, keepdims, rs);
    std::int64_t n = 1;
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (rs.reduced[a]) n *= t.shape()[a];
    const dims out_shape = rs.result.sizes();
    small_vector<name, 8> out_names;
    for (const axis_spec& ax : rs.result) out_names.push_back(ax.name);
    dtype result = dtype::f64;
    on_type(t, [&](auto type) { result = dtype_of<reduce_result_t<reduce_op::mean, typename decltype(type)::type>>; });
    // half computes in float (as NumPy's float16 loops), everything else in the result type.
    const dtype compute = result == dtype::f16 ? dtype::f32 : result;
    tensor_base out = tensor_base::allocate(compute, out_shape.span(), out_names.span(), op);
    finish_reduction(rs, out.strides(), rs);
    const std::int64_t count = out.size();
    on_type(t, [&](auto type) {
        using T = typename decltype(type)::type;
        auto run = [&](auto* dst) {
            using F = std::remove_pointer_t<decltype(dst)>;
            const T* src = elements<const T>(t);
            // Two passes (NumPy's method), so a large mean does not cancel the variance
            // away as E[x^2] - E[x]^2 would: the mean first, then the squared deviations
            // from it, folded straight from the input.
            reduce<F, T>(t.shape(), dst, rs.output_strides, src, t.strides(), sum_op<F>{});
            const F items = static_cast<F>(n);
            for (std::int64_t i = 0; i < count; ++i) dst[i] /= items;
            const scratch_buffer centre(static_cast<std::size_t>(count) * sizeof(F));  // laid out as dst
            std::copy(dst, dst + count, centre.as<F>());
            sq_dev_op<F> deviations;
            deviations.centre = centre.as<const char>();
            reduce<F, T>(t.shape(), dst, rs.output_strides, src, t.strides(), deviations);
            // NumPy clamps the divisor at 0: n <= ddof gives inf, or NaN for a zero sum.
            const F divisor = static_cast<F>(std::max<std::int64_t>(n - ddof, 0));
            for (std::int64_t i = 0; i < count; ++i) {
                dst[i] /= divisor;
                if (root && compute == result) dst[i] = std::sqrt(dst[i]);
            }
        };
        if (compute == dtype::f64) run(elements<double>(out));
        else run(elements<float>(out));
    });
    if (compute == result) return out;
    tensor_base narrowed = tensor_base::allocate(result, out_shape.span(), out_names.span(), op);
    narrowed.assign(out);
    // half rounds the variance first, as sqrt(var(t)) would.
    return root ? nt::sqrt(Tensor<half>(narrowed)).base() : narrowed;
}

namespace {

/// np.median of one sorted row (NaN last): NaN for an empty row or one with a NaN.
template <class T>
double median_of_sorted(const T* row, std::int64_t n) {
    if (n == 0 || is_nan(row[n - 1])) return std::nan("");
    const std::int64_t h = n / 2;
    if (n % 2) return static_cast<double>(row[h]);
    // NumPy takes the mean of the two middle elements: their sum, halved.
    return (static_cast<double>(row[h - 1]) + static_cast<double>(row[h])) / 2.0;
}

/// The ranks np.quantile(q, method="linear") reads in n sorted values: lo and hi =
/// lo or lo + 1, and the weight of hi (NumPy 1.24's virtual index (n - 1) * q).
struct quantile_ranks {
    std::int64_t lo = 0, hi = 0;
    double previous = 0, gamma = 0;
};
quantile_ranks ranks_of(std::int64_t n, double q) {
    quantile_ranks k;
    const double virtual_index = static_cast<double>(n - 1) * q;
    k.previous = std::floor(virtual_index);
    k.lo = static_cast<std::int64_t>(k.previous);
    k.hi = k.lo + 1;
    if (virtual_index >= static_cast<double>(n - 1)) {
        k.previous = -1;
        k.lo = k.hi = n - 1;
    } else if (virtual_index < 0) {
        k.previous = 0;
        k.lo = k.hi = 0;
    }
    k.gamma = virtual_index - k.previous;
    return k;
}

/// np.quantile(row, q) by method "linear", step by step as NumPy 1.24 computes it
/// (NumPy's _lerp), so that results agree to the bit. Reads ranks lo and hi only.
template <class T>
double quantile_of_sorted(const T* row, std::int64_t n, double q) {
    if (is_nan(row[n - 1])) return std::nan("");
    const quantile_ranks k = ranks_of(n, q);
    // The difference is taken in the element type (as NumPy's subtract), then widened.
    double diff;
    if constexpr (is_float_like<T>) diff = static_cast<double>(static_cast<T>(row[k.hi] - row[k.lo]));
    else diff = static_cast<double>(row[k.hi]) - static_cast<double>(row[k.lo]);
    const double a = static_cast<double>(row[k.lo]), b = static_cast<double>(row[k.hi]);
    return k.gamma >= 0.5 ? b - diff * (1.0 - k.gamma) : a + diff * k.gamma;
}

/// Whether row[0, n) holds a NaN: blocks without a branch per element, which the
/// compiler turns into vector compares.
template <class T>
bool holds_nan(const T* row, std::int64_t n) {
    if constexpr (!is_float_like<T>) {
        return false;
    } else if constexpr (std::is_same_v<T, half>) {
        return std::any_of(row, row + n, [](T x) { return is_nan(x); });
    } else {
        constexpr std::int64_t block = 1024;
        for (std::int64_t i = 0; i < n; i += block) {
            const std::int64_t end = std::min(n, i + block);
            bool nan = false;
            for (std::int64_t j = i; j < end; ++j) nan |= row[j] != row[j];
            if (nan) return true;
        }
        return false;
    }
}

/// Puts the values of ranks lo and lo + 1 (hi) of row[0, n), which holds no NaN, at
/// those positions, as a sort would, in O(n): a selection, then the smallest of the rest.
template <class T>
void select_ranks(T* row, std::int64_t n, std::int64_t lo, std::int64_t hi) {
    std::nth_element(row, row + lo, row + n, ascending_numbers<T>);
    if (hi > lo) std::iter_swap(row + hi, std::min_element(row + hi, row + n, ascending_numbers<T>));
}

}  // namespace

tensor_base order_statistic(const tensor_base& t, double q, axes_arg axes, bool every_axis, bool keepdims,
                            dtype result, std::string_view op) {
    reduction_shape rs;
    plan_reduction(op, reduce_op::sum, t.spec(), axes, every_axis, keepdims, rs);
    // Kept axes first, reduced ones last: each result element is one contiguous row.
    std::vector<Axis> order;
    std::int64_t n = 1;
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (!rs.reduced[a]) order.push_back(static_cast<std::int64_t>(a));
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (rs.reduced[a]) {
            order.push_back(static_cast<std::int64_t>(a));
            n *= t.shape()[a];
        }
    if (q >= 0 && n == 0)
        throw_error(errc::invalid_argument, std::string(op) + " of " + t.describe() +
                                                " reduces over zero elements. Fix: check that the reduced axes "
                                                "are not empty");
    tensor_base rows = t.permute(std::span<const Axis>(order.data(), order.size())).clone();
    const dims out_shape = rs.result.sizes();
    small_vector<name, 8> out_names;
    for (const axis_spec& ax : rs.result) out_names.push_back(ax.name);
    tensor_base out = tensor_base::allocate(dtype::f64, out_shape.span(), out_names.span(), op);
    const std::int64_t count = out.size();
    double* dst = elements<double>(out);
    on_type(rows, [&](auto type) {
        using T = typename decltype(type)::type;
        T* row = elements<T>(rows);
        for (std::int64_t r = 0; r < count; ++r, row += n) {
            // A NaN anywhere gives NaN; otherwise only the ranks read are selected
            // (no full sort), and the formulas read them where a sort puts them.
            if (holds_nan(row, n)) {
                dst[r] = std::nan("");
                continue;
            }
            if (q < 0) {
                if (n > 0) select_ranks(row, n, n % 2 ? n / 2 : n / 2 - 1, n / 2);
                dst[r] = median_of_sorted(row, n);
            } else {
                const quantile_ranks k = ranks_of(n, q);
                select_ranks(row, n, k.lo, k.hi);
                dst[r] = quantile_of_sorted(row, n, q);
            }
        }
    });
    if (result == dtype::f64) return out;
    tensor_base narrowed = tensor_base::allocate(result, out_shape.span(), out_names.span(), op);
    narrowed.assign(out);
    return narrowed;
}

// --- sort, argsort, top-k, unique --------------------------------------------------------------

tensor_base sort_along(const tensor_base& t, const Axis& axis, bool indices, std::string_view op) {
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
