// Convolution by names against torch.nn.functional (conv, conv_transpose, groups,
// pad modes, torch.autograd for the gradients) and scipy.ndimage (correlate,
// convolve) on the same random inputs (tests/numpy/gen_imaging_conv.py), and its laws.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "nt/conv.hpp"
#include "nt/nt.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"

namespace {

struct conv_case {
    std::string header, op, dtype;
    std::map<std::string, std::string> params;
    std::optional<nt::test::oracle_operand> x, w, bias, out, seed, grad_x, grad_w, grad_b;
};

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream s(text);
    for (std::string p; std::getline(s, p, ',');) parts.push_back(p);
    return parts;
}

std::vector<std::int64_t> ints(const conv_case& c, const std::string& key) {
    std::vector<std::int64_t> v;
    if (auto it = c.params.find(key); it != c.params.end())
        for (const auto& p : split(it->second)) v.push_back(std::stoll(p));
    return v;
}

std::vector<nt::Axis> axes_of(const conv_case& c) {
    std::vector<nt::Axis> axes;
    for (const auto& p : split(c.params.at("axes"))) axes.push_back(nt::test::oracle_axis(p));
    return axes;
}

std::vector<conv_case> read_cases() {
    std::vector<conv_case> cases;
    for (const char* file : {"/imaging_conv_fixed.txt", "/imaging_conv_fresh.txt"})
    nt::test::for_each_oracle_line(
        std::string(NT_TEST_DATA_DIR) + file, "imaging_conv_generate",
        [&](const std::string& kind, std::istream& fields, const std::string& line) {
            if (kind == "case") {
                conv_case c;
                c.header = line;
                std::string id;
                fields >> id >> c.op >> c.dtype;
                for (std::string kv; fields >> kv;) {
                    const auto eq = kv.find('=');
                    c.params[kv.substr(0, eq)] = kv.substr(eq + 1);
                }
                cases.push_back(std::move(c));
                return;
            }
            // The "# seed S count N" line, before any case.
            if (kind.empty() || kind[0] == '#' || cases.empty()) return;
            conv_case& c = cases.back();
            auto operand = nt::test::read_oracle_operand(fields, false);
            if (kind == "x") c.x = operand;
            else if (kind == "w") c.w = operand;
            else if (kind == "bias") c.bias = operand;
            else if (kind == "out") c.out = operand;
            else if (kind == "seed") c.seed = operand;
            else if (kind == "grad_x") c.grad_x = operand;
            else if (kind == "grad_w") c.grad_w = operand;
            else if (kind == "grad_b") c.grad_b = operand;
        });
    return cases;
}

/// |a - b| within tolerance, elementwise, in double; shapes must agree.
template <class T>
void require_close(const nt::Tensor<T>& got, const nt::test::oracle_operand& want, double tolerance,
                   const std::string& what) {
    INFO(what);
    REQUIRE(std::vector<std::int64_t>(got.shape().begin(), got.shape().end()) == want.shape);
    const auto g = got.contiguous().to_vector();
    for (std::size_t i = 0; i < g.size(); ++i) {
        const double expected = nt::test::oracle_value<double>(want.values[i]);
        const double actual = static_cast<double>(g[i]);
        INFO("element " << i << ": " << actual << " vs " << expected);
        REQUIRE(std::abs(actual - expected) <= tolerance * (1.0 + std::abs(expected)));
    }
}

template <class T>
void run_conv_case(const conv_case& c) {
    const double tol = std::is_same_v<T, float> ? 2e-4 : 1e-10;
    auto x = nt::test::oracle_tensor<T>(*c.x);
    auto w = nt::test::oracle_tensor<T>(*c.w);
    const bool grad = c.params.at("grad") == "1";
    if (grad) {
        x.with_grad();
        w.with_grad();
    }
    std::optional<nt::Tensor<T>> b;
    if (c.bias) {
        b = nt::test::oracle_tensor<T>(*c.bias);
        if (grad) b->with_grad();
    }
    const auto axes = axes_of(c);
    nt::Tensor<T> y;
    if (c.op == "conv") {
        nt::conv_options o;
        const auto st = ints(c, "stride"), dil = ints(c, "dilation");
        o.stride = nt::dims(st.begin(), st.end());
        o.dilation = nt::dims(dil.begin(), dil.end());
        const std::string kind = c.params.at("padding");
        if (kind == "same") {
            o.padding = nt::padding::same;
        } else if (kind == "widths") {
            std::vector<nt::pad_amount> widths;
            for (const auto& pair : split(c.params.at("widths"))) {
                const auto colon = pair.find(':');
                widths.push_back({std::stoll(pair.substr(0, colon)), std::stoll(pair.substr(colon + 1))});
            }
            o.padding = nt::padding(std::span<const nt::pad_amount>(widths));
        }
        const std::string mode = c.params.at("pad_mode");
        o.pad_mode = mode == "reflect" ? nt::pad_mode::reflect
                     : mode == "edge"  ? nt::pad_mode::edge
                     : mode == "wrap"  ? nt::pad_mode::wrap
                                       : nt::pad_mode::constant;
        if (c.params.at("keep") == "1") o.keep = {nt::Axis("G")};
        if (b) o.bias = nt::any_tensor(*b);
        y = nt::conv(x, w, axes, o);
    } else {
        nt::conv_transpose_options o;
        const auto st = ints(c, "stride"), dil = ints(c, "dilation"), pad = ints(c, "padding"),
                   op = ints(c, "output_padding");
        o.stride = nt::dims(st.begin(), st.end());
        o.dilation = nt::dims(dil.begin(), dil.end());
        o.padding = nt::dims(pad.begin(), pad.end());
        o.output_padding = nt::dims(op.begin(), op.end());
        if (b) o.bias = nt::any_tensor(*b);
        y = nt::conv_transpose(x, w, axes, o);
    }
    require_close(y, *c.out, tol, "values");
    if (!grad) return;
    const auto seed = nt::test::oracle_tensor<T>(*c.seed);
    nt::sum(y * seed.rename(y.names())).backward();
    require_close(x.grad(), *c.grad_x, tol * 10, "grad x");
    require_close(w.grad(), *c.grad_w, tol * 10, "grad w");
    if (b) require_close(b->grad(), *c.grad_b, tol * 10, "grad bias");
}

template <class T>
void run_scipy_case(const conv_case& c) {
    const auto x = nt::test::oracle_tensor<T>(*c.x);
    const auto k = nt::test::oracle_tensor<double>(*c.w);
    static const std::map<std::string, nt::boundary> modes{{"reflect", nt::boundary::reflect},
                                                          {"constant", nt::boundary::constant},
                                                          {"nearest", nt::boundary::nearest},
                                                          {"mirror", nt::boundary::mirror},
                                                          {"wrap", nt::boundary::wrap}};
    const double cval = std::stod(c.params.at("cval"));
    const auto y = c.op == "correlate" ? nt::correlate(x, k, axes_of(c), modes.at(c.params.at("mode")), cval)
                                       : nt::convolve(x, k, axes_of(c), modes.at(c.params.at("mode")), cval);
    if constexpr (std::is_integral_v<T>) {
        // Exact: the sums are of dyadic values.
        INFO("values");
        REQUIRE(y.to_vector() == nt::test::oracle_tensor<T>(*c.out).to_vector());
    } else {
        require_close(y, *c.out, std::is_same_v<T, float> ? 1e-6 : 1e-12, "values");
    }
}

}  // namespace

TEST_CASE("conv, conv_transpose, correlate, convolve equal torch's and scipy's", "[numpy][imaging_conv]") {
    const auto cases = read_cases();
    REQUIRE(cases.size() >= 100);
    int counted = 0;
    for (const conv_case& c : cases) {
        INFO(c.header);
        if (c.op == "conv" || c.op == "conv_transpose") {
            if (c.dtype == "f32") run_conv_case<float>(c);
            else run_conv_case<double>(c);
        } else if (c.dtype == "f32") {
            run_scipy_case<float>(c);
        } else if (c.dtype == "f64") {
            run_scipy_case<double>(c);
        } else if (c.dtype == "u8") {
            run_scipy_case<std::uint8_t>(c);
        } else if (c.dtype == "i16") {
            run_scipy_case<std::int16_t>(c);
        } else if (c.dtype == "u16") {
            run_scipy_case<std::uint16_t>(c);
        } else {
            run_scipy_case<std::int32_t>(c);
        }
        ++counted;
    }
    CHECK(counted == static_cast<int>(cases.size()));
}
