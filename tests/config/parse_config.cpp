// nt/shape_config.hpp: parse_config accepts every valid form of spec/config.md and
// rejects everything else with a stable code and a message that says where.
#include <nt_test_support.hpp>

#include <string>

#include "nt/shape_config.hpp"

using nt::errc;
using nt::test::error_message;

namespace {

/// A config with one tensor "t" whose spec object is `spec_json`.
std::string one_tensor(const std::string& spec_json) {
    return R"({"tensors": {"t": )" + spec_json + R"(}, "broadcast": ["t"]})";
}

/// "[1,1,...,1]" with `n` ones.
std::string ones(std::size_t n) {
    std::string out = "[";
    for (std::size_t i = 0; i < n; ++i) out += i ? ",1" : "1";
    return out + "]";
}

/// "N0 N1 ... N<n-1>".
std::string distinct_names(std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += (i ? " N" : "N") + std::to_string(i);
    return out;
}

std::string message_of(errc code, const std::string& json_text) {
    return error_message(code, [&] { (void)nt::parse_config(json_text); });
}

}  // namespace

TEST_CASE("parse_config reads the example of config.md", "[config]") {
    const auto config = nt::parse_config(R"({
      "tensors": {
        "img": {"shape": [10, 3, 256, 384], "names": [null, "CHANNEL", "H", "W"]},
        "lbl": {"shape": [10, 256, 384], "names": "? H W"}
      },
      "broadcast": ["img", "lbl"],
      "policy": "names",
      "union": false
    })");
    REQUIRE(config.tensors.size() == 2);
    CHECK(config.tensors[0].first == "img");
    CHECK(config.tensors[1].first == "lbl");
    CHECK(config.tensor("img") == nt::parse_spec("(10,3,256,384 | ?,CHANNEL,H,W)"));
    CHECK(config.tensor("lbl") == nt::parse_spec("(10,256,384 | ?,H,W)"));
    CHECK(config.broadcast == std::vector<std::string>{"img", "lbl"});
    CHECK_FALSE(config.target.has_value());
    CHECK(config.policy == nt::policy::names);
    CHECK_FALSE(config.union_axes);
}

TEST_CASE("parse_config: every valid form of a spec", "[config]") {
    SECTION("names absent: all unnamed") {
        CHECK(nt::parse_config(one_tensor(R"({"shape": [2, 3]})")).tensor("t") == nt::spec{2, 3});
    }
    SECTION("names as an array with null and \"?\"") {
        const auto config = nt::parse_config(one_tensor(R"({"shape": [2, 3, 4], "names": [null, "?", "W"]})"));
        CHECK(config.tensor("t") == nt::parse_spec("(2,3,4 | ?,?,W)"));
    }
    SECTION("names as a string, any white space") {
        const auto config = nt::parse_config(one_tensor(R"({"names": "  ?\tH   W ", "shape": [2, 3, 4]})"));
        CHECK(config.tensor("t") == nt::parse_spec("(2,3,4 | ?,H,W)"));
    }
    SECTION("rank 0, with and without names") {
        CHECK(nt::parse_config(one_tensor(R"({"shape": []})")).tensor("t").rank() == 0);
        CHECK(nt::parse_config(one_tensor(R"({"shape": [], "names": []})")).tensor("t").rank() == 0);
        CHECK(nt::parse_config(one_tensor(R"({"shape": [], "names": ""})")).tensor("t").rank() == 0);
    }
    SECTION("sizes 0 and the largest int64") {
        const auto config = nt::parse_config(one_tensor(R"({"shape": [0, 9223372036854775807]})"));
        CHECK(config.tensor("t").size(0) == 0);
        CHECK(config.tensor("t").size(1) == INT64_MAX);
    }
    SECTION("rank max_rank") {
        CHECK(nt::parse_config(one_tensor(R"({"shape": )" + ones(nt::max_rank) + "}")).tensor("t").rank() == nt::max_rank);
    }
    SECTION("names of 64 characters") {
        const std::string long_name(nt::max_name_length, 'N');
        CHECK(nt::parse_config(one_tensor(R"({"shape": [1], "names": [")" + long_name + R"("]})")).tensor("t").name(0).str() ==
              long_name);
    }
}

TEST_CASE("parse_config: options, target and file order", "[config]") {
    SECTION("every policy") {
        for (const auto& [text, expected] : {std::pair{"names", nt::policy::names},
                                             std::pair{"positional", nt::policy::positional},
                                             std::pair{"search", nt::policy::search}}) {
            const auto config = nt::parse_config(R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "policy": ")" +
                                                 std::string(text) + "\"}");
            CHECK(config.policy == expected);
        }
    }
    SECTION("union") {
        CHECK(nt::parse_config(R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "union": true})").union_axes);
    }
    SECTION("to") {
        const auto config = nt::parse_config(
            R"({"tensors": {"a": {"shape": [3]}}, "broadcast": ["a"], "to": {"shape": [2, 3], "names": "? C"}})");
        REQUIRE(config.target.has_value());
        CHECK(*config.target == nt::parse_spec("(2,3 | ?,C)"));
    }
    SECTION("tensors keep the file order; broadcast keeps its own order; unused tensors are fine") {
        const auto config = nt::parse_config(
            R"({"broadcast": ["a", "z"], "tensors": {"z": {"shape": [1]}, "m": {"shape": [2]}, "a": {"shape": [3]}}})");
        REQUIRE(config.tensors.size() == 3);
        CHECK(config.tensors[0].first == "z");
        CHECK(config.tensors[1].first == "m");
        CHECK(config.tensors[2].first == "a");
        CHECK(config.broadcast == std::vector<std::string>{"a", "z"});
    }
    SECTION("any non-empty string is a tensor key") {
        const auto config = nt::parse_config(R"({"tensors": {"a b.c \u00e9": {"shape": [1]}}, "broadcast": ["a b.c \u00e9"]})");
        CHECK(config.tensor("a b.c \xc3\xa9").rank() == 1);
    }
}

TEST_CASE("parse_config: parse_error", "[config][errors]") {
    SECTION("malformed JSON") {
        CHECK_THAT(message_of(errc::parse_error, R"({"tensors": )"), Catch::Contains("malformed JSON"));
        CHECK_THAT(message_of(errc::parse_error, ""), Catch::Contains("malformed JSON"));
        CHECK_THAT(message_of(errc::parse_error, R"({"tensors": {}} trailing)"), Catch::Contains("malformed JSON"));
        CHECK_THAT(message_of(errc::parse_error, "{\"a\": \"\xff\"}"), Catch::Contains("malformed JSON"));
        CHECK_THAT(message_of(errc::parse_error, R"({"tensors": {"t": {"shape": [1e400]}}})"),
                   Catch::Contains("1e400"));
    }
    SECTION("duplicate keys, at any level") {
        const auto top = message_of(errc::parse_error, R"({"broadcast": ["t"], "broadcast": ["t"]})");
        CHECK_THAT(top, Catch::Contains("\"broadcast\" appears twice"));
        const auto nested = message_of(errc::parse_error, one_tensor(R"({"shape": [1], "shape": [2]})"));
        CHECK_THAT(nested, Catch::StartsWith("tensors.t:") && Catch::Contains("\"shape\" appears twice"));
        const auto in_array = message_of(errc::parse_error, R"({"x": [{"a": 1}, {"a": 1, "a": 2}]})");
        CHECK_THAT(in_array, Catch::StartsWith("x[1]:"));
    }
    SECTION("equal keys in different objects are not duplicates") {
        CHECK_NOTHROW(nt::parse_config(
            R"({"tensors": {"a": {"shape": [1]}, "b": {"shape": [1]}}, "broadcast": ["a", "b"]})"));
    }
    SECTION("nesting deeper than 64 levels") {
        const std::string deep = std::string(65, '[') + std::string(65, ']');
        CHECK_THAT(message_of(errc::parse_error, deep), Catch::Contains("nest deeper than 64"));
        // 64 levels parse (and then fail as a config, not as JSON).
        const std::string ok = std::string(64, '[') + std::string(64, ']');
        CHECK(message_of(errc::invalid_spec, ok) != "");
        // Very deep input fails fast, without recursion.
        const std::string very_deep(1'000'000, '[');
        CHECK_THAT(message_of(errc::parse_error, very_deep), Catch::Contains("nest deeper"));
    }
}

TEST_CASE("parse_config: invalid_spec for each malformed kind", "[config][errors]") {
    struct bad_case {
        const char* what;
        std::string json;
        std::vector<std::string> message_names;  // substrings the message must contain
    };
    const auto [what, json, message_names] = GENERATE_COPY(values<bad_case>({
        {"not an object", "[1, 2]", {"the config", "an array of 2 elements"}},
        {"unknown top-level key", R"({"tensors": {}, "broadcast": ["t"], "polcy": "names"})", {"\"polcy\"", "did you mean \"policy\""}},
        {"unknown spec key", one_tensor(R"({"shape": [1], "nmes": "H"})"), {"tensors.t", "\"nmes\"", "did you mean \"names\""}},
        {"unknown key in to", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t"], "to": {"shape": [1], "x": 1}})", {"to:", "\"x\""}},
        {"tensors missing", R"({"broadcast": ["t"]})", {"\"tensors\" is missing"}},
        {"tensors not an object", R"({"tensors": [], "broadcast": ["t"]})", {"tensors:", "an empty array"}},
        {"empty tensor key", R"({"tensors": {"": {"shape": [1]}}, "broadcast": [""]})", {"tensors:", "empty key"}},
        {"spec not an object", one_tensor("[1, 2]"), {"tensors.t:", "an array"}},
        {"shape missing", one_tensor(R"({"names": "H"})"), {"tensors.t:", "\"shape\" is missing"}},
        {"shape not an array", one_tensor(R"j({"shape": "(2,3)"})j"), {"tensors.t.shape:", "the string \"(2,3)\""}},
        {"size a float", one_tensor(R"({"shape": [2, 2.5]})"), {"tensors.t.shape[1]:", "2.5", "integer"}},
        {"size an integral float", one_tensor(R"({"shape": [3.0]})"), {"tensors.t.shape[0]:", "3.0", "without a fraction"}},
        {"size in exponent form", one_tensor(R"({"shape": [1e3]})"), {"tensors.t.shape[0]:", "1000.0"}},
        {"size a bool", one_tensor(R"({"shape": [true]})"), {"tensors.t.shape[0]:", "found true"}},
        {"size a string", one_tensor(R"({"shape": ["3"]})"), {"tensors.t.shape[0]:", "the string \"3\""}},
        {"size null", one_tensor(R"({"shape": [null]})"), {"tensors.t.shape[0]:", "null"}},
        {"size an array", one_tensor(R"({"shape": [[3]]})"), {"tensors.t.shape[0]:", "an array"}},
        {"size negative", one_tensor(R"({"shape": [4, -1]})"), {"tensors.t.shape[1]:", "-1", ">= 0"}},
        {"size over int64", one_tensor(R"({"shape": [9223372036854775808]})"), {"tensors.t.shape[0]:", "too large"}},
        {"size over uint64", one_tensor(R"({"shape": [123456789012345678901234567890]})"), {"tensors.t.shape[0]:", "too large"}},
        {"rank over the limit", one_tensor(R"({"shape": )" + ones(nt::max_rank + 1) + "}"),
         {"tensors.t.shape:", "65 sizes", "at most 64 axes"}},
        {"names string over the limit", one_tensor(R"({"shape": [1], "names": ")" + distinct_names(nt::max_rank + 1) + "\"}"),
         {"tensors.t.names:", "more than 64"}},
        {"names a number", one_tensor(R"({"shape": [1], "names": 3})"), {"tensors.t.names:", "the number 3"}},
        {"names an object", one_tensor(R"({"shape": [1], "names": {}})"), {"tensors.t.names:", "an empty object"}},
        {"names array too short", one_tensor(R"({"shape": [1, 2], "names": ["H"]})"), {"tensors.t.names:", "1 name", "2 axes"}},
        {"names string too long", one_tensor(R"({"shape": [1], "names": "H W"})"), {"tensors.t.names:", "2 names", "1 axis"}},
        {"name not a string", one_tensor(R"({"shape": [1, 2], "names": ["H", 7]})"), {"tensors.t.names[1]:", "the number 7"}},
        {"name empty", one_tensor(R"({"shape": [1], "names": [""]})"), {"tensors.t.names[0]:", "empty name"}},
        {"name invalid in an array", one_tensor(R"({"shape": [1], "names": ["2D"]})"), {"tensors.t.names[0]:", "'2D'"}},
        {"name invalid in a string", one_tensor(R"({"shape": [1, 1], "names": "H W-1"})"), {"tensors.t.names:", "'W-1'"}},
        {"name too long", one_tensor(R"({"shape": [1], "names": [")" + std::string(65, 'N') + R"("]})"), {"tensors.t.names[0]:", "64 characters"}},
        {"name non-ASCII", one_tensor(R"({"shape": [1], "names": ["\u00e9"]})"), {"tensors.t.names[0]:", "\\xc3\\xa9"}},
        {"broadcast missing", R"({"tensors": {"t": {"shape": [1]}}})", {"\"broadcast\" is missing"}},
        {"broadcast empty", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": []})", {"broadcast:", "an empty array"}},
        {"broadcast a string", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": "t"})", {"broadcast:", "the string \"t\""}},
        {"broadcast key not a string", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t", 1]})", {"broadcast[1]:", "the number 1"}},
        {"broadcast key repeated", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t", "t"]})", {"broadcast[1]:", "broadcast[0]"}},
        {"to with two keys", R"({"tensors": {"a": {"shape": [1]}, "b": {"shape": [1]}}, "broadcast": ["a", "b"], "to": {"shape": [1]}})", {"broadcast:", "2 keys", "exactly one"}},
        {"to with union", R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "to": {"shape": [1]}, "union": true})", {"union:", "\"to\""}},
        {"to not an object", R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "to": [1]})", {"to:", "an array"}},
        {"to with a bad size", R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "to": {"shape": [-2]}})", {"to.shape[0]:", "-2"}},
        {"unknown policy", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t"], "policy": "serch"})", {"policy:", "\"serch\"", "did you mean \"search\""}},
        {"policy not a string", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t"], "policy": 1})", {"policy:", "the number 1"}},
        {"policy in the wrong case", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t"], "policy": "Names"})", {"policy:", "\"Names\""}},
        {"union not a bool", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t"], "union": "true"})", {"union:", "the string \"true\""}},
        {"union a number", R"({"tensors": {"t": {"shape": [1]}}, "broadcast": ["t"], "union": 1})", {"union:", "the number 1"}},
        {"non-plain key quoted in the path", R"({"tensors": {"a b": {"shape": [-1]}}, "broadcast": ["a b"]})", {"tensors[\"a b\"].shape[0]:"}},
    }));
    CAPTURE(what, json);
    const std::string message = message_of(errc::invalid_spec, json);
    for (const auto& part : message_names) CHECK_THAT(message, Catch::Contains(part));
}

TEST_CASE("parse_config: duplicate_name and unknown_tensor", "[config][errors]") {
    SECTION("a name repeated in one tensor, array form") {
        const auto message = message_of(errc::duplicate_name, one_tensor(R"({"shape": [2, 2], "names": ["H", "H"]})"));
        CHECK_THAT(message, Catch::StartsWith("tensors.t") && Catch::Contains("'H'") && Catch::Contains("axis 0") &&
                                Catch::Contains("axis 1"));
    }
    SECTION("a name repeated in one tensor, string form") {
        CHECK_THAT(message_of(errc::duplicate_name, one_tensor(R"({"shape": [2, 2, 2], "names": "? W W"})")),
                   Catch::Contains("'W'"));
    }
    SECTION("a name repeated in the target") {
        CHECK_THAT(message_of(errc::duplicate_name,
                              R"({"tensors": {"a": {"shape": [1]}}, "broadcast": ["a"], "to": {"shape": [1, 1], "names": "C C"}})"),
                   Catch::StartsWith("to "));
    }
    SECTION("the same name in two tensors is fine") {
        CHECK_NOTHROW(nt::parse_config(
            R"({"tensors": {"a": {"shape": [2], "names": "H"}, "b": {"shape": [2], "names": "H"}}, "broadcast": ["a", "b"]})"));
    }
    SECTION("a broadcast key that is not defined") {
        const auto message = message_of(
            errc::unknown_tensor, R"({"tensors": {"img": {"shape": [1]}, "lbl": {"shape": [1]}}, "broadcast": ["img", "lbl2"]})");
        CHECK_THAT(message, Catch::Contains("\"lbl2\"") && Catch::Contains("did you mean \"lbl\"") &&
                                Catch::Contains("\"img\", \"lbl\""));
    }
    SECTION("no tensors at all") {
        CHECK_THAT(message_of(errc::unknown_tensor, R"({"tensors": {}, "broadcast": ["x"]})"),
                   Catch::Contains("\"tensors\" is empty"));
    }
    SECTION("shape_config::tensor") {
        const auto config = nt::parse_config(one_tensor(R"({"shape": [1]})"));
        CHECK(error_message(errc::unknown_tensor, [&] { (void)config.tensor("u"); }) != "");
    }
}
