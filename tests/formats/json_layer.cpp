// The one JSON layer (src/formats/json_document) against nlohmann/json as the
// oracle: random documents read by both and written back in every style the library
// writes (one line with sorted keys as zarr quotes values, indents 0, 2 and 4 sorted as
// zarr metadata, insertion order as plans), and random doubles formatted by both.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "json_document.hpp"
#include "nt/error.hpp"

using namespace nt::detail;

namespace {

class random_json {
public:
    explicit random_json(std::uint64_t seed) : rng_(seed) {}

    std::string value(int depth) {
        switch (pick(depth > 4 ? 5 : 8)) {
            case 0: return "null";
            case 1: return pick(2) ? "true" : "false";
            case 2:
            case 3: return number();
            case 4: return nlohmann::json(text()).dump();
            case 5: {
                std::string s = "[";
                const int n = pick(4);
                for (int i = 0; i < n; ++i) s += (i ? ", " : "") + value(depth + 1);
                return s + "]";
            }
            default: {
                std::string s = "{";
                const int n = pick(5);
                for (int i = 0; i < n; ++i) s += (i ? ",\n " : "") + nlohmann::json(text()).dump() + ": " + value(depth + 1);
                return s + "}";
            }
        }
    }

    double any_double() {
        double d;
        const std::uint64_t bits = rng_();
        std::memcpy(&d, &bits, sizeof d);
        return d;
    }

private:
    int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }

    std::string text() {
        static const char* const parts[] = {"a", "b", "_ARRAY_DIMENSIONS", "\xc3\xa9", "\xe6\x97\xa5", "\"", "\\", "\n",
                                            "\t", "\x01", "\x1f", "/", "\x7f", "\xf0\x9f\x98\x80", "Z", "0", " "};
        std::string s;
        const int n = pick(4);
        for (int i = 0; i < n; ++i) s += parts[pick(static_cast<int>(std::size(parts)))];
        return s;
    }

    std::string number() {
        switch (pick(12)) {
            case 0: return std::to_string(pick(2000) - 1000);
            case 1: return "18446744073709551615";
            case 2: return "-9223372036854775808";
            case 3: return "18446744073709551616";  // past uint64: a double
            case 4: return "0.1";
            case 5: return "-0.0";
            case 6: return "-0";
            case 7: return "1e300";
            case 8: return "2.5e-320";
            case 9: return "1.0";
            case 10: {
                double d = any_double();
                if (!std::isfinite(d)) d = 3.25;
                char buffer[64];
                std::snprintf(buffer, sizeof buffer, "%.17g", d);
                return buffer;
            }
            default: return "123456789012345678";
        }
    }

    std::mt19937_64 rng_;
};

json_style indented(int indent) {
    json_style s;
    s.indent = indent;
    return s;
}

bool has_repeated_key(const std::string& text) {
    try {
        (void)json_document::parse(text);  // the config rules refuse a repeated key
        return false;
    } catch (const nt::error&) {
        return true;
    }
}

}  // namespace

TEST_CASE("json layer: random documents read and written as nlohmann/json does", "[json]") {
    random_json gen(20261127);
    int with_repeats = 0;
    for (int round = 0; round < 20000; ++round) {
        const std::string text = gen.value(0);
        INFO(text);
        const nlohmann::json oracle = nlohmann::json::parse(text);
        const json_document doc = json_document::parse(text, json_rules::lenient);
        const std::string line = json_text(doc.root());
        REQUIRE(line == oracle.dump());
        REQUIRE(json_text(json_document::parse(line, json_rules::lenient).root()) == line);
        json_out sorted = json_out::copy(doc.root());
        sorted.sort_keys();
        REQUIRE(sorted.dump(indented(4)) == oracle.dump(4));
        REQUIRE(sorted.dump(indented(0)) == oracle.dump(0));
        if (has_repeated_key(text)) {
            ++with_repeats;
            continue;
        }
        const nlohmann::ordered_json in_order = nlohmann::ordered_json::parse(text);
        const json_out written = json_out::copy(json_document::parse(text).root());
        REQUIRE(written.dump(indented(2)) == in_order.dump(2));
        REQUIRE(written.dump() == in_order.dump());
    }
    CHECK(with_repeats > 0);  // the lenient reader's last-value rule was exercised
}

TEST_CASE("json layer: doubles are written as nlohmann/json writes them", "[json]") {
    random_json gen(7);
    for (int round = 0; round < 100000; ++round) {
        const double d = gen.any_double();
        INFO(d);
        REQUIRE(json_out::floating(d).dump() == nlohmann::json(d).dump());
    }
    for (const double d : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), -0.0, 1.0,
                           1e20, 5e-324})
        CHECK(json_out::floating(d).dump() == nlohmann::json(d).dump());
}

TEST_CASE("json layer: invalid UTF-8 is refused, or replaced where asked", "[json]") {
    CHECK_THROWS(json_out::string("a\xff").dump());
    json_style replace;
    replace.replace_invalid_utf8 = true;
    CHECK(json_out::string("a\xff").dump(replace) == nlohmann::json("a\xff").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}
