// Gradients against PyTorch: replays the random programs of tests/numpy/gen_autograd.py
// (its docstring has the format and the operations). For each: the value, the
// gradient with respect to every input (in the input's own axis order and names)
// and a Hessian-vector product, all in double.
#include <nt_test_oracle.hpp>
#include <nt_test_support.hpp>

#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "nt/nt.hpp"

namespace {

using T64 = nt::Tensor<double>;
using operand = nt::test::oracle_operand;

struct program_case {
    std::string header;
    std::vector<std::string> tokens;
    operand a, b, w, v;
    std::optional<operand> labels, weights;
    std::string value;
    std::vector<std::string> grad_a, grad_b, grad_w, hvp;
};

std::vector<program_case> read_cases(const std::string& path) {
    std::vector<program_case> cases;
    nt::test::for_each_oracle_line(path, "autograd_torch_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
        if (kind == "case") {
            program_case c;
            c.header = line;
            std::string id;
            fields >> id;
            for (std::string t; fields >> t;) c.tokens.push_back(t);
            cases.push_back(std::move(c));
        } else if (kind == "input") {
            std::string label;
            fields >> label;
            operand o = nt::test::read_oracle_operand(fields, false);
            program_case& c = cases.back();
            (label == "A" ? c.a : label == "B" ? c.b : label == "W" ? c.w : c.v) = std::move(o);
        } else if (kind == "labels") {
            cases.back().labels = nt::test::read_oracle_operand(fields, false);
        } else if (kind == "weights") {
            cases.back().weights = nt::test::read_oracle_operand(fields, false);
        } else if (kind == "value") {
            fields >> cases.back().value;
        } else if (kind == "grad") {
            std::string label;
            fields >> label;
            program_case& c = cases.back();
            (label == "A" ? c.grad_a : label == "B" ? c.grad_b : c.grad_w) = nt::test::read_oracle_values(fields);
        } else if (kind == "hvp") {
            cases.back().hvp = nt::test::read_oracle_values(fields);
        }
    });
    return cases;
}


// The program's value, consuming its prefix tokens.
T64 evaluate(std::deque<std::string>& tokens, const T64& a, const T64& b, const T64& w) {
    const std::string op = tokens.front();
    tokens.pop_front();
    if (op == "A") return a;
    if (op == "B") return b;
    if (op == "W") return w;
    auto next = [&] { return evaluate(tokens, a, b, w); };
    if (op == "neg") return -next();
    if (op == "exp") return nt::exp(next());
    if (op == "sin") return nt::sin(next());
    if (op == "cos") return nt::cos(next());
    if (op == "tanh") return nt::tanh(next());
    if (op == "sigmoid") return nt::sigmoid(next());
    if (op == "abs") return nt::abs(next());
    if (op == "square") return nt::square(next());
    if (op == "erf") return nt::erf(next());
    if (op == "relu") return nt::relu(next());
    if (op == "gelu") return nt::gelu(next());
    if (op == "scale") return next() * 1.5;
    if (op == "shift") return next() + 0.25;
    if (op == "clip") return nt::clip(next(), -0.5, 0.5);
    if (op == "lsig") return nt::log(nt::sigmoid(next()));
    if (op == "powsq") {
        const T64 x = next();
        return nt::pow(1.0 + x * x, 1.5);
    }
    if (op == "sqrt1") {
        const T64 x = next();
        return nt::sqrt(1.0 + x * x);
    }
    if (op == "wgt") {
        const T64 c = next();
        const T64 p = next();
        return nt::where(c > 0.0, p, next());
    }
    const auto binary = [&](auto f) {
        const T64 p = next();
        return f(p, next());
    };
    if (op == "add") return binary([](const T64& p, const T64& q) { return p + q; });
    if (op == "sub") return binary([](const T64& p, const T64& q) { return p - q; });
    if (op == "mul") return binary([](const T64& p, const T64& q) { return p * q; });
    if (op == "maximum") return binary([](const T64& p, const T64& q) { return nt::maximum(p, q); });
    if (op == "minimum") return binary([](const T64& p, const T64& q) { return nt::minimum(p, q); });
    if (op == "atan2") return binary([](const T64& p, const T64& q) { return nt::atan2(p, q); });
    if (op == "hypot") return binary([](const T64& p, const T64& q) { return nt::hypot(p, q); });
    if (op == "divsq") return binary([](const T64& p, const T64& q) { return p / (1.0 + q * q); });
    const auto cut = op.rfind('_');
    const std::string along = op.substr(0, cut), axis = op.substr(cut + 1);
    const T64 x = next();
    if (along == "sum") return nt::sum(x, axis);
    if (along == "mean") return nt::mean(x, axis);
    if (along == "max") return nt::max(x, axis);
    if (along == "lse") return nt::logsumexp(x, axis);
    if (along == "softmax") return nt::softmax(x, axis);
    if (along == "logsoftmax") return nt::log_softmax(x, axis);
    if (along == "flip") return x.flip({axis});
    FAIL("unknown operation " << op);
    return x;
}

T64 program(const program_case& c, const T64& a, const T64& b, const T64& w) {
    if (c.tokens.at(0) != "layer") {
        std::deque<std::string> tokens(c.tokens.begin(), c.tokens.end());
        return nt::sum(evaluate(tokens, a, b, w));
    }
    const std::string& kind = c.tokens.at(1);
    if (kind == "mse") return nt::mse_loss(a, b);
    if (kind == "l1") return nt::l1_loss(a, b);
    const auto labels = nt::test::oracle_tensor<std::int64_t>(*c.labels);
    if (kind == "dice") return nt::dice_loss(nt::softmax(a, "C"), labels, "C");
    std::optional<std::int64_t> ignore;
    if (c.tokens.at(3) != "-") ignore = std::stoll(c.tokens.at(3));
    if (c.tokens.at(2) == "1") return nt::cross_entropy(a, labels, "C", nt::test::oracle_tensor<double>(*c.weights), ignore);
    return nt::cross_entropy(a, labels, "C", std::nullopt, ignore);
}

bool close(double got, const std::string& text) {
    const double expected = std::strtod(text.c_str(), nullptr);
    if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
    return std::abs(got - expected) <= 1e-9 * (1.0 + std::abs(expected));
}

void require_values(const std::string& what, const T64& got, const std::vector<std::string>& expected,
                    const program_case& c) {
    const std::vector<double> v = got.to_vector();
    REQUIRE(v.size() == expected.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        INFO(c.header << ": " << what << " element " << i << ": ntensor " << v[i] << ", PyTorch " << expected[i]);
        CHECK(close(v[i], expected[i]));
    }
}

std::size_t replay(const std::string& path) {
    const std::vector<program_case> cases = read_cases(path);
    for (const program_case& c : cases) {
        const T64 a = nt::test::oracle_tensor<double>(c.a), b = nt::test::oracle_tensor<double>(c.b), w = nt::test::oracle_tensor<double>(c.w), v = nt::test::oracle_tensor<double>(c.v);
        const auto f = [&](const T64& x, const T64& y, const T64& z) { return program(c, x, y, z); };
        const auto [value, grads] = nt::value_and_grad(f, a, b, w);
        INFO(c.header);
        CHECK(close(value.to_vector().at(0), c.value));
        CHECK(nt::to_string(std::get<1>(grads).spec()) == nt::to_string(b.spec()));
        require_values("grad A", std::get<0>(grads), c.grad_a, c);
        require_values("grad B", std::get<1>(grads), c.grad_b, c);
        require_values("grad W", std::get<2>(grads), c.grad_w, c);
        // The Hessian-vector product: the gradient of <grad_A f, V> with respect to A.
        const T64 hvp = nt::grad(
            [&](const T64& x) { return nt::sum(nt::grad([&](const T64& y) { return f(y, b, w); }, x) * v); }, a);
        require_values("hvp", hvp, c.hvp, c);
    }
    return cases.size();
}

}  // namespace

TEST_CASE("gradients of random programs agree with PyTorch", "[numpy][torch]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/autograd_fixed.txt") >= 400);
    CHECK(replay(dir + "/autograd_fresh.txt") >= 150);
}
