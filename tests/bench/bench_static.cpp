// <nt/static.hpp>: the tiny named add (4,8 | R,C) + (8 | C) on tensor_of operands,
// against the unnamed Tensor add (4,8) + (8) and the named run-time add, in one run
// (docs/static_names.md: a named add of tensor_of operands costs what the unnamed
// one costs). Each iteration allocates its result, as the operators do.
#include <benchmark/benchmark.h>

#include <nt/nt.hpp>
#include <nt/static.hpp>

namespace {

using rc_t = nt::tensor_of<float, "R", "C">;
using c_t = nt::tensor_of<float, "C">;

void BM_tiny_add_unnamed(benchmark::State& state) {
    const auto a = nt::ones<float>({4, 8});
    const auto b = nt::ones<float>({8});
    for (auto _ : state) benchmark::DoNotOptimize(a + b);
}

void BM_tiny_add_named_runtime(benchmark::State& state) {
    const auto a = nt::ones<float>({4, 8}, {"R", "C"});
    const auto b = nt::ones<float>({8}, {"C"});
    for (auto _ : state) benchmark::DoNotOptimize(a + b);
}

void BM_tiny_add_tensor_of(benchmark::State& state) {
    const auto a = rc_t::ones({4, 8});
    const auto b = c_t::ones({8});
    for (auto _ : state) benchmark::DoNotOptimize(a + b);
}

// The names in another order than the host's: no row plan, the static strides.
void BM_tiny_add_tensor_of_permuted(benchmark::State& state) {
    const auto a = rc_t::ones({4, 8});
    const auto b = nt::tensor_of<float, "C", "R">::ones({8, 4});
    for (auto _ : state) benchmark::DoNotOptimize(a + b);
}

void BM_tiny_add_named_runtime_permuted(benchmark::State& state) {
    const auto a = nt::ones<float>({4, 8}, {"R", "C"});
    const auto b = nt::ones<float>({8, 4}, {"C", "R"});
    for (auto _ : state) benchmark::DoNotOptimize(a + b);
}

}  // namespace

BENCHMARK(BM_tiny_add_unnamed);
BENCHMARK(BM_tiny_add_named_runtime);
BENCHMARK(BM_tiny_add_tensor_of);
BENCHMARK(BM_tiny_add_tensor_of_permuted);
BENCHMARK(BM_tiny_add_named_runtime_permuted);
BENCHMARK_MAIN();
