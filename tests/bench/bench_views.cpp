// The cost of view operations on a rank-4 tensor: transpose, slice, reshape as a
// view, unsqueeze, broadcast_to (and a few more). Target: < 100 ns per operation
// and no heap allocation beyond the handle's metadata (none at rank <= 8).
// `allocs` counts heap allocations per operation with a replaced operator new.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "nt/nt.hpp"

#include "allocation_counter.hpp"

namespace {

const nt::Tensor<float>& image_batch() {
    static const auto t = nt::zeros<float>({8, 3, 64, 96}, {"N", "C", "H", "W"});
    return t;
}

template <class Op>
void run(benchmark::State& state, Op op) {
    const auto& t = image_batch();
    nt::Tensor<float> v = op(t);  // warm any per-thread state
    const std::size_t before = allocation_count.load();
    for (auto _ : state) {
        v = op(t);
        benchmark::DoNotOptimize(v);
    }
    state.counters["allocs"] = benchmark::Counter(double(allocation_count.load() - before) / double(state.iterations()));
}

void BM_handle_copy(benchmark::State& s) { run(s, [](const auto& t) { return t; }); }
void BM_transpose(benchmark::State& s) { run(s, [](const auto& t) { return t.transpose(); }); }
void BM_swap_axes_by_name(benchmark::State& s) { run(s, [](const auto& t) { return t.swap_axes("C", "W"); }); }
void BM_permute(benchmark::State& s) { run(s, [](const auto& t) { return t.permute({0, 2, 3, 1}); }); }
void BM_slice(benchmark::State& s) { run(s, [](const auto& t) { return t.slice(2, 8, 56, 2); }); }
void BM_index(benchmark::State& s) { run(s, [](const auto& t) { return t.index(1, nt::all, nt::range(0, 32)); }); }
void BM_reshape_view(benchmark::State& s) { run(s, [](const auto& t) { return t.reshape({8, 3, -1}); }); }
void BM_unsqueeze(benchmark::State& s) { run(s, [](const auto& t) { return t.unsqueeze(1); }); }
void BM_squeeze(benchmark::State& s) {
    run(s, [](const auto& t) { return t.unsqueeze(1).squeeze(1); });
}
void BM_broadcast_to_shape(benchmark::State& s) {
    static const auto one_channel = nt::zeros<float>({8, 1, 64, 96});
    run(s, [&](const auto&) { return one_channel.broadcast_to({8, 3, 64, 96}); });
}
void BM_broadcast_to_spec(benchmark::State& s) {
    static const auto row = nt::zeros<float>({96}, {"W"});
    static const nt::spec target = image_batch().spec();
    run(s, [&](const auto&) { return row.broadcast_to(target); });
}
void BM_unfold(benchmark::State& s) { run(s, [](const auto& t) { return t.unfold("W", 8, 4); }); }
void BM_align_to(benchmark::State& s) { run(s, [](const auto& t) { return t.align_to("W", "..."); }); }

BENCHMARK(BM_handle_copy);
BENCHMARK(BM_transpose);
BENCHMARK(BM_swap_axes_by_name);
BENCHMARK(BM_permute);
BENCHMARK(BM_slice);
BENCHMARK(BM_index);
BENCHMARK(BM_reshape_view);
BENCHMARK(BM_unsqueeze);
BENCHMARK(BM_squeeze);
BENCHMARK(BM_broadcast_to_shape);
BENCHMARK(BM_broadcast_to_spec);
BENCHMARK(BM_unfold);
BENCHMARK(BM_align_to);

}  // namespace

BENCHMARK_MAIN();
