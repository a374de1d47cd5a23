// simd_rows-inl.h (private): per-target helpers of the row kernels (simd_binary.cpp,
// simd_compare.cpp). Highway's -inl.h pattern: the file is included once per target
// that foreach_target.h compiles, so there is no ordinary include guard.
#if defined(NT_SIMD_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef NT_SIMD_ROWS_INL_H_
#undef NT_SIMD_ROWS_INL_H_
#else
#define NT_SIMD_ROWS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace nt::detail::HWY_NAMESPACE {

/// Calls body(load_a, load_b), where load_x(i) is the vector of d at element i of the
/// row: contiguous (step 1) or one value (step 0) for each operand, not both 0.
template <class D, class T, class Body>
HWY_INLINE void WithRowLoads(D d, const T* a, std::int64_t sa, const T* b, std::int64_t sb, const Body& body) {
    namespace hn = hwy::HWY_NAMESPACE;
    const auto contiguous = [&d](const T* p) { return [&d, p](std::int64_t k) { return hn::LoadU(d, p + k); }; };
    const auto broadcast = [&d](const T* p) {
        const auto v = hn::Set(d, p[0]);
        return [v](std::int64_t) { return v; };
    };
    if (sa != 0 && sb != 0) body(contiguous(a), contiguous(b));
    else if (sa != 0) body(contiguous(a), broadcast(b));
    else body(broadcast(a), contiguous(b));
}

}  // namespace nt::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // NT_SIMD_ROWS_INL_H_
