// The tensor core's structural operations against NumPy.
//
// tests/numpy/gen_structural.py writes random chains of reshape / view / transpose /
// swap_axes / move_axis / move_axes / permute / slice / index / squeeze(_all) /
// unsqueeze / expand_dims / unfold / broadcast_to / flatten / unflatten applied to
// np.arange(n).reshape(s),
// with NumPy's final shape, values, whether the result shares memory with the
// arange, and whether two indices reach one element (nt: read-only); or the error
// code nt must throw where NumPy raises. This file replays each chain on
// nt::arange<std::int64_t>(n).reshape(s) and compares; then writes -1 through the
// result and checks which elements of the arange changed.
//
// The data files are NT_TEST_DATA_DIR/structural_fixed.txt and structural_fresh.txt
// (the fixed and the fresh seed, nt_add_oracle in tests/CMakeLists.txt), or the one
// file named by the environment variable NT_STRUCTURAL_DATA (a replay by hand).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "nt/nt.hpp"

namespace {

using i64 = std::int64_t;
using tensor = nt::Tensor<i64>;

struct bad_data : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// --- the data file -----------------------------------------------------------------

struct op_line {
    std::string text;                 // as in the file, without "op "
    std::vector<std::string> tokens;  // text split at spaces
};

struct chain {
    i64 id = 0;
    std::size_t line = 0;  // of the "chain" line
    std::vector<i64> start;
    std::vector<op_line> ops;
    bool ok = true;
    // ok:
    std::vector<i64> shape;
    bool shares = false;
    bool overlap = false;
    std::vector<i64> values;
    // error:
    std::string code;
};

struct data_file {
    std::string path;
    std::string seed = "?";
    std::string count = "?";
    std::vector<chain> chains;
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

i64 to_i64(const std::string& s) {
    std::size_t used = 0;
    i64 v = 0;
    try {
        v = std::stoll(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || s.empty()) throw bad_data("not an integer: '" + s + "'");
    return v;
}

std::optional<i64> to_opt(const std::string& s) {
    if (s == "none") return std::nullopt;
    return to_i64(s);
}

/// Reads tokens of one line left to right.
class cursor {
public:
    cursor(const std::vector<std::string>& tokens, std::size_t first) : t_(tokens), i_(first) {}
    const std::string& word() {
        if (i_ >= t_.size()) throw bad_data("line ends early");
        return t_[i_++];
    }
    i64 num() { return to_i64(word()); }
    std::optional<i64> opt() { return to_opt(word()); }
    std::vector<i64> list(i64 n) {
        if (n < 0) throw bad_data("negative length");
        std::vector<i64> v;
        for (i64 k = 0; k < n; ++k) v.push_back(num());
        return v;
    }
    std::vector<i64> shape() { return list(num()); }
    bool done() const { return i_ == t_.size(); }
    void expect(const char* w) {
        if (word() != w) throw bad_data(std::string("expected '") + w + "'");
    }

private:
    const std::vector<std::string>& t_;
    std::size_t i_;
};

data_file read_data(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw bad_data("cannot open " + path + " (run the fixture test numpy_structural_generate)");
    data_file f;
    f.path = path;
    std::string line;
    std::size_t lineno = 0;
    chain* cur = nullptr;
    while (std::getline(in, line)) {
        ++lineno;
        const auto tok = split(line);
        if (tok.empty()) continue;
        try {
            if (tok[0] == "#") {
                for (std::size_t k = 1; k + 1 < tok.size(); ++k) {
                    if (tok[k] == "seed") f.seed = tok[k + 1];
                    if (tok[k] == "count") f.count = tok[k + 1];
                }
            } else if (tok[0] == "chain") {
                f.chains.emplace_back();
                cur = &f.chains.back();
                cur->line = lineno;
                cursor c(tok, 1);
                cur->id = c.num();
                c.expect("start");
                cur->start = c.shape();
            } else if (cur == nullptr) {
                throw bad_data("'" + tok[0] + "' outside a chain");
            } else if (tok[0] == "op") {
                cur->ops.push_back({line.substr(line.find("op ") + 3), {tok.begin() + 1, tok.end()}});
            } else if (tok[0] == "ok") {
                cursor c(tok, 1);
                cur->ok = true;
                cur->shape = c.shape();
                c.expect("shares");
                cur->shares = c.num() != 0;
                c.expect("overlap");
                cur->overlap = c.num() != 0;
            } else if (tok[0] == "values") {
                for (std::size_t k = 1; k < tok.size(); ++k) cur->values.push_back(to_i64(tok[k]));
            } else if (tok[0] == "error") {
                cur->ok = false;
                cur->code = cursor(tok, 1).word();
            } else if (tok[0] == "end") {
                cur = nullptr;
            } else {
                throw bad_data("unknown line kind '" + tok[0] + "'");
            }
        } catch (const bad_data& e) {
            throw bad_data(path + ":" + std::to_string(lineno) + ": " + e.what());
        }
    }
    return f;
}

// --- replaying one operation on nt ---------------------------------------------------

struct index_token {
    enum class kind { integer, all, range } k = kind::all;
    i64 value = 0;
    nt::range r{};
};

index_token parse_index_token(const std::string& s) {
    if (s == "all") return {index_token::kind::all, 0, {}};
    const auto c1 = s.find(':');
    if (c1 == std::string::npos) return {index_token::kind::integer, to_i64(s), {}};
    const auto c2 = s.find(':', c1 + 1);
    if (c2 == std::string::npos) throw bad_data("bad range item '" + s + "'");
    return {index_token::kind::range, 0,
            nt::range(to_opt(s.substr(0, c1)), to_opt(s.substr(c1 + 1, c2 - c1 - 1)), to_i64(s.substr(c2 + 1)))};
}

constexpr std::size_t max_index_items = 4;

/// t.index(items...) through the public variadic API: each item becomes an integer,
/// nt::all or nt::range argument.
template <class... A>
tensor apply_index(const tensor& t, const std::vector<index_token>& items, const A&... args) {
    constexpr std::size_t n = sizeof...(A);
    if (n == items.size()) return t.index(args...);
    if constexpr (n < max_index_items) {
        const index_token& it = items[n];
        switch (it.k) {
            case index_token::kind::integer: return apply_index(t, items, args..., it.value);
            case index_token::kind::all: return apply_index(t, items, args..., nt::all);
            case index_token::kind::range: return apply_index(t, items, args..., it.r);
        }
    }
    throw bad_data("more than 4 index items");
}

std::vector<nt::Axis> to_axes(const std::vector<i64>& v) { return {v.begin(), v.end()}; }

tensor apply_op(const tensor& t, const op_line& op) {
    cursor c(op.tokens, 1);
    const std::string& name = op.tokens.at(0);
    tensor r;
    if (name == "reshape") {
        const std::string o = c.word();
        const auto shape = c.shape();
        r = t.reshape(shape, o == "f" ? nt::order::fortran : nt::order::c);
    } else if (name == "transpose") {
        r = t.transpose();
    } else if (name == "swap_axes") {
        const i64 a = c.num();
        r = t.swap_axes(a, c.num());
    } else if (name == "move_axis") {
        const i64 from = c.num();
        r = t.move_axis(from, c.num());
    } else if (name == "move_axes") {
        const auto from = to_axes(c.shape());
        const auto to = c.shape();
        r = t.move_axes(from, to);
    } else if (name == "permute") {
        r = t.permute(to_axes(c.shape()));
    } else if (name == "slice") {
        const i64 axis = c.num();
        const auto start = c.opt();
        const auto stop = c.opt();
        r = t.slice(axis, start, stop, c.num());
    } else if (name == "index") {
        const i64 k = c.num();
        std::vector<index_token> items;
        for (i64 j = 0; j < k; ++j) items.push_back(parse_index_token(c.word()));
        r = apply_index(t, items);
    } else if (name == "squeeze") {
        r = t.squeeze(c.num());
    } else if (name == "unsqueeze") {
        r = t.unsqueeze(c.num());
    } else if (name == "unfold") {
        const i64 axis = c.num();
        const i64 size = c.num();
        r = t.unfold(axis, size, c.num());
    } else if (name == "broadcast_to") {
        r = t.broadcast_to(c.shape());
    } else if (name == "flatten") {
        r = t.flatten();
    } else if (name == "view") {
        r = t.view(c.shape());
    } else if (name == "flatten_range") {
        const i64 first = c.num();
        r = t.flatten(first, c.num());
    } else if (name == "unflatten") {
        const i64 axis = c.num();
        r = t.unflatten(axis, c.shape());
    } else if (name == "squeeze_all") {
        r = t.squeeze_all();
    } else if (name == "expand_dims") {
        r = t.expand_dims(c.shape());
    } else if (name == "transpose2") {
        const i64 a = c.num();
        r = t.transpose(a, c.num());
    } else {
        throw bad_data("unknown op '" + name + "'");
    }
    if (!c.done()) throw bad_data("trailing arguments in 'op " + op.text + "'");
    return r;
}

// --- comparing ---------------------------------------------------------------------------

std::string show(const std::vector<i64>& v, std::size_t limit = 48) {
    std::string s = "(";
    for (std::size_t k = 0; k < v.size() && k < limit; ++k) s += (k ? "," : "") + std::to_string(v[k]);
    if (v.size() > limit) s += ",... " + std::to_string(v.size()) + " in all";
    return s + ")";
}

std::vector<i64> shape_of(const tensor& t) { return {t.shape().begin(), t.shape().end()}; }

/// What replaying a chain found: failures (categories, each with a line in the
/// report) and notes (allowed differences, reported as counts).
struct outcome {
    std::vector<std::string> failures;
    std::vector<std::string> notes;
    std::string report;  // the chain, nt's shape after each op, expected and actual
};

/// Replays `ch` on nt and compares with NumPy's answer.
outcome replay(const chain& ch) {
    outcome out;
    std::ostringstream trace;
    trace << "  start " << show(ch.start) << " = nt::arange<int64_t>(n).reshape(start)\n";
    std::ostringstream why;
    i64 n = 1;
    for (i64 d : ch.start) n *= d;
    const tensor base = nt::arange<i64>(n);
    tensor t;
    try {
        t = base.reshape(ch.start);
    } catch (const std::exception& e) {
        out.failures.push_back("start reshape threw");
        out.report = trace.str() + "  the start reshape threw: " + e.what() + "\n";
        return out;
    }
    for (std::size_t k = 0; k < ch.ops.size(); ++k) {
        const bool last = k + 1 == ch.ops.size();
        trace << "  op " << ch.ops[k].text;
        try {
            t = apply_op(t, ch.ops[k]);
        } catch (const nt::error& e) {
            trace << "  -> threw " << e.what() << "\n";
            const std::string op_name = ch.ops[k].tokens.at(0);
            if (!ch.ok && last) {
                if (std::string(nt::to_string(e.code())) == ch.code) return out;
                why << "expected error " << ch.code << " (NumPy raises too), got " << nt::to_string(e.code());
                out.failures.push_back(op_name + ": error code " + std::string(nt::to_string(e.code())) +
                                       " instead of " + ch.code);
            } else {
                why << "NumPy accepts this op, nt threw";
                out.failures.push_back(op_name + ": threw " + std::string(nt::to_string(e.code())) +
                                       " where NumPy accepts");
            }
            out.report = trace.str() + "  " + why.str() + "\n";
            return out;
        } catch (const bad_data&) {
            throw;
        } catch (const std::exception& e) {
            trace << "  -> threw a non-nt exception: " << e.what() << "\n";
            out.failures.push_back(ch.ops[k].tokens.at(0) + ": threw a non-nt exception");
            out.report = trace.str() + "  every failure must be an nt::error\n";
            return out;
        }
        trace << "  -> " << show(shape_of(t)) << (t.is_read_only() ? " read-only" : "")
              << (t.shares_storage(base) ? "" : " (copy)") << "\n";
    }
    if (!ch.ok) {
        out.failures.push_back(ch.ops.back().tokens.at(0) + ": no error (expected " + ch.code + ")");
        out.report = trace.str() + "  expected error " + ch.code + " (NumPy raises), nt accepted the last op\n";
        return out;
    }

    const auto shape = shape_of(t);
    if (shape != ch.shape) {
        out.failures.push_back("shape");
        why << "  shape: NumPy " << show(ch.shape) << ", nt " << show(shape) << "\n";
    }
    if (t.size() != static_cast<i64>(ch.values.size())) {
        out.failures.push_back("size()");
        why << "  size(): NumPy " << ch.values.size() << ", nt " << t.size() << "\n";
    }
    const auto values = t.to_vector();
    if (values != ch.values) {
        out.failures.push_back("values");
        why << "  values: NumPy " << show(ch.values) << "\n          nt    " << show(values) << "\n";
    }
    // np.shares_memory is false when either side is empty; nt compares storage.
    const bool shares = t.shares_storage(base) && t.size() > 0 && base.size() > 0;
    if (shares != ch.shares) {
        out.failures.push_back(ch.shares ? "copy where NumPy views" : "view where NumPy copies");
        why << "  shares memory with the arange: NumPy " << ch.shares << ", nt " << shares
            << (ch.shares ? " (nt copied where NumPy gives a view)" : " (nt gives a view where NumPy copies)") << "\n";
    }
    // tensor.md, write safety: a view in which two index tuples reach one element is
    // read-only. A writable aliasing view is a failure; a read-only view without
    // aliasing (the flag inherited from a broadcast, or a zero-size view) is safe,
    // as NumPy's own writeable flag, and only counted.
    if (ch.overlap && !t.is_read_only()) {
        out.failures.push_back("writable although elements alias");
        why << "  read-only: nt 0, but two indices reach one element (tensor.md: such views are read-only)\n";
    }
    if (!ch.overlap && t.is_read_only()) out.notes.push_back(t.size() == 0 ? "read-only, zero-size" : "read-only without aliasing");

    // Writing through the result. The base is arange(n), so the result's values are
    // the base positions it reaches: fill(-1) through a view must set exactly those
    // (each an index of the base), a copy must leave the base alone, and a read-only
    // view must throw read_only and change nothing.
    if (values == ch.values && !why.tellp()) {
        std::vector<i64> expected = base.to_vector();
        bool threw_read_only = false;
        try {
            t.fill(-1);
        } catch (const nt::error& e) {
            threw_read_only = e.code() == nt::errc::read_only;
            if (!threw_read_only) {
                out.failures.push_back("fill threw " + std::string(nt::to_string(e.code())));
                why << "  fill(-1) threw " << e.what() << "\n";
            }
        }
        if (t.is_read_only() && !threw_read_only) {
            out.failures.push_back("fill on a read-only view did not throw");
            why << "  fill(-1) on a read-only view did not throw read_only\n";
        }
        if (!t.is_read_only() && t.shares_storage(base)) {
            for (i64 v : ch.values) expected[static_cast<std::size_t>(v)] = -1;
        }
        if (base.to_vector() != expected) {
            out.failures.push_back("write through the result");
            why << "  after result.fill(-1) the arange is " << show(base.to_vector()) << "\n    expected "
                << show(expected) << (t.shares_storage(base) ? " (a view writes exactly the elements it shows)"
                                                             : " (a copy or read-only view writes nothing)")
                << "\n";
        }
    }
    const std::string w = why.str();
    if (!w.empty()) out.report = trace.str() + w;
    return out;
}

std::vector<std::string> data_paths() {
    if (const char* env = std::getenv("NT_STRUCTURAL_DATA"); env != nullptr && *env != '\0') return {env};
    const std::string dir = NT_TEST_DATA_DIR;
    return {dir + "/structural_fixed.txt", dir + "/structural_fresh.txt"};
}

}  // namespace

TEST_CASE("structural ops: chains agree with NumPy", "[numpy][structural]") {
    for (const std::string& path : data_paths()) {
        const data_file f = read_data(path);
        INFO("oracle " << f.path << ", seed " << f.seed << " (regenerate: /usr/bin/python3 tests/numpy/gen_structural.py --seed "
                       << f.seed << " --count " << f.count << " --out FILE; replay with NT_STRUCTURAL_DATA=FILE)");
        REQUIRE(f.chains.size() >= 100);

        std::size_t failures = 0, ok_chains = 0, error_chains = 0;
        std::map<std::string, std::size_t> by_kind, notes;
        constexpr std::size_t shown = 25;
        for (const chain& ch : f.chains) {
            (ch.ok ? ok_chains : error_chains) += 1;
            outcome o;
            try {
                o = replay(ch);
            } catch (const bad_data& e) {
                o.failures.push_back("unreadable chain");
                o.report = std::string("  unreadable chain: ") + e.what() + "\n";
            }
            for (const auto& n : o.notes) ++notes[n];
            if (o.failures.empty()) continue;
            for (const auto& k : o.failures) ++by_kind[k];
            if (++failures <= shown) {
                FAIL_CHECK("chain " << ch.id << " (" << f.path << ":" << ch.line << ", seed " << f.seed << ")\n"
                                    << o.report);
            }
        }
        std::ostringstream summary;
        summary << ok_chains << " valid chains, " << error_chains << " expected errors; " << failures << " disagree"
                << (failures > shown ? " (first " + std::to_string(shown) + " shown)" : std::string()) << "\n";
        for (const auto& [kind, count] : by_kind) summary << "  " << count << " x " << kind << "\n";
        for (const auto& [kind, count] : notes) summary << "  (allowed) " << count << " x " << kind << "\n";
        INFO(summary.str());
        CHECK(failures == 0);
        if (std::getenv("NT_STRUCTURAL_SUMMARY") != nullptr) WARN(summary.str());
    }
}
