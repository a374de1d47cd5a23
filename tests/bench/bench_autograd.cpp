// Gradients: what recording costs and what a training step costs.
//   BM_train_step       forward + loss + backward of examples/segmentation_net.hpp's
//                       network on a (2, 1, 32, 64, 64) batch (1 and 2 threads)
//   BM_chain            50 element-wise operations on (4,8) tensors: without
//                       gradients, recording (inputs with_grad; the graph is freed
//                       when the result goes), and recording plus backward. The
//                       contract asks recording <= 2x the plain chain.
//                       Counter allocs_per_op: operator new calls per operation
//                       (the tape's nodes, rules and saved tensors; storage too).
//   BM_record           50 operations of one kind (y + b, y * w, tanh) with and
//                       without gradients: what recording each costs.
//   BM_tiny_add         (4,8)+(4,8) without gradients: the hook is one pointer test,
//                       so this stays what bench_ops measures.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "allocation_counter.hpp"
#include "nt/nt.hpp"
#include "segmentation_net.hpp"

namespace {

// range(0): threads
void BM_train_step(benchmark::State& state) {
    nt::set_num_threads(static_cast<int>(state.range(0)));
    const seg::net model = seg::make_net(1, 8, 3, 7);
    const seg::batch b = seg::make_batch(2, 32, 64, 64, 3, 0.6, 5);
    const auto& volume = b.volume;
    const auto& labels = b.labels;
    for (auto _ : state) {
        const auto loss = seg::loss(seg::forward(model, volume), labels);
        loss.backward();
        for (const auto& p : model.parameters()) p.zero_grad();
        benchmark::DoNotOptimize(loss.data());
    }
    nt::set_num_threads(1);
}
BENCHMARK(BM_train_step)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// 50 operations: 10 times (y * w, y + b, tanh, y - x, y * 0.5).
nt::Tensor<float> chain(const nt::Tensor<float>& x, const nt::Tensor<float>& w, const nt::Tensor<float>& b) {
    nt::Tensor<float> y = x;
    for (int i = 0; i < 10; ++i) {
        y = y * w;
        y = y + b;
        y = nt::tanh(y);
        y = y - x;
        y = y * 0.5f;
    }
    return y;
}

// range(0): 0 = no gradients, 1 = recording, 2 = recording + backward
void BM_chain(benchmark::State& state) {
    nt::set_num_threads(1);
    const int mode = static_cast<int>(state.range(0));
    auto x = nt::full<float>({4, 8}, 0.3f), w = nt::full<float>({4, 8}, 1.1f), b = nt::full<float>({4, 8}, 0.2f);
    if (mode > 0) {
        x.with_grad();
        w.with_grad();
        b.with_grad();
    }
    const std::size_t allocations_before = allocation_count.load();
    for (auto _ : state) {
        const auto y = chain(x, w, b);
        if (mode == 2) {
            nt::sum(y).backward();
            x.zero_grad();
            w.zero_grad();
            b.zero_grad();
        }
        benchmark::DoNotOptimize(y.data());
    }
    state.counters["allocs_per_op"] =
        static_cast<double>(allocation_count.load() - allocations_before) / (50.0 * static_cast<double>(state.iterations()));
    state.SetLabel(mode == 0 ? "no gradients" : mode == 1 ? "recording" : "recording + backward");
}
BENCHMARK(BM_chain)->ArgName("mode")->Arg(0)->Arg(1)->Arg(2);

// What recording one kind of operation costs: 50 of it in a row, with and without
// gradients. range(0): 0 = y + b (saves nothing), 1 = y * w (saves both operands),
// 2 = tanh (saves its result); range(1): 0 = no gradients, 1 = recording.
void BM_record(benchmark::State& state) {
    nt::set_num_threads(1);
    const int kind = static_cast<int>(state.range(0));
    auto x = nt::full<float>({4, 8}, 0.3f), w = nt::full<float>({4, 8}, 1.01f);
    if (state.range(1) == 1) {
        x.with_grad();
        w.with_grad();
    }
    for (auto _ : state) {
        nt::Tensor<float> y = x;
        for (int i = 0; i < 50; ++i) y = kind == 0 ? y + w : kind == 1 ? y * w : nt::tanh(y);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel(std::string(kind == 0 ? "y + b" : kind == 1 ? "y * w" : "tanh") +
                   (state.range(1) == 1 ? ", recording" : ", no gradients"));
}
BENCHMARK(BM_record)->ArgNames({"kind", "rec"})->ArgsProduct({{0, 1, 2}, {0, 1}});

void BM_tiny_add(benchmark::State& state) {
    nt::set_num_threads(1);
    const auto a = nt::full<float>({4, 8}, 1.5f), b = nt::full<float>({4, 8}, 2.5f);
    for (auto _ : state) {
        const auto r = a + b;
        benchmark::DoNotOptimize(r.data());
    }
}
BENCHMARK(BM_tiny_add);

}  // namespace

BENCHMARK_MAIN();
