// nt/structure.hpp against NumPy: replays the cases written by
// tests/numpy/gen_structure_ops.py (see its docstring for the format): the values,
// shape and names of every result, whether it shares memory with the input (views
// vs copies, np.shares_memory), or the error code where the call must throw.
//
// The data files (a fixed seed and a fresh one) are written into NT_TEST_DATA_DIR
// by the generator's fixture (nt_add_oracle in tests/CMakeLists.txt).
#include <catch2/catch.hpp>

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
using tensor = nt::Tensor<double>;

struct operand : nt::test::oracle_shape {
    std::vector<double> values;
    bool shares = false;
};

struct oracle_case {
    i64 id = 0;
    std::string header;  // the "case" line, for messages
    std::vector<std::string> args;
    std::vector<operand> inputs, outs;
    std::string error;
};

operand read_operand(std::istream& in, bool is_out) {
    operand o;
    static_cast<nt::test::oracle_shape&>(o) = nt::test::read_oracle_shape(in);
    if (is_out) {
        std::string word;
        int shares = 0;
        in >> word >> shares;
        o.shares = shares != 0;
    }
    for (const std::string& v : nt::test::read_oracle_values(in)) o.values.push_back(std::strtod(v.c_str(), nullptr));
    return o;
}

std::vector<oracle_case> read_cases(const std::string& path) {
    std::vector<oracle_case> cases;
    nt::test::for_each_oracle_line(path, "structure_numpy_generate",
                                   [&](const std::string& kind, std::istream& fields, const std::string& line) {
        if (kind == "case") {
            cases.emplace_back();
            cases.back().header = line;
            fields >> cases.back().id;
            for (std::string w; fields >> w;) cases.back().args.push_back(w);
        } else if (kind == "input") {
            cases.back().inputs.push_back(read_operand(fields, false));
        } else if (kind == "out") {
            cases.back().outs.push_back(read_operand(fields, true));
        } else if (kind == "error") {
            fields >> cases.back().error;
        }
    });
    return cases;
}

tensor make(const operand& o) {
    tensor t = nt::from_vector<double>(o.values, o.shape.empty() ? std::vector<i64>{} : o.shape);
    if (o.shape.empty()) t = nt::scalar(o.values.at(0));
    std::vector<nt::name> names;
    for (const auto& n : o.names) names.emplace_back(n);
    return t.rename(names);
}

struct args_cursor {
    const std::vector<std::string>& a;
    std::size_t i = 1;  // args[0] is the op
    const std::string& word() { return a.at(i++); }
    i64 num() { return std::stoll(word()); }
};

std::vector<tensor> run(const oracle_case& c, const std::vector<tensor>& in) {
    args_cursor cur{c.args};
    const std::string& op = c.args.at(0);
    if (op == "concatenate") return {nt::concatenate(in, nt::test::oracle_axis(cur.word()))};
    if (op == "stack") {
        const i64 pos = cur.num();
        const std::string n = cur.word();
        return {nt::stack(in, pos, nt::name(n))};
    }
    if (op == "split_n") {
        const auto axis = nt::test::oracle_axis(cur.word());
        return nt::split(in[0], axis, cur.num());
    }
    if (op == "split_at") {
        const auto axis = nt::test::oracle_axis(cur.word());
        std::vector<i64> idx(static_cast<std::size_t>(cur.num()));
        for (auto& v : idx) v = cur.num();
        return nt::split(in[0], axis, idx);
    }
    if (op == "array_split") {
        const auto axis = nt::test::oracle_axis(cur.word());
        return nt::array_split(in[0], axis, cur.num());
    }
    if (op == "chunk") {
        const i64 n = cur.num();
        return nt::chunk(in[0], n, nt::test::oracle_axis(cur.word()));
    }
    if (op == "pad") {
        const std::string m = cur.word();
        const double value = static_cast<double>(cur.num());
        const nt::pad_mode mode = m == "constant"    ? nt::pad_mode::constant
                                  : m == "edge"      ? nt::pad_mode::edge
                                  : m == "reflect"   ? nt::pad_mode::reflect
                                  : m == "symmetric" ? nt::pad_mode::symmetric
                                                     : nt::pad_mode::wrap;
        std::vector<nt::pad_width> widths;
        const i64 k = cur.num();
        for (i64 j = 0; j < k; ++j) {
            const auto axis = nt::test::oracle_axis(cur.word());
            const i64 b = cur.num();
            widths.push_back({axis, {b, cur.num()}});
        }
        return {nt::pad(in[0], widths, mode, value)};
    }
    if (op == "flip") {
        std::vector<nt::Axis> axes;
        const i64 k = cur.num();
        for (i64 j = 0; j < k; ++j) axes.push_back(nt::test::oracle_axis(cur.word()));
        // Both spellings: the member and the free function.
        const tensor a = in[0].flip(axes);
        REQUIRE(a.to_vector() == nt::flip(in[0], axes).to_vector());
        return {a};
    }
    if (op == "roll") {
        const i64 shift = cur.num();
        return {nt::roll(in[0], shift, nt::test::oracle_axis(cur.word()))};
    }
    if (op == "roll_flat") return {nt::roll(in[0], cur.num())};
    if (op == "repeat") {
        const i64 n = cur.num();
        return {nt::repeat(in[0], n, nt::test::oracle_axis(cur.word()))};
    }
    if (op == "tile") {
        std::vector<i64> reps(static_cast<std::size_t>(cur.num()));
        for (auto& r : reps) r = cur.num();
        return {nt::tile(in[0], reps)};
    }
    if (op == "unfold" || op == "fold" || op == "fold_counts") {
        nt::fold_norm norm = nt::fold_norm::none;
        if (op == "fold") norm = cur.word() == "average" ? nt::fold_norm::average : nt::fold_norm::none;
        std::vector<nt::Axis> axes;
        std::vector<i64> sizes, steps;
        const i64 k = cur.num();
        for (i64 j = 0; j < k; ++j) {
            axes.push_back(nt::test::oracle_axis(cur.word()));
            sizes.push_back(cur.num());
            steps.push_back(cur.num());
        }
        if (op == "unfold") return {in[0].unfold(axes, sizes, steps)};
        if (op == "fold_counts") return {nt::fold_counts(in[0], axes, sizes, steps)};
        return {nt::fold(in[0], axes, sizes, steps, norm)};
    }
    if (op == "pattern") {
        const std::string kind = cur.word();
        const std::string reducer = cur.word();
        std::vector<std::string> ids(static_cast<std::size_t>(cur.num()));
        std::vector<nt::axis_size> sizes;
        for (auto& id : ids) {
            id = cur.word();
            sizes.push_back({id, cur.num()});
        }
        REQUIRE(cur.word() == ":");
        std::string pattern;
        while (cur.i < c.args.size()) pattern += (pattern.empty() ? "" : " ") + cur.word();
        if (kind == "rearrange") {
            const auto r = nt::rearrange(in[0], pattern, sizes);
            // The second call with the same pattern and spec comes from the plan cache.
            const auto before = nt::detail::pattern_cache_counters();
            REQUIRE(nt::rearrange(in[0], pattern, sizes).to_vector() == r.to_vector());
            CHECK(nt::detail::pattern_cache_counters().parses == before.parses);
            return {r};
        }
        if (kind == "repeat") return {nt::repeat(in[0], pattern, sizes)};
        const nt::reduce_op rop = reducer == "sum"    ? nt::reduce_op::sum
                                  : reducer == "mean" ? nt::reduce_op::mean
                                  : reducer == "max"  ? nt::reduce_op::max
                                                      : nt::reduce_op::min;
        return {nt::reduce(in[0], pattern, rop, sizes)};
    }
    FAIL("unknown op " << op);
    return {};
}

/// Replays one data file; returns the number of cases checked.
std::size_t replay(const std::string& path) {
    const auto cases = read_cases(path);
    REQUIRE(cases.size() > 100);
    std::size_t checked = 0;
    for (const oracle_case& c : cases) {
        INFO(c.header);
        std::vector<tensor> in;
        for (const operand& o : c.inputs) in.push_back(make(o));
        if (!c.error.empty()) {
            try {
                (void)run(c, in);
                FAIL("expected nt::error " << c.error);
            } catch (const nt::error& e) {
                CHECK(nt::to_string(e.code()) == c.error);
                CHECK(e.message().find(c.args.at(0) == "split_n" ? "split" : "") != std::string::npos);
            }
            ++checked;
            continue;
        }
        const std::vector<tensor> out = run(c, in);
        REQUIRE(out.size() == c.outs.size());
        for (std::size_t k = 0; k < out.size(); ++k) {
            const operand& want = c.outs[k];
            INFO("result " << k);
            REQUIRE(std::vector<i64>(out[k].shape().begin(), out[k].shape().end()) == want.shape);
            std::vector<std::string> names;
            for (nt::name n : out[k].names()) names.emplace_back(n ? std::string(n.str()) : "?");
            CHECK(names == want.names);
            const std::vector<double> got = out[k].to_vector();
            REQUIRE(got.size() == want.values.size());
            for (std::size_t j = 0; j < got.size(); ++j) REQUIRE(got[j] == Approx(want.values[j]).margin(1e-12));
            if (out[k].size() > 0) CHECK(out[k].shares_storage(in[0]) == want.shares);
        }
        ++checked;
    }
    CHECK(checked == cases.size());
    return checked;
}

}  // namespace

TEST_CASE("structure ops against NumPy", "[numpy][structure]") {
    const std::string dir = NT_TEST_DATA_DIR;
    CHECK(replay(dir + "/structure_ops_fixed.txt") >= 3000);
    CHECK(replay(dir + "/structure_ops_fresh.txt") >= 1500);
}
