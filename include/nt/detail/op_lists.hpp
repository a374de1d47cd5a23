// nt/detail/op_lists.hpp: the lists of element-wise functions and reductions, one
// line each, from which <nt/elementwise.hpp> and <nt/reduce.hpp> declare the typed
// forms and <nt/any_tensor.hpp> the any_tensor forms: adding an operation here adds
// it to both.
#pragma once

/// Binary functions, X(function, detail::binary_op, name in messages): tensor with
/// tensor and with a scalar on either side.
///  - minimum / maximum: NaN propagates, as NumPy's minimum / maximum;
///  - pow: integer powers wrap, a negative integer exponent truncates;
///  - add ... mod: the named forms of the arithmetic operators (NumPy's add, ...);
///  - floor_divide: NumPy's //, not on bool;
///  - atan2, hypot: float math (integer operands become floating, as for sqrt);
///  - & | ^ and bitwise_*: integers and bool; << >> and *_shift: integers (NumPy's
///    rule for shifts by the bit width or more).
#define NT_FOR_EACH_BINARY_FUNCTION(X)              \
    X(operator+, add, "operator+")                  \
    X(operator-, sub, "operator-")                  \
    X(operator*, mul, "operator*")                  \
    X(operator/, div, "operator/")                  \
    X(operator%, mod, "operator%")                  \
    X(operator==, eq, "operator==")                 \
    X(operator!=, ne, "operator!=")                 \
    X(operator<, lt, "operator<")                   \
    X(operator<=, le, "operator<=")                 \
    X(operator>, gt, "operator>")                   \
    X(operator>=, ge, "operator>=")                 \
    X(minimum, min, "minimum")                      \
    X(maximum, max, "maximum")                      \
    X(pow, pow, "pow")                              \
    X(logical_and, logical_and, "logical_and")      \
    X(logical_or, logical_or, "logical_or")         \
    X(logical_xor, logical_xor, "logical_xor")      \
    X(add, add, "add")                              \
    X(subtract, sub, "subtract")                    \
    X(multiply, mul, "multiply")                    \
    X(divide, div, "divide")                        \
    X(mod, mod, "mod")                              \
    X(floor_divide, floor_div, "floor_divide")      \
    X(atan2, atan2, "atan2")                        \
    X(hypot, hypot, "hypot")                        \
    X(operator&, bit_and, "operator&")              \
    X(operator|, bit_or, "operator|")               \
    X(operator^, bit_xor, "operator^")              \
    X(operator<<, shl, "operator<<")                \
    X(operator>>, shr, "operator>>")                \
    X(bitwise_and, bit_and, "bitwise_and")          \
    X(bitwise_or, bit_or, "bitwise_or")             \
    X(bitwise_xor, bit_xor, "bitwise_xor")          \
    X(left_shift, shl, "left_shift")                \
    X(right_shift, shr, "right_shift")

/// In-place forms, X(operator, detail::binary_op, name in messages).
#define NT_FOR_EACH_IN_PLACE(X)      \
    X(operator+=, add, "operator+=") \
    X(operator-=, sub, "operator-=") \
    X(operator*=, mul, "operator*=") \
    X(operator/=, div, "operator/=") \
    X(operator%=, mod, "operator%=")   \
    X(operator&=, bit_and, "operator&=") \
    X(operator|=, bit_or, "operator|=")  \
    X(operator^=, bit_xor, "operator^=") \
    X(operator<<=, shl, "operator<<=")   \
    X(operator>>=, shr, "operator>>=")

/// Unary functions, X(function, detail::unary_op). Result types as NumPy's
/// (detail::unary_result_t): float math (exp ... log10, floor, ceil, trunc) makes
/// integers floating; round keeps T (half to even; bool gives f16); isnan, isinf,
/// isfinite give bool; square, reciprocal keep T (bool gives i8); sign refuses bool;
/// bitwise_not (~) takes integers and bool.
#define NT_FOR_EACH_UNARY_FUNCTION(X) \
    X(abs, abs)                       \
    X(neg, neg)                       \
    X(exp, exp)                       \
    X(log, log)                       \
    X(sqrt, sqrt)                     \
    X(sin, sin)                       \
    X(cos, cos)                       \
    X(tanh, tanh)                     \
    X(sigmoid, sigmoid)               \
    X(logical_not, logical_not)       \
    X(floor, floor)                   \
    X(ceil, ceil)                     \
    X(round, round)                   \
    X(trunc, trunc)                   \
    X(sign, sign)                     \
    X(isnan, isnan)                   \
    X(isinf, isinf)                   \
    X(isfinite, isfinite)             \
    X(square, square)                 \
    X(reciprocal, reciprocal)         \
    X(log1p, log1p)                   \
    X(expm1, expm1)                   \
    X(exp2, exp2)                     \
    X(log2, log2)                     \
    X(log10, log10)                   \
    X(erf, erf)                       \
    X(bitwise_not, bit_not)

/// Reductions, X(function, detail::reduce_op); `all` is nt::all's call operator.
#define NT_FOR_EACH_REDUCTION(X) \
    X(sum, sum)                  \
    X(mean, mean)                \
    X(min, min)                  \
    X(max, max)                  \
    X(prod, prod)                \
    X(argmax, argmax)            \
    X(argmin, argmin)            \
    X(any, any)
