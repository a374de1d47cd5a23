// Contractions of nt/linalg.hpp through the public API (tests/bench/numpy_bench.py
// times the same workloads in NumPy under the same labels; both call OpenBLAS):
//   einsum("N C H W, C K -> N K H W") with N=8, C=K=64, H=W=128 (f32);
//   matmul of two 1024^2 f32 matrices on 1 and 2 threads (nt::set_num_threads, which
//   bounds OpenBLAS's threads too), and a BLAS call on the same buffers as the floor;
//   matmul of 256^2 int32 (the loop kernel, no BLAS);
//   matmul of (10000,4,4) f32 pairs (the small-product loop, no BLAS call per matrix).
// FLOP/s counts 2*M*N*K. CTest smoke-runs only the small cases
// (nt_bench_smoke_filter_bench_linalg).
#include <benchmark/benchmark.h>

#include <string>

#include "gemm.hpp"  // private: the BLAS floor (gemm_batched) and blas_config
#include "nt/nt.hpp"

namespace {

void set_flops(benchmark::State& state, double flops) {
    state.counters["FLOP/s"] = benchmark::Counter(flops * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
}

void BM_einsum_nchw(benchmark::State& state) {
    const std::int64_t n = 8, c = 64, k = 64, hw = state.range(0);
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto x = nt::full<float>({n, c, hw, hw}, 0.5f, {"N", "C", "H", "W"});
    const auto w = nt::full<float>({c, k}, 0.25f, {"C", "K"});
    for (auto _ : state) {
        auto y = nt::einsum("N C H W, C K -> N K H W", x, w);
        benchmark::DoNotOptimize(y.data());
    }
    set_flops(state, 2.0 * static_cast<double>(n * c * k * hw * hw));
    state.SetLabel("einsum N C H W, C K -> N K H W (8,64," + std::to_string(hw) + "," + std::to_string(hw) +
                   ") f32 threads:" + std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_einsum_nchw)->Args({128, 1})->Args({128, 2})->Args({8, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_matmul_f32(benchmark::State& state) {
    const std::int64_t n = state.range(0);
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto a = nt::full<float>({n, n}, 0.5f);
    const auto b = nt::full<float>({n, n}, 0.25f);
    for (auto _ : state) {
        auto c = nt::matmul(a, b);
        benchmark::DoNotOptimize(c.data());
    }
    set_flops(state, 2.0 * static_cast<double>(n * n * n));
    state.SetLabel("matmul (" + std::to_string(n) + "," + std::to_string(n) + ") f32 threads:" +
                   std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_matmul_f32)->Args({1024, 1})->Args({1024, 2})->Args({64, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

// The floor: one sgemm on preallocated buffers (no allocation, no planning).
void BM_sgemm_floor(benchmark::State& state) {
    const std::int64_t n = state.range(0);
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto a = nt::full<float>({n, n}, 0.5f);
    const auto b = nt::full<float>({n, n}, 0.25f);
    auto c = nt::empty<float>({n, n});
    nt::detail::gemm_problem g;
    g.m = g.n = g.k = n;
    g.ldl = g.ldr = g.ldc = n;
    for (auto _ : state) {
        nt::detail::gemm_batched(nt::dtype::f32, g, a.data(), b.data(), c.mutable_data());
        benchmark::DoNotOptimize(c.data());
    }
    set_flops(state, 2.0 * static_cast<double>(n * n * n));
    state.SetLabel(std::string("sgemm floor threads:") + std::to_string(state.range(1)) + " (" +
                   nt::detail::blas_config() + ")");
    nt::set_num_threads(0);
}
BENCHMARK(BM_sgemm_floor)->Args({1024, 1})->Args({1024, 2})->Args({64, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_matmul_i32(benchmark::State& state) {
    const std::int64_t n = state.range(0);
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto a = nt::full<std::int32_t>({n, n}, 3);
    const auto b = nt::full<std::int32_t>({n, n}, 5);
    for (auto _ : state) {
        auto c = nt::matmul(a, b);
        benchmark::DoNotOptimize(c.data());
    }
    set_flops(state, 2.0 * static_cast<double>(n * n * n));
    state.SetLabel("matmul (" + std::to_string(n) + "," + std::to_string(n) + ") i32 threads:" +
                   std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_matmul_i32)->Args({256, 1})->Args({256, 2})->Args({32, 1})->UseRealTime()->Unit(benchmark::kMillisecond);

// Many tiny products: (B,4,4) @ (B,4,4) f32, where a BLAS call per matrix costs more
// than its 64 multiply-adds.
void BM_matmul_batched_small(benchmark::State& state) {
    const std::int64_t batch = state.range(0);
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto a = nt::full<float>({batch, 4, 4}, 0.5f);
    const auto b = nt::full<float>({batch, 4, 4}, 0.25f);
    for (auto _ : state) {
        auto c = nt::matmul(a, b);
        benchmark::DoNotOptimize(c.data());
    }
    set_flops(state, 2.0 * static_cast<double>(batch * 64));
    state.SetLabel("matmul (" + std::to_string(batch) + ",4,4) f32 threads:" + std::to_string(state.range(1)));
    nt::set_num_threads(0);
}
BENCHMARK(BM_matmul_batched_small)->Args({10000, 1})->Args({10000, 2})->Args({64, 1})->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
