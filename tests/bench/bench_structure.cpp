// Structural copies of nt/structure.hpp through the public API, beside a memcpy of
// the same byte count in the same run (tests/bench/numpy_bench.py times the same
// workloads in NumPy under the same labels):
//   concatenate of 8 volumes of 128^3 f32, reflect pad of a 512x512x64 image stack,
//   fold of 8^3 windows at step 6 over 128^3, a space-to-depth rearrangement, an
//   image's channels moved last and first (also from a crop, and while its other axes
//   swap), transposes of 8- and 16-bit images and volumes, and the fixed cost of a
//   pattern call with its plan cached versus parsed each call.
// CTest smoke-runs only the small cases (nt_bench_smoke_filter_bench_structure).
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "nt/nt.hpp"

namespace {

using nt::bench::BM_memcpy;
using nt::bench::set_bytes;

// 8 x 128^3 f32 read and written: the concatenate's traffic.
BENCHMARK(BM_memcpy)->Arg(2LL * 8 * 128 * 128 * 128 * 4)->Name("memcpy 8x128^3 f32")->UseRealTime();

void BM_concatenate(benchmark::State& state) {
    const std::int64_t n = state.range(0);
    std::vector<nt::Tensor<float>> vols;
    for (int i = 0; i < 8; ++i) vols.push_back(nt::full<float>({n, n, n}, static_cast<float>(i), {"D", "H", "W"}));
    for (auto _ : state) {
        auto out = nt::concatenate(vols, "D");
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, 2 * 8 * n * n * n * 4);
}
BENCHMARK(BM_concatenate)->Arg(128)->Name("concatenate 8x(128,128,128) D")->UseRealTime();
BENCHMARK(BM_concatenate)->Arg(8)->Name("concatenate 8x(8,8,8) D")->UseRealTime();

void BM_pad_reflect(benchmark::State& state) {
    const std::int64_t hw = state.range(0), c = state.range(1);
    const auto img = nt::full<float>({hw, hw, c}, 1.0f, {"H", "W", "C"});
    for (auto _ : state) {
        auto out = nt::pad(img, {{"H", {16, 16}}, {"W", {16, 16}}}, nt::pad_mode::reflect);
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, (hw * hw + (hw + 32) * (hw + 32)) * c * 4);
}
BENCHMARK(BM_pad_reflect)->Args({512, 64})->Name("pad reflect (512,512,64) H,W by 16")->UseRealTime();
BENCHMARK(BM_pad_reflect)->Args({32, 4})->Name("pad reflect (32,32,4) H,W by 16")->UseRealTime();

void BM_fold(benchmark::State& state) {
    const std::int64_t n = state.range(0);
    const auto vol = nt::full<float>({n, n, n}, 1.0f, {"D", "H", "W"});
    const auto patches = vol.unfold({"D", "H", "W"}, {8, 8, 8}, {6, 6, 6}).contiguous();
    for (auto _ : state) {
        auto out = nt::fold(patches, {"D", "H", "W"}, {n, n, n}, {6, 6, 6});
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, patches.size() * 4 * 2);
}
BENCHMARK(BM_fold)->Arg(128)->Name("fold 8^3 step 6 over (128,128,128)")->UseRealTime();
BENCHMARK(BM_fold)->Arg(20)->Name("fold 8^3 step 6 over (20,20,20)")->UseRealTime();

// Space-to-depth: (N,C,H,W) -> (N, C*4, H/2, W/2), a copy (the strides do not allow a
// view). range(0): H = W, range(1): C, range(2): threads (0: all).
void BM_space_to_depth(benchmark::State& state) {
    const std::int64_t hw = state.range(0), c = state.range(1);
    nt::set_num_threads(static_cast<int>(state.range(2)));
    const auto x = nt::full<float>({8, c, hw, hw}, 1.0f, {"N", "C", "H", "W"});
    for (auto _ : state) {
        auto out = nt::rearrange(x, "N C (H ph) (W pw) -> N (C ph pw) H W", {{"ph", 2}, {"pw", 2}});
        benchmark::DoNotOptimize(out.data());
    }
    nt::set_num_threads(0);
    set_bytes(state, 2 * x.size() * 4);
}
BENCHMARK(BM_space_to_depth)->Args({256, 16, 0})->Name("rearrange space-to-depth (8,16,256,256)")->UseRealTime();
BENCHMARK(BM_space_to_depth)->Args({8, 16, 0})->Name("rearrange space-to-depth (8,16,8,8)")->UseRealTime();
// The 1 GiB case on one thread, beside a memcpy of the same traffic.
BENCHMARK(BM_memcpy)->Arg(2LL << 30)->Name("memcpy 1 GiB")->UseRealTime()->Iterations(3);
BENCHMARK(BM_space_to_depth)
    ->Args({1024, 32, 1})
    ->Name("rearrange space-to-depth (8,32,1024,1024) 1 GiB, 1 thread")
    ->UseRealTime()
    ->Iterations(3);

// An image's channels moved last ((C,H,W) -> (H,W,C)) or first (the reverse): a
// permute and a copy, channels apart or together in registers (deinterleave_rows).
template <class T>
void BM_channels(benchmark::State& state) {
    const std::int64_t hw = state.range(0);
    const bool last = state.range(1) != 0;
    const auto img =
        last ? nt::full<T>({3, hw, hw}, T(1), {"C", "H", "W"}) : nt::full<T>({hw, hw, 3}, T(1), {"H", "W", "C"});
    for (auto _ : state) {
        auto out = last ? img.permute({1, 2, 0}).contiguous() : img.permute({2, 0, 1}).contiguous();
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, 2 * 3 * hw * hw * static_cast<std::int64_t>(sizeof(T)));
}
BENCHMARK(BM_memcpy)->Arg(2LL * 3 * 1024 * 1024)->Name("memcpy 3x1024^2 u8")->UseRealTime();
BENCHMARK(BM_channels<std::uint8_t>)->Args({1024, 1})->Name("channels last (3,1024,1024) u8")->UseRealTime();
BENCHMARK(BM_channels<std::uint8_t>)->Args({1024, 0})->Name("channels first (1024,1024,3) u8")->UseRealTime();
BENCHMARK(BM_channels<std::uint16_t>)->Args({1024, 1})->Name("channels last (3,1024,1024) u16")->UseRealTime();
BENCHMARK(BM_channels<std::uint16_t>)->Args({1024, 0})->Name("channels first (1024,1024,3) u16")->UseRealTime();
BENCHMARK(BM_channels<float>)->Args({1024, 1})->Name("channels last (3,1024,1024) f32")->UseRealTime();
BENCHMARK(BM_channels<float>)->Args({1024, 0})->Name("channels first (1024,1024,3) f32")->UseRealTime();
BENCHMARK(BM_channels<std::uint8_t>)->Args({16, 1})->Name("channels last (3,16,16) u8")->UseRealTime();
BENCHMARK(BM_channels<std::uint8_t>)->Args({16, 0})->Name("channels first (16,16,3) u8")->UseRealTime();

// Channels first from a crop of an (H,W,C) image: the crop's rows are not one run.
template <class T>
void BM_channels_crop(benchmark::State& state) {
    const std::int64_t hw = state.range(0), h = state.range(1), w = state.range(2);
    const auto img = nt::full<T>({hw, hw, 3}, T(1), {"H", "W", "C"});
    const auto crop = img.slice("H", (hw - h) / 2, (hw - h) / 2 + h).slice("W", (hw - w) / 2, (hw - w) / 2 + w);
    for (auto _ : state) {
        auto out = crop.permute({2, 0, 1}).contiguous();
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, 2 * 3 * h * w * static_cast<std::int64_t>(sizeof(T)));
}
BENCHMARK(BM_memcpy)->Arg(2LL * 3 * 800 * 900)->Name("memcpy 3x800x900 u8")->UseRealTime();
BENCHMARK(BM_channels_crop<std::uint8_t>)
    ->Args({1024, 800, 900})
    ->Name("channels first, crop (800,900) of (1024,1024,3) u8")
    ->UseRealTime();
BENCHMARK(BM_channels_crop<float>)
    ->Args({1024, 800, 900})
    ->Name("channels first, crop (800,900) of (1024,1024,3) f32")
    ->UseRealTime();
BENCHMARK(BM_channels_crop<std::uint8_t>)
    ->Args({80, 12, 64})
    ->Name("channels first, crop (12,64) of (80,80,3) u8")
    ->UseRealTime();

// Transposing copies of 8- and 16-bit data (microscopy and CT): a square image, and a
// volume reoriented (Z,Y,X) -> (X,Y,Z).
template <class T>
void BM_transpose_typed(benchmark::State& state) {
    const bool volume = state.range(0) != 0;
    const auto src = volume ? nt::full<T>({64, 256, 256}, T(1)) : nt::full<T>({4096, 4096}, T(1));
    for (auto _ : state) {
        auto out = volume ? src.permute({2, 1, 0}).contiguous() : src.transpose().contiguous();
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, 2 * src.size() * static_cast<std::int64_t>(sizeof(T)));
}
BENCHMARK(BM_memcpy)->Arg(2LL * 4096 * 4096)->Name("memcpy 4096^2 u8")->UseRealTime();
BENCHMARK(BM_transpose_typed<std::uint8_t>)->Arg(0)->Name("transpose (4096,4096) u8")->UseRealTime();
BENCHMARK(BM_transpose_typed<std::int16_t>)->Arg(0)->Name("transpose (4096,4096) i16")->UseRealTime();
BENCHMARK(BM_transpose_typed<std::uint8_t>)->Arg(1)->Name("reorient (64,256,256) u8")->UseRealTime();
BENCHMARK(BM_transpose_typed<std::int16_t>)->Arg(1)->Name("reorient (64,256,256) i16")->UseRealTime();

// An image's channels moved while its other two axes swap: (C,H,W) -> (W,H,C), and
// the Fortran-order flatten of an (H,W,C) image, whose order is (C,W,H).
template <class T>
void BM_channels_transposed(benchmark::State& state) {
    const bool together = state.range(0) != 0;
    const auto src = together ? nt::full<T>({3, 256, 384}, T(1)) : nt::full<T>({256, 384, 3}, T(1));
    for (auto _ : state) {
        auto out = together ? src.permute({2, 1, 0}).contiguous() : src.reshape({-1}, nt::order::fortran);
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, 2 * src.size() * static_cast<std::int64_t>(sizeof(T)));
}
BENCHMARK(BM_memcpy)->Arg(2LL * 3 * 256 * 384 * 4)->Name("memcpy 3x256x384 f32")->UseRealTime();
BENCHMARK(BM_channels_transposed<float>)->Arg(1)->Name("permute (3,256,384) (2,1,0) f32")->UseRealTime();
BENCHMARK(BM_channels_transposed<float>)->Arg(0)->Name("fortran flatten (256,384,3) f32")->UseRealTime();
BENCHMARK(BM_channels_transposed<std::uint8_t>)->Arg(1)->Name("permute (3,256,384) (2,1,0) u8")->UseRealTime();
BENCHMARK(BM_channels_transposed<std::uint8_t>)->Arg(0)->Name("fortran flatten (256,384,3) u8")->UseRealTime();
BENCHMARK(BM_channels_transposed<double>)->Arg(1)->Name("permute (3,256,384) (2,1,0) f64")->UseRealTime();
BENCHMARK(BM_channels_transposed<double>)->Arg(0)->Name("fortran flatten (256,384,3) f64")->UseRealTime();

// The fixed cost of a pattern call on a tiny tensor: the plan comes from the cache.
// The "parsed each call" row cycles through 32 spellings of the same pattern (extra
// spaces), more than the cache's 16 entries, so every call parses.
void BM_rearrange_fixed_cost(benchmark::State& state) {
    const auto x = nt::zeros<float>({2, 3, 4, 4}, {"N", "C", "H", "W"});
    const bool cached = state.range(0) != 0;
    std::vector<std::string> patterns;
    for (int k = 0; k < 32; ++k)
        patterns.push_back("N C H W" + std::string(static_cast<std::size_t>(k) + 1, ' ') + "-> N H W C");
    std::size_t i = 0;
    for (auto _ : state) {
        auto out = nt::rearrange(x, cached ? patterns[0] : patterns[i++ % patterns.size()]);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_rearrange_fixed_cost)->Arg(1)->Name("rearrange (2,3,4,4) NCHW->NHWC cached plan");
BENCHMARK(BM_rearrange_fixed_cost)->Arg(0)->Name("rearrange (2,3,4,4) NCHW->NHWC parsed each call");

}  // namespace

BENCHMARK_MAIN();
