// nt::sliding_window against unfold + fold over a (D, H, W) f32 volume: windows of
// size D/4 on every axis, overlap 0.25, a voxel-wise stand-in model (2 w + 1), on 1
// and 2 threads (sliding_window with constant and Gaussian blending; unfold + fold
// averages, as constant blending does). Time per call and the peak resident memory grown during one call
// (counter peak_MiB, Linux's VmHWM reset through /proc/self/clear_refs; -1 where that
// is not possible). unfold + fold needs windows that tile the volume: it pads x at the
// end up to the last window (MONAI, and sliding_window, move the last window back
// flush with the end instead), runs the model on every window at once, folds with
// averaging and crops.
// The full case is (256, 512, 512), a 256 MiB volume (unfold + fold holds about
// 1.3 GiB more); CTest smoke-runs the (32, 64, 64) case only
// (nt_bench_smoke_filter_bench_imaging_sliding "/32/").
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "nt/nt.hpp"
#include "nt/sliding_window.hpp"

namespace {

double status_mib(const std::string& field) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field + ":", 0) == 0) {
            std::istringstream words(line.substr(field.size() + 1));
            double kib = 0;
            words >> kib;
            return kib / 1024.0;
        }
    return -1;
}

// Peak growth of the resident size while `work` runs once, in MiB (-1: unknown).
template <class F>
double peak_growth(F&& work) {
    // Blocks ntensor's allocator keeps for reuse are resident: give them back first,
    // or a cached block would hold the result without growing the resident size.
    nt::release_allocator_cache();
    std::ofstream reset("/proc/self/clear_refs");
    reset << "5";
    reset.flush();
    if (!reset || status_mib("VmHWM") < 0) {
        work();
        return -1;
    }
    const double before = status_mib("VmRSS");
    work();
    return status_mib("VmHWM") - before;
}

nt::Tensor<float> model(const nt::Tensor<float>& w) { return w * 2.0f + 1.0f; }

nt::Tensor<float> volume(std::int64_t d) {
    return nt::sin(nt::arange<float>(d * 2 * d * 2 * d) * 0.001f).reshape({d, 2 * d, 2 * d}, {"D", "H", "W"});
}

void label(benchmark::State& state, const std::string& what, double peak) {
    const std::int64_t d = state.range(0);
    state.counters["peak_MiB"] = peak;
    state.SetLabel(what + " (" + std::to_string(d) + "," + std::to_string(2 * d) + "," + std::to_string(2 * d) +
                   ") f32 roi " + std::to_string(d / 4) + " overlap 0.25 threads:" + std::to_string(state.range(1)));
}

void BM_sliding_window(benchmark::State& state) {
    const std::int64_t d = state.range(0), r = d / 4;
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto x = volume(d);
    const auto blend = state.range(2) == 1 ? nt::blend::gaussian : nt::blend::constant;
    auto run = [&] {
        auto y = nt::sliding_window(x, {"D", "H", "W"}, {r, r, r}, model,
                                    {.overlap = 0.25, .batch = 4, .blend = blend});
        benchmark::DoNotOptimize(y.data());
    };
    const double peak = peak_growth(run);
    for (auto _ : state) run();
    label(state, std::string("sliding_window batch 4 ") + (state.range(2) == 1 ? "gaussian" : "constant"), peak);
    nt::set_num_threads(0);
}

void BM_unfold_fold(benchmark::State& state) {
    const std::int64_t d = state.range(0), r = d / 4, step = r - r / 4;
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto x = volume(d);
    // Padded at the end so that windows every `step` cover every voxel.
    auto cover = [&](std::int64_t n) { return r + (n - r + step - 1) / step * step; };
    const std::int64_t pd = cover(d), ph = cover(2 * d), pw = cover(2 * d);
    auto run = [&] {
        const auto padded =
            nt::pad(x, {{"D", {0, pd - d}}, {"H", {0, ph - 2 * d}}, {"W", {0, pw - 2 * d}}}, nt::pad_mode::symmetric);
        const auto patches = padded.unfold({"D", "H", "W"}, {r, r, r}, {step, step, step}, {"d", "h", "w"});
        const auto predictions = model(patches);
        const auto folded = nt::fold(predictions, {"D", "H", "W"}, {pd, ph, pw}, {step, step, step},
                                     nt::fold_norm::average);
        auto y = folded.slice("D", 0, d).slice("H", 0, 2 * d).slice("W", 0, 2 * d);
        benchmark::DoNotOptimize(y.data());
    };
    const double peak = peak_growth(run);
    for (auto _ : state) run();
    label(state, "unfold + model on every window + fold", peak);
    nt::set_num_threads(0);
}

}  // namespace

BENCHMARK(BM_sliding_window)->Args({256, 1, 0})->Args({256, 2, 0})->Args({256, 1, 1})->Args({256, 2, 1})
    ->Args({32, 1, 0})->Args({32, 1, 1})->Iterations(3)->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_unfold_fold)->Args({256, 1})->Args({256, 2})->Args({32, 1})->Iterations(3)->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
