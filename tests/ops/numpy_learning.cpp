// nt/learning.hpp against NumPy: replays the cases written by
// tests/numpy/gen_learning.py (its docstring has the format): activations, softmax,
// log_softmax, logsumexp and the losses over float16, float32, float64 and integer or
// bool inputs, checking the result's dtype, shape, names and values, or the error
// code. Values compare within a few units of the result type's precision, with a
// margin scaled by the input's largest finite magnitude (log-probabilities of large
// logits lose digits to x - max, in the library and in any other order).
#include <catch2/catch.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"

namespace {

using operand = nt::test::oracle_operand;

struct oracle_case {
    std::string header, op;
    std::vector<std::string> args;
    std::vector<operand> inputs;
    std::optional<operand> out;
    std::string error;
};

std::vector<oracle_case> read_cases(const std::string& path) {
    std::vector<oracle_case> cases;
    nt::test::for_each_oracle_line(path, "learning_numpy_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
        if (kind == "case") {
            oracle_case c;
            c.header = line;
            std::string id;
            fields >> id >> c.op;
            for (std::string w; fields >> w;) c.args.push_back(w);
            cases.push_back(std::move(c));
        } else if (kind == "input") {
            cases.back().inputs.push_back(nt::test::read_oracle_operand(fields));
        } else if (kind == "out") {
            cases.back().out = nt::test::read_oracle_operand(fields);
        } else if (kind == "error") {
            fields >> cases.back().error;
        }
    });
    return cases;
}


/// Calls f(std::type_identity<T>{}) for the element type `tag` of the oracle's inputs.
template <class F>
void with_type(const std::string& tag, F&& f) {
    if (tag == "b8") f(std::type_identity<bool>{});
    else if (tag == "i8") f(std::type_identity<std::int8_t>{});
    else if (tag == "u8") f(std::type_identity<std::uint8_t>{});
    else if (tag == "i32") f(std::type_identity<std::int32_t>{});
    else if (tag == "i64") f(std::type_identity<std::int64_t>{});
    else if (tag == "f16") f(std::type_identity<nt::half>{});
    else if (tag == "f32") f(std::type_identity<float>{});
    else if (tag == "f64") f(std::type_identity<double>{});
    else FAIL("an input type the test does not dispatch: " << tag);
}

template <class R>
double tolerance() {
    if constexpr (std::is_same_v<R, nt::half>) return 4e-3;
    else if constexpr (std::is_same_v<R, float>) return 2e-6;
    else return 1e-12;
}

/// The largest finite |value| of the first input, at least 1.
double input_scale(const oracle_case& c) {
    double largest = 1;
    for (const auto& v : c.inputs.at(0).values) {
        const double x = std::fabs(std::strtod(v.c_str(), nullptr));
        if (std::isfinite(x)) largest = std::max(largest, x);
    }
    return largest;
}

template <class R>
void check_result(const nt::Tensor<R>& got, const oracle_case& c) {
    REQUIRE(c.out);
    const operand& want = *c.out;
    CHECK(nt::to_string(got.dtype()) == want.dtype);
    REQUIRE(std::vector<std::int64_t>(got.shape().begin(), got.shape().end()) == want.shape);
    std::vector<std::string> names;
    for (nt::name n : got.names()) names.emplace_back(n ? std::string(n.str()) : "?");
    CHECK(names == want.names);
    const std::vector<R> values(got.begin(), got.end());
    REQUIRE(values.size() == want.values.size());
    const double tol = 4 * tolerance<R>();
    const double margin = tol * input_scale(c);
    for (std::size_t i = 0; i < values.size(); ++i) {
        INFO("element " << i << ": want " << want.values[i] << ", got " << static_cast<double>(values[i]));
        const double g = static_cast<double>(values[i]);
        const double w = std::strtod(want.values[i].c_str(), nullptr);
        if (std::isnan(w) || std::isinf(w)) CHECK(((std::isnan(w) && std::isnan(g)) || g == w));
        else CHECK(g == Approx(w).epsilon(tol).margin(margin));
    }
}

/// The operations of one operand.
template <class T>
void run_unary(const oracle_case& c) {
    const nt::Tensor<T> t = nt::test::oracle_tensor<T>(c.inputs.at(0));
    const auto& op = c.op;
    const auto check = [&](const auto& got) { check_result(got, c); };
    if (op == "relu") return check(nt::relu(t));
    if (op == "gelu") return check(nt::gelu(t));
    if (op == "leaky_relu") return check(nt::leaky_relu(t, std::stod(c.args.at(0))));
    if (op == "softmax") return check(nt::softmax(t, nt::test::oracle_axis(c.args.at(0))));
    if (op == "log_softmax") return check(nt::log_softmax(t, nt::test::oracle_axis(c.args.at(0))));
    if (op == "logsumexp") {
        const bool keepdims = c.args.at(0) == "1";
        const int k = std::stoi(c.args.at(1));
        if (k < 0) return check(nt::logsumexp(t));
        std::vector<nt::Axis> axes;
        for (int i = 0; i < k; ++i) axes.push_back(nt::test::oracle_axis(c.args.at(2 + static_cast<std::size_t>(i))));
        // One axis also as the single-axis argument.
        if (k == 1 && axes[0].is_name()) return check(nt::logsumexp(t, axes[0].name().str(), keepdims));
        return check(nt::logsumexp(t, axes, keepdims));
    }
    FAIL("unknown op " << op);
}

/// The class weights of a cross_entropy case, when it has them.
nt::class_weights weights_of(const oracle_case& c) {
    if (c.args.at(2) != "1") return {};
    nt::class_weights w;
    with_type(c.inputs.at(2).dtype, [&](auto type) {
        using W = typename decltype(type)::type;
        w = nt::class_weights(nt::test::oracle_tensor<W>(c.inputs.at(2)));
    });
    return w;
}

/// The operations of two operands.
template <class A, class B>
void run_binary(const oracle_case& c) {
    const nt::Tensor<A> a = nt::test::oracle_tensor<A>(c.inputs.at(0));
    const nt::Tensor<B> b = nt::test::oracle_tensor<B>(c.inputs.at(1));
    const auto& op = c.op;
    const auto check = [&](const auto& got) { check_result(got, c); };
    if (op == "mse_loss") return check(nt::mse_loss(a, b));
    if (op == "l1_loss") return check(nt::l1_loss(a, b));
    if (op == "cross_entropy") {
        const std::optional<std::int64_t> ignore =
            c.args.at(1) == "-" ? std::nullopt : std::optional<std::int64_t>(std::stoll(c.args.at(1)));
        return check(nt::cross_entropy(a, b, nt::test::oracle_axis(c.args.at(0)), weights_of(c), ignore));
    }
    if (op == "dice_loss") return check(nt::dice_loss(a, b, nt::test::oracle_axis(c.args.at(0)), std::stod(c.args.at(1))));
    FAIL("unknown op " << op);
}

void run_case(const oracle_case& c) {
    if (c.inputs.size() == 1) {
        with_type(c.inputs[0].dtype, [&](auto type) { run_unary<typename decltype(type)::type>(c); });
        return;
    }
    with_type(c.inputs.at(0).dtype, [&](auto ta) {
        with_type(c.inputs.at(1).dtype, [&](auto tb) {
            run_binary<typename decltype(ta)::type, typename decltype(tb)::type>(c);
        });
    });
}

std::size_t replay(const std::string& path) {
    const auto cases = read_cases(path);
    REQUIRE(cases.size() > 100);
    std::size_t checked = 0;
    for (const oracle_case& c : cases) {
        INFO(c.header);
        if (!c.error.empty()) {
            try {
                run_case(c);
                FAIL("expected nt::error " << c.error);
            } catch (const nt::error& e) {
                INFO(e.what());
                CHECK(nt::to_string(e.code()) == c.error);
            }
        } else {
            run_case(c);
        }
        ++checked;
    }
    return checked;
}

}  // namespace

TEST_CASE("layers for learning against NumPy", "[numpy][learning]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/learning_fixed.txt") >= 3000);
    CHECK(replay(dir + "/learning_fresh.txt") >= 1000);
}
