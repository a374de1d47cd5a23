// Pooling and resampling against torch.nn.functional (max_pool, avg_pool,
// interpolate, torch.autograd for their gradients) and scipy.ndimage.zoom, on the
// same random inputs (tests/numpy/gen_imaging_pool.py).
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt/pooling.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"

namespace {

struct pool_case {
    std::string header, op, dtype;
    std::map<std::string, std::string> params;
    nt::test::oracle_operand input;
    std::optional<nt::test::oracle_operand> out, indices, seed, grad;
    bool error = false;
};

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream s(text);
    for (std::string p; std::getline(s, p, ',');) parts.push_back(p);
    return parts;
}

std::vector<std::int64_t> ints(const pool_case& c, const std::string& key) {
    std::vector<std::int64_t> v;
    if (auto it = c.params.find(key); it != c.params.end())
        for (const auto& p : split(it->second)) v.push_back(std::stoll(p));
    return v;
}

std::vector<double> reals(const pool_case& c, const std::string& key) {
    std::vector<double> v;
    if (auto it = c.params.find(key); it != c.params.end())
        for (const auto& p : split(it->second)) v.push_back(std::stod(p));
    return v;
}

std::vector<nt::Axis> axes_of(const pool_case& c) {
    std::vector<nt::Axis> axes;
    for (const auto& p : split(c.params.at("axes"))) axes.emplace_back(p);
    return axes;
}

std::vector<pool_case> read_cases() {
    std::vector<pool_case> cases;
    nt::test::for_each_oracle_line(std::string(NT_TEST_DATA_DIR) + "/imaging_pool.txt", "imaging_pool_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
                                       if (kind == "case") {
                                           pool_case c;
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
                                       pool_case& c = cases.back();
                                       if (kind == "error") c.error = true;
                                       else if (kind == "input") c.input = nt::test::read_oracle_operand(fields, false);
                                       else if (kind == "out") c.out = nt::test::read_oracle_operand(fields, false);
                                       else if (kind == "indices") c.indices = nt::test::read_oracle_operand(fields, false);
                                       else if (kind == "seed") c.seed = nt::test::read_oracle_operand(fields, false);
                                       else if (kind == "grad") c.grad = nt::test::read_oracle_operand(fields, false);
                                   });
    return cases;
}

nt::any_tensor input_of(const pool_case& c) {
    const auto& o = c.input;
    if (c.dtype == "f16") return nt::test::oracle_tensor<nt::half>(o);
    if (c.dtype == "f32") return nt::test::oracle_tensor<float>(o);
    if (c.dtype == "f64") return nt::test::oracle_tensor<double>(o);
    if (c.dtype == "u8") return nt::test::oracle_tensor<std::uint8_t>(o);
    if (c.dtype == "i16") return nt::test::oracle_tensor<std::int16_t>(o);
    if (c.dtype == "u16") return nt::test::oracle_tensor<std::uint16_t>(o);
    FAIL("dtype " << c.dtype);
    return {};
}

nt::boundary mode_of(const std::string& text) {
    for (auto m : {nt::boundary::reflect, nt::boundary::constant, nt::boundary::nearest, nt::boundary::mirror,
                   nt::boundary::wrap})
        if (text == nt::to_string(m)) return m;
    FAIL("mode " << text);
    return nt::boundary::reflect;
}

nt::interp interp_of(const std::string& text) {
    if (text == "nearest") return nt::interp::nearest;
    if (text == "linear") return nt::interp::linear;
    return nt::interp::cubic;
}

// The operation of a case on `x`; `where` receives max_pool_with_indices' positions.
nt::any_tensor run(const pool_case& c, const nt::any_tensor& x, std::optional<nt::Tensor<std::int64_t>>* where) {
    const auto axes = axes_of(c);
    const auto size = ints(c, "size"), stride = ints(c, "stride"), padding = ints(c, "padding"),
               dilation = ints(c, "dilation");
    if (c.op == "max_pool" || c.op == "max_pool_with_indices" || c.op == "avg_pool") {
        nt::pool_options o{.stride = nt::dims(stride.begin(), stride.end()), .padding = nt::dims(padding.begin(), padding.end()),
                           .dilation = nt::dims(dilation.begin(), dilation.end()),
                           .ceil_mode = c.params.at("ceil") == "1"};
        if (c.op == "avg_pool") {
            o.count_include_pad = c.params.at("cip") == "1";
            return nt::avg_pool(x, axes, size, o);
        }
        if (c.op == "max_pool") return nt::max_pool(x, axes, size, o);
        auto [m, i] = nt::max_pool_with_indices(x, axes, size, o);
        if (where) *where = i;
        return m;
    }
    if (c.op == "resize") {
        const nt::interp mode = interp_of(c.params.at("mode"));
        const nt::resize_options o{.align_corners = c.params.at("align") == "1"};
        if (c.params.count("scale")) return nt::resize(x, axes, reals(c, "scale"), mode, o);
        std::vector<nt::axis_target> targets;
        for (std::size_t i = 0; i < axes.size(); ++i) targets.push_back({axes[i], size[i]});
        return nt::resize(x, targets, mode, o);
    }
    return nt::zoom(x, reals(c, "factors"), axes, static_cast<int>(ints(c, "order").at(0)),
                    mode_of(c.params.at("bmode")), reals(c, "cval").at(0));
}

std::vector<double> values_of(const nt::any_tensor& t) { return nt::Tensor<double>(t.astype(nt::dtype::f64).base()).to_vector(); }

void require_close(const nt::any_tensor& actual, const nt::test::oracle_operand& expected, const std::string& dtype,
                   const std::string& op) {
    CHECK(actual.shape().size() == expected.shape.size());
    REQUIRE(std::vector<std::int64_t>(actual.shape().begin(), actual.shape().end()) == expected.shape);
    for (std::size_t a = 0; a < expected.names.size(); ++a)
        CHECK(std::string(actual.names()[a].str()) == expected.names[a]);
    const auto got = values_of(actual);
    const double rtol = dtype == "f64" ? 1e-10 : dtype == "f32" ? 2e-5 : dtype == "f16" ? 1e-3 : 0.0;
    // Integer zoom results are rounded from a double sum: a sum at .5 may round either way.
    const double atol_int = op == "zoom" && rtol == 0.0 ? 1.0 : 0.0;
    int bad = 0;
    for (std::size_t i = 0; i < got.size() && bad < 5; ++i) {
        const double e = nt::test::oracle_value<double>(expected.values.at(i));
        const bool ok = (std::isnan(e) && std::isnan(got[i])) ||
                        std::abs(got[i] - e) <= rtol * (1.0 + std::abs(e)) + atol_int;
        if (!ok) {
            ++bad;
            FAIL_CHECK("element " << i << ": got " << got[i] << ", expected " << e);
        }
    }
}

}  // namespace

TEST_CASE("pooling and resampling agree with torch and scipy", "[numpy][imaging_pool]") {
    const auto cases = read_cases();
    REQUIRE(cases.size() > 1000);
    int errors = 0, grads = 0, indices = 0;
    std::map<std::string, int> by_op;
    for (const pool_case& c : cases) {
        INFO(c.header);
        const nt::any_tensor x = input_of(c);
        if (c.error) {
            ++errors;
            try {
                (void)run(c, x, nullptr);
                FAIL_CHECK("no nt::error thrown");
            } catch (const nt::error& e) {
                CHECK(e.code() == nt::errc::invalid_argument);
            }
            continue;
        }
        ++by_op[c.op + " " + c.dtype];
        std::optional<nt::Tensor<std::int64_t>> where;
        const nt::any_tensor y = run(c, x, &where);
        require_close(y, *c.out, c.dtype, c.op);
        if (c.indices) {
            ++indices;
            REQUIRE(where);
            require_close(nt::any_tensor(*where), *c.indices, "i64", c.op);
        }
        if (c.grad) {
            ++grads;
            const auto xd = nt::test::oracle_tensor<double>(c.input);
            const auto seed = nt::test::oracle_tensor<double>(*c.seed);
            const auto g = nt::vjp(
                [&](const nt::Tensor<double>& t) { return nt::Tensor<double>(run(c, t, nullptr).base()); }, xd, seed);
            require_close(g, *c.grad, "f64", c.op);
        }
    }
    CHECK(errors > 10);
    CHECK(grads > 50);
    CHECK(indices > 50);
    for (const auto& [op, n] : by_op) CHECK(n > 5);
}
