// nt/detail/ops_kernels.hpp: the compiled element-wise and reduction kernels behind
// the operators of <nt/elementwise.hpp> and <nt/reduce.hpp>.
//
// Kernels work on one element type T at a time (mixed-type operations first cast to
// the common type), take pointers and strides in elements over one common shape
// (strides already permuted and broadcast: 0 on broadcast axes), and are compiled
// once per element type (src/core/kernels/). The result type of each
// operation is given by the traits below.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "nt/dtype.hpp"
#include "nt/promote.hpp"

namespace nt::detail {

enum class binary_op : std::uint8_t {
    add, sub, mul, div, mod, min, max, pow,        // arithmetic
    eq, ne, lt, le, gt, ge,                        // comparisons -> bool
    logical_and, logical_or, logical_xor,          // truthiness -> bool
};
enum class unary_op : std::uint8_t { abs, neg, exp, log, sqrt, sin, cos, tanh, sigmoid, logical_not };
enum class reduce_op : std::uint8_t { sum, mean, min, max, prod, argmax, argmin, any, all };

[[nodiscard]] constexpr bool is_comparison(binary_op op) noexcept {
    return op >= binary_op::eq && op <= binary_op::ge;
}
[[nodiscard]] constexpr bool is_logical(binary_op op) noexcept { return op >= binary_op::logical_and; }
[[nodiscard]] constexpr bool is_float_math(unary_op op) noexcept {
    return op != unary_op::abs && op != unary_op::neg && op != unary_op::logical_not;
}

/// Floating type of float math (sqrt, exp, ...) on T: T for floating types, else the
/// smallest floating type holding T's values (NumPy's rule): half for bool and 8-bit
/// integers, float for 16-bit integers, double for 32- and 64-bit integers.
template <class T>
using float_result_t = std::conditional_t<is_floating_element_v<T>, T, floating_of_size<2 * sizeof(T)>>;
/// Same, for true division (NumPy: every integer division gives double).
template <class T>
using div_result_t = std::conditional_t<is_floating_element_v<T>, T, double>;

/// The result element type of `op` on operands of type T.
template <binary_op Op, class T>
using binary_result_t = std::conditional_t<
    is_comparison(Op) || is_logical(Op), bool,
    std::conditional_t<Op == binary_op::div, div_result_t<T>, T>>;
template <unary_op Op, class T>
using unary_result_t =
    std::conditional_t<Op == unary_op::logical_not, bool, std::conditional_t<is_float_math(Op), float_result_t<T>, T>>;

/// out = a op b over `shape`; `Out` is binary_result_t<op, T>. Never fails: integer
/// arithmetic wraps, x % 0 == 0, integer pow with a negative exponent truncates.
template <class T>
void run_binary(binary_op op, std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> out_strides,
                const T* a, std::span<const std::int64_t> a_strides, const T* b, std::span<const std::int64_t> b_strides);

/// out = op(a) over `shape`; `Out` is unary_result_t<op, T>.
template <class T>
void run_unary(unary_op op, std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> out_strides,
               const T* a, std::span<const std::int64_t> a_strides);

/// out = static_cast-like conversion of a to To: float to integer saturates (NaN
/// gives 0), anything to bool is `!= 0`.
template <class To, class From>
void run_cast(std::span<const std::int64_t> shape, To* out, std::span<const std::int64_t> out_strides, const From* a,
              std::span<const std::int64_t> a_strides);

/// out = cond ? a : b.
template <class T>
void run_where(std::span<const std::int64_t> shape, T* out, std::span<const std::int64_t> out_strides, const bool* cond,
               std::span<const std::int64_t> cond_strides, const T* a, std::span<const std::int64_t> a_strides,
               const T* b, std::span<const std::int64_t> b_strides);

/// Result type of a reduction (NumPy's): sum/prod of unsigned integers give uint64, of
/// signed integers and bool int64, of floating types the type itself (half sums
/// accumulate in float); mean of integers and bool gives double, of floating types the
/// type itself; argmax/argmin give int64, any/all bool.
template <reduce_op Op, class T>
using reduce_result_t = std::conditional_t<
    Op == reduce_op::any || Op == reduce_op::all, bool,
    std::conditional_t<
        Op == reduce_op::argmax || Op == reduce_op::argmin, std::int64_t,
        std::conditional_t<
            Op == reduce_op::mean, div_result_t<T>,
            std::conditional_t<(Op == reduce_op::sum || Op == reduce_op::prod) && !is_floating_element_v<T>,
                               std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>, std::uint64_t,
                                                  std::int64_t>,
                               T>>>>;

/// Reduces `in` (over `shape`) into `out`, laid out with keepdims: same rank, stride 0
/// on the reduced axes (marked in `reduced`). For argmax/argmin the index counts the
/// reduced axes in row-major order. The caller checks that min/max/argmax/argmin are
/// not asked of an empty reduction.
template <class T>
void run_reduce(reduce_op op, std::span<const std::int64_t> shape, std::span<const bool> reduced, void* out,
                std::span<const std::int64_t> out_strides, const T* in, std::span<const std::int64_t> in_strides);

}  // namespace nt::detail
