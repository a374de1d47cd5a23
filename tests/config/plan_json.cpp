// nt/shape_config.hpp: plan_config matches what a config asks for, and plan_to_json /
// error_to_json write exactly the keys of spec/config.md, parsed back here.
#include <nt_test_support.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nt/shape_config.hpp"

using nt::errc;
using nt::test::error_message;
using nt::test::read_example;
using json = nlohmann::ordered_json;

namespace {

nt::plan plan_of(const std::string& json_text) { return nt::plan_config(nt::parse_config(json_text)); }

/// The plan of a config, written as JSON and parsed back.
json plan_json_of(const std::string& json_text) {
    const auto config = nt::parse_config(json_text);
    return json::parse(nt::plan_to_json(nt::plan_config(config), config.broadcast));
}

/// A source map as JSON: -1 becomes null.
json source_axes(const std::vector<int>& map) {
    json out = json::array();
    for (int a : map) out.push_back(a < 0 ? json(nullptr) : json(a));
    return out;
}

std::vector<std::string> keys_of(const json& object) {
    std::vector<std::string> keys;
    for (const auto& item : object.items()) keys.push_back(item.key());
    return keys;
}

std::string plan_error(errc code, const std::string& json_text) {
    return error_message(code, [&] { (void)plan_of(json_text); });
}

}  // namespace

TEST_CASE("plan_config on the example configs", "[config][examples]") {
    SECTION("segmentation.json: worked example 1") {
        const json out = plan_json_of(read_example("segmentation.json"));
        CHECK(out["shape"] == json::parse("[10, 3, 256, 384]"));
        CHECK(out["names"] == json::parse(R"([null, "CHANNEL", "H", "W"])"));
        CHECK(out["inputs"]["image"]["source_axes"] == source_axes({0, 1, 2, 3}));
        CHECK(out["inputs"]["labels"]["source_axes"] == source_axes({0, -1, 1, 2}));
        CHECK(out["host"] == "image");
    }
    SECTION("truth_prob.json: worked example 5") {
        const json out = plan_json_of(read_example("truth_prob.json"));
        CHECK(out["shape"] == json::parse("[20, 3, 512, 512]"));
        CHECK(out["inputs"]["truth"]["source_axes"] == source_axes({0, -1, 1, 2}));
        CHECK(out["inputs"]["prob"]["source_axes"] == source_axes({0, 1, 2, 3}));
    }
    SECTION("truth_prob_pred_union.json: worked example 8") {
        const json out = plan_json_of(read_example("truth_prob_pred_union.json"));
        CHECK(out["shape"] == json::parse("[20, 1, 17, 15, 3, 512, 512]"));
        CHECK(out["names"] == json::parse(R"([null, "SCALE1", "SCALE2", "SCALE3", "CLASS", "H", "W"])"));
        CHECK(out["inputs"]["truth"]["source_axes"] == source_axes({0, -1, -1, -1, -1, 1, 2}));
        CHECK(out["inputs"]["prob"]["source_axes"] == source_axes({0, -1, -1, -1, 1, 2, 3}));
        CHECK(out["inputs"]["pred"]["source_axes"] == source_axes({0, 1, 2, 3, -1, 4, 5}));
        CHECK(out["union"] == true);
        CHECK(out["rules"][4] == "by_name+union");
    }
    SECTION("prob_pred_no_union.json: worked example 6") {
        const auto message = plan_error(errc::no_counterpart, read_example("prob_pred_no_union.json"));
        CHECK_THAT(message, Catch::Contains("'prob'") && Catch::Contains("CLASS") && Catch::Contains("union"));
    }
    SECTION("broadcast_to.json") {
        const json out = plan_json_of(read_example("broadcast_to.json"));
        CHECK(out["shape"] == json::parse("[10, 3, 256, 384]"));
        CHECK(out["inputs"]["bias"]["source_axes"] == source_axes({-1, 0, -1, -1}));
        CHECK(out["host"] == nullptr);
    }
    SECTION("search.json: worked example 4") {
        const json out = plan_json_of(read_example("search.json"));
        CHECK(out["shape"] == json::parse("[64, 32, 8, 5]"));
        CHECK(out["inputs"]["weights"]["source_axes"] == source_axes({0, 1, 2, -1}));
        CHECK(out["inputs"]["weights"]["searched"] == true);
        CHECK(out["policy"] == "search");
    }
}

TEST_CASE("plan_to_json: keys, order and values", "[config][json]") {
    const std::string config_text = read_example("segmentation.json");
    const auto config = nt::parse_config(config_text);
    const nt::plan p = nt::plan_config(config);
    const std::string text = nt::plan_to_json(p, config.broadcast);
    const json out = json::parse(text);

    SECTION("the keys of config.md come first, in a stable order, then the extras") {
        CHECK(keys_of(out) ==
              std::vector<std::string>{"shape", "names", "inputs", "policy", "union", "host", "rules", "explanation"});
        CHECK(keys_of(out["inputs"]) == std::vector<std::string>{"image", "labels"});
        CHECK(keys_of(out["inputs"]["labels"]) ==
              std::vector<std::string>{"source_axes", "permutation", "inserted", "searched"});
    }
    SECTION("extras agree with the plan") {
        CHECK(out["inputs"]["labels"]["permutation"] == json::parse("[0, 1, 2]"));
        CHECK(out["inputs"]["labels"]["inserted"] == json::parse("[1]"));
        CHECK(out["inputs"]["labels"]["searched"] == false);
        CHECK(out["policy"] == "names");
        CHECK(out["rules"] == json::parse(R"(["right_aligned", "by_name", "by_name", "by_name"])"));
        const std::vector<std::string_view> labels{"image", "labels"};
        CHECK(out["explanation"] == nt::explain(p, labels));
    }
    SECTION("arrays of numbers stay on one line; the text ends without a newline") {
        CHECK_THAT(text, Catch::Contains(R"("shape": [10, 3, 256, 384],)"));
        CHECK_THAT(text, Catch::Contains(R"("source_axes": [0, null, 1, 2],)"));
        CHECK(text.back() == '}');
    }
    SECTION("indent < 0 gives one line; any indent parses to the same value") {
        const std::string one_line = nt::plan_to_json(p, config.broadcast, -1);
        CHECK(one_line.find('\n') == std::string::npos);
        CHECK(json::parse(one_line) == out);
        CHECK(json::parse(nt::plan_to_json(p, config.broadcast, 0)) == out);
        CHECK(json::parse(nt::plan_to_json(p, config.broadcast, 7)) == out);
    }
    SECTION("missing labels print as 'input i'; repeated labels are refused") {
        const json unlabeled = json::parse(nt::plan_to_json(p, {}));
        CHECK(keys_of(unlabeled["inputs"]) == std::vector<std::string>{"input 0", "input 1"});
        CHECK(unlabeled["host"] == "input 0");
        const std::vector<std::string> twice{"x", "x"};
        CHECK(error_message(errc::invalid_argument, [&] { (void)nt::plan_to_json(p, twice); }) != "");
    }
}

TEST_CASE("plan_to_json: rank 0 output and unusual labels", "[config][json]") {
    const auto config = nt::parse_config(
        R"({"tensors": {"s": {"shape": []}, "t \"q\" \u00e9": {"shape": []}}, "broadcast": ["s", "t \"q\" \u00e9"]})");
    const json out = json::parse(nt::plan_to_json(nt::plan_config(config), config.broadcast));
    CHECK(out["shape"] == json::array());
    CHECK(out["names"] == json::array());
    CHECK(out["inputs"]["t \"q\" \xc3\xa9"]["source_axes"] == json::array());
}

TEST_CASE("error_to_json", "[config][json]") {
    const nt::error e(errc::no_counterpart, "axis 'CLASS' \"quoted\"\nsecond line");
    const json out = json::parse(nt::error_to_json(e));
    CHECK(keys_of(out) == std::vector<std::string>{"error"});
    CHECK(keys_of(out["error"]) == std::vector<std::string>{"code", "message"});
    CHECK(out["error"]["code"] == "no_counterpart");
    CHECK(out["error"]["message"] == e.message());
    CHECK(nt::error_to_json(e, -1).find('\n') == std::string::npos);
    // Invalid UTF-8 in a message never makes the writer throw.
    CHECK_NOTHROW(json::parse(nt::error_to_json(nt::error(errc::parse_error, "bad \xff byte"))));
}

TEST_CASE("plan_config: every matching error through a config", "[config][errors]") {
    SECTION("incompatible_sizes (worked example 3)") {
        const auto message = plan_error(errc::incompatible_sizes, R"({
            "tensors": {"a": {"shape": [64, 32, 8, 5]}, "b": {"shape": [64, 32, 8]}}, "broadcast": ["a", "b"]})");
        CHECK_THAT(message, Catch::Contains("'a'") && Catch::Contains("'b'"));
    }
    SECTION("incompatible_sizes through to: a target never shrinks (worked example 19)") {
        const auto message = plan_error(errc::incompatible_sizes, R"({
            "tensors": {"v": {"shape": [3]}}, "broadcast": ["v"], "to": {"shape": [3, 1]}})");
        CHECK_THAT(message, Catch::Contains("'v'"));
    }
    SECTION("no_counterpart") {
        const auto message = plan_error(errc::no_counterpart, R"({
            "tensors": {"a": {"shape": [3], "names": "C"}, "b": {"shape": [4, 5]}}, "broadcast": ["b", "a"]})");
        CHECK_THAT(message, Catch::Contains("'a'") && Catch::Contains("'C'"));
    }
    SECTION("name_mismatch (worked example 10)") {
        const auto message = plan_error(errc::name_mismatch, R"({
            "tensors": {"nc": {"shape": [2, 3], "names": "N C"}, "h": {"shape": [3], "names": "H"}},
            "broadcast": ["nc", "h"], "policy": "positional"})");
        CHECK_THAT(message, Catch::Contains("'nc'") && Catch::Contains("'h'"));
    }
    SECTION("ambiguous (worked example 17)") {
        const auto message = plan_error(errc::ambiguous, R"({
            "tensors": {"big": {"shape": [3, 4, 3, 4, 7]}, "small": {"shape": [3, 4]}},
            "broadcast": ["big", "small"], "policy": "search"})");
        CHECK_THAT(message, Catch::Contains("'small'") && Catch::Contains("3 "));
    }
    SECTION("the same config succeeds with union / names / search") {
        CHECK(plan_of(R"({"tensors": {"a": {"shape": [3], "names": "C"}, "b": {"shape": [4, 5]}},
                          "broadcast": ["b", "a"], "union": true})")
                  .output == nt::parse_spec("(4,5,3 | ?,?,C)"));
        CHECK(plan_of(R"({"tensors": {"a": {"shape": [64, 32, 8, 5]}, "b": {"shape": [64, 32, 8]}},
                          "broadcast": ["a", "b"], "policy": "search"})")
                  .inputs[1]
                  .searched);
    }
}
