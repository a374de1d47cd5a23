#include "morph_common.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "nt/detail/visit_dtype.hpp"
#include "nt/error.hpp"
#include "spatial.hpp"

namespace nt::detail::imaging::morph {

namespace {

template <class T>
double as_double(T v) {
    if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(v);
    else return static_cast<double>(static_cast<float>(v));
}

// Nonzero is true, NaN included (as NumPy's bool()).
template <class T>
std::uint8_t truth(T v) {
    if constexpr (std::is_arithmetic_v<T>) return v != T{0};
    else return static_cast<float>(v) != 0.0f;
}

}  // namespace

plan make_plan(const tensor_base& x, std::span<const Axis> axes, std::string_view op) {
    plan p;
    p.given = spatial_axes(x, axes_arg(axes), op);
    p.sorted = p.given;
    std::sort(p.sorted.begin(), p.sorted.end());
    const std::size_t r = x.rank();
    for (std::size_t a = 0; a < r; ++a)
        if (std::find(p.sorted.begin(), p.sorted.end(), a) == p.sorted.end()) {
            p.perm.push_back(a);
            p.batch *= x.shape()[a];
        }
    for (std::size_t a : p.sorted) {
        p.perm.push_back(a);
        p.sizes.push_back(x.shape()[a]);
        p.slice *= x.shape()[a];
    }
    for (std::size_t i = 0; i < r; ++i)
        if (p.perm[i] != i) p.identity = false;
    p.total = p.batch * p.slice;
    return p;
}

void check_connectivity(int connectivity, std::size_t rank, std::string_view op) {
    if (connectivity < 1 || static_cast<std::size_t>(connectivity) > rank)
        throw_error(errc::invalid_argument,
                    std::string(op) + ": connectivity " + std::to_string(connectivity) + " over " +
                        std::to_string(rank) + " spatial axes; use 1 (axis neighbours) to " + std::to_string(rank) +
                        " (the full box)");
}

namespace {

small_vector<Axis, 8> perm_axes(const plan& p) {
    small_vector<Axis, 8> order;
    for (std::size_t a : p.perm) order.push_back(Axis(a));
    return order;
}

}  // namespace

std::vector<std::uint8_t> mask_bytes(const tensor_base& x, const plan& p) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(p.total));
    if (p.total == 0) return out;
    const tensor_base v = p.identity ? x : x.permute(perm_axes(p).span());
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        const T* src = reinterpret_cast<const T*>(v.data());
        std::uint8_t* dst = out.data();
        if (v.is_contiguous()) {
            for (std::int64_t i = 0; i < p.total; ++i) dst[i] = truth(src[i]);
        } else {
            for_each_offset(v.shape(), v.strides(), [&](std::int64_t o) { *dst++ = truth(src[o]); });
        }
    });
    return out;
}

mask_view mask_nonzero(const tensor_base& x, const plan& p) {
    mask_view v;
    const dtype d = x.type();
    if (p.identity && x.is_contiguous() && (d == dtype::b8 || d == dtype::u8 || d == dtype::i8)) {
        v.data = reinterpret_cast<const std::uint8_t*>(x.data());
        return v;
    }
    v.copy = mask_bytes(x, p);
    v.data = v.copy.data();
    return v;
}

std::vector<double> values_as_double(const tensor_base& x) {
    std::vector<double> out(static_cast<std::size_t>(x.size()));
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        const T* src = reinterpret_cast<const T*>(x.data());
        double* dst = out.data();
        for_each_offset(x.shape(), x.strides(), [&](std::int64_t o) { *dst++ = as_double(src[o]); });
    });
    return out;
}

std::vector<std::int64_t> labels_as_int64(const tensor_base& x, std::string_view op) {
    if (x.type() == dtype::b8 || x.type() == dtype::f16 || x.type() == dtype::f32 || x.type() == dtype::f64)
        throw_error(errc::type_mismatch, std::string(op) + ": labels of type " + to_string(x.type()) +
                                             " are not integers; pass the int32 labels of nt::label, or convert "
                                             "with astype<std::int32_t>()");
    std::vector<std::int64_t> out(static_cast<std::size_t>(x.size()));
    visit_dtype(x.type(), [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            const T* src = reinterpret_cast<const T*>(x.data());
            std::int64_t* dst = out.data();
            for_each_offset(x.shape(), x.strides(), [&](std::int64_t o) {
                // A uint64 label past int64's range is no label scipy could index either.
                *dst++ = static_cast<std::int64_t>(src[o]);
            });
        }
    });
    return out;
}

tensor_base allocate_work(dtype d, const tensor_base& x, const plan& p, std::string_view op) {
    small_vector<std::int64_t, 8> shape;
    small_vector<name, 8> names;
    const bool named = x.names().size() == x.rank();
    for (std::size_t a : p.perm) {
        shape.push_back(x.shape()[a]);
        if (named) names.push_back(x.names()[a]);
    }
    return tensor_base::allocate(d, shape.span(), names.span(), op);
}

tensor_base to_stored(const tensor_base& work, const plan& p) {
    if (p.identity) return work;
    small_vector<Axis, 8> inverse(p.perm.size(), Axis(0));
    for (std::size_t i = 0; i < p.perm.size(); ++i) inverse[p.perm[i]] = Axis(i);
    return work.permute(inverse.span()).clone();
}

std::vector<small_vector<int, 6>> structure_offsets(std::size_t rank, int connectivity) {
    std::vector<small_vector<int, 6>> out;
    small_vector<int, 6> d(rank, -1);
    for (;;) {
        int nonzero = 0;
        for (int c : d) nonzero += c != 0;
        if (nonzero <= connectivity) out.push_back(d);
        std::size_t k = rank;
        for (;;) {
            if (k == 0) return out;
            --k;
            if (++d[k] <= 1) break;
            d[k] = -1;
        }
    }
}

}  // namespace nt::detail::imaging::morph
