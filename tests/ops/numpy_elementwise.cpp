// Element-wise operations, casts, where and reductions against NumPy: replays the
// cases written by tests/numpy/gen_elementwise.py (see its docstring for the format).
#include <nt_test_support.hpp>

#include <cmath>
#include <fstream>
#include <variant>

#include "nt/nt.hpp"

namespace {

using any_tensor = std::variant<nt::Tensor<bool>, nt::Tensor<std::uint8_t>, nt::Tensor<std::int32_t>,
                                nt::Tensor<std::int64_t>, nt::Tensor<float>, nt::Tensor<double>>;

template <class T>
std::string dtype_name() {
    if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
    else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, float>) return "float32";
    else return "float64";
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
    // strtod, not stod: stod throws on subnormal values.
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(std::strtod(text.c_str(), nullptr));
    else if constexpr (std::is_same_v<T, bool>) return text == "1";
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
    if (o.dtype == "bool") return make_operand<bool>(o);
    if (o.dtype == "uint8") return make_operand<std::uint8_t>(o);
    if (o.dtype == "int32") return make_operand<std::int32_t>(o);
    if (o.dtype == "int64") return make_operand<std::int64_t>(o);
    if (o.dtype == "float32") return make_operand<float>(o);
    return make_operand<double>(o);
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
    return std::visit(
        [&](const auto& x) -> any_tensor {
            if (to == "bool") return wrap(nt::astype<bool>(x));
            if (to == "uint8") return wrap(nt::astype<std::uint8_t>(x));
            if (to == "int32") return wrap(nt::astype<std::int32_t>(x));
            if (to == "int64") return wrap(nt::astype<std::int64_t>(x));
            if (to == "float32") return wrap(nt::astype<float>(x));
            return wrap(nt::astype<double>(x));
        },
        a);
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

bool close(double got, double want, const std::string& dtype) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    if (dtype == "float32") return std::fabs(got - want) <= 1e-6 + 2e-5 * std::fabs(want);
    if (dtype == "float64") return std::fabs(got - want) <= 1e-12 + 1e-12 * std::fabs(want);
    return got == want;
}

void check_result(const any_tensor& result, const operand_text& expected) {
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
                const double want = std::strtod(expected.values[i].c_str(), nullptr);
                const double got = static_cast<double>(values[i]);
                if (!close(got, want, expected.dtype)) {
                    FAIL_CHECK("element " << i << ": got " << got << ", NumPy gives " << expected.values[i]);
                    return;
                }
            }
        },
        result);
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
            check_result(compute(), read_operand(last, false));
        }
        ++cases;
        block.clear();
    };
    std::string line;
    while (std::getline(in, line)) {
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
    CHECK(replay(dir + "/elementwise_fixed.txt") >= 4000);
    CHECK(replay(dir + "/elementwise_fresh.txt") >= 1000);
    nt::detail::set_parallel_threshold(nt::detail::default_parallel_threshold);
}

TEST_CASE("element-wise results do not depend on the thread count", "[ops][numpy][threads]") {
    const std::string dir = NT_TEST_DATA_DIR;
    nt::set_num_threads(1);
    CHECK(replay(dir + "/elementwise_fixed.txt") >= 4000);
    nt::set_num_threads(0);
}
