// Out-of-line parts of the creation functions.
#include <cmath>
#include <limits>

#include "core_errors.hpp"
#include "nt/creation.hpp"

namespace nt::detail {

void throw_ragged(std::size_t depth, std::size_t expected, std::size_t actual) {
    if (expected == 0 && actual != 0)
        fail(errc::invalid_argument, "tensor",
             "the nested lists are ragged: a list of " + std::to_string(actual) + " items appears at depth " +
                 std::to_string(depth) + " where the first path reached a value; every list at one depth must have "
                                         "the same length");
    fail(errc::invalid_argument, "tensor",
         "the nested lists are ragged: at depth " + std::to_string(depth) + " a list has " + std::to_string(actual) +
             " items (or is a value) where the first list has " + std::to_string(expected) +
             "; every list at one depth must have the same length");
}

void check_element_count(std::int64_t n, std::span<const std::int64_t> shape, const char* op) {
    const auto count = checked_element_count(shape);
    if (!count)
        fail(errc::invalid_spec, op, "shape " + shape_text(shape) + " has a negative size or too many elements");
    if (*count != n)
        fail(errc::invalid_argument, op,
             std::to_string(n) + " values do not fill shape " + shape_text(shape) + " of " + std::to_string(*count) +
                 " elements; pass a shape with as many elements as values");
}

void throw_arange_count(std::int64_t n) {
    fail(errc::invalid_argument, "arange", "count " + std::to_string(n) + " is negative; use n >= 0");
}

std::int64_t arange_count(double start, double stop, double step) {
    if (step == 0) fail(errc::invalid_argument, "arange", "step is 0; use a non-zero step");
    const double n = std::ceil((stop - start) / step);
    if (!std::isfinite(n) || n > 9.0e18)
        fail(errc::invalid_argument, "arange",
             "start " + std::to_string(start) + ", stop " + std::to_string(stop) + ", step " + std::to_string(step) +
                 " do not give a finite element count");
    return n > 0 ? static_cast<std::int64_t>(n) : 0;
}

std::int64_t arange_count_int(std::int64_t start, std::int64_t stop, std::int64_t step) {
    if (step == 0) fail(errc::invalid_argument, "arange", "step is 0; use a non-zero step");
    // Work in 128 bits so that extreme bounds cannot overflow.
    __extension__ using i128 = __int128;
    const i128 span = static_cast<i128>(stop) - start;
    if (span == 0 || (span > 0) != (step > 0)) return 0;
    const i128 a = span > 0 ? span : -span;
    const i128 b = step > 0 ? static_cast<i128>(step) : -static_cast<i128>(step);
    const i128 n = (a + b - 1) / b;
    if (n > std::numeric_limits<std::int64_t>::max())
        fail(errc::invalid_argument, "arange",
             "start " + std::to_string(start) + ", stop " + std::to_string(stop) + ", step " + std::to_string(step) +
                 " give more elements than 64-bit sizes can count");
    return static_cast<std::int64_t>(n);
}

}  // namespace nt::detail
