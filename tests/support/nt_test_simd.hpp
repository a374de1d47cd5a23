// nt_test_simd.hpp: runs a check once per SIMD instruction set this CPU runs.
#pragma once

#include <string>

#include "simd.hpp"

namespace nt::test {

/// Calls check(target) with the kernels' dispatch forced to each instruction set of
/// nt::detail::simd_targets() in turn, then restores the CPU's best, also when a
/// REQUIRE inside check throws.
template <class Check>
void for_each_simd_target(const Check& check) {
    struct restore_best {
        ~restore_best() { nt::detail::force_simd_target(""); }
    } restore;
    for (const std::string& target : nt::detail::simd_targets()) {
        nt::detail::force_simd_target(target);
        check(target);
    }
}

}  // namespace nt::test
