// nt/error.hpp: every code has a distinct stable spelling that parses back, and
// what() carries the code ahead of the message.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "nt/error.hpp"

namespace {
constexpr nt::errc last_code = nt::errc::rank_mismatch;  // the last of the enum
}

TEST_CASE("error codes round-trip through their spellings", "[error]") {
    std::set<std::string> seen;
    for (int c = 0; c <= static_cast<int>(last_code); ++c) {
        const auto code = static_cast<nt::errc>(c);
        const std::string text(nt::to_string(code));
        CHECK_FALSE(text.empty());
        CHECK(text != "unknown");
        CHECK(seen.insert(text).second);  // distinct
        nt::errc parsed{};
        REQUIRE(nt::errc_from_string(text, parsed));
        CHECK(parsed == code);
    }
    nt::errc parsed{};
    CHECK_FALSE(nt::errc_from_string("no_such_code", parsed));
    CHECK_FALSE(nt::errc_from_string("", parsed));
}

TEST_CASE("nt::error carries its code and message", "[error]") {
    try {
        nt::throw_error(nt::errc::read_only, "assign: the destination is read-only");
        FAIL("throw_error returned");
    } catch (const std::runtime_error& e) {  // catchable as the standard root
        const auto* err = dynamic_cast<const nt::error*>(&e);
        REQUIRE(err != nullptr);
        CHECK(err->code() == nt::errc::read_only);
        CHECK(err->message() == "assign: the destination is read-only");
        CHECK(std::string(e.what()) == "[nt.read_only] assign: the destination is read-only");
    }
}
