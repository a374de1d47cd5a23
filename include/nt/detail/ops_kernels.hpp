// nt/detail/ops_kernels.hpp: the compiled element-wise and reduction kernels behind
// the operators of <nt/elementwise.hpp> and <nt/reduce.hpp>.
//
// Kernels work on one element type T at a time (mixed-type operations first cast to
// the common type), take pointers and strides in elements over one common shape
// (strides already permuted and broadcast: 0 on broadcast axes), and are compiled
// once per element type (src/engine/kernels/). The result type of each
// operation is given by the traits below.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "nt/dtype.hpp"
#include "nt/promote.hpp"

namespace nt::detail {

enum class binary_op : std::uint8_t {
    add, sub, mul, div, mod, min, max, pow,        // arithmetic
    eq, ne, lt, le, gt, ge,                        // comparisons -> bool
    logical_and, logical_or, logical_xor,          // truthiness -> bool
    floor_div,                                     // arithmetic, not on bool
    atan2, hypot,                                  // float math
    bit_and, bit_or, bit_xor,                      // integers and bool
    shl, shr,                                      // integers
};
inline constexpr binary_op last_binary_op = binary_op::shr;
enum class unary_op : std::uint8_t {
    abs, neg, exp, log, sqrt, sin, cos, tanh, sigmoid, logical_not,
    floor, ceil, round, trunc, sign,                       // rounding; sign not on bool
    isnan, isinf, isfinite,                                // -> bool
    square, reciprocal,                                    // bool -> i8 (NumPy)
    log1p, expm1, exp2, log2, log10, erf,                  // float math
    bit_not,                                               // integers and bool
};
inline constexpr unary_op last_unary_op = unary_op::bit_not;
enum class reduce_op : std::uint8_t { sum, mean, min, max, prod, argmax, argmin, any, all };

[[nodiscard]] constexpr bool is_comparison(binary_op op) noexcept {
    return op >= binary_op::eq && op <= binary_op::ge;
}
[[nodiscard]] constexpr bool is_logical(binary_op op) noexcept {
    return op >= binary_op::logical_and && op <= binary_op::logical_xor;
}
/// Binary float math (atan2, hypot): integer operands are converted to a floating
/// type first, as sqrt's are.
[[nodiscard]] constexpr bool is_float_math(binary_op op) noexcept {
    return op == binary_op::atan2 || op == binary_op::hypot;
}
[[nodiscard]] constexpr bool is_float_math(unary_op op) noexcept {
    using enum unary_op;
    switch (op) {
        case exp: case log: case sqrt: case sin: case cos: case tanh: case sigmoid:
        case floor: case ceil: case trunc: case log1p: case expm1: case exp2: case log2: case log10: case erf:
            return true;
        default:
            return false;
    }
}
[[nodiscard]] constexpr bool is_predicate(unary_op op) noexcept {
    return op == unary_op::logical_not || op == unary_op::isnan || op == unary_op::isinf || op == unary_op::isfinite;
}

/// Floating type of float math (sqrt, exp, ...) on T: T for floating types, else the
/// smallest floating type holding T's values (NumPy's rule): half for bool and 8-bit
/// integers, float for 16-bit integers, double for 32- and 64-bit integers.
template <class T>
using float_result_t = std::conditional_t<is_floating_element_v<T>, T, floating_of_size<2 * sizeof(T)>>;
/// Same, for true division (NumPy: every integer division gives double).
template <class T>
using div_result_t = std::conditional_t<is_floating_element_v<T>, T, double>;

/// The result element type of `op` on operands of type T (the computation type:
/// operands are converted to it first, see binary_operand_t).
template <binary_op Op, class T>
using binary_result_t = std::conditional_t<
    is_comparison(Op) || is_logical(Op), bool,
    std::conditional_t<Op == binary_op::div, div_result_t<T>,
                       std::conditional_t<is_float_math(Op), float_result_t<T>, T>>>;
/// NumPy's result types: bool for predicates; float math as sqrt; round keeps T
/// (bool gives half); square and reciprocal keep T (bool gives int8).
template <unary_op Op, class T>
using unary_result_t = std::conditional_t<
    is_predicate(Op), bool,
    std::conditional_t<
        is_float_math(Op), float_result_t<T>,
        std::conditional_t<std::is_same_v<T, bool> && Op == unary_op::round, half,
                           std::conditional_t<std::is_same_v<T, bool> && (Op == unary_op::square ||
                                                                          Op == unary_op::reciprocal),
                                              std::int8_t, T>>>>;

/// The type a binary operation computes in, from its operands' types A and B:
/// nt::promote_t, except for float math, which takes the wider of each operand's
/// floating type (NumPy's rule: atan2(u8, i8) is f16, not float_result_t<i16> = f32).
template <binary_op Op, class A, class B>
using binary_operand_t =
    std::conditional_t<is_float_math(Op), promote_t<float_result_t<A>, float_result_t<B>>, promote_t<A, B>>;
/// The same for a tensor of T with a scalar of type S ("weak" scalar).
template <binary_op Op, class T, class S>
using binary_scalar_operand_t =
    std::conditional_t<is_float_math(Op), float_result_t<promote_scalar_t<T, S>>, promote_scalar_t<T, S>>;

/// Which element types an operation takes, given the type it computes in (one home
/// for the rule: the typed API static_asserts it, any_tensor and the kernels check it
/// at run time). The operations before floor_div / floor take every type (some throw
/// type_mismatch on bool when run, see run_binary).
///  - floor_divide: not bool (NumPy computes it in int8; cast first);
///  - & | ^ and ~: integers and bool; << >>: integers only; sign: not bool.
template <binary_op Op, class T>
inline constexpr bool binary_accepts_v =
    Op == binary_op::floor_div                                                   ? !std::is_same_v<T, bool>
    : (Op == binary_op::bit_and || Op == binary_op::bit_or || Op == binary_op::bit_xor) ? !is_floating_element_v<T>
    : (Op == binary_op::shl || Op == binary_op::shr) ? !is_floating_element_v<T> && !std::is_same_v<T, bool>
                                                     : true;
template <unary_op Op, class T>
inline constexpr bool unary_accepts_v = Op == unary_op::sign      ? !std::is_same_v<T, bool>
                                        : Op == unary_op::bit_not ? !is_floating_element_v<T>
                                                                  : true;

/// The text of binary_accepts_v / unary_accepts_v for messages: what the operation
/// takes and how to get there ("integer or bool tensors; cast with astype<...>()").
[[nodiscard]] std::string_view accepted_types(binary_op op) noexcept;
[[nodiscard]] std::string_view accepted_types(unary_op op) noexcept;

/// Throws type_mismatch: "<op_name>: <what> is <dtype>; <accepted>".
/// `what` names the operand(s) ("the operands' common type", "the tensor").
[[noreturn]] void throw_unsupported_type(std::string_view op_name, std::string_view what, dtype d,
                                         std::string_view accepted);

/// out = a op b over `shape`; `Out` is binary_result_t<op, T>. Never fails: integer
/// arithmetic wraps, x % 0 == 0, integer pow with a negative exponent truncates.
template <class T>
void run_binary(binary_op op, std::span<const std::int64_t> shape, void* out, std::span<const std::int64_t> out_strides,
                const T* a, std::span<const std::int64_t> a_strides, const T* b, std::span<const std::int64_t> b_strides);

/// The loop of an element-wise operation whose operands need no planning (see
/// alignment::rows): n0 rows of n1 elements, operand k (0 the output, then the inputs)
/// at r * s0[k] + i * s1[k] elements from its start. The planner's recogniser
/// (row_major_plan in the engine) makes it: a contiguous output, and inputs each
/// contiguous in the output's order, one value, or one row broadcast over the rows.
/// No member initialisers: a plan built on the stack for a tiny operation would be
/// zeroed first (88 bytes, a `rep stos` that was a visible part of a tiny add; figures:
/// docs/performance.md, "Figures behind the engine's thresholds"); write `{}` where
/// zeros are wanted.
struct row_plan {
    bool valid;
    std::int64_t n0, n1;
    std::array<std::int64_t, 4> s0, s1;
};

/// Work above this many elements takes the planned path (streaming stores, threads):
/// the row plan is for the fixed cost of small operations.
inline constexpr std::int64_t row_plan_max_elements = std::int64_t{1} << 16;

/// run_binary over a row plan: the small operation's path (one call to the kernel,
/// no planning). The caller checks the plan fits (valid, contiguous output) and that
/// the work is too small for threads (see want_parallel).
template <class T>
void run_binary_rows(binary_op op, const row_plan& rows, void* out, const T* a, const T* b);

/// An input whose element type may differ from the one its operation computes in:
/// data, element type, and strides in elements over the operation's shape.
struct converted_input {
    const void* data = nullptr;
    dtype type = dtype::f32;
    std::span<const std::int64_t> strides;
};

/// run_binary for inputs of other element types: out = T(a) op T(b), each input
/// converted as run_cast converts. The conversion runs piece by piece in buffers that
/// stay in cache, inside the operation's one pass (no converted copy of the input).
template <class T>
void run_binary_converting(binary_op op, std::span<const std::int64_t> shape, void* out,
                           std::span<const std::int64_t> out_strides, const converted_input& a,
                           const converted_input& b);

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

/// out = NaN-propagating min(max(x, lo), hi), as np.clip (hi wins when lo > hi).
template <class T>
void run_clip(std::span<const std::int64_t> shape, T* out, std::span<const std::int64_t> out_strides, const T* x,
              std::span<const std::int64_t> x_strides, const T* lo, std::span<const std::int64_t> lo_strides,
              const T* hi, std::span<const std::int64_t> hi_strides);

/// out = a with NaN, +inf and -inf replaced (floating T; other types are copied).
template <class T>
void run_nan_to_num(std::span<const std::int64_t> shape, T* out, std::span<const std::int64_t> out_strides,
                    const T* a, std::span<const std::int64_t> a_strides, T nan, T posinf, T neginf);

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
