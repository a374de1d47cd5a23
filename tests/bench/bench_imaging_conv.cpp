// Convolution of nt/conv.hpp against libtorch's (tests/bench/peers/imaging_conv_peers.py
// times torch on the same sizes under the same labels):
//   conv 3x3x3, padding same, of a (1,16,64,128,128) f32 volume to 16 features (torch's
//   conv3d), on 1 and 2 threads; its gradients (input and weight, as a training step's
//   backward computes them);
// The first argument chooses the full size (1) or a small one (0, the smoke run:
// nt_bench_smoke_filter_bench_imaging_conv "/0/").
#include <benchmark/benchmark.h>

#include <string>

#include "nt/conv.hpp"
#include "nt/nt.hpp"

namespace {

nt::Tensor<float> volume(std::int64_t c, std::int64_t d, std::int64_t hw) {
    auto x = nt::arange<float>(c * d * hw * hw).reshape({1, c, d, hw, hw}, {"N", "C", "D", "H", "W"});
    return nt::sin(x * 0.001f);
}

void BM_conv3d(benchmark::State& state) {
    const bool full = state.range(0) == 1;
    const std::int64_t d = full ? 64 : 8, hw = full ? 128 : 16;
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto x = volume(16, d, hw);
    const auto w = nt::cos(nt::arange<float>(16 * 16 * 27)).reshape({16, 16, 3, 3, 3}, {"F", "C", "D", "H", "W"});
    for (auto _ : state) {
        auto y = nt::conv(x, w, {"D", "H", "W"}, {.padding = nt::padding::same});
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel("conv 3x3x3 same (1,16," + std::to_string(d) + "," + std::to_string(hw) + "," +
                   std::to_string(hw) + ") -> 16 f32 threads:" + std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_conv3d)->Args({1, 1})->Args({1, 2})->Args({0, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_conv3d_backward(benchmark::State& state) {
    const bool full = state.range(0) == 1;
    const std::int64_t d = full ? 64 : 8, hw = full ? 128 : 16;
    nt::set_num_threads(static_cast<int>(state.range(1)));
    auto x = volume(16, d, hw).with_grad();
    auto w = nt::cos(nt::arange<float>(16 * 16 * 27)).reshape({16, 16, 3, 3, 3}, {"F", "C", "D", "H", "W"}).with_grad();
    const auto seed = nt::ones<float>({1, 16, d, hw, hw}, {"N", "F", "D", "H", "W"});
    for (auto _ : state) {
        state.PauseTiming();
        auto y = nt::conv(x, w, {"D", "H", "W"}, {.padding = nt::padding::same});
        state.ResumeTiming();
        y.backward(seed);
        benchmark::DoNotOptimize(x.grad().data());
        state.PauseTiming();
        x.zero_grad();
        w.zero_grad();
        state.ResumeTiming();
    }
    state.SetLabel("conv 3x3x3 backward (1,16," + std::to_string(d) + "," + std::to_string(hw) + "," +
                   std::to_string(hw) + ") f32 threads:" + std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_conv3d_backward)->Args({1, 1})->Args({1, 2})->Args({0, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
