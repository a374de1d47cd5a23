// Robustness: thousands of random and mutated configs and spec strings. Each must
// give a plan or an nt::error, never another exception (and never a crash: run
// under the sanitizers too). Reproducible: the seed is printed, and Catch's
// --rng-seed changes it.
#include <nt_test_support.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "nt/pipeline.hpp"
#include "nt/shape_config.hpp"

namespace {

/// Fixed base seed, mixed with Catch's --rng-seed (0 unless given).
constexpr std::uint64_t base_seed = 0x6e74'656e'736f'72ULL;  // "ntensor"

constexpr int config_cases = 5000;
constexpr int pipeline_cases = 5000;
constexpr int spec_string_cases = 5000;
constexpr int expression_cases = 5000;

std::uint64_t test_seed() { return base_seed ^ static_cast<std::uint64_t>(Catch::rngSeed()); }

/// Valid configs to mutate: the seed cases and every feature of the format.
const std::vector<std::string>& seed_configs() {
    static const std::vector<std::string> configs{
        R"({"tensors": {"img": {"shape": [10, 3, 256, 384], "names": [null, "CHANNEL", "H", "W"]},
                        "lbl": {"shape": [10, 256, 384], "names": "? H W"}}, "broadcast": ["img", "lbl"]})",
        R"({"tensors": {"truth": {"shape": [20, 512, 512], "names": "? H W"},
                        "prob": {"shape": [20, 3, 512, 512], "names": "? CLASS H W"},
                        "pred": {"shape": [20, 1, 17, 15, 512, 512], "names": "? SCALE1 SCALE2 SCALE3 H W"}},
            "broadcast": ["truth", "prob", "pred"], "union": true})",
        R"({"tensors": {"a": {"shape": [64, 32, 8, 5]}, "b": {"shape": [64, 32, 8]}}, "broadcast": ["a", "b"],
            "policy": "search"})",
        R"({"tensors": {"a": {"shape": [3, 4, 3, 4, 7]}, "b": {"shape": [3, 4]}}, "broadcast": ["a", "b"],
            "policy": "search"})",
        R"({"tensors": {"x": {"shape": [2, 3], "names": ["N", "C"]}, "y": {"shape": [3], "names": "C"}},
            "broadcast": ["x", "y"], "policy": "positional"})",
        R"({"tensors": {"v": {"shape": [3]}}, "broadcast": ["v"], "to": {"shape": [2, 3], "names": "? ?"}})",
        R"({"tensors": {"s": {"shape": []}, "m": {"shape": [0, 1]}}, "broadcast": ["s", "m"], "policy": "names",
            "union": false})",
    };
    return configs;
}

/// Valid pipeline configs to mutate: sizes, symbols, expressions, steps, "as",
/// targets, file keys (never read here: the files do not exist).
const std::vector<std::string>& seed_pipelines() {
    static const std::vector<std::string> configs{
        R"j({"sizes": {"K": 3},
            "tensors": {"image": {"shape": ["N", 3, "H", "W"], "names": "? CHANNEL H W", "dtype": "u8"},
                        "labels": {"shape": ["N", "H", "W"], "names": "? H W", "dtype": "int32"},
                        "classes": {"shape": ["K"], "names": "CLASS"},
                        "prob": {"shape": ["N", "K", "H", "W"], "names": "? CLASS H W"},
                        "tiles": {"shape": ["N", 3, "(H - 8) / 6 + 1", "(W - 8) // 6 + 1", 8, 8],
                                  "names": "? CHANNEL TY TX PY PX"}},
            "steps": [{"name": "overlay", "broadcast": ["image", "labels"]},
                      {"name": "ids", "broadcast": ["classes", "prob"], "as": "class_ids"},
                      {"name": "one_hot", "broadcast": ["class_ids", "labels"], "as": "onehot"},
                      {"name": "score", "broadcast": ["prob", "onehot"], "as": "scored", "policy": "search"},
                      {"name": "with_image", "broadcast": ["scored", "image"], "union": true}]})j",
        R"j({"sizes": {"N": 2, "H": 20, "W": 26},
            "tensors": {"ct": {"npy": "ct.npy", "names": "? C H W"}, "raw": {"npy": "raw.npy"},
                        "mean": {"shape": ["2 * (N - 1) + -N + 2", 1, "(H * W) // W", "W"], "names": "? C H W"}},
            "steps": [{"name": "a", "broadcast": ["ct", "mean"], "as": "o"},
                      {"name": "b", "broadcast": ["o"], "to": {"shape": ["N", 4, "H", "W"], "names": "? C H W"}}]})j",
        R"j({"tensors": {"a": {"shape": ["A", "B"]}, "b": {"shape": ["B"]}, "c": {"shape": ["-(-A) * 1", "B / 1"]}},
            "steps": [{"name": "s", "broadcast": ["a", "b", "c"], "policy": "positional", "as": "x"},
                      {"name": "t", "broadcast": ["x", "a"], "union": true, "as": "y"},
                      {"name": "u", "broadcast": ["y", "x"]}]})j",
        R"j({"sizes": {"Z": 0}, "tensors": {"a": {"shape": ["Z", -0, "Z // 2"], "names": [null, "Q", null]}},
            "broadcast": ["a"], "to": {"shape": ["Z", 0, 0], "names": "? Q ?"}})j",
    };
    return configs;
}

/// Replacement fragments that exercise the reader's edges.
const std::vector<std::string>& fragments() {
    static const std::vector<std::string> pieces{
        "null", "true", "false", "0", "-1", "1.5", "3.0", "1e3", "1e400", "-0", "9223372036854775807",
        "9223372036854775808", "18446744073709551616", "123456789012345678901234567890", "\"\"", "\"?\"",
        "\"H\"", "\"H H\"", "\"2D\"", "\"\\u00e9\"", "\"\\ud800\"", "\"\\u0000\"", "[]", "{}", "[null]",
        "[1,2,3]", "{\"shape\": [1]}", "{\"shape\": [2], \"names\": \"C\"}", "\"names\"", "\"search\"",
        "\"positional\"", "\"tensors\"", "\"broadcast\"", "\"to\"", "\"union\"", "\"policy\"", ",", ":", "[", "]",
        "{", "}", "\"", "\\", "\xff", "\xc3", "\xc3\xa9", "\xe2\x82\xac", "\t", "\n", " ",
        // Pipelines: symbols, expressions, keys and steps.
        "\"N\"", "\"H - 8\"", "\"(H - 8) / 6 + 1\"", "\"N // 0\"", "\"N / 7\"", "\"((((N))))\"", "\"-N\"",
        "\"9223372036854775807 * N\"", "\"N +\"", "\"(N\"", "\"N)\"", "\"2 ** 3\"", "\"Hh\"", "\"\u00e9\"",
        "\"sizes\"", "\"steps\"", "\"as\"", "\"name\"", "\"npy\"", "\"zarr\"", "\"dtype\"", "\"u16\"",
        "{\"N\": 3}", "{\"npy\": \"x.npy\"}", "{\"name\": \"s\", \"broadcast\": [\"a\"]}",
        "[{\"name\": \"s\", \"broadcast\": [\"a\"], \"as\": \"a\"}]", "\"scored\"", "\"onehot\"",
    };
    return pieces;
}

class mutator {
public:
    explicit mutator(std::uint64_t seed) : rng_(seed) {}

    std::size_t below(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    template <class T>
    const T& pick(const std::vector<T>& items) { return items[below(items.size())]; }

    /// One to four random edits of `text`.
    std::string mutate(std::string text) {
        const std::size_t edits = 1 + below(4);
        for (std::size_t e = 0; e < edits; ++e) edit(text);
        return text;
    }

    /// One value of `text` replaced by a fragment: mostly still JSON, so the
    /// reader's later stages (symbols, steps, plans) see the change.
    std::string replace_one_value(std::string text) {
        replace_value(text);
        return text;
    }

    /// A configuration nested `depth` levels deep in one of its values.
    std::string deep(std::size_t depth) {
        const bool arrays = below(2) == 0;
        std::string open, close;
        for (std::size_t i = 0; i < depth; ++i) {
            open += arrays ? "[" : "{\"k\": ";
            close += arrays ? "]" : "}";
        }
        return R"({"tensors": {"t": {"shape": )" + open + "1" + close + R"(}}, "broadcast": ["t"]})";
    }

    /// A random, mostly well-formed config with random specs.
    std::string random_config() {
        const std::size_t count = below(4);
        std::string tensors, broadcast;
        for (std::size_t t = 0; t < count; ++t) {
            const std::string key = "t" + std::to_string(t);
            tensors += (t ? ", \"" : "\"") + key + "\": " + random_spec_json();
            if (below(5)) broadcast += (broadcast.empty() ? "\"" : ", \"") + key + "\"";
        }
        static const std::vector<std::string> policies{"names", "positional", "search"};
        std::string out = R"({"tensors": {)" + tensors + R"(}, "broadcast": [)" + broadcast + "]";
        if (below(2)) out += R"(, "policy": ")" + pick(policies) + "\"";
        if (below(3) == 0) out += R"(, "union": true)";
        if (below(6) == 0) out += R"(, "to": )" + random_spec_json();
        return out + "}";
    }

    /// A random spec string for nt::parse_spec, mostly close to the grammar.
    std::string random_spec_string() {
        static const std::vector<std::string> tokens{"(", ")", "|", ",", " ", "?", "H", "W", "C", "2D", "0", "1",
                                                     "3", "-2", "99999999999999999999", "x", "\t", "((", "||", ""};
        std::string out;
        const std::size_t length = below(12);
        for (std::size_t i = 0; i < length; ++i) out += pick(tokens);
        return below(3) == 0 ? mutate(out) : out;
    }

private:
    void edit(std::string& text) {
        const std::size_t at = text.empty() ? 0 : below(text.size() + 1);
        switch (below(6)) {
            case 0: if (!text.empty() && at < text.size()) text.erase(at, 1 + below(8)); break;  // delete a run
            case 1: text.insert(at, 1, static_cast<char>(below(256))); break;                      // insert a byte
            case 2: if (at < text.size()) text[at] = static_cast<char>(text[at] ^ (1 << below(8))); break;  // flip a bit
            case 3: text.insert(at, pick(fragments())); break;                                      // insert a fragment
            case 4: replace_value(text); break;                                                     // swap a type
            default: duplicate_run(text, at); break;                                                // repeat a piece
        }
    }

    /// Replaces the token after a ':' or '[' or ',' with a fragment: a change of type.
    void replace_value(std::string& text) {
        std::vector<std::size_t> starts;
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == ':' || text[i] == '[' || text[i] == ',') starts.push_back(i + 1);
        if (starts.empty()) return;
        const std::size_t start = pick(starts);
        std::size_t end = start;
        while (end < text.size() && text[end] != ',' && text[end] != '}' && text[end] != ']') ++end;
        text.replace(start, end - start, " " + pick(fragments()));
    }

    void duplicate_run(std::string& text, std::size_t at) {
        if (at >= text.size()) return;
        const std::string run = text.substr(at, 1 + below(20));
        text.insert(at, run);
    }

    /// Mostly valid specs: names differ within a spec (A0, A1, ...: a name at one
    /// position in any tensor) so that many random configs also match.
    std::string random_spec_json() {
        static const std::vector<std::string> sizes{"0", "1", "1", "1", "2", "3", "1", "5"};
        const std::size_t rank = below(6);
        std::string shape, name_list;
        for (std::size_t i = 0; i < rank; ++i) {
            shape += (i ? ", " : "") + pick(sizes);
            const std::string name = below(2) ? "null" : "\"A" + std::to_string(below(6)) + "\"";
            name_list += (i ? ", " : "") + name;
        }
        std::string out = R"({"shape": [)" + shape + "]";
        if (below(2)) out += R"(, "names": [)" + name_list + "]";
        return out + "}";
    }

    std::mt19937_64 rng_;
};

/// What happened to one input; anything else than these two is a failure.
enum class outcome { plan, nt_error };

outcome run_config(const std::string& text) {
    try {
        const auto config = nt::parse_config(text);
        const nt::plan p = nt::plan_config(config);
        (void)nt::plan_to_json(p, config.broadcast);
        std::vector<std::string_view> labels(config.broadcast.begin(), config.broadcast.end());
        (void)nt::explain(p, labels);
        return outcome::plan;
    } catch (const nt::error& e) {
        (void)nt::error_to_json(e);
        return outcome::nt_error;
    }
}

/// A pipeline config: parsed, planned step by step, written as JSON and text, its
/// sizes checked; also read as today's one-step form.
outcome run_pipeline(const std::string& text) {
    outcome result = outcome::nt_error;
    try {
        nt::pipeline p = nt::parse_pipeline(text);
        const nt::pipeline_report r = nt::check_pipeline(p, false);
        (void)nt::report_to_json(p, r);
        (void)nt::explain(p, r);
        for (const auto& t : p.tensors())
            if (t.rank_known())
                for (std::size_t a = 0; a < t.rank(); ++a) (void)p.axis_text(t, a);
        for (const auto& t : p.tensors()) {
            try {
                (void)p.spec_of(t.key);
            } catch (const nt::error&) {
            }
        }
        result = r.first_failure() ? outcome::nt_error : outcome::plan;
    } catch (const nt::error& e) {
        (void)nt::error_to_json(e);
    }
    (void)run_config(text);
    return result;
}

outcome run_spec_string(const std::string& text) {
    try {
        const nt::spec s = nt::parse_spec(text);
        (void)nt::to_string(s);
        return outcome::plan;
    } catch (const nt::error&) {
        return outcome::nt_error;
    }
}

/// Runs `run` on every input; any exception other than nt::error fails with the input.
void check_all(const std::vector<std::string>& inputs, const std::function<outcome(const std::string&)>& run,
               int& plans, int& errors) {
    for (const auto& input : inputs) {
        try {
            (run(input) == outcome::plan ? plans : errors) += 1;
        } catch (const std::exception& e) {
            FAIL("input " << input << " threw a non-nt exception: " << e.what());
        }
    }
}

}  // namespace

TEST_CASE("robustness: random and mutated configs give a plan or an nt::error", "[config][robustness]") {
    const std::uint64_t seed = test_seed();
    INFO("seed " << seed << " (base " << base_seed << " xor --rng-seed " << Catch::rngSeed() << ")");
    mutator m(seed);

    std::vector<std::string> inputs;
    inputs.reserve(config_cases);
    for (int i = 0; i < config_cases; ++i) {
        switch (m.below(10)) {
            case 0: inputs.push_back(m.random_config()); break;
            case 1: inputs.push_back(m.mutate(m.random_config())); break;
            case 2: inputs.push_back(m.deep(1 + m.below(80))); break;
            default: inputs.push_back(m.mutate(m.pick(seed_configs()))); break;
        }
    }
    int plans = 0, errors = 0;
    check_all(inputs, run_config, plans, errors);
    WARN("robustness seed " << seed << ": " << plans << " plans, " << errors << " nt::errors");
    CHECK(plans + errors == config_cases);
    // The generator must reach both outcomes, or it tests nothing.
    CHECK(plans > 0);
    CHECK(errors > 0);
}

TEST_CASE("robustness: random and mutated pipeline configs give plans or an nt::error", "[config][robustness]") {
    const std::uint64_t seed = test_seed() + 2;
    INFO("seed " << seed);
    mutator m(seed);
    std::vector<std::string> inputs;
    inputs.reserve(pipeline_cases);
    for (int i = 0; i < pipeline_cases; ++i) {
        const std::string& seed_config = m.pick(seed_pipelines());
        inputs.push_back(m.below(2) ? m.replace_one_value(seed_config) : m.mutate(seed_config));
    }
    int plans = 0, errors = 0;
    check_all(inputs, run_pipeline, plans, errors);
    WARN("pipeline robustness seed " << seed << ": " << plans << " planned, " << errors << " nt::errors");
    CHECK(plans + errors == pipeline_cases);
    CHECK(plans > 0);
    CHECK(errors > 0);
}

TEST_CASE("robustness: random size expressions give a size or an nt::error", "[config][robustness]") {
    const std::uint64_t seed = test_seed() + 3;
    INFO("seed " << seed);
    mutator m(seed);
    static const std::vector<std::string> tokens{"N", "H", "W_2", "0", "1", "8", "6", "99999999999999999999", "+",
                                                 "-", "*", "/", "//", "(", ")", " ", "\t", "%", ".", "**", "\xc3",
                                                 "9223372036854775807", "", "(((", ")))"};
    int sizes = 0, errors = 0;
    for (int i = 0; i < expression_cases; ++i) {
        std::string text;
        const std::size_t length = m.below(16);
        for (std::size_t k = 0; k < length; ++k) text += m.pick(tokens);
        if (m.below(4) == 0) text = m.mutate(text);
        CAPTURE(text);
        try {
            nt::symbol_table symbols;
            const nt::size_expr e = nt::size_expr::parse(text, symbols);
            std::vector<std::int64_t> values(symbols.size());
            for (auto& v : values) v = static_cast<std::int64_t>(m.below(50)) - 1;  // -1: unbound
            const nt::size_eval r = e.evaluate(values);
            (void)nt::to_string(r, symbols);
            // The canonical text reads back as the same expression.
            CHECK(nt::size_expr::parse(e.text(symbols), symbols).evaluate(values).state == r.state);
            ++sizes;
        } catch (const nt::error&) {
            ++errors;
        } catch (const std::exception& e) {
            FAIL("a non-nt exception: " << e.what());
        }
    }
    CHECK(sizes > 0);
    CHECK(errors > 0);
}

TEST_CASE("robustness: random spec strings give a spec or an nt::error", "[config][robustness]") {
    const std::uint64_t seed = test_seed() + 1;
    INFO("seed " << seed);
    mutator m(seed);
    std::vector<std::string> inputs;
    inputs.reserve(spec_string_cases);
    for (int i = 0; i < spec_string_cases; ++i) inputs.push_back(m.random_spec_string());
    int specs = 0, errors = 0;
    check_all(inputs, run_spec_string, specs, errors);
    CHECK(specs + errors == spec_string_cases);
    CHECK(specs > 0);
    CHECK(errors > 0);
}

TEST_CASE("robustness: the unmutated seed configs all parse", "[config][robustness]") {
    for (const auto& text : seed_configs()) {
        CAPTURE(text);
        CHECK_NOTHROW(nt::parse_config(text));
    }
    for (const auto& text : seed_pipelines()) {
        CAPTURE(text);
        CHECK(run_pipeline(text) == outcome::plan);
    }
}
