// Shared helpers for ntensor's Catch2 tests: printers and spec builders.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nt/error.hpp"
#include "nt/match.hpp"
#include "nt/spec.hpp"

namespace Catch {
template <>
struct StringMaker<nt::spec> {
    static std::string convert(const nt::spec& s) { return nt::to_string(s); }
};
template <>
struct StringMaker<nt::errc> {
    static std::string convert(nt::errc c) { return std::string(nt::to_string(c)); }
};
}  // namespace Catch

namespace nt::test {

/// A spec built axis by axis without validation (to feed invalid specs to match).
inline spec unchecked_spec(std::initializer_list<std::int64_t> sizes, std::initializer_list<const char*> names = {}) {
    spec s;
    auto n = names.begin();
    for (std::int64_t size : sizes) s.push_back({size, n != names.end() ? nt::name(*n++) : nt::name{}});
    return s;
}

/// Source map from a vector with -1 for "inserted".
inline small_vector<std::int32_t, 8> map_of(const std::vector<int>& v) {
    small_vector<std::int32_t, 8> out;
    for (int x : v) out.push_back(x);
    return out;
}

/// Runs `fn`, requires it to throw nt::error with `code`, returns the message.
template <class Fn>
std::string error_message(errc code, Fn&& fn) {
    try {
        fn();
    } catch (const error& e) {
        CHECK(e.code() == code);
        return e.message();
    }
    FAIL("expected nt::error with code " << to_string(code) << ", nothing was thrown");
    return {};
}

#ifdef NT_SOURCE_DIR
/// The text of examples/specs/<file>, a config of the project.
inline std::string read_example(const std::string& file) {
    std::ifstream in(std::string(NT_SOURCE_DIR) + "/examples/specs/" + file);
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
#endif

}  // namespace nt::test
