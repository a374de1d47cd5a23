// Shared helpers of the test_structure cases.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <cstdint>
#include <string>
#include <vector>

#include "nt/error.hpp"
#include "nt_test_support.hpp"

namespace nt::test {

/// A tensor's shape as a vector (for comparisons in CHECK).
std::vector<std::int64_t> shape_of(const auto& t) { return {t.shape().begin(), t.shape().end()}; }

}  // namespace nt::test
