// Shared helpers for the tensor-core tests: printers for shapes and tensors, value
// and shape extractors, seeded random tensors.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"
#include "nt_test_types.hpp"

namespace Catch {
template <>
struct StringMaker<std::span<const std::int64_t>> {
    static std::string convert(std::span<const std::int64_t> s) { return nt::shape_string(s); }
};
template <>
struct StringMaker<nt::layout> {
    static std::string convert(const nt::layout& l) {
        return "layout{sizes " + nt::shape_string(l.sizes()) + ", strides " + nt::shape_string(l.strides()) +
               ", offset " + std::to_string(l.offset()) + "}";
    }
};
template <>
struct StringMaker<nt::name> {
    static std::string convert(nt::name n) { return std::string(n.str()); }
};
}  // namespace Catch

namespace core_testing {

using shape_t = std::vector<std::int64_t>;

/// The shape as a vector, for comparisons.
template <class T>
shape_t shape(const nt::Tensor<T>& t) {
    return shape_t(t.shape().begin(), t.shape().end());
}
template <class T>
shape_t strides(const nt::Tensor<T>& t) {
    return shape_t(t.strides().begin(), t.strides().end());
}
/// The names as strings ("?" for unnamed).
template <class T>
std::vector<std::string> names(const nt::Tensor<T>& t) {
    std::vector<std::string> out;
    for (nt::name n : t.names()) out.emplace_back(n.str());
    return out;
}
/// Values as a vector of T converted from ints.
template <class T>
std::vector<T> values(std::initializer_list<int> v) {
    std::vector<T> out;
    for (int x : v) out.push_back(static_cast<T>(x));
    return out;
}
/// Row-major values converted to int64 (works for every element type, including bool).
template <class T>
std::vector<std::int64_t> ints(const nt::Tensor<T>& t) {
    std::vector<std::int64_t> out;
    for (auto v : t.to_vector()) out.push_back(static_cast<std::int64_t>(v));
    return out;
}

/// A generator seeded from Catch's --rng-seed, so random cases reproduce.
inline std::mt19937_64& rng() {
    static std::mt19937_64 gen(Catch::rngSeed());
    return gen;
}
inline std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng());
}

/// A random shape of rank lo..hi with sizes 0..max_size (zero sizes are rarer).
inline shape_t random_shape(std::size_t lo, std::size_t hi, std::int64_t max_size = 4) {
    shape_t s(static_cast<std::size_t>(uniform(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi))));
    for (auto& x : s) x = uniform(0, 9) == 0 ? 0 : uniform(1, max_size);
    return s;
}

}  // namespace core_testing
