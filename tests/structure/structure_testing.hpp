// Shared helpers of the test_structure cases.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <cstdint>
#include <string>
#include <vector>

#include "nt/error.hpp"

namespace nt::test {

/// A tensor's shape as a vector (for comparisons in CHECK).
std::vector<std::int64_t> shape_of(const auto& t) { return {t.shape().begin(), t.shape().end()}; }

/// Runs f, which must throw nt::error with `code` and a message containing every part.
template <class F>
void require_error(F&& f, nt::errc code, std::initializer_list<const char*> parts) {
    try {
        f();
        FAIL("no nt::error thrown");
    } catch (const nt::error& e) {
        INFO(e.what());
        CHECK(e.code() == code);
        for (const char* p : parts) CHECK(std::string(e.message()).find(p) != std::string::npos);
    }
}

}  // namespace nt::test
