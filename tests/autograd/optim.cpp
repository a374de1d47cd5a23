// nt/optim.hpp: sgd, adam and adamw against torch.optim (the [numpy][optim] cases
// replay tests/numpy/gen_optim.py's trajectories; its docstring has the format and
// the loss), and their errors, skipping, names, element types and in-place writes.
#include <nt_test_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt/optim.hpp"
#include "nt_test_oracle.hpp"

namespace {

using operand = nt::test::oracle_operand;

// --- the oracle ----------------------------------------------------------------------

struct optim_case {
    std::string header, kind;
    int steps = 0, late = 0;
    std::map<std::string, double> options;
    std::vector<operand> inputs, params;
    // after[step][parameter]: the expected values.
    std::vector<std::vector<std::vector<std::string>>> after;
};

std::vector<optim_case> read_cases(const std::string& path) {
    std::vector<optim_case> cases;
    nt::test::for_each_oracle_line(path, "optim_torch_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
        if (kind == "case") {
            optim_case c;
            c.header = line;
            std::string id;
            fields >> id >> c.kind >> c.steps >> c.late;
            for (std::string kv; fields >> kv;) {
                const auto eq = kv.find('=');
                c.options[kv.substr(0, eq)] = std::strtod(kv.c_str() + eq + 1, nullptr);
            }
            c.after.resize(static_cast<std::size_t>(c.steps));
            cases.push_back(std::move(c));
        } else if (kind == "input") {
            cases.back().inputs.push_back(nt::test::read_oracle_operand(fields));
        } else if (kind == "param") {
            cases.back().params.push_back(nt::test::read_oracle_operand(fields));
        } else if (kind == "after") {
            std::size_t step = 0, k = 0;
            fields >> step >> k;
            auto& at = cases.back().after.at(step);
            at.resize(std::max(at.size(), k + 1));
            at[k] = nt::test::read_oracle_values(fields);
        }
    });
    return cases;
}

template <class T>
nt::Tensor<T> make(const operand& o) {
    auto t = nt::empty<T>(o.shape);
    std::size_t i = 0;
    for (auto& x : t) x = nt::test::oracle_value<T>(o.values.at(i++));
    return t;
}

std::unique_ptr<nt::optim::optimizer> make_optimizer(const optim_case& c, const std::vector<nt::any_tensor>& params) {
    const auto& o = c.options;
    if (c.kind == "sgd")
        return std::make_unique<nt::optim::sgd>(params, nt::optim::sgd_options{.lr = o.at("lr"),
                                                                               .momentum = o.at("momentum"),
                                                                               .dampening = o.at("dampening"),
                                                                               .weight_decay = o.at("weight_decay"),
                                                                               .nesterov = o.at("nesterov") != 0});
    if (c.kind == "adam")
        return std::make_unique<nt::optim::adam>(
            params, nt::optim::adam_options{.lr = o.at("lr"), .betas = {o.at("beta1"), o.at("beta2")},
                                            .eps = o.at("eps"), .weight_decay = o.at("weight_decay"),
                                            .amsgrad = o.at("amsgrad") != 0});
    REQUIRE(c.kind == "adamw");
    return std::make_unique<nt::optim::adamw>(
        params, nt::optim::adamw_options{.lr = o.at("lr"), .betas = {o.at("beta1"), o.at("beta2")},
                                         .eps = o.at("eps"), .weight_decay = o.at("weight_decay"),
                                         .amsgrad = o.at("amsgrad") != 0});
}

// The generator's loss, operation by operation.
template <class T>
nt::Tensor<T> regression_loss(const nt::Tensor<T>& x, const nt::Tensor<T>& y, const nt::Tensor<T>& w,
                              const nt::Tensor<T>& b, const nt::Tensor<T>& c, const nt::Tensor<T>& d, bool with_d) {
    const auto n = static_cast<double>(x.shape()[0]);
    const auto pred = c * nt::sum(x * w, 1) + b;
    auto loss = nt::sum(nt::square(pred - y)) * (1.0 / n) + nt::sum(nt::square(nt::square(w))) * 0.1;
    if (with_d) loss = loss + nt::sum(nt::square(d * 2.0 - 1.0)) + nt::sum(d * b);
    return loss;
}

// Trajectories drift from torch's by rounding (other summation orders in the
// gradient, a*b/c against a*(b/c)), amplified along the 20 steps (an oscillating
// Adam step doubles an error per step). The generator keeps only float32 cases whose
// torch float32 run stays within 2e-6 of its float64 run, so the float32 bound leaves
// a margin of 50 for ntensor's own rounding; the bound is |difference| <= tol *
// (1 + |expected|). Seen over 2000 fixed and fresh cases: under 1.1e-5 in float32,
// 3e-13 in float64.
template <class T>
constexpr double trajectory_tolerance = std::is_same_v<T, float> ? 1e-4 : 1e-10;

struct replay_stats {
    int cases = 0;
    double worst[2] = {0, 0};  // f32, f64: the largest |difference| / (1 + |expected|)
};

template <class T>
void replay_case(const optim_case& c, replay_stats& stats) {
    INFO(c.header);
    REQUIRE(c.inputs.size() == 2);
    REQUIRE(c.params.size() == 5);
    const auto x = make<T>(c.inputs[0]);
    const auto y = make<T>(c.inputs[1]);
    std::vector<nt::Tensor<T>> p;
    for (const auto& o : c.params) p.push_back(make<T>(o).with_grad());
    auto opt = make_optimizer(c, std::vector<nt::any_tensor>(p.begin(), p.end()));
    double& worst = stats.worst[std::is_same_v<T, float> ? 0 : 1];
    for (int step = 0; step < c.steps; ++step) {
        opt->zero_grad();
        regression_loss(x, y, p[0], p[1], p[2], p[3], step >= c.late).backward();
        opt->step();
        for (std::size_t k = 0; k < p.size(); ++k) {
            const auto& want = c.after.at(static_cast<std::size_t>(step)).at(k);
            const std::vector<T> got(p[k].begin(), p[k].end());
            REQUIRE(got.size() == want.size());
            for (std::size_t e = 0; e < got.size(); ++e) {
                const double w = std::strtod(want[e].c_str(), nullptr);
                const double err = std::fabs(static_cast<double>(got[e]) - w) / (1 + std::fabs(w));
                worst = std::max(worst, err);
                if (err > trajectory_tolerance<T>)
                    FAIL_CHECK(std::setprecision(9) << "step " << step << ", parameter " << k << ", element " << e << ": torch " << want[e]
                                       << ", ntensor " << static_cast<double>(got[e]));
            }
        }
    }
    // u has no gradient ever: skipped, never changed (AdamW's decay included).
    CHECK_FALSE(p[4].has_grad());
    ++stats.cases;
}

int replay(const std::string& path) {
    replay_stats stats;
    for (const auto& c : read_cases(path)) {
        if (c.inputs.at(0).dtype == "f32") replay_case<float>(c, stats);
        else replay_case<double>(c, stats);
    }
    std::cout << path << ": " << stats.cases << " trajectories, largest relative difference from torch: f32 "
              << stats.worst[0] << ", f64 " << stats.worst[1] << "\n";
    return stats.cases;
}

}  // namespace

TEST_CASE("sgd, adam and adamw follow torch.optim's trajectories", "[numpy][optim]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/optim_fixed.txt") >= 300);
    CHECK(replay(dir + "/optim_fresh.txt") >= 100);
}

// --- unit tests --------------------------------------------------------------------------

namespace {

nt::Tensor<float> leaf(std::vector<float> values) {
    auto t = nt::empty<float>({static_cast<std::int64_t>(values.size())});
    std::copy(values.begin(), values.end(), t.begin());
    return t.with_grad();
}

// Gives every parameter the gradient of sum(p^2 * k) (a gradient 2kp).
template <class T>
void quadratic_backward(const std::vector<nt::Tensor<T>>& params, double k = 1.0) {
    for (const auto& p : params) (nt::sum(nt::square(p)) * k).backward();
}

}  // namespace

TEST_CASE("optimiser options out of range throw invalid_argument naming the option", "[optim]") {
    auto w = leaf({1, 2});
    using nt::errc;
    nt::test::require_error([&] { nt::optim::sgd(std::vector<nt::any_tensor>{w}, {}); }, errc::invalid_argument,
                            {"nt::optim::sgd", ".lr", "not given", "{.lr = 0.01}"});
    nt::test::require_error([&] { nt::optim::sgd({w}, {.lr = -0.1}); }, errc::invalid_argument,
                            {"nt::optim::sgd", ".lr", "-0.1", ">= 0"});
    nt::test::require_error([&] { nt::optim::sgd({w}, {.lr = 0.1, .momentum = -0.5}); }, errc::invalid_argument,
                            {".momentum", "-0.5", ">= 0"});
    nt::test::require_error([&] { nt::optim::sgd({w}, {.lr = 0.1, .weight_decay = -1}); }, errc::invalid_argument,
                            {".weight_decay", ">= 0"});
    nt::test::require_error([&] { nt::optim::sgd({w}, {.lr = 0.1, .nesterov = true}); }, errc::invalid_argument,
                            {".nesterov", "momentum > 0", "dampening 0"});
    nt::test::require_error([&] { nt::optim::sgd({w}, {.lr = 0.1, .momentum = 0.9, .dampening = 0.1, .nesterov = true}); },
                            errc::invalid_argument, {".nesterov", "dampening 0.1"});
    nt::test::require_error([&] { nt::optim::adam({w}, {.lr = -1e-3}); }, errc::invalid_argument,
                            {"nt::optim::adam", ".lr", ">= 0"});
    nt::test::require_error([&] { nt::optim::adam({w}, {.betas = {1.0, 0.999}}); }, errc::invalid_argument,
                            {".betas", "beta1", "[0, 1)"});
    nt::test::require_error([&] { nt::optim::adam({w}, {.betas = {0.9, -0.1}}); }, errc::invalid_argument,
                            {".betas", "beta2", "-0.1", "[0, 1)"});
    nt::test::require_error([&] { nt::optim::adam({w}, {.eps = -1}); }, errc::invalid_argument, {".eps", ">= 0"});
    nt::test::require_error([&] { nt::optim::adamw({w}, {.weight_decay = -0.01}); }, errc::invalid_argument,
                            {"nt::optim::adamw", ".weight_decay", ">= 0"});
    nt::test::require_error([&] { nt::optim::adamw({w}, {.lr = std::nan("")}); }, errc::invalid_argument,
                            {"nt::optim::adamw", ".lr", "NaN"});
    nt::optim::adam opt({w});
    nt::test::require_error([&] { opt.set_lr(-1); }, errc::invalid_argument, {"set_lr", ".lr"});
    opt.set_lr(0.5);
    CHECK(opt.options().lr == 0.5);
    // torch's defaults.
    CHECK(nt::optim::adam_options{}.lr == 1e-3);
    CHECK(nt::optim::adamw_options{}.weight_decay == 1e-2);
    CHECK(nt::optim::adam_options{}.weight_decay == 0);
}

TEST_CASE("optimiser parameters must be floating leaves marked with_grad, given once", "[optim]") {
    using nt::errc;
    auto w = leaf({1, 2});
    nt::test::require_error([&] { nt::optim::adam(std::vector<nt::any_tensor>{}); }, errc::invalid_argument,
                            {"nt::optim::adam", "empty parameter list"});
    const auto ints = nt::arange<std::int32_t>(3);
    nt::test::require_error([&] { nt::optim::sgd({w, ints}, {.lr = 0.1}); }, errc::invalid_argument,
                            {"nt::optim::sgd", "parameter 1", "i32", "astype<float>().with_grad()"});
    const auto plain = nt::ones<double>({2, 3}, {"N", "C"});
    nt::test::require_error([&] { nt::optim::adamw({plain}); }, errc::invalid_argument,
                            {"parameter 0", "(2,3 | N,C)", "not marked with_grad()"});
    const auto computed = w * 2.0f;
    nt::test::require_error([&] { nt::optim::adam({w, computed}); }, errc::invalid_argument,
                            {"parameter 1", "not a leaf", "detach().with_grad()"});
    nt::test::require_error([&] { nt::optim::adam({w, w}); }, errc::invalid_argument,
                            {"parameter 1", "twice"});
    // A copy of the handle is the same leaf.
    const nt::any_tensor same = w;
    nt::test::require_error([&] { nt::optim::adam({w, same}); }, errc::invalid_argument, {"twice"});
}

TEST_CASE("sgd takes one step of -lr * gradient, in place, on any range of tensors", "[optim]") {
    std::vector<nt::Tensor<float>> params{leaf({1, -2, 3}), leaf({0.5f})};
    const auto before0 = params[0].clone().detach();
    const float* storage = params[0].data();
    nt::optim::sgd opt(params, {.lr = 0.25});
    quadratic_backward(params);
    opt.step();
    CHECK(params[0].data() == storage);
    // p - 0.25 * 2p
    CHECK(params[0].detach().to_vector() == (before0 - before0 * 2.0f * 0.25f).to_vector());
    opt.zero_grad();
    CHECK(params[0].has_grad());
    CHECK(nt::sum(nt::abs(params[0].grad())).at() == 0.0f);
}

TEST_CASE("a parameter without a gradient is skipped, and its state starts at its first gradient", "[optim]") {
    auto a = leaf({1, 2});
    auto b = leaf({3, 4});
    const auto b_start = b.detach().clone();
    nt::optim::adamw opt({a, b}, {.lr = 0.1, .weight_decay = 0.5});
    nt::sum(a * a).backward();
    opt.step();
    opt.step();
    CHECK_FALSE(b.has_grad());
    CHECK(b.detach().to_vector() == b_start.to_vector());  // no decay either, as torch
    CHECK_FALSE(opt.state(1).has_value());
    REQUIRE(opt.state(0).has_value());
    CHECK(opt.state(0)->step == 2);

    // b's first step: the same as a fresh optimiser's first step on it.
    auto b_twin = b.detach().clone().with_grad();
    nt::optim::adamw fresh({b_twin}, {.lr = 0.1, .weight_decay = 0.5});
    opt.zero_grad();
    nt::sum(b * b).backward();
    nt::sum(b_twin * b_twin).backward();
    opt.step();
    fresh.step();
    CHECK(opt.state(1)->step == 1);
    CHECK(opt.state(0)->step == 3);  // a's gradient is zero now, still a gradient
    CHECK(b.detach().to_vector() == b_twin.detach().to_vector());
}

TEST_CASE("optimiser state keeps the parameter's names, type and shape", "[optim]") {
    auto w = nt::ones<double>({2, 3}, {"IN", "OUT"}).with_grad();
    auto v = nt::ones<double>({2, 3}).with_grad();
    nt::optim::adam opt({w, v}, {.lr = 0.1, .weight_decay = 0.1, .amsgrad = true});
    const auto x = nt::arange<double>(6).reshape({2, 3}, {"IN", "OUT"});
    const auto x_unnamed = nt::arange<double>(6).reshape({2, 3});
    for (int i = 0; i < 3; ++i) {
        opt.zero_grad();
        (nt::sum(nt::square(w - x)) + nt::sum(nt::square(v - x_unnamed))).backward();
        opt.step();
    }
    for (const auto& s : {opt.state(0)->exp_avg, opt.state(0)->exp_avg_sq, *opt.state(0)->max_exp_avg_sq}) {
        CHECK(nt::to_string(s.spec()) == "(2,3 | IN,OUT)");
        CHECK(s.dtype() == nt::dtype::f64);
    }
    CHECK(nt::to_string(w.spec()) == "(2,3 | IN,OUT)");
    // Names change nothing in the values.
    CHECK(w.detach().to_vector() == v.detach().to_vector());
}

TEST_CASE("optimisers update half, float and double parameters in their own type, together", "[optim]") {
    auto h = nt::full<nt::half>({4}, nt::half(1.5f)).with_grad();
    auto f = nt::full<float>({4}, 1.5f).with_grad();
    auto d = nt::full<double>({4}, 1.5).with_grad();
    nt::optim::sgd opt({h, f, nt::any_tensor(d)}, {.lr = 0.1, .momentum = 0.9, .nesterov = true});
    for (int i = 0; i < 5; ++i) {
        opt.zero_grad();
        nt::sum(nt::square(h)).backward();
        nt::sum(nt::square(f)).backward();
        nt::sum(nt::square(d)).backward();
        opt.step();
    }
    CHECK(h.dtype() == nt::dtype::f16);
    for (std::int64_t i = 0; i < 4; ++i) {
        CHECK(static_cast<double>(f.at(i)) == Approx(d.at(i)).epsilon(1e-6));
        CHECK(static_cast<double>(static_cast<float>(h.at(i))) == Approx(d.at(i)).epsilon(1e-2));
    }
}

TEST_CASE("step writes under no_grad: allowed in a recording graph, and seen by rules that saved the parameter",
          "[optim]") {
    auto w = leaf({1, 2, 3});
    nt::optim::sgd opt({w}, {.lr = 0.1});
    // Outside nt::no_grad a write into w is refused; step() makes its own guard.
    nt::test::require_error([&] { w += 1.0f; }, nt::errc::invalid_argument, {"nt::no_grad"});
    nt::sum(w * w).backward();
    auto pending = nt::sum(w * w);  // saved w, not yet differentiated
    opt.step();
    CHECK(pending.requires_grad());
    nt::test::require_error([&] { pending.backward(); }, nt::errc::modified_in_place, {"backward"});
    // A step inside the caller's own guard works too.
    {
        const nt::no_grad guard;
        opt.step();
    }
    CHECK(w.requires_grad());
}
