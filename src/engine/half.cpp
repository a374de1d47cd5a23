// Bulk half <-> float conversion (see half_convert.hpp).
#include "half_convert.hpp"

#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define NT_HAVE_F16C_PATH 1
#endif

namespace nt::detail {

namespace {

void halves_to_floats_portable(const half* in, float* out, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) out[i] = half_bits_to_float(in[i].bits());
}
void floats_to_halves_portable(const float* in, half* out, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) out[i] = half::from_bits(float_to_half_bits(in[i]));
}

#if NT_HAVE_F16C_PATH
// Compiled for F16C (and the AVX its 256-bit forms need) function by function, so the
// rest of the library stays plain x86-64; called only after cpu_has_f16c().
__attribute__((target("avx,f16c"))) void halves_to_floats_f16c(const half* in, float* out, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
    if (i < n) {  // the tail through a zero-padded block
        std::uint16_t tmp[8] = {};
        float res[8];
        std::memcpy(tmp, in + i, (n - i) * sizeof(half));
        _mm256_storeu_ps(res, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(tmp))));
        std::memcpy(out + i, res, (n - i) * sizeof(float));
    }
}
__attribute__((target("avx,f16c"))) void floats_to_halves_f16c(const float* in, half* out, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    if (i < n) {
        float tmp[8] = {};
        std::uint16_t res[8];
        std::memcpy(tmp, in + i, (n - i) * sizeof(float));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(res),
                         _mm256_cvtps_ph(_mm256_loadu_ps(tmp), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        std::memcpy(out + i, res, (n - i) * sizeof(half));
    }
}
#endif

bool detect_f16c() noexcept {
#if NT_HAVE_F16C_PATH
    // cpuid, not __builtin_cpu_supports: clang 14 does not know its "f16c". The 256-bit
    // forms need AVX, and the OS must save the YMM registers (OSXSAVE, then XCR0 bits
    // 1 and 2), which is what __builtin_cpu_supports("avx") checked.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    constexpr unsigned osxsave = 1u << 27, avx = 1u << 28, f16c = 1u << 29;
    if ((ecx & (osxsave | avx | f16c)) != (osxsave | avx | f16c)) return false;
    unsigned xcr0_lo = 0, xcr0_hi = 0;
    __asm__ volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0u));
    (void)xcr0_hi;
    return (xcr0_lo & 0x6u) == 0x6u;
#else
    return false;
#endif
}

struct path_state {
    std::atomic<bool> use_f16c;
    path_state() : use_f16c(detect_f16c()) {}
};
path_state& state() {
    static path_state s;
    return s;
}

}  // namespace

bool cpu_has_f16c() noexcept {
    static const bool has = detect_f16c();
    return has;
}

half_path get_half_path() noexcept {
    return state().use_f16c.load(std::memory_order_relaxed) ? half_path::f16c : half_path::portable;
}

bool set_half_path(half_path path) noexcept {
    if (path == half_path::f16c && !cpu_has_f16c()) return false;
    state().use_f16c.store(path == half_path::f16c, std::memory_order_relaxed);
    return true;
}

void halves_to_floats(const half* in, float* out, std::size_t n) noexcept {
#if NT_HAVE_F16C_PATH
    if (state().use_f16c.load(std::memory_order_relaxed)) return halves_to_floats_f16c(in, out, n);
#endif
    halves_to_floats_portable(in, out, n);
}

void floats_to_halves(const float* in, half* out, std::size_t n) noexcept {
#if NT_HAVE_F16C_PATH
    if (state().use_f16c.load(std::memory_order_relaxed)) return floats_to_halves_f16c(in, out, n);
#endif
    floats_to_halves_portable(in, out, n);
}

}  // namespace nt::detail
