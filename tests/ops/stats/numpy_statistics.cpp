// nt/statistics.hpp and nt/sort.hpp against NumPy: replays the cases written by
// tests/numpy/gen_statistics.py (its docstring has the format) for every element
// type: the result's dtype, shape, names and values, or the error code. Integer
// results compare exactly; floating ones within a few units of their precision
// (the library and NumPy may sum in another order).
#include <catch2/catch.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_oracle.hpp"
#include "nt_test_support.hpp"
#include "nt_test_types.hpp"

namespace {

using operand = nt::test::oracle_operand;  // a dtype on results only

struct oracle_case {
    std::string header, op, dtype;
    std::vector<std::string> args;
    operand input;
    std::vector<operand> outs;
    std::string error;
};

std::vector<oracle_case> read_cases(const std::string& path) {
    std::vector<oracle_case> cases;
    nt::test::for_each_oracle_line(path, "stats_numpy_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
        if (kind == "case") {
            oracle_case c;
            c.header = line;
            std::string id;
            fields >> id >> c.op >> c.dtype;
            for (std::string w; fields >> w;) c.args.push_back(w);
            cases.push_back(std::move(c));
        } else if (kind == "input") {
            cases.back().input = nt::test::read_oracle_operand(fields, false);
        } else if (kind == "out") {
            cases.back().outs.push_back(nt::test::read_oracle_operand(fields, true));
        } else if (kind == "error") {
            fields >> cases.back().error;
        }
    });
    return cases;
}

/// Relative tolerance by result type: sums may be ordered differently.
template <class R>
double tolerance() {
    if constexpr (std::is_same_v<R, nt::half>) return 4e-3;
    else if constexpr (std::is_same_v<R, float>) return 2e-6;
    else return 1e-11;
}

/// The largest finite |value| of the input times its element count: the scale of the
/// rounding error of a sum whose order differs from NumPy's (pairwise vs blocked).
double error_scale(const operand& input) {
    double largest = 0;
    for (const auto& v : input.values) {
        const double x = std::fabs(std::strtod(v.c_str(), nullptr));
        if (std::isfinite(x)) largest = std::max(largest, x);
    }
    return largest * static_cast<double>(std::max<std::size_t>(input.values.size(), 1));
}

/// How close a floating result must be: within epsilon (relative) or margin.
struct closeness {
    double scale = 0;      // see error_scale; 0: relative only
    double epsilon = 0;    // a floor under the type's tolerance
    bool zero_sign = false;  // a zero's sign must match (NumPy's order of operations kept)
    bool nan_sign = false;   // a NaN's sign bit must match (a stable sort keeps NaNs in order)
};

template <class R>
void same_values(const nt::Tensor<R>& got, const operand& want, closeness near) {
    const std::vector<R> values(got.begin(), got.end());
    REQUIRE(values.size() == want.values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        INFO("element " << i << ": want " << want.values[i]);
        if constexpr (nt::is_floating_element_v<R>) {
            const double g = static_cast<double>(values[i]);
            const double w = std::strtod(want.values[i].c_str(), nullptr);
            if (std::isnan(w) || std::isinf(w)) {
                CHECK(((std::isnan(w) && std::isnan(g)) || g == w));
                if (near.nan_sign && std::isnan(w)) CHECK(std::signbit(g) == std::signbit(w));
            } else {
                if (near.zero_sign && w == 0) CHECK(std::signbit(g) == std::signbit(w));
                CHECK(g == Approx(w)
                               .epsilon(std::max(tolerance<R>(), near.epsilon))
                               .margin(tolerance<R>() * near.scale));
            }
        } else {
            CHECK(values[i] == nt::test::oracle_value<R>(want.values[i]));
        }
    }
}

template <class R>
void check_result(const nt::Tensor<R>& got, const operand& want, closeness near) {
    CHECK(nt::to_string(got.dtype()) == want.dtype);
    REQUIRE(std::vector<std::int64_t>(got.shape().begin(), got.shape().end()) == want.shape);
    std::vector<std::string> names;
    for (nt::name n : got.names()) names.emplace_back(n ? std::string(n.str()) : "?");
    CHECK(names == want.names);
    same_values(got, want, near);
}

struct reduction_args {
    bool every = false;
    std::vector<nt::Axis> axes;
    bool keepdims = false;
};

/// "<keepdims> <k> <axes...>" from position `at` of the arguments.
reduction_args reduction_from(const std::vector<std::string>& args, std::size_t at) {
    reduction_args r;
    r.keepdims = args.at(at) == "1";
    const int k = std::stoi(args.at(at + 1));
    r.every = k < 0;
    for (int i = 0; i < k; ++i) r.axes.push_back(nt::test::oracle_axis(args.at(at + 2 + static_cast<std::size_t>(i))));
    return r;
}

/// An any_tensor result: checked as the typed tensor it holds.
void check_result(const nt::any_tensor& got, const operand& want, closeness near) {
    nt::visit([&](const auto& typed) { check_result(typed, want, near); }, got);
}

/// Runs case `c` on `t`, a Tensor<T> or an any_tensor holding T (the run-time forms).
template <class T, class Handle>
void run_on(const Handle& t, const oracle_case& c) {
    const auto& outs = c.outs;
    const auto& op = c.op;
    // Variances compare relatively only (their inputs may sit around 1e8, where a
    // margin from the input's size would hide a one-pass formula's lost digits); the
    // two passes' sums still differ from NumPy's in order, by up to about 1e-7 there.
    const bool variance = op == "var" || op == "stddev";
    // Sorted values are the input's, moved: signs of zeros and NaNs included, since
    // the sort is stable and -0 == +0 (NumPy's kind="stable").
    const bool sorted = op == "sort";
    const closeness near = variance ? closeness{0, 1e-6}
                                    : closeness{error_scale(c.input), 0,
                                                op == "cumsum" || op == "cumprod" || sorted, sorted};
    auto check = [&](const auto& got, std::size_t k = 0) { check_result(got, outs.at(k), near); };
    if (op == "var" || op == "stddev") {
        const std::int64_t ddof = std::stoll(c.args.at(0));
        const reduction_args r = reduction_from(c.args, 1);
        const bool var = op == "var";
        // Every axis with a ddof: the flattened tensor's one axis.
        if (r.every && ddof == 0) var ? check(nt::var(t)) : check(nt::stddev(t));
        else if (r.every) var ? check(nt::var(t.flatten(), 0, ddof)) : check(nt::stddev(t.flatten(), 0, ddof));
        else var ? check(nt::var(t, r.axes, ddof, r.keepdims)) : check(nt::stddev(t, r.axes, ddof, r.keepdims));
        return;
    }
    if (op == "quantile") {
        const double q = std::stod(c.args.at(0));
        const reduction_args r = reduction_from(c.args, 1);
        check(r.every ? nt::quantile(t, q) : nt::quantile(t, q, r.axes, r.keepdims));
        return;
    }
    const auto reduce_with = [&](auto every_axis, auto with_axes) {
        const reduction_args r = reduction_from(c.args, 0);
        if (r.every) check(every_axis());
        else check(with_axes(nt::axes_arg(r.axes), r.keepdims));
    };
#define NT_STAT_CASE(fn)                                                                                  \
    if (op == #fn) {                                                                                      \
        reduce_with([&] { return nt::fn(t); }, [&](nt::axes_arg axes, bool keep) { return nt::fn(t, axes, keep); }); \
        return;                                                                                           \
    }
    NT_STAT_CASE(nansum)
    NT_STAT_CASE(nanmean)
    NT_STAT_CASE(nanmin)
    NT_STAT_CASE(nanmax)
    NT_STAT_CASE(count_nonzero)
    NT_STAT_CASE(median)
#undef NT_STAT_CASE
    if (op == "cumsum") return check(nt::cumsum(t, nt::test::oracle_axis(c.args.at(0))));
    if (op == "cumprod") return check(nt::cumprod(t, nt::test::oracle_axis(c.args.at(0))));
    if (op == "sort") return check(nt::sort(t, nt::test::oracle_axis(c.args.at(0))));
    if (op == "argsort") return check(nt::argsort(t, nt::test::oracle_axis(c.args.at(0))));
    if (op == "topk") {
        auto [values, indices] = nt::topk(t, std::stoll(c.args.at(0)), nt::test::oracle_axis(c.args.at(1)));
        check(values, 0);
        check(indices, 1);
        return;
    }
    if (op == "unique") return check(nt::unique(t));
    if (op == "unique_counts") {
        auto [values, counts] = nt::unique_counts(t);
        check(values, 0);
        check(counts, 1);
        return;
    }
    if (op == "histogram") {
        auto [counts, edges] = nt::histogram(t, std::stoll(c.args.at(0)), std::stod(c.args.at(1)),
                                             std::stod(c.args.at(2)));
        check(counts, 0);
        check(edges, 1);
        return;
    }
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (op == "one_hot") {
            const std::string n = c.args.at(2);
            return check(nt::one_hot(t, std::stoll(c.args.at(0)), std::stoll(c.args.at(1)),
                                     n == "-" ? nt::name{} : nt::name(n)));
        }
        if (op == "bincount") return check(nt::bincount(t, std::stoll(c.args.at(0))));
        if (op == "bincount_w") {
            std::vector<double> w;
            for (std::int64_t i = 0; i < t.size(); ++i) w.push_back(0.5 * static_cast<double>(i % 7) - 1.0);
            const auto weights = nt::from_vector(w, {t.size()});
            return check(nt::bincount(t, weights, std::stoll(c.args.at(0))));
        }
    }
    FAIL("unknown op " << op);
}

/// Case `c` on the typed tensor, or (as_any) on the any_tensor form of each function.
template <class T>
void run_case(const oracle_case& c, bool as_any) {
    const nt::Tensor<T> t = nt::test::oracle_tensor<T>(c.input);
    if (as_any) run_on<T>(nt::any_tensor(t), c);
    else run_on<T>(t, c);
}

/// Replays one data file, dispatching each case on its element type.
std::size_t replay(const std::string& path) {
    const auto cases = read_cases(path);
    REQUIRE(cases.size() > 100);
    std::size_t checked = 0;
    for (const oracle_case& c : cases) {
        INFO(c.header);
        bool known = false;
        nt::test::for_each_element_type([&](auto type) {
            using T = typename decltype(type)::type;
            if (nt::to_string(nt::dtype_of<T>) != c.dtype) return;
            known = true;
            for (const bool as_any : {false, true}) {
                INFO((as_any ? "the any_tensor form" : "the Tensor<T> form"));
                if (!c.error.empty()) {
                    try {
                        run_case<T>(c, as_any);
                        FAIL("expected nt::error " << c.error);
                    } catch (const nt::error& e) {
                        CHECK(nt::to_string(e.code()) == c.error);
                    }
                } else {
                    run_case<T>(c, as_any);
                }
            }
        });
        REQUIRE(known);
        ++checked;
    }
    return checked;
}

}  // namespace

TEST_CASE("statistics and sorting against NumPy, every element type", "[numpy][stats]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/statistics_fixed.txt") >= 3000);
    CHECK(replay(dir + "/statistics_fresh.txt") >= 1000);
}
