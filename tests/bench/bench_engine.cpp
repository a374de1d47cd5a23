// Benchmarks of the element-wise engine against memcpy of the same traffic, measured in
// the same run. Every case reports GBps = (bytes read + bytes written) / time; the
// memcpy/<case> rows copy half that many bytes (so they move the same traffic).
//
//   bench_engine --benchmark_min_time=0.2
//
// Arguments: threads (1 = one thread, 0 = all), and for element-wise cases the result
// buffer: 0 = preallocated, 1 = fresh from nt::detail::allocate (cached), 2 = fresh with
// the cache disabled (mmap + MADV_HUGEPAGE each time), 3 = fresh from std::malloc.
#include "allocator.hpp"
#include "engine.hpp"
#include "engine_reduce.hpp"
#include "nt/layout.hpp"
#include "nt/threads.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace {

using nt::dims;
using nt::detail::allocate;
using nt::detail::deallocate;

// A buffer from the engine's allocator, filled once (so its pages are mapped).
struct buffer {
    std::size_t bytes = 0;
    void* p = nullptr;
    explicit buffer(std::size_t n) : bytes(n), p(allocate(n)) {
        auto* f = static_cast<float*>(p);
        for (std::size_t i = 0; i < n / sizeof(float); ++i) f[i] = float(i % 1000) * 0.5f;
    }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;
    ~buffer() { deallocate(p, bytes); }
    float* f() const { return static_cast<float*>(p); }
};

std::int64_t count(const dims& s) { return std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>()); }

void set_threads(const benchmark::State& state) { nt::set_num_threads(static_cast<int>(state.range(0))); }

void report(benchmark::State& state, double bytes) {
    state.counters["GBps"] = benchmark::Counter(bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

// The result buffer policy of a case.
struct result {
    int mode;
    std::size_t bytes;
    void* pre = nullptr;
    result(int m, std::size_t n) : mode(m), bytes(n) {
        if (mode == 0) {
            pre = allocate(n);
            std::memset(pre, 0, n);
        }
        if (mode == 2) nt::set_allocator_cache_limit(0);
    }
    ~result() {
        if (pre) deallocate(pre, bytes);
        if (mode == 2) nt::set_allocator_cache_limit(std::size_t{1} << 30);
    }
    template <class F>
    void run(F&& f) const {
        switch (mode) {
            case 0: f(pre); break;
            case 3: {
                void* p = std::malloc(bytes);
                f(p);
                benchmark::DoNotOptimize(p);
                std::free(p);
                break;
            }
            default: {
                void* p = allocate(bytes);
                f(p);
                benchmark::DoNotOptimize(p);
                deallocate(p, bytes);
            }
        }
    }
};

// memcpy of `bytes` (split among the pool's threads when threads != 1).
void memcpy_baseline(benchmark::State& state, std::size_t bytes) {
    set_threads(state);
    buffer src(bytes), dst(bytes);
    const auto* s = static_cast<const char*>(src.p);
    auto* d = static_cast<char*>(dst.p);
    const std::int64_t pieces = state.range(0) == 1 ? 1 : 64;
    for (auto _ : state) {
        nt::detail::parallel_for(pieces, [&](std::int64_t b, std::int64_t e) {
            const std::size_t lo = bytes * std::size_t(b) / std::size_t(pieces);
            const std::size_t hi = bytes * std::size_t(e) / std::size_t(pieces);
            std::memcpy(d + lo, s + lo, hi - lo);
        });
        benchmark::ClobberMemory();
    }
    report(state, 2.0 * double(bytes));
}

// ---- broadcast adds -------------------------------------------------------------------

// out = a + b, a and out contiguous over `shape`, b over `bshape` right-aligned and broadcast.
void add_case(benchmark::State& state, dims shape, dims bshape) {
    set_threads(state);
    const dims os = nt::c_strides(shape.span());
    dims bfull(shape.size(), 1);
    for (std::size_t i = 0; i < bshape.size(); ++i) bfull[shape.size() - bshape.size() + i] = bshape[i];
    dims bs = nt::c_strides(bfull.span());
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (bfull[i] == 1) bs[i] = 0;
    const std::size_t n = std::size_t(count(shape)), nb = std::size_t(count(bshape));
    buffer a(n * 4), b(nb * 4);
    const result out(int(state.range(1)), n * 4);
    for (auto _ : state) {
        out.run([&](void* o) {
            nt::detail::elementwise<float, float, float>(shape.span(), static_cast<float*>(o), os.span(), a.f(),
                                                         os.span(), b.f(), bs.span(), std::plus<>{});
        });
        benchmark::ClobberMemory();
    }
    report(state, double((2 * n + nb) * 4));
}

std::size_t add_bytes(const dims& shape, const dims& bshape) {
    return std::size_t(2 * count(shape) + count(bshape)) * 4;
}

// ---- copies ---------------------------------------------------------------------------

void copy_case(benchmark::State& state, dims shape, dims dst_strides, dims src_strides, std::int64_t src_elems) {
    set_threads(state);
    buffer src(std::size_t(src_elems) * 4);
    const std::size_t n = std::size_t(count(shape));
    const result out(int(state.range(1)), n * 4);
    for (auto _ : state) {
        out.run([&](void* o) {
            nt::detail::copy_strided(o, dst_strides.span(), src.p, src_strides.span(), shape.span(), sizeof(float));
        });
        benchmark::ClobberMemory();
    }
    report(state, double(n * 4 * 2));
}

void naive_transpose(benchmark::State& state) {
    const std::int64_t N = 4096;
    buffer src(std::size_t(N * N) * 4), dst(std::size_t(N * N) * 4);
    const float* s = src.f();
    float* d = dst.f();
    for (auto _ : state) {
        for (std::int64_t i = 0; i < N; ++i)
            for (std::int64_t j = 0; j < N; ++j) d[i * N + j] = s[j * N + i];
        benchmark::ClobberMemory();
    }
    report(state, double(N * N * 4 * 2));
}

void tiny_add(benchmark::State& state) {
    set_threads(state);
    const dims shape{4, 8}, os{8, 1}, bs{0, 1};
    float a[32], b[8], o[32];
    for (int i = 0; i < 32; ++i) a[i] = float(i);
    for (int i = 0; i < 8; ++i) b[i] = float(i);
    for (auto _ : state) {
        nt::detail::elementwise<float, float, float>(shape.span(), o, os.span(), a, os.span(), b, bs.span(),
                                                     std::plus<>{});
        benchmark::DoNotOptimize(o);
    }
}

void register_all() {
    auto threads_and_modes = [](benchmark::internal::Benchmark* b, bool fresh) {
        for (int t : {1, 0}) {
            b->Args({t, 0});
            if (fresh) b->Args({t, 1});
        }
        b->ArgNames({"threads", "fresh"})->UseRealTime()->Unit(benchmark::kMillisecond);
    };
    auto baseline = [](const std::string& name, std::size_t traffic) {
        benchmark::RegisterBenchmark(("memcpy/" + name).c_str(),
                                     [traffic](benchmark::State& s) { memcpy_baseline(s, traffic / 2); })
            ->Arg(1)
            ->Arg(0)
            ->ArgName("threads")
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    };

    struct add_spec {
        const char* name;
        dims shape, bshape;
        bool all_fresh_modes;
    };
    const std::vector<add_spec> adds{
        {"add_10x3x256x384", {10, 3, 256, 384}, {10, 1, 256, 384}, true},
        {"add_20x3x512x512", {20, 3, 512, 512}, {20, 1, 512, 512}, true},
        {"add_inner_4096x4096", {4096, 4096}, {4096, 1}, false},
        {"add_small_64x32x8x5", {64, 32, 8, 5}, {32, 8, 1}, false},
    };
    for (const auto& a : adds) {
        baseline(a.name, add_bytes(a.shape, a.bshape));
        auto* b = benchmark::RegisterBenchmark(a.name, [a](benchmark::State& s) { add_case(s, a.shape, a.bshape); });
        threads_and_modes(b, true);
        if (a.all_fresh_modes) b->Args({1, 2})->Args({1, 3});
    }
    benchmark::RegisterBenchmark("add_tiny_4x8", tiny_add)->Arg(1)->ArgName("threads");

    struct copy_spec {
        const char* name;
        dims shape, dst, src;
        std::int64_t src_elems;
    };
    const std::int64_t unfold_n = 10000000, w = 8;
    const std::vector<copy_spec> copies{
        // (3,256,384) -> axes (2,1,0): out (384,256,3) contiguous.
        {"permute_3x256x384_210", {384, 256, 3}, {768, 3, 1}, {1, 384, 98304}, 3 * 256 * 384},
        {"transpose_4096x4096", {4096, 4096}, {4096, 1}, {1, 4096}, 4096 * 4096},
        // Fortran-order flatten of (256,384,3): out[i + 256 j + 98304 k] = in[i, j, k].
        {"flatten_F_256x384x3", {256, 384, 3}, {1, 256, 98304}, {1152, 3, 1}, 256 * 384 * 3},
        // Sliding windows of 8 over 1e7 floats.
        {"unfold_1e7_w8", {unfold_n - w + 1, w}, {w, 1}, {1, 1}, unfold_n},
    };
    for (const auto& c : copies) {
        baseline(c.name, std::size_t(count(c.shape)) * 8);
        auto* b = benchmark::RegisterBenchmark(
            c.name, [c](benchmark::State& s) { copy_case(s, c.shape, c.dst, c.src, c.src_elems); });
        threads_and_modes(b, true);
    }
    benchmark::RegisterBenchmark("transpose_4096x4096_naive_loop", naive_transpose)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
