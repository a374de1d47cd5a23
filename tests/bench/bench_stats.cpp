// Statistics and sorting (nt/statistics.hpp, nt/sort.hpp) through the public API,
// with a memcpy of the input's bytes in the same run; tests/bench/numpy_bench.py
// (stats_cases) times the same workloads in NumPy under the same labels:
//   stddev over (?,C,D,H,W) = (4,8,32,64,64) f32 with axes {0, D, H, W},
//   cumsum of a (1024,4096) f32 along the last and along the first axis,
//   sort and stable argsort of 1e7 f32, the 10 largest of each 1024-element row of a
//   (4096,1024) f32 (NumPy: argpartition, then the 10 in order), unique_counts of 1e7
//   uint8 labels, one_hot of 1e7 labels into 4 classes, bincount of 1e7.
// CTest smoke-runs only the small cases (nt_bench_smoke_filter_bench_stats).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "bench_support.hpp"
#include "nt/nt.hpp"

namespace {

using nt::bench::BM_memcpy;
using nt::bench::set_bytes;

nt::Tensor<float> random_floats(std::vector<std::int64_t> shape, std::vector<nt::name> names) {
    auto t = nt::empty<float>(shape, names);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
    for (float& x : t) x = dist(rng);
    return t;
}

void BM_stddev(benchmark::State& state) {
    const std::int64_t d = state.range(0);
    const auto x = random_floats({4, 8, d, 64, 64}, {"?", "C", "D", "H", "W"});
    for (auto _ : state) {
        auto s = nt::stddev(x, {0, "D", "H", "W"});
        benchmark::DoNotOptimize(s.data());
    }
    set_bytes(state, x.size() * 4);
}
BENCHMARK(BM_stddev)->Arg(32)->Name("stddev (4,8,32,64,64) over ?,D,H,W")->UseRealTime();
BENCHMARK(BM_stddev)->Arg(1)->Name("stddev (4,8,1,64,64) over ?,D,H,W")->UseRealTime();

void BM_cumsum(benchmark::State& state) {
    const std::int64_t rows = state.range(0), axis = state.range(1);
    const auto x = random_floats({rows, 4096}, {"H", "W"});
    for (auto _ : state) {
        auto s = nt::cumsum(x, axis);
        benchmark::DoNotOptimize(s.data());
    }
    set_bytes(state, 2 * x.size() * 4);
}
BENCHMARK(BM_cumsum)->Args({1024, 1})->Name("cumsum (1024,4096) f32 along W")->UseRealTime();
BENCHMARK(BM_cumsum)->Args({1024, 0})->Name("cumsum (1024,4096) f32 along H")->UseRealTime();
BENCHMARK(BM_cumsum)->Args({4, 1})->Name("cumsum (4,4096) f32 along W")->UseRealTime();

void BM_sort(benchmark::State& state) {
    const auto x = random_floats({state.range(0)}, {});
    for (auto _ : state) {
        auto s = nt::sort(x);
        benchmark::DoNotOptimize(s.data());
    }
    set_bytes(state, 2 * x.size() * 4);
}
BENCHMARK(BM_sort)->Arg(10'000'000)->Name("sort 1e7 f32")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sort)->Arg(1000)->Name("sort 1e3 f32")->UseRealTime();

void BM_argsort(benchmark::State& state) {
    const auto x = random_floats({state.range(0)}, {});
    for (auto _ : state) {
        auto s = nt::argsort(x);
        benchmark::DoNotOptimize(s.data());
    }
    set_bytes(state, x.size() * (4 + 8));
}
BENCHMARK(BM_argsort)->Arg(10'000'000)->Name("argsort 1e7 f32")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_argsort)->Arg(1000)->Name("argsort 1e3 f32")->UseRealTime();

void BM_topk(benchmark::State& state) {
    const auto x = random_floats({state.range(0), 1024}, {});
    for (auto _ : state) {
        auto [values, indices] = nt::topk(x, 10, 1);
        benchmark::DoNotOptimize(indices.data());
    }
    set_bytes(state, x.size() * 4);
}
BENCHMARK(BM_topk)->Arg(4096)->Name("topk 10 of (4096,1024) f32 rows")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_topk)->Arg(4)->Name("topk 10 of (4,1024) f32 rows")->UseRealTime();

void BM_unique_counts(benchmark::State& state) {
    auto labels = nt::empty<std::uint8_t>({state.range(0)});
    std::mt19937 rng(3);
    for (auto& v : labels) v = static_cast<std::uint8_t>(rng() % 4);
    for (auto _ : state) {
        auto [values, counts] = nt::unique_counts(labels);
        benchmark::DoNotOptimize(counts.data());
    }
    set_bytes(state, labels.size());
}
BENCHMARK(BM_unique_counts)->Arg(10'000'000)->Name("unique_counts 1e7 u8")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_unique_counts)->Arg(1000)->Name("unique_counts 1e3 u8")->UseRealTime();

nt::Tensor<std::uint8_t> random_labels(std::int64_t n) {
    auto labels = nt::empty<std::uint8_t>({n});
    std::mt19937 rng(5);
    for (auto& v : labels) v = static_cast<std::uint8_t>(rng() % 4);
    return labels;
}

// One-hot of 1e7 labels into 4 classes, int64 as PyTorch's (and NumPy's comparison
// astype(int64)): 320 MB written.
void BM_one_hot(benchmark::State& state) {
    const auto labels = random_labels(state.range(0));
    for (auto _ : state) {
        auto hot = nt::one_hot(labels, 4, -1);
        benchmark::DoNotOptimize(hot.data());
    }
    set_bytes(state, labels.size() * (1 + 4 * 8));
}
BENCHMARK(BM_one_hot)->Arg(10'000'000)->Name("one_hot 1e7 u8 into 4 classes")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_one_hot)->Arg(1000)->Name("one_hot 1e3 u8 into 4 classes")->UseRealTime();

void BM_bincount(benchmark::State& state) {
    const auto labels = random_labels(state.range(0));
    for (auto _ : state) {
        auto counts = nt::bincount(labels);
        benchmark::DoNotOptimize(counts.data());
    }
    set_bytes(state, labels.size());
}
BENCHMARK(BM_bincount)->Arg(10'000'000)->Name("bincount 1e7 u8")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_bincount)->Arg(1000)->Name("bincount 1e3 u8")->UseRealTime();

BENCHMARK(BM_memcpy)->Arg(2LL * 4 * 8 * 32 * 64 * 64 * 4)->Name("memcpy of (4,8,32,64,64) f32")->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
