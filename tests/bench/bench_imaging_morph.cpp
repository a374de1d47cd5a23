// Masks and objects (nt/morphology.hpp) on a realistic mask: uniform noise smoothed
// by two box filters of width 7 along each axis and thresholded at its mean, blobs of
// about half the volume (tests/bench/peers/imaging_morph_peers.py builds the same kind
// of mask for scipy.ndimage and times the same calls):
//   label, connectivity 1 and 3, on (D, 256, 256) (one thread: the scan is serial);
//   distance_transform_edt on 1 and 2 threads;
//   binary_erosion (connectivity 1) and binary_fill_holes, one thread.
// D = 128 is the target size; D = 8 with 32x32 slices is the smoke case
// (nt_bench_smoke_filter_bench_imaging_morph).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt/morphology.hpp"

namespace {

// Running box sums of width 2r+1 along one axis of a C-order volume, clamped at the edges.
void box(std::vector<float>& v, std::int64_t n, std::int64_t stride, std::int64_t r) {
    const std::int64_t total = static_cast<std::int64_t>(v.size());
    std::vector<float> line(static_cast<std::size_t>(n)), prefix(static_cast<std::size_t>(n) + 1);
    for (std::int64_t start = 0; start < total; ++start) {
        if ((start / stride) % n != 0) continue;  // first element of a line
        for (std::int64_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + v[start + i * stride];
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t a = std::max<std::int64_t>(0, i - r), b = std::min(n, i + r + 1);
            v[start + i * stride] = (prefix[b] - prefix[a]) / static_cast<float>(b - a);
        }
    }
}

nt::Tensor<std::uint8_t> blobs(std::int64_t d, std::int64_t hw) {
    std::vector<float> v(static_cast<std::size_t>(d * hw * hw));
    std::uint64_t s = 88172645463325252ull;
    for (auto& x : v) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x = static_cast<float>(s >> 40) / static_cast<float>(1u << 24);
    }
    for (int pass = 0; pass < 2; ++pass) {
        box(v, d, hw * hw, 3);
        box(v, hw, hw, 3);
        box(v, hw, 1, 3);
    }
    double mean = 0;
    for (float x : v) mean += x;
    mean /= static_cast<double>(v.size());
    auto m = nt::empty<std::uint8_t>({d, hw, hw}, {"D", "H", "W"});
    std::size_t i = 0;
    for (auto& x : m) x = v[i++] > mean;
    return m;
}

std::string size_text(std::int64_t d, std::int64_t hw) {
    return "(" + std::to_string(d) + "," + std::to_string(hw) + "," + std::to_string(hw) + ")";
}

std::int64_t hw_of(std::int64_t d) { return d >= 64 ? 256 : 32; }

void BM_label(benchmark::State& state) {
    const std::int64_t d = state.range(0), hw = hw_of(d);
    const int conn = static_cast<int>(state.range(1));
    const auto m = blobs(d, hw);
    nt::set_num_threads(1);
    std::int64_t count = 0;
    for (auto _ : state) {
        auto [labels, n] = nt::label(m, {"D", "H", "W"}, conn);
        benchmark::DoNotOptimize(labels.data());
        count = n;
    }
    state.counters["objects"] = static_cast<double>(count);
    state.SetLabel("label " + size_text(d, hw) + " connectivity:" + std::to_string(conn) + " threads:1");
    nt::set_num_threads(0);
}
BENCHMARK(BM_label)->Args({128, 1})->Args({128, 3})->Args({8, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_distance_transform_edt(benchmark::State& state) {
    const std::int64_t d = state.range(0), hw = hw_of(d);
    const int threads = static_cast<int>(state.range(1));
    const auto m = blobs(d, hw);
    nt::set_num_threads(threads);
    for (auto _ : state) {
        auto e = nt::distance_transform_edt(m, {"D", "H", "W"});
        benchmark::DoNotOptimize(e.data());
    }
    state.SetLabel("distance_transform_edt " + size_text(d, hw) + " threads:" + std::to_string(threads));
    nt::set_num_threads(0);
}
BENCHMARK(BM_distance_transform_edt)
    ->Args({128, 1})
    ->Args({128, 2})
    ->Args({8, 1})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

void BM_binary_erosion(benchmark::State& state) {
    const std::int64_t d = state.range(0), hw = hw_of(d);
    const auto m = blobs(d, hw);
    nt::set_num_threads(1);
    for (auto _ : state) {
        auto e = nt::binary_erosion(m, {"D", "H", "W"});
        benchmark::DoNotOptimize(e.data());
    }
    state.SetLabel("binary_erosion " + size_text(d, hw) + " threads:1");
    nt::set_num_threads(0);
}
BENCHMARK(BM_binary_erosion)->Arg(128)->Arg(8)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_binary_fill_holes(benchmark::State& state) {
    const std::int64_t d = state.range(0), hw = hw_of(d);
    const auto m = blobs(d, hw);
    nt::set_num_threads(1);
    for (auto _ : state) {
        auto e = nt::binary_fill_holes(m, {"D", "H", "W"});
        benchmark::DoNotOptimize(e.data());
    }
    state.SetLabel("binary_fill_holes " + size_text(d, hw) + " threads:1");
    nt::set_num_threads(0);
}
BENCHMARK(BM_binary_fill_holes)->Arg(128)->Arg(8)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
