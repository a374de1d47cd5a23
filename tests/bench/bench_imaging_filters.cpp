// The filters of nt/filters.hpp (tests/bench/peers/imaging_filters_peers.py times
// scipy.ndimage on the same volumes, in the same run when given this binary):
//   gaussian_filter, sigma 2 (a 17-tap kernel), over D, H, W of a (128, 256, 256) f32
//   volume on 1 and 2 threads (the target: 3x scipy), and of a (16, 32, 32)
//   one (the smoke run);
//   uniform_filter 5 over the same volume; median_filter 3 on a (64, 64, 64) one.
// Elements/s counts the volume's elements once per call.
#include <benchmark/benchmark.h>

#include <string>

#include "nt/filters.hpp"
#include "nt/nt.hpp"

namespace {

nt::Tensor<float> volume(std::int64_t d, std::int64_t h, std::int64_t w) {
    // Deterministic, not constant (a constant volume would let no work be skipped anyway).
    auto x = nt::arange<float>(d * h * w).reshape({d, h, w}).rename({"D", "H", "W"});
    return nt::sin(x * 0.37f);
}

std::string shape_text(std::int64_t d, std::int64_t h, std::int64_t w) {
    return "(" + std::to_string(d) + "," + std::to_string(h) + "," + std::to_string(w) + ")";
}

void finish(benchmark::State& state, std::int64_t elements, const std::string& label) {
    state.counters["elements/s"] = benchmark::Counter(static_cast<double>(elements * state.iterations()),
                                                      benchmark::Counter::kIsRate);
    state.SetLabel(label + " threads:" + std::to_string(state.range(3)));
    nt::set_num_threads(0);
}

void BM_gaussian_filter(benchmark::State& state) {
    const std::int64_t d = state.range(0), h = state.range(1), w = state.range(2);
    nt::set_num_threads(static_cast<int>(state.range(3)));
    const auto x = volume(d, h, w);
    for (auto _ : state) {
        auto y = nt::gaussian_filter(x, 2.0, {"D", "H", "W"});
        benchmark::DoNotOptimize(y.data());
    }
    finish(state, d * h * w, "gaussian_filter sigma 2 " + shape_text(d, h, w) + " f32");
}
BENCHMARK(BM_gaussian_filter)
    ->Args({128, 256, 256, 1})
    ->Args({128, 256, 256, 2})
    ->Args({16, 32, 32, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_uniform_filter(benchmark::State& state) {
    const std::int64_t d = state.range(0), h = state.range(1), w = state.range(2);
    nt::set_num_threads(static_cast<int>(state.range(3)));
    const auto x = volume(d, h, w);
    for (auto _ : state) {
        auto y = nt::uniform_filter(x, 5, {"D", "H", "W"});
        benchmark::DoNotOptimize(y.data());
    }
    finish(state, d * h * w, "uniform_filter 5 " + shape_text(d, h, w) + " f32");
}
BENCHMARK(BM_uniform_filter)
    ->Args({128, 256, 256, 1})
    ->Args({128, 256, 256, 2})
    ->Args({16, 32, 32, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_median_filter(benchmark::State& state) {
    const std::int64_t d = state.range(0), h = state.range(1), w = state.range(2);
    nt::set_num_threads(static_cast<int>(state.range(3)));
    const auto x = volume(d, h, w);
    for (auto _ : state) {
        auto y = nt::median_filter(x, 3, {"D", "H", "W"});
        benchmark::DoNotOptimize(y.data());
    }
    finish(state, d * h * w, "median_filter 3 " + shape_text(d, h, w) + " f32");
}
BENCHMARK(BM_median_filter)
    ->Args({64, 64, 64, 1})
    ->Args({64, 64, 64, 2})
    ->Args({16, 32, 32, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
