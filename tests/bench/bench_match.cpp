// The cost of axis matching: 2 and 3 inputs of rank 4 to 8, policies names,
// positional and search. Target: < 1 us median for 3 inputs of rank 6 under
// `names`, with no heap allocation beyond the returned plan. Every benchmark
// reports `allocs`, the heap allocations per call, counted by a replaced
// operator new.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "nt/match.hpp"

#include "allocation_counter.hpp"

namespace {

const char* const axis_names[] = {"A", "B", "C", "D", "E", "F", "H", "W"};

// A host of the given rank: one unnamed leading axis, the rest named, e.g.
// (8,3,4,5,6,32,32 | ?,B,C,D,E,H,W); other inputs drop and shuffle axes.
std::vector<nt::spec> make_specs(std::size_t inputs, std::size_t rank, nt::policy policy) {
    std::vector<nt::spec> specs;
    nt::spec host;
    if (policy == nt::policy::names) {
        host.push_back({8, {}});
        for (std::size_t a = 1; a < rank; ++a) host.push_back({std::int64_t(2 + a), axis_names[8 - rank + a]});
        specs.push_back(host);
        nt::spec labels;  // (?, ..., H, W) minus the second axis, reversed named order
        labels.push_back({8, {}});
        for (std::size_t a = rank - 1; a >= 2; --a) labels.push_back({1, axis_names[8 - rank + a]});
        specs.push_back(labels);
        if (inputs == 3) {
            nt::spec third;
            for (std::size_t a = 1; a < rank; a += 2) third.push_back({std::int64_t(2 + a), axis_names[8 - rank + a]});
            specs.push_back(third);
        }
        return specs;
    }
    // Unnamed specs: positional, and search (where right alignment fails for the
    // second input, e.g. (64,32,8,5,...) and (64,32,8)).
    for (std::size_t a = 0; a < rank; ++a) host.push_back({std::int64_t(64 >> a) + 1, {}});
    specs.push_back(host);
    nt::spec second;
    for (std::size_t a = 0; a + 1 < rank; ++a) second.push_back({policy == nt::policy::search ? host.size(a) : host.size(a + 1), {}});
    specs.push_back(second);
    if (inputs == 3) {
        nt::spec third;
        for (std::size_t a = 2; a < rank; ++a) third.push_back({1, {}});
        specs.push_back(third);
    }
    return specs;
}

void run(benchmark::State& state, nt::policy policy, bool reuse_plan) {
    const auto inputs = static_cast<std::size_t>(state.range(0));
    const auto rank = static_cast<std::size_t>(state.range(1));
    const auto specs = make_specs(inputs, rank, policy);
    nt::match_options options;
    options.policy = policy;
    nt::plan reused;
    if (!nt::try_match_into(specs, options, reused, nullptr)) {
        state.SkipWithError("specs do not match");
        return;
    }
    const std::size_t before = allocation_count.load();
    for (auto _ : state) {
        if (reuse_plan) {
            benchmark::DoNotOptimize(nt::try_match_into(specs, options, reused, nullptr));
            benchmark::DoNotOptimize(reused);
        } else {
            nt::plan p = nt::match(specs, options);
            benchmark::DoNotOptimize(p);
        }
    }
    state.counters["allocs"] = benchmark::Counter(double(allocation_count.load() - before) / double(state.iterations()));
}

void args(benchmark::internal::Benchmark* b) {
    for (int inputs : {2, 3})
        for (int rank = 4; rank <= 8; ++rank) b->Args({inputs, rank});
    b->ArgNames({"inputs", "rank"});
}

void BM_match_names(benchmark::State& s) { run(s, nt::policy::names, false); }
void BM_match_positional(benchmark::State& s) { run(s, nt::policy::positional, false); }
void BM_match_search(benchmark::State& s) { run(s, nt::policy::search, false); }
void BM_match_names_into(benchmark::State& s) { run(s, nt::policy::names, true); }
void BM_match_positional_into(benchmark::State& s) { run(s, nt::policy::positional, true); }
void BM_match_search_into(benchmark::State& s) { run(s, nt::policy::search, true); }

BENCHMARK(BM_match_names)->Apply(args);
BENCHMARK(BM_match_positional)->Apply(args);
BENCHMARK(BM_match_search)->Apply(args);
BENCHMARK(BM_match_names_into)->Apply(args);
BENCHMARK(BM_match_positional_into)->Apply(args);
BENCHMARK(BM_match_search_into)->Apply(args);

}  // namespace

BENCHMARK_MAIN();
