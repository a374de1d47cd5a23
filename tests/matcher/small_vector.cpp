// nt/small_vector.hpp: random operation sequences replayed on std::vector, the
// oracle, across the inline/heap boundary (N = 4) and through copies and moves.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "nt/small_vector.hpp"

namespace {
using vec = nt::small_vector<std::int64_t, 4>;

bool same(const vec& v, const std::vector<std::int64_t>& ref) {
    return v.size() == ref.size() && std::equal(v.begin(), v.end(), ref.begin()) && v.span().size() == ref.size();
}
}  // namespace

TEST_CASE("small_vector behaves as std::vector under random operations", "[small_vector]") {
    std::mt19937_64 rng(Catch::rngSeed());
    for (int round = 0; round < 200; ++round) {
        vec v;
        std::vector<std::int64_t> ref;
        for (int step = 0; step < 60; ++step) {
            const auto value = static_cast<std::int64_t>(rng() % 1000);
            switch (rng() % 9) {
                case 0:
                case 1:
                    v.push_back(value);
                    ref.push_back(value);
                    break;
                case 2:
                    if (!ref.empty()) {
                        v.pop_back();
                        ref.pop_back();
                    }
                    break;
                case 3: {
                    const auto at = rng() % (ref.size() + 1);
                    v.insert(v.begin() + at, value);
                    ref.insert(ref.begin() + static_cast<std::ptrdiff_t>(at), value);
                    break;
                }
                case 4:
                    if (!ref.empty()) {
                        const auto at = rng() % ref.size();
                        v.erase(v.begin() + at);
                        ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(at));
                    }
                    break;
                case 5: {
                    const auto n = rng() % 10;
                    v.resize(n, value);
                    ref.resize(n, value);
                    break;
                }
                case 6: {  // copy, then keep using the copy
                    vec copy = v;
                    v = copy;
                    break;
                }
                case 7: {  // move out and back
                    vec moved = std::move(v);
                    CHECK(v.empty());
                    v = std::move(moved);
                    break;
                }
                default:
                    if (!ref.empty()) v.push_back(v[0]);  // aliasing its own element
                    if (!ref.empty()) ref.push_back(ref[0]);
            }
            REQUIRE(same(v, ref));
            if (!ref.empty()) {
                CHECK(v.front() == ref.front());
                CHECK(v.back() == ref.back());
            }
            CHECK(v.capacity() >= v.size());
        }
    }
}

TEST_CASE("small_vector copies are independent and compare by value", "[small_vector]") {
    vec inline_v{1, 2, 3};
    vec heap_v{1, 2, 3, 4, 5, 6};
    for (vec* original : {&inline_v, &heap_v}) {
        vec copy = *original;
        CHECK(copy == *original);
        copy[0] = 99;
        CHECK_FALSE(copy == *original);
        CHECK((*original)[0] == 1);
        vec assigned;
        assigned = *original;
        CHECK(assigned == *original);
    }
    vec from_span(std::span<const std::int64_t>(heap_v.span()));
    CHECK(from_span == heap_v);
    vec self = heap_v;
    self = *&self;  // self-assignment keeps the elements
    CHECK(self == heap_v);
}
