// simd.hpp (private): kernels compiled for several instruction sets with Google
// Highway (libhwy-dev) and picked when they first run (SSE4, AVX2, AVX-512, ...: the
// best the CPU has). Only simd_*.cpp files see Highway.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace nt::detail {

/// dst(r, i) = src(i, r) for r < rows, i < cols, elements of `element_size` 1, 2, 4 or
/// 8 bytes: row r of dst is contiguous in i (dst + r * dst_row bytes), row i of src is
/// contiguous in r (src + i * src_row bytes). Moves square blocks through registers
/// (16x16 bytes, 8x8 16-bit elements, 8x8 32-bit and 4x4 64-bit ones with AVX2), so
/// every load and store is a vector. Returns false (nothing done) for other element
/// sizes.
bool transpose_block(void* dst, std::int64_t dst_row, const void* src, std::int64_t src_row, std::int64_t rows,
                     std::int64_t cols, std::size_t element_size);

/// Channels apart, an image's (H,W,C) -> (C,H,W): row j of dst (dst + j * dst_row
/// bytes) gets element j of each of the `count` groups of k consecutive elements at
/// src. k is 2, 3 or 4 and elements have 1, 2, 4 or 8 bytes, else returns false
/// (nothing done). Moves a vector of each row per k vectors of groups.
bool deinterleave_rows(void* dst, std::int64_t dst_row, const void* src, std::int64_t count, std::int64_t k,
                       std::size_t element_size);

/// The reverse, (C,H,W) -> (H,W,C): dst gets `count` groups of k elements, element j
/// of group i from element i of row j of src (src + j * src_row bytes).
bool interleave_rows(void* dst, const void* src, std::int64_t src_row, std::int64_t count, std::int64_t k,
                     std::size_t element_size);

/// The element types of the row kernels (simd_binary_rows, simd_compare_rows) and of
/// simd_extreme, X(type, the suffix of its kernels' names).
#define NT_FOR_EACH_SIMD_ROW_TYPE(X)                                                                          \
    X(float, F32) X(double, F64) X(std::int32_t, I32) X(std::uint32_t, U32) X(std::int16_t, I16)            \
    X(std::uint16_t, U16) X(std::int8_t, I8) X(std::uint8_t, U8)

#define NT_IS_SIMD_ROW_TYPE(Type, Suffix) || std::is_same_v<T, Type>
template <class T>
inline constexpr bool is_simd_row_type_v = false NT_FOR_EACH_SIMD_ROW_TYPE(NT_IS_SIMD_ROW_TYPE);
#undef NT_IS_SIMD_ROW_TYPE

#define NT_SIMD_ENUMERATOR(name) name,
/// The arithmetic of simd_binary_rows, X(name): each is also binary_op::name.
#define NT_FOR_EACH_SIMD_ARITH(X) X(add) X(sub) X(mul) X(div) X(min) X(max)
enum class simd_arith : std::uint8_t { NT_FOR_EACH_SIMD_ARITH(NT_SIMD_ENUMERATOR) };

/// The comparisons of simd_compare_rows, X(name): each is also binary_op::name.
#define NT_FOR_EACH_SIMD_COMPARE(X) X(eq) X(ne) X(lt) X(le) X(gt) X(ge)
enum class simd_compare : std::uint8_t { NT_FOR_EACH_SIMD_COMPARE(NT_SIMD_ENUMERATOR) };

/// `rows` rows of n elements: row k of o starts at o + k * o_row (element strides, as
/// for a and b), and o[i] = a[i * sa] op b[i * sb] for i < n, with sa and sb each 0
/// (one value for the row) or 1 (contiguous), not both 0. O is T, or bool for
/// comparisons.
template <class T, class O = T>
struct simd_rows {
    O* o;
    const T* a;
    const T* b;
    std::int64_t rows, n;
    std::int64_t o_row, a_row, b_row;
    std::int64_t sa, sb;
    bool stream;
};

/// Computes simd_rows `r` on whole vectors of the CPU's widest instruction set (capped
/// at 256 bits), in one dispatched call, with results identical to the element-wise
/// definition (integer arithmetic wraps; no integer division; min and max with
/// NumPy's NaN rule). With `stream`, stores past each row's vector-aligned start are
/// non-temporal and the caller must fence before the result is read (stream_fence in
/// engine.hpp).
void simd_binary_rows(simd_arith op, const simd_rows<float>& r);
void simd_binary_rows(simd_arith op, const simd_rows<double>& r);
void simd_binary_rows(simd_arith op, const simd_rows<std::int32_t>& r);
void simd_binary_rows(simd_arith op, const simd_rows<std::int16_t>& r);
void simd_binary_rows(simd_arith op, const simd_rows<std::uint16_t>& r);
void simd_binary_rows(simd_arith op, const simd_rows<std::uint32_t>& r);
/// 8-bit elements: no mul either (Highway has no 8-bit multiply on x86).
void simd_binary_rows(simd_arith op, const simd_rows<std::int8_t>& r);
void simd_binary_rows(simd_arith op, const simd_rows<std::uint8_t>& r);

/// Comparisons into bool results (0 or 1), on the same vectors as simd_binary_rows and
/// with C++'s (and NumPy's) rules: a NaN operand makes every comparison false but !=.
/// Stores are plain (`stream` is not used: a bool result is a quarter of a float
/// input's bytes).
void simd_compare_rows(simd_compare op, const simd_rows<float, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<double, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<std::int32_t, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<std::int16_t, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<std::uint16_t, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<std::uint32_t, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<std::int8_t, bool>& r);
void simd_compare_rows(simd_compare op, const simd_rows<std::uint8_t, bool>& r);

/// The float functions of simd_math_rows, X(name): each is also unary_op::name.
#define NT_FOR_EACH_SIMD_MATH(X) \
    X(sqrt) X(floor) X(ceil) X(trunc) X(round) X(exp) X(expm1) X(log) X(log1p) X(tanh) X(sigmoid) X(sin) X(cos)

enum class simd_math : std::uint8_t { NT_FOR_EACH_SIMD_MATH(NT_SIMD_ENUMERATOR) };
#undef NT_SIMD_ENUMERATOR

/// `rows` rows of n contiguous elements: row k of o starts at o + k * o_row, of a at
/// a + k * a_row (element strides). O is T, or a cast's target type.
template <class T, class O = T>
struct simd_unary_rows {
    O* o;
    const T* a;
    std::int64_t rows, n;
    std::int64_t o_row, a_row;
    bool stream;
};

/// o[i] = f(a[i]) on the vectors of simd_binary_rows. sqrt and the roundings (round:
/// half to even) are exact, so identical to libm's. exp, expm1, log, log1p, tanh,
/// sigmoid, sin and cos use Highway's approximations (1 to 4 ULP) where those are
/// accurate and libm's functions for the other values (NaN, infinities, overflowing or
/// subnormal results, |x| > 32768 for sin and cos), so each value gets one result
/// wherever it sits in a row. `stream` as for simd_binary_rows.
void simd_math_rows(simd_math op, const simd_unary_rows<float>& r);
void simd_math_rows(simd_math op, const simd_unary_rows<double>& r);

/// The casts simd_cast_rows computes, X(From, To, kernel name).
#define NT_FOR_EACH_SIMD_CAST(X)              \
    X(float, std::int8_t, CastF32I8)          \
    X(float, std::uint8_t, CastF32U8)         \
    X(float, std::int16_t, CastF32I16)        \
    X(float, std::uint16_t, CastF32U16)       \
    X(double, std::int8_t, CastF64I8)         \
    X(double, std::uint8_t, CastF64U8)        \
    X(double, std::int16_t, CastF64I16)       \
    X(double, std::uint16_t, CastF64U16)      \
    X(double, std::int32_t, CastF64I32)

/// o[i] = a[i] cast as the element loop casts (NaN gives 0, values beyond the target's
/// range its limits, the rest truncate toward zero), on the same vectors; `stream` as
/// for simd_binary_rows.
#define NT_DECLARE_CAST_ROWS(From, To, NAME) void simd_cast_rows(const simd_unary_rows<From, To>& r);
NT_FOR_EACH_SIMD_CAST(NT_DECLARE_CAST_ROWS)
#undef NT_DECLARE_CAST_ROWS

/// The maximum (`max`) or minimum of the n contiguous elements at p, into `result`, on
/// the vectors of simd_binary_rows. Returns false, `result` unspecified, when the run is
/// shorter than a vector, or for floats when it holds a NaN or its extreme is a zero:
/// the caller folds those in order, which decides which NaN or which signed zero is
/// the result. any and all of bool bytes (0 or 1) are the maximum and minimum of u8.
#define NT_DECLARE_EXTREME(Type, Suffix) bool simd_extreme(bool max, const Type* p, std::int64_t n, Type& result);
NT_FOR_EACH_SIMD_ROW_TYPE(NT_DECLARE_EXTREME)
#undef NT_DECLARE_EXTREME

/// The sum of n >= 1 contiguous floats at p in the engine's pairwise order
/// (reduce_impl::pairwise), bit for bit, on vectors.
float simd_pairwise_sum(const float* p, std::int64_t n);
double simd_pairwise_sum(const double* p, std::int64_t n);

/// The number of non-zero bytes among the n at p: the sum of a bool run.
std::uint64_t simd_count_nonzero(const std::uint8_t* p, std::int64_t n);

/// The instruction sets this binary has kernels for and this CPU runs, best first
/// ("AVX3", "AVX2", "SSE4", ...), and the one the dispatcher picks now.
[[nodiscard]] std::vector<std::string> simd_targets();
[[nodiscard]] std::string simd_target();
/// For tests: restricts dispatch to the named target (one of simd_targets()), or with
/// "" restores the CPU's best. Throws invalid_argument for another name.
void force_simd_target(const std::string& name);

}  // namespace nt::detail
