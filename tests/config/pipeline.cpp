// nt/pipeline.hpp: pipeline configs (symbolic sizes, steps, "as", "sizes", file
// keys) read and planned from config text; every error with its message.
#include <nt_test_support.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nt/pipeline.hpp"
#include "nt/shape_config.hpp"

using nt::errc;
using nt::test::error_message;
using nt::test::read_example;
using json = nlohmann::ordered_json;

namespace {

/// A pipeline config from its parts (JSON fragments).
std::string config(const std::string& tensors, const std::string& steps, const std::string& sizes = "") {
    std::string out = "{";
    if (!sizes.empty()) out += R"("sizes": )" + sizes + ", ";
    return out + R"("tensors": )" + tensors + R"(, "steps": )" + steps + "}";
}

std::string parse_message(errc code, const std::string& text) {
    return error_message(code, [&] { (void)nt::parse_pipeline(text); });
}

/// The first failure of planning every step (parse errors included).
std::string plan_message(errc code, const std::string& text) {
    return error_message(code, [&] {
        nt::pipeline p = nt::parse_pipeline(text);
        const nt::pipeline_report r = nt::check_pipeline(p, false);
        if (const nt::error* e = r.first_failure()) throw *e;
    });
}

json report_json(const std::string& text) {
    nt::pipeline p = nt::parse_pipeline(text);
    const nt::pipeline_report r = nt::check_pipeline(p, false);
    REQUIRE(r.first_failure() == nullptr);
    return json::parse(nt::report_to_json(p, r));
}

}  // namespace

TEST_CASE("pipeline: the example segmentation_pipeline.json", "[config][pipeline]") {
    nt::pipeline p = nt::parse_pipeline(read_example("segmentation_pipeline.json"));
    CHECK_FALSE(p.one_step());
    CHECK(p.symbols().names() == std::vector<std::string>{"K", "N", "H", "W"});
    CHECK(p.sizes()[0] == 3);
    CHECK(p.size_source(0) == "\"sizes\"");
    CHECK(p.sizes()[1] == -1);
    CHECK(p.steps().size() == 6);
    CHECK(p.tensor("tiles").sizes[2].text(p.symbols()) == "(H - 8) / 6 + 1");
    CHECK(p.tensor("onehot").source == nt::pipeline_tensor::origin::step);

    const nt::pipeline_report r = nt::check_pipeline(p, false);
    REQUIRE(r.first_failure() == nullptr);
    const json out = json::parse(nt::report_to_json(p, r));
    std::vector<std::string> keys;
    for (const auto& item : out.items()) keys.push_back(item.key());
    CHECK(keys == std::vector<std::string>{"sizes", "steps"});
    CHECK(out["sizes"] == json::parse(R"({"K": 3, "N": null, "H": null, "W": null})"));
    CHECK(out["steps"].size() == 6);
    // Sizes not known yet print as their symbols; known ones as numbers.
    CHECK(out["steps"]["overlay"]["shape"] == json::parse(R"(["N", 3, "H", "W"])"));
    CHECK(out["steps"]["overlay"]["inputs"]["labels"]["source_axes"] == json::parse("[0, null, 1, 2]"));
    CHECK(out["steps"]["one_hot"]["names"] == json::parse(R"([null, "CLASS", "H", "W"])"));
    CHECK(out["steps"]["with_image"]["shape"] == json::parse(R"(["N", 3, 3, "H", "W"])"));
    CHECK(out["steps"]["normalize_tiles"]["shape"] ==
          json::parse(R"(["N", 3, "(H - 8) / 6 + 1", "(W - 8) / 6 + 1", 8, 8])"));
    // Step outputs take the sizes that meet on each axis.
    CHECK(p.axis_text(p.tensor("scored"), 1) == "K");
    CHECK(p.axis_size(p.tensor("scored"), 1) == 3);
    CHECK(p.axis_size(p.tensor("scored"), 0) == -1);

    const std::string text = nt::explain(p, r);
    CHECK_THAT(text, Catch::StartsWith("sizes: K = 3; not bound yet: N, H, W\n"));
    CHECK_THAT(text, Catch::Contains("step \"one_hot\": broadcast ids, labels -> onehot\n"
                                     "output (N,3,H,W | ?,CLASS,H,W)  policy names, host ids\n"));
}

TEST_CASE("pipeline: sizes bind symbols and fix derived sizes", "[config][pipeline]") {
    const json out = report_json(config(
        R"({"image": {"shape": ["N", 3, "H", "W"], "names": "? C H W"},
            "tiles": {"shape": ["N", "(H - 8) / 6 + 1", "(W - 8) // 6 + 1"], "names": "? TY TX"},
            "flat": {"shape": ["N * 3 * H * W"]}})",
        R"([{"name": "s", "broadcast": ["image", "tiles"], "union": true}, {"name": "f", "broadcast": ["flat"]}])",
        R"({"N": 2, "H": 20, "W": 27})"));
    CHECK(out["sizes"] == json::parse(R"({"N": 2, "H": 20, "W": 27})"));
    CHECK(out["steps"]["s"]["shape"] == json::parse("[2, 3, 20, 27, 3, 4]"));
    CHECK(out["steps"]["f"]["shape"] == json::parse("[3240]"));
}

TEST_CASE("pipeline: unknown sizes pair with any size; known ones still clash", "[config][pipeline]") {
    SECTION("a symbol meets a literal: the output takes the literal") {
        const json out = report_json(config(R"({"a": {"shape": ["N", 4]}, "b": {"shape": [10, 1]}})",
                                            R"([{"name": "s", "broadcast": ["a", "b"]}])"));
        CHECK(out["steps"]["s"]["shape"] == json::parse("[10, 4]"));
        CHECK(out["sizes"]["N"] == nullptr);  // pairing never binds: N could be 1
    }
    SECTION("two symbols: the first") {
        const json out = report_json(config(R"({"a": {"shape": ["N"]}, "b": {"shape": ["M"]}})",
                                            R"([{"name": "s", "broadcast": ["a", "b"]}])"));
        CHECK(out["steps"]["s"]["shape"] == json::parse(R"(["N"])"));
    }
    SECTION("to a symbolic target") {
        const json out = report_json(
            config(R"({"bias": {"shape": [3], "names": "C"}, "img": {"shape": ["N", 3, "H"], "names": "? C H"}})",
                   R"([{"name": "s", "broadcast": ["bias"], "to": {"shape": ["N", 3, "H"], "names": "? C H"}}])"));
        CHECK(out["steps"]["s"]["shape"] == json::parse(R"(["N", 3, "H"])"));
        CHECK(out["steps"]["s"]["inputs"]["bias"]["source_axes"] == json::parse("[null, 0, null]"));
    }
    SECTION("known sizes clash: the step is named, and the symbols behind the sizes") {
        const std::string message = plan_message(
            errc::incompatible_sizes, config(R"({"a": {"shape": ["N", 4]}, "b": {"shape": [10, 5]}})",
                                             R"([{"name": "mix", "broadcast": ["a", "b"]}])"));
        CHECK_THAT(message, Catch::StartsWith("steps.mix: cannot broadcast output axis 1") &&
                                Catch::Contains("input 0 'a' (N,4)") && Catch::Contains("size 5"));
        const std::string with_symbols = plan_message(
            errc::incompatible_sizes,
            config(R"({"a": {"shape": ["N"], "names": "B"}, "b": {"shape": [12], "names": "B"}})",
                   R"([{"name": "mix", "broadcast": ["a", "b"]}])", R"({"N": 10})"));
        CHECK_THAT(with_symbols, Catch::Contains("size 10") && Catch::Contains("size 12") &&
                                     Catch::EndsWith("Symbols: N = 10 (from \"sizes\")."));
    }
    SECTION("names errors show the sizes as written") {
        const std::string message = plan_message(
            errc::no_counterpart,
            config(R"({"classes": {"shape": ["K"], "names": "CLASS"}, "labels": {"shape": ["N", "H"], "names": "? H"}})",
                   R"([{"name": "s", "broadcast": ["classes", "labels"]}])"));
        CHECK_THAT(message, Catch::StartsWith("steps.s: input 0 'classes' (K | CLASS): axis 0 'CLASS' (size K) has no "
                                              "counterpart in the host, input 1 'labels' (N,H | ?,H)"));
    }
}

TEST_CASE("pipeline: today's one-step form is a one-step pipeline", "[config][pipeline]") {
    nt::pipeline p = nt::parse_pipeline(read_example("segmentation.json"));
    CHECK(p.one_step());
    const nt::pipeline_report r = nt::check_pipeline(p, false);
    const auto config = nt::parse_config(read_example("segmentation.json"));
    // The same plan, written the same way.
    CHECK(nt::report_to_json(p, r) == nt::plan_to_json(nt::plan_config(config), config.broadcast));

    SECTION("parse_config evaluates symbols that \"sizes\" binds") {
        const auto c = nt::parse_config(
            R"({"sizes": {"N": 4}, "tensors": {"a": {"shape": ["N", "2 * N"]}}, "broadcast": ["a"]})");
        CHECK(c.tensor("a") == nt::spec{4, 8});
    }
    SECTION("parse_config refuses what shape_config cannot hold") {
        CHECK_THAT(error_message(errc::invalid_spec,
                                 [] { (void)nt::parse_config(R"({"tensors": {"a": {"shape": ["N"]}}, "broadcast": ["a"]})"); }),
                   Catch::Contains("tensors.a: its size on axis 0 is N"));
        CHECK_THAT(error_message(errc::invalid_spec,
                                 [] {
                                     (void)nt::parse_config(
                                         R"({"tensors": {"a": {"shape": [1]}}, "steps": [{"name": "s", "broadcast": ["a"]}]})");
                                 }),
                   Catch::Contains("nt::parse_pipeline"));
    }
}

TEST_CASE("pipeline: \"-0\" is the size 0", "[config][pipeline]") {
    // Regression: "-0" reads as a negative integer in JSON parsers; it was refused
    // as "found the number 0; sizes must be >= 0".
    const auto c = nt::parse_config(R"({"tensors": {"a": {"shape": [-0, 2]}}, "broadcast": ["a"]})");
    CHECK(c.tensor("a") == nt::spec{0, 2});
    const auto p = nt::parse_pipeline(config(R"({"a": {"shape": [-0]}})", R"([{"name": "s", "broadcast": ["a"]}])",
                                             R"({"Z": -0})"));
    CHECK(p.sizes()[0] == 0);
    CHECK_THAT(parse_message(errc::invalid_spec, config(R"({"a": {"shape": [-1]}})", R"([{"name": "s", "broadcast": ["a"]}])")),
               Catch::Contains("tensors.a.shape[0]: found the number -1; sizes must be >= 0"));
}

TEST_CASE("pipeline: every error of the config text, with its message", "[config][pipeline][errors]") {
    const std::string one = R"([{"name": "s", "broadcast": ["a"]}])";
    struct bad_case {
        const char* what;
        errc code;
        std::string json;
        std::vector<std::string> message_parts;
    };
    const auto [what, code, text, parts] = GENERATE_COPY(values<bad_case>({
        {"an expression that does not divide", errc::invalid_spec,
         config(R"({"a": {"shape": ["(H - 8) / 6 + 1"]}, "b": {"shape": ["H"]}})", one, R"({"H": 21})"),
         {"tensors.a.shape[0]: (H - 8) / 6 + 1 with H = 21 (from \"sizes\"): 13 / 6 does not divide exactly "
          "(use // to round down)"}},
        {"an expression below 0", errc::invalid_spec, config(R"({"a": {"shape": ["N - 5"]}})", one, R"({"N": 2})"),
         {"tensors.a.shape[0]: N - 5 with N = 2", "it is -3; a size must be >= 0"}},
        {"division by zero", errc::invalid_spec, config(R"({"a": {"shape": ["4 // N"]}})", one, R"({"N": 0})"),
         {"tensors.a.shape[0]:", "divides 4 by 0"}},
        {"a malformed expression", errc::invalid_spec, config(R"({"a": {"shape": [2, "(H - 8) / 6 +"]}})", one),
         {"tensors.a.shape[1]: malformed size expression at character 14", "\n    (H - 8) / 6 +\n"}},
        {"a number in a string", errc::invalid_spec, config(R"({"a": {"shape": ["3"]}})", one),
         {"tensors.a.shape[0]: found the string \"3\"; write a literal size as a number"}},
        {"an unknown symbol in a step", errc::invalid_spec,
         config(R"({"a": {"shape": ["H"]}})", R"([{"name": "s", "broadcast": ["a"], "to": {"shape": ["Hh"]}}])"),
         {"steps.s.to.shape[0]: unknown symbol \"Hh\" (did you mean \"H\"?)", "add it to \"sizes\""}},
        {"a symbol only inside expressions", errc::invalid_spec,
         config(R"({"a": {"shape": ["H"]}, "b": {"shape": ["(Hx - 8) / 6"]}})", one),
         {"tensors.b.shape[0]: unknown symbol \"Hx\" (did you mean \"H\"?)"}},
        {"a cycle in as", errc::invalid_spec,
         config(R"({"a": {"shape": [1]}})", R"([{"name": "s", "broadcast": ["a", "out"], "as": "out"}])"),
         {"steps.s.broadcast[1]: \"out\" is this step's own output (\"as\"); a step cannot use its output (a cycle)"}},
        {"a forward reference in as", errc::invalid_spec,
         config(R"({"a": {"shape": [1]}})",
                R"([{"name": "first", "broadcast": ["later"]}, {"name": "second", "broadcast": ["a"], "as": "later"}])"),
         {"steps.first.broadcast[0]: \"later\" is the output of a later step, \"second\" (steps[1]); steps run in "
          "order"}},
        {"as names a tensor", errc::invalid_spec,
         config(R"({"a": {"shape": [1]}})", R"([{"name": "s", "broadcast": ["a"], "as": "a"}])"),
         {"steps.s.as: \"a\" is already defined by tensors.a"}},
        {"two steps with one name", errc::invalid_spec,
         config(R"({"a": {"shape": [1]}})", R"([{"name": "s", "broadcast": ["a"]}, {"name": "s", "broadcast": ["a"]}])"),
         {"steps[1].name: \"s\" also names steps[0]"}},
        {"a step without a name", errc::invalid_spec, config(R"({"a": {"shape": [1]}})", R"([{"broadcast": ["a"]}])"),
         {"steps[0]: the key \"name\" is missing"}},
        {"an unknown key in a step", errc::invalid_spec,
         config(R"({"a": {"shape": [1]}})", R"([{"name": "s", "broadcast": ["a"], "unoin": true}])"),
         {"steps[0]: unknown key \"unoin\" (did you mean \"union\"?)"}},
        {"a step with an unknown tensor", errc::unknown_tensor,
         config(R"({"img": {"shape": [1]}})", R"([{"name": "s", "broadcast": ["imgg"]}])"),
         {"steps.s.broadcast[0]: no tensor \"imgg\" under \"tensors\" (did you mean \"img\"?)"}},
        {"steps and broadcast", errc::invalid_spec,
         R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "steps": [{"name": "s", "broadcast": ["a"]}]})",
         {"broadcast: found with \"steps\""}},
        {"empty steps", errc::invalid_spec, config(R"({"a": {"shape": [1]}})", "[]"), {"steps: found an empty array"}},
        {"sizes not an object", errc::invalid_spec, config(R"({"a": {"shape": [1]}})", one, "[3]"),
         {"sizes: found an array of 1 element"}},
        {"a size of sizes not a number", errc::invalid_spec, config(R"({"a": {"shape": [1]}})", one, R"({"K": "3"})"),
         {"sizes.K: found the string \"3\""}},
        {"a key of sizes not a symbol", errc::invalid_spec, config(R"({"a": {"shape": [1]}})", one, R"({"3D": 3})"),
         {"sizes: \"3D\" is not a symbol"}},
        {"npy and zarr", errc::invalid_spec, config(R"({"a": {"npy": "a.npy", "zarr": "a.zarr"}})", one),
         {"tensors.a.zarr: a tensor takes its shape from one file", "not both"}},
        {"zarr not a string", errc::invalid_spec, config(R"({"a": {"zarr": [1]}})", one),
         {"tensors.a.zarr: found an array"}},
        {"an unknown dtype", errc::invalid_spec, config(R"({"a": {"shape": [1], "dtype": "flaot32"}})", one),
         {"tensors.a.dtype: found the unknown dtype \"flaot32\" (did you mean \"float32\"?)"}},
        {"npy not a string", errc::invalid_spec, config(R"({"a": {"npy": 3}})", one), {"tensors.a.npy: found the number 3"}},
        {"neither shape nor npy", errc::invalid_spec, config(R"({"a": {"names": "H"}})", one),
         {"tensors.a: the key \"shape\" is missing"}},
        {"dtype in a target", errc::invalid_spec,
         config(R"({"a": {"shape": [1]}})", R"([{"name": "s", "broadcast": ["a"], "to": {"shape": [1], "dtype": "f32"}}])"),
         {"steps.s.to: unknown key \"dtype\""}},
        {"a repeated name with symbolic sizes", errc::duplicate_name, config(R"({"a": {"shape": ["N", 2], "names": "H H"}})", one),
         {"tensors.a (N,2 | H,H): name 'H' is used by axis 0 and axis 1"}},
    }));
    CAPTURE(what, text);
    const std::string message = parse_message(code, text);
    for (const auto& part : parts) CHECK_THAT(message, Catch::Contains(part));
}

TEST_CASE("pipeline: errors of planning name the step", "[config][pipeline][errors]") {
    SECTION("no counterpart") {
        const std::string message = plan_message(
            errc::no_counterpart,
            config(R"({"classes": {"shape": ["K"], "names": "CLASS"}, "labels": {"shape": ["N", "H"], "names": "? H"}})",
                   R"([{"name": "one_hot", "broadcast": ["classes", "labels"]}])", R"({"K": 3})"));
        CHECK_THAT(message, Catch::StartsWith("steps.one_hot: input 0 'classes' (3 | CLASS)"));
    }
    SECTION("a step after a failed one that needs its output") {
        nt::pipeline p = nt::parse_pipeline(config(
            R"({"a": {"shape": [2], "names": "A"}, "b": {"shape": [3], "names": "B"}})",
            R"([{"name": "bad", "broadcast": ["a", "b"], "as": "ab"}, {"name": "next", "broadcast": ["ab"]}])"));
        const nt::pipeline_report r = nt::check_pipeline(p, false);
        REQUIRE(r.steps.size() == 2);
        CHECK(r.steps[0].failure->code() == errc::no_counterpart);
        CHECK_THAT(r.steps[1].failure->message(),
                   Catch::Contains("steps.next: broadcast[0] \"ab\" is the output of step \"bad\", which has no plan"));
        const json out = json::parse(nt::report_to_json(p, r));
        CHECK(out["steps"]["bad"]["error"]["code"] == "no_counterpart");
    }
    SECTION("a file's rank is not known before its header is read") {
        const std::string message = plan_message(
            errc::invalid_spec, config(R"({"ct": {"npy": "ct.npy"}})", R"([{"name": "s", "broadcast": ["ct"]}])"));
        CHECK_THAT(message, Catch::Contains("steps.s: broadcast[0] \"ct\" takes its shape from ct.npy") &&
                                Catch::Contains("give \"names\" (or \"shape\")"));
        // Both fixes it suggests, run: the step plans before the file is read.
        CHECK(report_json(config(R"({"ct": {"npy": "ct.npy", "names": "? C H"}})",
                                 R"([{"name": "s", "broadcast": ["ct"]}])"))["steps"]["s"]["shape"]
                  .size() == 3);
        CHECK(report_json(config(R"({"ct": {"npy": "ct.npy", "shape": [4, 3, 5]}})",
                                 R"([{"name": "s", "broadcast": ["ct"]}])"))["steps"]["s"]["shape"] ==
              json::parse("[4, 3, 5]"));
    }
    SECTION("a file with names plans with one unknown size per axis") {
        const json out = report_json(config(R"({"ct": {"npy": "ct.npy", "names": "? C H"}, "m": {"shape": [4], "names": "C"}})",
                                            R"([{"name": "s", "broadcast": ["ct", "m"]}])"));
        CHECK(out["steps"]["s"]["shape"] == json::parse(R"(["ct.shape[0]", 4, "ct.shape[2]"])"));
        CHECK(out["sizes"] == json::object());  // the files' own symbols are not listed
    }
}

TEST_CASE("pipeline: bind and spec_of", "[config][pipeline]") {
    nt::pipeline p = nt::parse_pipeline(config(R"({"image": {"shape": ["N", 3, "H"], "names": "? C H"},
                                                  "tiles": {"shape": ["N", "(H - 8) / 6 + 1"]}})",
                                               R"([{"name": "s", "broadcast": ["image"]}])"));
    CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)p.spec_of("tiles"); }),
               Catch::Contains("the spec of 'tiles': axis 0 has size N, and N is not bound yet. Fix: give N in "
                               "\"sizes\", or check first a tensor that has it alone as a size, such as 'image'"));
    p.bind(1, 20, "axis 2 of 'image'", "test");
    p.bind(0, 4, "axis 0 of 'image'", "test");
    CHECK(p.spec_of("tiles") == nt::spec{4, 3});
    p.bind(0, 4, "axis 0 of 'tiles'", "test");  // the same size again: fine
    const std::string conflict = error_message(errc::incompatible_sizes, [&] { p.bind(0, 5, "axis 0 of 'tiles'", "check"); });
    CHECK(conflict == "check: symbol N is 5 at axis 0 of 'tiles', but N = 4 from axis 0 of 'image'; one symbol has "
                      "one size. Fix: make the sizes agree, or use two symbols if these are different dimensions");
    CHECK_THAT(error_message(errc::unknown_tensor, [&] { (void)p.spec_of("tile"); }),
               Catch::Contains("did you mean \"tiles\""));
}

TEST_CASE("pipeline: large configs read and plan in linear time", "[.large][config][pipeline]") {
    // Regression: the reader used nlohmann::ordered_json (a linear search per key)
    // and looked every broadcast key up linearly: 40,000 tensors took 3.4 s, 40,000
    // inputs 9.8 s. At these sizes that was minutes; now it is about a second (CTest
    // TIMEOUT in tests/CMakeLists.txt). tests/bench/bench_config.cpp measures it.
    constexpr int n = 200'000;
    std::string tensors = "{";
    std::string keys = "[";
    for (int i = 0; i < n; ++i) {
        tensors += (i ? ", \"t" : "\"t") + std::to_string(i) + R"(": {"shape": [2, 1, 3], "names": "? B C"})";
        if (i < n / 2) keys += (i ? ", \"t" : "\"t") + std::to_string(i) + "\"";
    }
    tensors += "}";
    keys += "]";
    SECTION("today's form: parse_config, plan_config, plan_to_json") {
        const std::string text = R"({"tensors": )" + tensors + R"(, "broadcast": )" + keys + "}";
        const auto c = nt::parse_config(text);
        CHECK(c.tensors.size() == static_cast<std::size_t>(n));
        const nt::plan p = nt::plan_config(c);
        CHECK(p.inputs.size() == static_cast<std::size_t>(n / 2));
        CHECK(nt::plan_to_json(p, c.broadcast, -1).size() > static_cast<std::size_t>(n));
    }
    SECTION("a pipeline of many steps and symbols") {
        std::string steps = "[";
        std::string sym_tensors = "{";
        for (int i = 0; i < n / 10; ++i) {
            sym_tensors += (i ? ", \"s" : "\"s") + std::to_string(i) + R"(": {"shape": ["N)" + std::to_string(i) +
                           R"(", "(N)" + std::to_string(i) + R"( - 1) // 2"]})";
            steps += std::string(i ? ", " : "") + R"({"name": "p)" + std::to_string(i) + R"(", "broadcast": ["s)" +
                     std::to_string(i) + R"("], "as": "o)" + std::to_string(i) + "\"}";
        }
        nt::pipeline p = nt::parse_pipeline(config(sym_tensors + "}", steps + "]"));
        const nt::pipeline_report r = nt::check_pipeline(p, false);
        CHECK(r.first_failure() == nullptr);
        CHECK(nt::report_to_json(p, r).size() > static_cast<std::size_t>(n));
    }
}
