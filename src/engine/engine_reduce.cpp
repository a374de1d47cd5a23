// Planning for strided reductions (see engine_reduce.hpp).
#include "engine_reduce.hpp"

#include "nt/error.hpp"

#include <string>

namespace nt::detail {
namespace {

std::int64_t iabs(std::int64_t v) noexcept { return v < 0 ? -v : v; }

// Sorts axes outer -> inner by decreasing |primary|, then |secondary| (insertion sort).
void sort_axes(dims& size, dims& primary, dims* secondary) {
    const std::size_t n = size.size();
    auto before = [&](std::size_t a, std::size_t b) {
        if (iabs(primary[a]) != iabs(primary[b])) return iabs(primary[a]) > iabs(primary[b]);
        return secondary && iabs((*secondary)[a]) > iabs((*secondary)[b]);
    };
    for (std::size_t i = 1; i < n; ++i)
        for (std::size_t j = i; j > 0 && before(j, j - 1); --j) {
            std::swap(size[j], size[j - 1]);
            std::swap(primary[j], primary[j - 1]);
            if (secondary) std::swap((*secondary)[j], (*secondary)[j - 1]);
        }
}

void coalesce(dims& size, dims& primary, dims* secondary) {
    for (std::size_t d = size.size() - (size.empty() ? 0 : 1); d-- > 0;) {
        if (primary[d] != primary[d + 1] * size[d + 1]) continue;
        if (secondary && (*secondary)[d] != (*secondary)[d + 1] * size[d + 1]) continue;
        size[d + 1] *= size[d];
        size.erase(size.begin() + static_cast<std::ptrdiff_t>(d));
        primary.erase(primary.begin() + static_cast<std::ptrdiff_t>(d));
        if (secondary) secondary->erase(secondary->begin() + static_cast<std::ptrdiff_t>(d));
    }
}

}  // namespace

reduce_plan make_reduce_plan(std::span<const std::int64_t> shape, std::span<const std::int64_t> out_strides,
                             std::int64_t out_element_size, std::span<const std::int64_t> in_strides,
                             std::int64_t in_element_size) {
    if (out_strides.size() != shape.size() || in_strides.size() != shape.size())
        throw_error(errc::invalid_argument, "reduce: the output has " + std::to_string(out_strides.size()) +
                                                " strides and the input " + std::to_string(in_strides.size()) +
                                                " for a rank-" + std::to_string(shape.size()) + " shape");
    reduce_plan plan;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const std::int64_t n = shape[d];
        if (n < 0) throw_error(errc::invalid_argument, "reduce: negative size " + std::to_string(n) + " on axis " +
                                                          std::to_string(d));
        const std::int64_t is = in_strides[d] * in_element_size;
        const std::int64_t os = out_strides[d] * out_element_size;
        if (n == 0) {
            if (os != 0) plan.out_empty = true;
            else plan.in_empty = true;
        }
        if (n <= 1) continue;
        if (os == 0) {  // reduced
            if (is < 0) plan.in_offset += is * (n - 1);
            plan.rsize.push_back(n);
            plan.rin.push_back(iabs(is));
        } else {  // kept: flip on the input's sign, so the input is walked forwards
            const bool flip = is < 0;
            if (flip) {
                plan.in_offset += is * (n - 1);
                plan.out_offset += os * (n - 1);
            }
            plan.ksize.push_back(n);
            plan.kin.push_back(flip ? -is : is);
            plan.kout.push_back(flip ? -os : os);
        }
    }
    if (plan.out_empty) return plan;
    sort_axes(plan.ksize, plan.kin, &plan.kout);
    coalesce(plan.ksize, plan.kin, &plan.kout);
    sort_axes(plan.rsize, plan.rin, nullptr);
    coalesce(plan.rsize, plan.rin, nullptr);
    for (const std::int64_t n : plan.ksize) plan.kept *= n;
    for (const std::int64_t n : plan.rsize) plan.reduced *= n;
    if (plan.in_empty) {
        plan.reduced = 0;
        return plan;
    }
    if (plan.rsize.empty()) {  // nothing to fold: one row
        plan.rsize.push_back(1);
        plan.rin.push_back(0);
        plan.inner_reduced = plan.ksize.empty();
    } else {
        plan.inner_reduced = plan.ksize.empty() || iabs(plan.rin.back()) < iabs(plan.kin.back());
    }
    return plan;
}

}  // namespace nt::detail
