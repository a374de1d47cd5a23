// Pooling and resampling of nt/pooling.hpp against libtorch's (tests/bench/peers/
// imaging_pool_peers.py times torch on the same sizes under the same labels):
//   resize linear (trilinear) of a (1,4,64,256,256) f32 volume to twice its size
//   (1,4,128,512,512), align_corners=false, on 1 and 2 threads;
//   max_pool 2x2x2 (stride 2) of a (1,16,64,128,128) f32 volume, on 1 and 2 threads.
// The first argument chooses the full size (1) or a small one (0, the smoke run:
// nt_bench_smoke_filter_bench_imaging_pool "/0/").
#include <benchmark/benchmark.h>

#include <string>

#include "nt/nt.hpp"
#include "nt/pooling.hpp"

namespace {

void BM_resize_trilinear(benchmark::State& state) {
    const bool full = state.range(0) == 1;
    const std::int64_t d = full ? 64 : 8, hw = full ? 256 : 32;
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto x = nt::full<float>({1, 4, d, hw, hw}, 0.5f, {"N", "C", "D", "H", "W"});
    for (auto _ : state) {
        auto y = nt::resize(x, {{"D", 2 * d}, {"H", 2 * hw}, {"W", 2 * hw}}, nt::interp::linear);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel("resize linear (1,4," + std::to_string(d) + "," + std::to_string(hw) + "," + std::to_string(hw) +
                   ") x2 f32 threads:" + std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_resize_trilinear)->Args({1, 1})->Args({1, 2})->Args({0, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_max_pool_2x2x2(benchmark::State& state) {
    const bool full = state.range(0) == 1;
    const std::int64_t d = full ? 64 : 8, hw = full ? 128 : 16;
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto x = nt::full<float>({1, 16, d, hw, hw}, 0.5f, {"N", "C", "D", "H", "W"});
    for (auto _ : state) {
        auto y = nt::max_pool(x, {"D", "H", "W"}, {2});
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel("max_pool 2x2x2 (1,16," + std::to_string(d) + "," + std::to_string(hw) + "," +
                   std::to_string(hw) + ") f32 threads:" + std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_max_pool_2x2x2)->Args({1, 1})->Args({1, 2})->Args({0, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
