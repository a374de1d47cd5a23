// Shape configs: reading is linear in the size of the text, and a run-time check
// of a tensor is cheap enough to run on every batch.
//
//   BM_parse_tensors/n   parse_config + plan_config of n tensors (one broadcast).
//                        Reported: time per tensor, flat from 1k to 100k (it grew
//                        with n before: nlohmann::ordered_json searched its keys).
//   BM_parse_inputs/n    the same with n broadcast inputs (plan and JSON too).
//   BM_parse_pipeline/n  a pipeline of n steps over symbolic sizes.
//   BM_check_bound       pipeline_config::check of a rank-5 tensor whose sizes
//                        are all bound. Target: < 1 us (no lock, no allocation).
//   BM_check_expression  the same with two derived sizes ((H - 8) / 6 + 1).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "nt/nt.hpp"

#include "allocation_counter.hpp"

namespace {

std::string tensors_json(int n) {
    std::string out = "{";
    for (int i = 0; i < n; ++i)
        out += (i ? ", \"t" : "\"t") + std::to_string(i) + R"(": {"shape": [2, 1, 3], "names": "? B C"})";
    return out + "}";
}

std::string keys_json(int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i) out += (i ? ", \"t" : "\"t") + std::to_string(i) + "\"";
    return out + "]";
}

void BM_parse_tensors(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const std::string text = R"({"tensors": )" + tensors_json(n) + R"(, "broadcast": ["t0", "t1"]})";
    for (auto _ : state) {
        const auto config = nt::parse_config(text);
        benchmark::DoNotOptimize(nt::plan_config(config));
    }
    state.SetItemsProcessed(state.iterations() * n);
    state.counters["per_tensor"] = benchmark::Counter(static_cast<double>(state.iterations() * n),
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_parse_tensors)->RangeMultiplier(10)->Range(1000, 100'000)->Unit(benchmark::kMillisecond);

void BM_parse_inputs(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const std::string text = R"({"tensors": )" + tensors_json(n) + R"(, "broadcast": )" + keys_json(n) + "}";
    for (auto _ : state) {
        const auto config = nt::parse_config(text);
        benchmark::DoNotOptimize(nt::plan_to_json(nt::plan_config(config), config.broadcast));
    }
    state.counters["per_input"] = benchmark::Counter(static_cast<double>(state.iterations() * n),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_parse_inputs)->RangeMultiplier(10)->Range(1000, 100'000)->Unit(benchmark::kMillisecond);

void BM_parse_pipeline(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    std::string tensors = "{", steps = "[";
    for (int i = 0; i < n; ++i) {
        const std::string k = std::to_string(i);
        tensors += (i ? ", \"s" : "\"s") + k + R"(": {"shape": ["N", "(H)" + k + R"( - 8) // 6 + 1", "H)" + k +
                   R"("], "names": "? T H"})";
        steps += std::string(i ? ", " : "") + R"({"name": "p)" + k + R"(", "broadcast": ["s)" + k + R"("], "as": "o)" +
                 k + "\"}";
    }
    const std::string text = R"({"tensors": )" + tensors + R"(}, "steps": )" + steps + "]}";
    for (auto _ : state) {
        nt::pipeline p = nt::parse_pipeline(text);
        benchmark::DoNotOptimize(nt::check_pipeline(p, false));
    }
    state.counters["per_step"] = benchmark::Counter(static_cast<double>(state.iterations() * n),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_parse_pipeline)->RangeMultiplier(10)->Range(1000, 100'000)->Unit(benchmark::kMillisecond);

constexpr const char* pipeline_text = R"({
  "sizes": {"C": 3},
  "tensors": {
    "volume": {"shape": ["N", "C", "D", "H", "W"], "names": "? C D H W", "dtype": "f32"},
    "tiles":  {"shape": ["N", "C", "D", "(H - 8) / 6 + 1", "(W - 8) / 6 + 1"], "names": "? C D TY TX", "dtype": "f32"}
  },
  "steps": [{"name": "s", "broadcast": ["volume", "tiles"], "union": true}]
})";

void run_check(benchmark::State& state, const char* name, nt::shape_arg shape, std::initializer_list<nt::name> names) {
    nt::pipeline_config cfg(nt::parse_pipeline(pipeline_text));
    const auto t = nt::zeros<float>(nt::shape_arg(shape), names);
    cfg.check("volume", nt::zeros<float>({4, 3, 16, 68, 80}, {"?", "C", "D", "H", "W"}));  // binds N, D, H, W
    cfg.check(name, t);                                                                    // computes the rest
    const std::size_t before = allocation_count.load();
    for (auto _ : state) cfg.check(name, t);
    state.counters["allocs"] = benchmark::Counter(double(allocation_count.load() - before) / double(state.iterations()));
}

void BM_check_bound(benchmark::State& state) {
    run_check(state, "volume", {4, 3, 16, 68, 80}, {"?", "C", "D", "H", "W"});
}
BENCHMARK(BM_check_bound);

void BM_check_expression(benchmark::State& state) {
    run_check(state, "tiles", {4, 3, 16, 11, 13}, {"?", "C", "D", "TY", "TX"});
}
BENCHMARK(BM_check_expression);

}  // namespace
BENCHMARK_MAIN();
