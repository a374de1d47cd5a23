// Element-wise operations, casts, where and reductions against NumPy: replays the
// cases written by tests/numpy/gen_elementwise.py (see its docstring for the format).
#include <nt_test_support.hpp>

#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <variant>

#include <boost/hana/for_each.hpp>

#include "element_types.hpp"
#include "nt/nt.hpp"

namespace {

std::size_t promotions_checked = 0;

template <class Void, class... Ts>
struct variant_of {
    using type = std::variant<nt::Tensor<Ts>...>;
};
#define NT_TENSOR_ALTERNATIVE(T, TAG, NAME) , T
/// A tensor of any element type (this test's own stand-in for a runtime-typed tensor).
using any_tensor = typename variant_of<void NT_FOR_EACH_ELEMENT_TYPE(NT_TENSOR_ALTERNATIVE)>::type;
#undef NT_TENSOR_ALTERNATIVE

template <class T>
std::string dtype_name() {
    return std::string(nt::numpy_name(nt::dtype_of<T>));
}

nt::dtype parse_dtype(const std::string& name) {
    nt::dtype d{};
    INFO("dtype " << name);
    REQUIRE(nt::dtype_from_string(name, d));
    return d;
}

struct operand_text {
    std::string dtype;
    std::vector<std::int64_t> sizes;
    std::vector<std::string> names;
    std::string view;
    std::vector<std::string> values;
};

operand_text read_operand(std::istringstream& in, bool with_view) {
    operand_text o;
    std::size_t rank = 0, n = 0;
    in >> o.dtype >> rank;
    o.sizes.resize(rank);
    o.names.resize(rank);
    for (auto& s : o.sizes) in >> s;
    for (auto& s : o.names) in >> s;
    if (with_view) in >> o.view;
    in >> n;
    o.values.resize(n);
    for (auto& v : o.values) in >> v;
    return o;
}

template <class T>
T parse_value(const std::string& text) {
    // strtod, not stod: stod throws on subnormal values. The text of a float16 is its
    // exact value, so the conversion to half is exact too.
    if constexpr (nt::is_floating_element_v<T>) return static_cast<T>(std::strtod(text.c_str(), nullptr));
    else if constexpr (std::is_same_v<T, bool>) return text == "1";
    else if constexpr (std::is_unsigned_v<T>) return static_cast<T>(std::stoull(text));
    else return static_cast<T>(std::stoll(text));
}

template <class T>
nt::Tensor<T> make_operand(const operand_text& o) {
    std::vector<T> values;
    for (const auto& v : o.values) values.push_back(parse_value<T>(v));
    std::vector<std::int64_t> stored = o.sizes;
    const auto colon = o.view.find(':');
    const int axis = colon == std::string::npos ? -1 : std::stoi(o.view.substr(colon + 1));
    if (o.view.rfind("broadcast", 0) == 0) stored[std::size_t(axis)] = 1;
    // from_vector with an empty shape makes one axis; rank 0 is a scalar.
    nt::Tensor<T> t = stored.empty() ? nt::scalar<T>(values.at(0)) : nt::from_vector<T>(values, stored);
    if (o.view.rfind("reversed", 0) == 0) t = t.slice(axis, std::nullopt, std::nullopt, -1);
    if (o.view.rfind("broadcast", 0) == 0) t = t.broadcast_to(o.sizes);
    std::vector<nt::name> names;
    for (const auto& n : o.names) names.emplace_back(n);
    if (!names.empty()) t = t.rename(names);
    return t;
}

any_tensor make_any(const operand_text& o) {
    any_tensor result;
    nt::detail::visit_dtype(parse_dtype(o.dtype), [&](auto t) { result = make_operand<typename decltype(t)::type>(o); });
    return result;
}

template <class T>
any_tensor wrap(nt::Tensor<T> t) {
    return any_tensor(std::move(t));
}

/// The library's runtime-typed handle, for the second replay of the math and mask
/// operations (and the only one for the types the typed API refuses to compile).
nt::any_tensor to_any(const any_tensor& v) {
    return std::visit([](const auto& t) { return nt::any_tensor(t); }, v);
}
any_tensor from_any(const nt::any_tensor& a) {
    return nt::visit([](const auto& t) -> any_tensor { return wrap(t); }, a);
}

/// The binary operations of the math section through nt::any_tensor.
nt::any_tensor any_math_binary(const std::string& op, const nt::any_tensor& x, const nt::any_tensor& y) {
    if (op == "floor_divide") return nt::floor_divide(x, y);
    if (op == "atan2") return nt::atan2(x, y);
    if (op == "hypot") return nt::hypot(x, y);
    if (op == "bitwise_and") return x & y;
    if (op == "bitwise_or") return nt::bitwise_or(x, y);
    if (op == "bitwise_xor") return x ^ y;
    if (op == "left_shift") return x << y;
    if (op == "right_shift") return nt::right_shift(x, y);
    FAIL("unknown binary op " << op);
    return x;
}

/// d op= y through the any_tensor in-place operators; returns d.
nt::any_tensor any_in_place(const std::string& op, nt::any_tensor& d, const nt::any_tensor& y) {
    if (op == "bitwise_and") return d &= y;
    if (op == "bitwise_or") return d |= y;
    if (op == "bitwise_xor") return d ^= y;
    if (op == "left_shift") return d <<= y;
    if (op == "right_shift") return d >>= y;
    FAIL("unknown in-place op " << op);
    return d;
}

nt::any_tensor any_math_unary(const std::string& op, const nt::any_tensor& x) {
#define NT_ANY_UNARY_CASE(name) \
    if (op == #name) return nt::name(x);
    NT_ANY_UNARY_CASE(floor)
    NT_ANY_UNARY_CASE(ceil)
    NT_ANY_UNARY_CASE(round)
    NT_ANY_UNARY_CASE(trunc)
    NT_ANY_UNARY_CASE(sign)
    NT_ANY_UNARY_CASE(isnan)
    NT_ANY_UNARY_CASE(isinf)
    NT_ANY_UNARY_CASE(isfinite)
    NT_ANY_UNARY_CASE(square)
    NT_ANY_UNARY_CASE(reciprocal)
    NT_ANY_UNARY_CASE(log1p)
    NT_ANY_UNARY_CASE(expm1)
    NT_ANY_UNARY_CASE(exp2)
    NT_ANY_UNARY_CASE(log2)
    NT_ANY_UNARY_CASE(log10)
    NT_ANY_UNARY_CASE(erf)
#undef NT_ANY_UNARY_CASE
    if (op == "bitwise_not") return ~x;
    FAIL("unknown unary op " << op);
    return x;
}

/// Whether the typed API compiles op on X and Y (the rule it static_asserts).
template <nt::detail::binary_op Op, class X, class Y>
constexpr bool typed_binary = nt::detail::binary_accepts_v<Op, nt::detail::binary_operand_t<Op, X, Y>>;

any_tensor binary(const std::string& op, const any_tensor& a, const any_tensor& b) {
    return std::visit(
        [&](const auto& x, const auto& y) -> any_tensor {
            using X = typename std::decay_t<decltype(x)>::value_type;
            using Y = typename std::decay_t<decltype(y)>::value_type;
            constexpr bool both_bool = std::is_same_v<X, bool> && std::is_same_v<Y, bool>;
            if (op == "add") return wrap(x + y);
            if (op == "mul") return wrap(x * y);
            if (op == "div") return wrap(x / y);
            if (op == "min") return wrap(nt::minimum(x, y));
            if (op == "max") return wrap(nt::maximum(x, y));
            if (op == "eq") return wrap(x == y);
            if (op == "ne") return wrap(x != y);
            if (op == "lt") return wrap(x < y);
            if (op == "le") return wrap(x <= y);
            if (op == "gt") return wrap(x > y);
            if (op == "ge") return wrap(x >= y);
            if (op == "logical_and") return wrap(nt::logical_and(x, y));
            if (op == "logical_or") return wrap(nt::logical_or(x, y));
            if (op == "logical_xor") return wrap(nt::logical_xor(x, y));
            if constexpr (!both_bool) {
                if (op == "sub") return wrap(x - y);
                if (op == "mod") return wrap(x % y);
                if (op == "pow") return wrap(nt::pow(x, y));
            }
            using enum nt::detail::binary_op;
            // A type the typed API refuses at compile time: the runtime-typed handle
            // (which throws type_mismatch, as the case expects).
#define NT_MATH_BINARY(text, Op, expr)                                                 \
    if (op == text) {                                                                  \
        if constexpr (typed_binary<Op, X, Y>) return wrap(expr);                       \
        else return from_any(any_math_binary(op, nt::any_tensor(x), nt::any_tensor(y))); \
    }
            NT_MATH_BINARY("floor_divide", floor_div, nt::floor_divide(x, y))
            NT_MATH_BINARY("atan2", atan2, nt::atan2(x, y))
            NT_MATH_BINARY("hypot", hypot, nt::hypot(x, y))
            NT_MATH_BINARY("bitwise_and", bit_and, x & y)
            NT_MATH_BINARY("bitwise_or", bit_or, x | y)
            NT_MATH_BINARY("bitwise_xor", bit_xor, nt::bitwise_xor(x, y))
            NT_MATH_BINARY("left_shift", shl, nt::left_shift(x, y))
            NT_MATH_BINARY("right_shift", shr, x >> y)
#undef NT_MATH_BINARY
            FAIL("unknown binary op " << op);
            return wrap(x);
        },
        a, b);
}

/// dst op= src for the bitwise operators and shifts; dst is a fresh copy.
any_tensor in_place(const std::string& op, const any_tensor& dst, const any_tensor& src) {
    return std::visit(
        [&](auto x, const auto& y) -> any_tensor {
            using X = typename std::decay_t<decltype(x)>::value_type;
            using Y = typename std::decay_t<decltype(y)>::value_type;
            using enum nt::detail::binary_op;
            // Types the typed form refuses at compile time go through any_tensor.
#define NT_IN_PLACE_CASE(text, Op, stmt)                                     \
    if (op == text) {                                                        \
        if constexpr (typed_binary<Op, X, Y>) {                              \
            auto& same = (stmt);                                             \
            CHECK(&same == &x);                                              \
            return wrap(x);                                                  \
        } else {                                                             \
            nt::any_tensor d(x);                                             \
            return from_any(any_in_place(op, d, nt::any_tensor(y)));         \
        }                                                                    \
    }
            NT_IN_PLACE_CASE("bitwise_and", bit_and, x &= y)
            NT_IN_PLACE_CASE("bitwise_or", bit_or, x |= y)
            NT_IN_PLACE_CASE("bitwise_xor", bit_xor, x ^= y)
            NT_IN_PLACE_CASE("left_shift", shl, x <<= y)
            NT_IN_PLACE_CASE("right_shift", shr, x >>= y)
#undef NT_IN_PLACE_CASE
            FAIL("unknown in-place op " << op);
            return wrap(x);
        },
        dst, src);
}

any_tensor unary(const std::string& op, const any_tensor& a) {
    return std::visit(
        [&](const auto& x) -> any_tensor {
            using X = typename std::decay_t<decltype(x)>::value_type;
            if (op == "abs") return wrap(nt::abs(x));
            if (op == "exp") return wrap(nt::exp(x));
            if (op == "log") return wrap(nt::log(x));
            if (op == "sqrt") return wrap(nt::sqrt(x));
            if (op == "sin") return wrap(nt::sin(x));
            if (op == "cos") return wrap(nt::cos(x));
            if (op == "tanh") return wrap(nt::tanh(x));
            if (op == "sigmoid") return wrap(nt::sigmoid(x));
            if (op == "logical_not") return wrap(!x);
            if constexpr (!std::is_same_v<X, bool>) {
                if (op == "neg") return wrap(-x);
            }
            if (op == "floor") return wrap(nt::floor(x));
            if (op == "ceil") return wrap(nt::ceil(x));
            if (op == "round") return wrap(nt::round(x));
            if (op == "trunc") return wrap(nt::trunc(x));
            if (op == "isnan") return wrap(nt::isnan(x));
            if (op == "isinf") return wrap(nt::isinf(x));
            if (op == "isfinite") return wrap(nt::isfinite(x));
            if (op == "square") return wrap(nt::square(x));
            if (op == "reciprocal") return wrap(nt::reciprocal(x));
            if (op == "log1p") return wrap(nt::log1p(x));
            if (op == "expm1") return wrap(nt::expm1(x));
            if (op == "exp2") return wrap(nt::exp2(x));
            if (op == "log2") return wrap(nt::log2(x));
            if (op == "log10") return wrap(nt::log10(x));
            if (op == "erf") return wrap(nt::erf(x));
            using enum nt::detail::unary_op;
            if (op == "sign") {
                if constexpr (nt::detail::unary_accepts_v<sign, X>) return wrap(nt::sign(x));
                else return from_any(nt::sign(nt::any_tensor(x)));
            }
            if (op == "bitwise_not") {
                if constexpr (nt::detail::unary_accepts_v<bit_not, X>) return wrap(~x);
                else return from_any(~nt::any_tensor(x));
            }
            FAIL("unknown unary op " << op);
            return wrap(x);
        },
        a);
}

any_tensor cast(const std::string& to, const any_tensor& a) {
    any_tensor result;
    std::visit(
        [&](const auto& x) {
            nt::detail::visit_dtype(parse_dtype(to), [&](auto t) { result = wrap(nt::astype<typename decltype(t)::type>(x)); });
        },
        a);
    return result;
}

any_tensor where(const any_tensor& c, const any_tensor& a, const any_tensor& b) {
    const auto& cond = std::get<nt::Tensor<bool>>(c);
    return std::visit([&](const auto& x, const auto& y) -> any_tensor { return wrap(nt::where(cond, x, y)); }, a, b);
}

/// A scalar "<kind>:<text>" of the oracle: int is std::int64_t, float double, bool bool.
template <class F>
decltype(auto) with_scalar(const std::string& spec, F&& f) {
    const auto colon = spec.find(':');
    INFO("scalar " << spec);
    REQUIRE(colon != std::string::npos);
    const std::string kind = spec.substr(0, colon), text = spec.substr(colon + 1);
    if (kind == "int") return f(static_cast<std::int64_t>(std::stoll(text)));
    if (kind == "bool") return f(text == "1");
    REQUIRE(kind == "float");
    return f(std::strtod(text.c_str(), nullptr));
}

nt::any_scalar any_scalar_of(const std::string& spec) {
    return with_scalar(spec, [](auto v) { return nt::any_scalar::of(v); });
}

/// clip(t, lo, hi), each bound "tensor" (the next operand) or a scalar; tensor bounds
/// share one type (the replay visits t and lo; hi follows lo), a single tensor bound
/// has t's type.
any_tensor clip(const std::string& lo_spec, const std::string& hi_spec, const std::vector<any_tensor>& operands) {
    const bool lo_tensor = lo_spec == "tensor", hi_tensor = hi_spec == "tensor";
    if (lo_tensor && hi_tensor)
        return std::visit(
            [&](const auto& t, const auto& lo) -> any_tensor {
                using L = typename std::decay_t<decltype(lo)>::value_type;
                return wrap(nt::clip(t, lo, std::get<nt::Tensor<L>>(operands[2])));
            },
            operands[0], operands[1]);
    return std::visit(
        [&](const auto& t) -> any_tensor {
            using T = typename std::decay_t<decltype(t)>::value_type;
            if (lo_tensor || hi_tensor) {
                const auto& bound = std::get<nt::Tensor<T>>(operands[1]);
                if (lo_tensor) return with_scalar(hi_spec, [&](auto hi) { return wrap(nt::clip(t, bound, hi)); });
                return with_scalar(lo_spec, [&](auto lo) { return wrap(nt::clip(t, lo, bound)); });
            }
            return with_scalar(lo_spec, [&](auto lo) {
                return with_scalar(hi_spec, [&](auto hi) { return wrap(nt::clip(t, lo, hi)); });
            });
        },
        operands[0]);
}

nt::any_tensor any_clip(const std::string& lo_spec, const std::string& hi_spec,
                        const std::vector<nt::any_tensor>& operands) {
    const bool lo_tensor = lo_spec == "tensor", hi_tensor = hi_spec == "tensor";
    if (lo_tensor && hi_tensor) return nt::clip(operands[0], operands[1], operands[2]);
    if (lo_tensor) return with_scalar(hi_spec, [&](auto hi) { return nt::clip(operands[0], operands[1], hi); });
    if (hi_tensor) return with_scalar(lo_spec, [&](auto lo) { return nt::clip(operands[0], lo, operands[1]); });
    return with_scalar(lo_spec, [&](auto lo) {
        return with_scalar(hi_spec, [&](auto hi) { return nt::clip(operands[0], lo, hi); });
    });
}

/// where with scalars: form "sa" where(c, s, t), "as" where(c, t, s), "ss" where(c, s1, s2).
any_tensor where_scalar(const std::string& form, const std::string& s1, const std::string& s2,
                        const std::vector<any_tensor>& operands) {
    const auto& cond = std::get<nt::Tensor<bool>>(operands[0]);
    if (form == "ss")
        return with_scalar(s1, [&](auto a) {
            return with_scalar(s2, [&](auto b) { return wrap(nt::where(cond, a, b)); });
        });
    return std::visit(
        [&](const auto& t) -> any_tensor {
            return with_scalar(s1, [&](auto v) {
                return form == "sa" ? wrap(nt::where(cond, v, t)) : wrap(nt::where(cond, t, v));
            });
        },
        operands[1]);
}

std::optional<double> optional_number(const std::string& text) {
    if (text == "none") return std::nullopt;
    return std::strtod(text.c_str(), nullptr);
}

any_tensor reduce(const std::string& op, const std::string& axes_text, bool keepdims, const any_tensor& a) {
    return std::visit(
        [&](const auto& x) -> any_tensor {
            std::vector<nt::Axis> axes;
            if (axes_text == "all") {
                for (std::size_t d = 0; d < x.rank(); ++d) axes.emplace_back(d);
            } else if (axes_text != "none") {
                std::istringstream in(axes_text);
                std::string item;
                while (std::getline(in, item, ',')) axes.emplace_back(std::stoi(item));
            }
            const bool every = axes_text == "all" && !keepdims;
            const nt::axes_arg list(axes);
#define NT_REDUCE_CASE(name)                                            \
    if (op == #name) return wrap(every ? nt::name(x) : nt::name(x, list, keepdims));
            NT_REDUCE_CASE(sum)
            NT_REDUCE_CASE(mean)
            NT_REDUCE_CASE(min)
            NT_REDUCE_CASE(max)
            NT_REDUCE_CASE(prod)
            NT_REDUCE_CASE(argmax)
            NT_REDUCE_CASE(argmin)
            NT_REDUCE_CASE(any)
            NT_REDUCE_CASE(all)
#undef NT_REDUCE_CASE
            FAIL("unknown reduction " << op);
            return wrap(x);
        },
        a);
}

/// Whether a result computed in another order or with another libm than NumPy's may
/// differ from it by rounding: float math, powers, sums, products, means. The rest
/// (arithmetic, casts, min/max, ...) must agree exactly, float16 rounding included.
bool rounding_may_differ(const std::string& kind, const std::string& op) {
    static const std::set<std::string> float_math = {"exp",   "log",  "sqrt", "sin",  "cos",  "tanh", "sigmoid",
                                                      "log1p", "expm1", "exp2", "log2", "log10", "erf"};
    if (kind == "unary") return float_math.count(op) != 0;
    if (kind == "binary") return op == "pow" || op == "atan2" || op == "hypot";
    if (kind == "reduce") return op == "sum" || op == "mean" || op == "prod";
    return false;
}

bool close(double got, double want, const std::string& dtype, bool tolerant) {
    if (std::isnan(want)) return std::isnan(got);
    if (!tolerant || std::isinf(want)) return got == want;
    if (dtype == "float16") {  // one unit in the last place of the float16 result
        const double ulp = std::ldexp(1.0, std::max(std::ilogb(want == 0 ? 6.1e-5 : want), -14) - 10);
        return std::fabs(got - want) <= ulp;
    }
    if (dtype == "float32") return std::fabs(got - want) <= 1e-6 + 2e-5 * std::fabs(want);
    if (dtype == "float64") return std::fabs(got - want) <= 1e-12 + 1e-12 * std::fabs(want);
    return got == want;
}

/// Integers compare as text (uint64 and int64 values do not all fit a double).
template <class T>
std::string exact_text(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? "1" : "0";
    else if constexpr (std::is_unsigned_v<T>) return std::to_string(static_cast<std::uint64_t>(v));
    else return std::to_string(static_cast<std::int64_t>(v));
}

void check_result(const any_tensor& result, const operand_text& expected, bool tolerant) {
    std::visit(
        [&](const auto& t) {
            using T = typename std::decay_t<decltype(t)>::value_type;
            CHECK(dtype_name<T>() == expected.dtype);
            REQUIRE(std::vector<std::int64_t>(t.shape().begin(), t.shape().end()) == expected.sizes);
            std::vector<std::string> names;
            for (auto n : t.names()) names.emplace_back(n.str());
            CHECK(names == expected.names);
            const auto values = t.to_vector();
            REQUIRE(values.size() == expected.values.size());
            for (std::size_t i = 0; i < values.size(); ++i) {
                if constexpr (nt::is_floating_element_v<T>) {
                    const double want = std::strtod(expected.values[i].c_str(), nullptr);
                    const double got = static_cast<double>(static_cast<T>(values[i]));
                    if (!close(got, want, expected.dtype, tolerant)) {
                        FAIL_CHECK("element " << i << ": got " << got << ", NumPy gives " << expected.values[i]);
                        return;
                    }
                } else if (exact_text(static_cast<T>(values[i])) != expected.values[i]) {
                    FAIL_CHECK("element " << i << ": got " << exact_text(static_cast<T>(values[i])) << ", NumPy gives "
                                          << expected.values[i]);
                    return;
                }
            }
        },
        result);
}

/// "promote a b c": np.result_type(a, b) is c; nt::promote_types and nt::promote_t agree.
void check_promotion(const std::string& line) {
    INFO(line);
    std::istringstream in(line);
    std::string word, a, b, c;
    in >> word >> a >> b >> c;
    const nt::dtype da = parse_dtype(a), db = parse_dtype(b), dc = parse_dtype(c);
    CHECK(nt::promote_types(da, db) == dc);
    nt::detail::visit_dtype(da, [&](auto ta) {
        nt::detail::visit_dtype(db, [&](auto tb) {
            using P = nt::promote_t<typename decltype(ta)::type, typename decltype(tb)::type>;
            CHECK(nt::dtype_of<P> == dc);
        });
    });
    ++promotions_checked;
}

bool is_math_binary(const std::string& op) {
    static const std::set<std::string> ops = {"floor_divide", "atan2",      "hypot",      "bitwise_and",
                                              "bitwise_or",   "bitwise_xor", "left_shift", "right_shift"};
    return ops.count(op) != 0;
}
bool is_math_unary(const std::string& op) {
    static const std::set<std::string> ops = {"floor",  "ceil",       "round", "trunc", "sign", "isnan",
                                              "isinf",  "isfinite",   "square", "reciprocal", "log1p", "expm1",
                                              "exp2",   "log2",       "log10", "erf", "bitwise_not"};
    return ops.count(op) != 0;
}

std::size_t replay(const std::string& file) {
    std::ifstream in(file);
    INFO("oracle file " << file << " (generated by tests/numpy/gen_elementwise.py)");
    REQUIRE(in.good());
    std::vector<std::string> block;
    std::size_t cases = 0;
    auto run_block = [&] {
        if (block.empty()) return;
        std::string all_lines;
        for (const auto& l : block) all_lines += l.substr(0, 300) + "\n";
        INFO("case:\n" << all_lines);
        std::istringstream head(block[0]);
        std::string word, kind, op;
        int id = 0;
        head >> word >> id >> kind >> op;
        std::vector<any_tensor> operands;
        operand_text destination;
        for (std::size_t l = 1; l + 1 < block.size(); ++l) {
            std::istringstream line(block[l]);
            line >> word;
            const operand_text text = read_operand(line, true);
            if (l == 1) destination = text;
            operands.push_back(make_any(text));
        }
        std::istringstream last(block.back());
        last >> word;
        // The expected operand, read afresh for each replay.
        auto last_copy = [&] {
            auto stream = std::make_shared<std::istringstream>(block.back());
            std::string skip;
            *stream >> skip;
            return stream;
        };
        if (kind == "print") {  // NumPy's repr up to the comma before ntensor's "shape="
            std::string expected;
            const std::string& text = block.back();
            for (std::size_t i = text.find(' ') + 1; i < text.size(); ++i) {
                if (text[i] == '\\' && i + 1 < text.size()) {
                    expected += text[i + 1] == 'n' ? '\n' : text[i + 1];
                    ++i;
                } else {
                    expected += text[i];
                }
            }
            const std::string got = std::visit([](const auto& x) { return nt::to_string(x); }, operands[0]);
            CHECK(got.substr(0, expected.size()) == expected);
            ++cases;
            block.clear();
            return;
        }
        // The rest of the case line after <kind> (op for most kinds; the math and
        // mask kinds carry their own words).
        std::vector<std::string> words{op};
        for (std::string w; head >> w;) words.push_back(w);
        words.resize(4);
        // The math and mask kinds run once through Tensor<T> and once through
        // nt::any_tensor (`runtime`); both must agree with NumPy.
        const bool math = kind == "clip" || kind == "where_scalar" || kind == "nan_to_num" || kind == "masked_fill" ||
                          kind == "assign_where" || kind == "masked_select" || kind == "in_place" ||
                          (kind == "binary" && is_math_binary(op)) || (kind == "unary" && is_math_unary(op));
        auto compute = [&](bool runtime) -> any_tensor {
            // A fresh destination per run (the mask kinds write into operand 0).
            std::vector<any_tensor> ops = operands;
            if (kind == "masked_fill" || kind == "assign_where" || kind == "in_place") ops[0] = make_any(destination);
            std::vector<nt::any_tensor> any_ops;
            for (const auto& o : ops) any_ops.push_back(to_any(o));
            if (kind == "in_place") {
                if (!runtime) return in_place(op, ops[0], ops[1]);
                nt::any_tensor d = any_ops[0];
                return from_any(any_in_place(op, d, any_ops[1]));
            }
            if (kind == "binary" && runtime) return from_any(any_math_binary(op, any_ops[0], any_ops[1]));
            if (kind == "unary" && runtime) return from_any(any_math_unary(op, any_ops[0]));
            if (kind == "binary") return binary(op, ops[0], ops[1]);
            if (kind == "unary") return unary(op, ops[0]);
            if (kind == "cast") return cast(op, ops[0]);
            if (kind == "where") return where(ops[0], ops[1], ops[2]);
            if (kind == "clip")
                return runtime ? from_any(any_clip(words[0], words[1], any_ops)) : clip(words[0], words[1], ops);
            if (kind == "where_scalar") {
                if (!runtime) return where_scalar(words[0], words[1], words[2], ops);
                if (words[0] == "ss") return where_scalar(words[0], words[1], words[2], ops);  // typed only
                const nt::any_scalar v = any_scalar_of(words[1]);
                return from_any(words[0] == "sa" ? nt::detail::any_where_scalar(any_ops[0], any_ops[1], v, true)
                                                 : nt::detail::any_where_scalar(any_ops[0], any_ops[1], v, false));
            }
            if (kind == "nan_to_num") {
                const double nan = std::strtod(words[0].c_str(), nullptr);
                const auto posinf = optional_number(words[1]), neginf = optional_number(words[2]);
                if (runtime) return from_any(nt::nan_to_num(any_ops[0], nan, posinf, neginf));
                return std::visit([&](const auto& t) { return wrap(nt::nan_to_num(t, nan, posinf, neginf)); }, ops[0]);
            }
            if (kind == "masked_fill") {
                if (runtime) {
                    nt::any_tensor t = any_ops[0];
                    const double value = std::strtod(words[0].c_str(), nullptr);
                    // Integers as integers: a double cannot hold every int64 / uint64.
                    if (destination.dtype.rfind("int", 0) == 0) t.masked_fill(any_ops[1], std::stoll(words[0]));
                    else if (destination.dtype.rfind("uint", 0) == 0) t.masked_fill(any_ops[1], std::stoull(words[0]));
                    else if (destination.dtype == "bool") t.masked_fill(any_ops[1], words[0] == "1");
                    else t.masked_fill(any_ops[1], value);
                    return from_any(t);
                }
                return std::visit(
                    [&](auto t) -> any_tensor {
                        using T = typename decltype(t)::value_type;
                        auto& same = t.masked_fill(std::get<nt::Tensor<bool>>(ops[1]), parse_value<T>(words[0]));
                        CHECK(&same == &t);
                        return wrap(t);
                    },
                    ops[0]);
            }
            if (kind == "assign_where") {
                if (runtime) {
                    nt::any_tensor t = any_ops[0];
                    t.assign_where(any_ops[1], any_ops[2]);
                    return from_any(t);
                }
                return std::visit(
                    [&](auto t, const auto& src) -> any_tensor {
                        t.assign_where(std::get<nt::Tensor<bool>>(ops[1]), src);
                        return wrap(t);
                    },
                    ops[0], ops[2]);
            }
            if (kind == "masked_select") {
                if (runtime) return from_any(nt::masked_select(any_ops[0], any_ops[1]));
                return std::visit(
                    [&](const auto& t) { return wrap(nt::masked_select(t, std::get<nt::Tensor<bool>>(ops[1]))); },
                    ops[0]);
            }
            std::string axes = words[1];
            const int keepdims = std::stoi(words[2]);
            return reduce(op, axes, keepdims != 0, ops[0]);
        };
        for (const bool runtime : {false, true}) {
            if (runtime && !math) break;
            INFO((runtime ? "through nt::any_tensor" : "through Tensor<T>"));
            if (word == "error") {
                std::string code;
                std::istringstream(block.back()) >> word >> code;
                try {
                    compute(runtime);
                    FAIL_CHECK("expected nt::error " << code);
                } catch (const nt::error& e) {
                    CHECK(nt::to_string(e.code()) == code);
                }
            } else {
                check_result(compute(runtime), read_operand(*last_copy(), false), rounding_may_differ(kind, op));
            }
        }
        ++cases;
        block.clear();
    };
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("promote ", 0) == 0) {
            check_promotion(line);
            continue;
        }
        if (line.rfind("case ", 0) == 0) run_block();
        block.push_back(line);
    }
    run_block();
    return cases;
}

}  // namespace

TEST_CASE("element-wise operations, casts, where and reductions agree with NumPy", "[ops][numpy]") {
    const std::string dir = NT_TEST_DATA_DIR;
    // With a tiny parallel threshold even these small cases run on the thread pool
    // (on a machine with more than one core); the next case replays them on one thread.
    nt::detail::set_parallel_threshold(64);
    promotions_checked = 0;
    CHECK(replay(dir + "/elementwise_fixed.txt") >= 4000);
    CHECK(promotions_checked == nt::dtype_count * nt::dtype_count);
    CHECK(replay(dir + "/elementwise_fresh.txt") >= 1000);
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
}

TEST_CASE("element-wise results do not depend on the thread count", "[ops][numpy][threads]") {
    const std::string dir = NT_TEST_DATA_DIR;
    nt::set_num_threads(1);
    CHECK(replay(dir + "/elementwise_fixed.txt") >= 4000);
    nt::set_num_threads(0);
}
