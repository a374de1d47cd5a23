// nt/linalg.hpp against NumPy: replays the cases written by tests/numpy/gen_linalg.py
// (see its docstring for the format) through the any_tensor forms (the element types
// are known at run time): the result's element type, shape, names and values, or the
// error code where the call must throw.
//
// The data files (a fixed seed and a fresh one) are written into NT_TEST_DATA_DIR
// by the generator's fixture (nt_add_oracle in tests/CMakeLists.txt).
#include <catch2/catch.hpp>

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

namespace {

using i64 = std::int64_t;

struct operand : nt::test::oracle_shape {
    std::string dtype;
    std::string order;  // out only: exact | byname
    double tol = 0;
    std::vector<std::string> values;
};

struct oracle_case {
    std::string header;
    std::vector<std::string> args;
    std::vector<operand> inputs;
    operand out;
    std::string error;
};

operand read_operand(std::istream& in, bool is_out) {
    operand o;
    in >> o.dtype;
    if (is_out) in >> o.order >> o.tol;
    static_cast<nt::test::oracle_shape&>(o) = nt::test::read_oracle_shape(in);
    o.values = nt::test::read_oracle_values(in);
    return o;
}

std::vector<oracle_case> read_cases(const std::string& path) {
    std::vector<oracle_case> cases;
    nt::test::for_each_oracle_line(path, "linalg_numpy_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
        if (kind == "case") {
            cases.emplace_back();
            cases.back().header = line;
            std::string id;
            fields >> id;
            for (std::string w; fields >> w;) cases.back().args.push_back(w);
        } else if (kind == "input") {
            cases.back().inputs.push_back(read_operand(fields, false));
        } else if (kind == "out") {
            cases.back().out = read_operand(fields, true);
        } else if (kind == "error") {
            fields >> cases.back().error;
        }
    });
    return cases;
}

nt::dtype dtype_of(const std::string& numpy_name) {
    nt::dtype d{};
    REQUIRE(nt::dtype_from_string(numpy_name, d));
    return d;
}

bool is_floating(nt::dtype d) { return d == nt::dtype::f16 || d == nt::dtype::f32 || d == nt::dtype::f64; }

nt::any_tensor make(const operand& o) {
    const nt::dtype d = dtype_of(o.dtype);
    std::vector<nt::name> names;
    for (const auto& n : o.names) names.emplace_back(n);
    if (is_floating(d)) {
        std::vector<double> v;
        for (const auto& s : o.values) v.push_back(std::strtod(s.c_str(), nullptr));
        auto t = o.shape.empty() ? nt::scalar(v.at(0)) : nt::from_vector<double>(v, o.shape);
        return nt::any_tensor(t.rename(names)).astype(d);
    }
    std::vector<i64> v;
    for (const auto& s : o.values) v.push_back(std::strtoll(s.c_str(), nullptr, 10));
    auto t = o.shape.empty() ? nt::scalar(v.at(0)) : nt::from_vector<i64>(v, o.shape);
    // Values are in the type's range, so the cast is exact (0/1 for bool).
    return nt::any_tensor(t.rename(names)).astype(d);
}

nt::any_tensor run(const oracle_case& c, const std::vector<nt::any_tensor>& in) {
    const std::string& op = c.args.at(0);
    std::size_t i = 1;
    if (op == "einsum") {
        REQUIRE(c.args.at(1) == ":");
        std::string text;
        for (i = 2; i < c.args.size(); ++i) text += (text.empty() ? "" : " ") + c.args[i];
        switch (in.size()) {
            case 1: return nt::einsum(text, in[0]);
            case 2: return nt::einsum(text, in[0], in[1]);
            default: return nt::einsum(text, in[0], in[1], in.at(2));
        }
    }
    if (op == "dot") {
        const auto k = static_cast<std::size_t>(std::stoll(c.args.at(i++)));
        std::vector<nt::Axis> axes;
        for (std::size_t j = 0; j < k; ++j) axes.emplace_back(c.args.at(i++));
        return nt::dot(in.at(0), in.at(1), axes);
    }
    if (op == "matmul") return nt::matmul(in.at(0), in.at(1));
    if (op == "tensordot_n") return nt::tensordot(in.at(0), in.at(1), std::stoll(c.args.at(1)));
    if (op == "tensordot_axes") {
        const auto k = static_cast<std::size_t>(std::stoll(c.args.at(i++)));
        std::vector<nt::Axis> aa, bb;
        for (std::size_t j = 0; j < k; ++j) aa.push_back(nt::test::oracle_axis(c.args.at(i++)));
        for (std::size_t j = 0; j < k; ++j) bb.push_back(nt::test::oracle_axis(c.args.at(i++)));
        return nt::tensordot(in.at(0), in.at(1), aa, bb);
    }
    FAIL("unknown op " << op);
    return {};
}

std::vector<std::string> names_of(const nt::any_tensor& t) {
    std::vector<std::string> out;
    for (nt::name n : t.names()) out.emplace_back(n ? std::string(n.str()) : "?");
    return out;
}

/// Replays one data file; returns the number of cases checked.
std::size_t replay(const std::string& path) {
    const auto cases = read_cases(path);
    REQUIRE(cases.size() > 100);
    std::size_t checked = 0;
    for (const oracle_case& c : cases) {
        INFO(c.header);
        std::vector<nt::any_tensor> in;
        for (const operand& o : c.inputs) in.push_back(make(o));
        if (!c.error.empty()) {
            try {
                (void)run(c, in);
                FAIL("expected nt::error " << c.error);
            } catch (const nt::error& e) {
                INFO(e.what());
                CHECK(nt::to_string(e.code()) == c.error);
                CHECK(e.message().find(c.args.at(0).substr(0, 6)) != std::string::npos);
            }
            ++checked;
            continue;
        }
        nt::any_tensor r = run(c, in);
        const operand& want = c.out;
        CHECK(std::string(nt::numpy_name(r.dtype())) == want.dtype);
        if (want.order == "byname") {
            // The matcher's order: compare after aligning to NumPy's (unnamed first).
            REQUIRE(r.rank() == want.shape.size());
            std::vector<std::string> order{"..."};
            for (const auto& n : want.names)
                if (n != "?") order.push_back(n);
            r = r.align_to(order);
        }
        REQUIRE(std::vector<i64>(r.shape().begin(), r.shape().end()) == want.shape);
        CHECK(names_of(r) == want.names);
        REQUIRE(static_cast<std::size_t>(r.size()) == want.values.size());
        if (is_floating(r.dtype())) {
            const std::vector<double> got = r.astype<double>().to_vector();
            for (std::size_t j = 0; j < got.size(); ++j) {
                const double w = std::strtod(want.values[j].c_str(), nullptr);
                INFO("element " << j << ": " << got[j] << " vs NumPy " << w << ", tolerance " << want.tol);
                REQUIRE(std::fabs(got[j] - w) <= want.tol);
            }
        } else {
            const std::vector<i64> got = r.astype<i64>().to_vector();
            for (std::size_t j = 0; j < got.size(); ++j) {
                INFO("element " << j);
                REQUIRE(got[j] == std::strtoll(want.values[j].c_str(), nullptr, 10));
            }
        }
        ++checked;
    }
    CHECK(checked == cases.size());
    return checked;
}

}  // namespace

TEST_CASE("einsum, dot, matmul and tensordot against NumPy", "[numpy][linalg]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/linalg_fixed.txt") >= 2400);
    CHECK(replay(dir + "/linalg_fresh.txt") >= 1200);
}
