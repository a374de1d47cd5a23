// Element-wise operations, casts, where and reductions against NumPy: replays the
// cases written by tests/numpy/gen_elementwise.py (see its docstring for the format).
#include <nt_test_support.hpp>

#include <cmath>
#include <fstream>
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
            FAIL("unknown binary op " << op);
            return wrap(x);
        },
        a, b);
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
    if (kind == "unary") return op != "abs" && op != "neg" && op != "logical_not";
    if (kind == "binary") return op == "pow";
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
        for (std::size_t l = 1; l + 1 < block.size(); ++l) {
            std::istringstream line(block[l]);
            line >> word;
            operands.push_back(make_any(read_operand(line, true)));
        }
        std::istringstream last(block.back());
        last >> word;
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
        auto compute = [&]() -> any_tensor {
            if (kind == "binary") return binary(op, operands[0], operands[1]);
            if (kind == "unary") return unary(op, operands[0]);
            if (kind == "cast") return cast(op, operands[0]);
            if (kind == "where") return where(operands[0], operands[1], operands[2]);
            std::string axes;
            int keepdims = 0;
            head >> axes >> keepdims;
            return reduce(op, axes, keepdims != 0, operands[0]);
        };
        if (word == "error") {
            std::string code;
            last >> code;
            try {
                compute();
                FAIL_CHECK("expected nt::error " << code);
            } catch (const nt::error& e) {
                CHECK(nt::to_string(e.code()) == code);
            }
        } else {
            check_result(compute(), read_operand(last, false), rounding_may_differ(kind, op));
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
