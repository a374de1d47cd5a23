// Element-wise operations and copies through the public API (matching, dispatch,
// allocation included), with a memcpy of the same byte count in the same run as
// the baseline. scripts/bench.sh turns the output into ratios and compares with
// NumPy. Every benchmark runs with 1 thread and with all cores (threads:N).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "nt/nt.hpp"
#include "simd.hpp"

namespace {

using nt::bench::BM_memcpy;
using nt::bench::set_bytes;

void threads_from(benchmark::State& state, int arg) {
    nt::set_num_threads(static_cast<int>(state.range(arg)));
}


struct add_case {
    std::vector<std::int64_t> a, b;
    std::vector<std::string_view> a_names, b_names;
};

const add_case add_cases[] = {
    {{10, 3, 256, 384}, {10, 1, 256, 384}, {}, {}},
    {{20, 3, 512, 512}, {20, 1, 512, 512}, {}, {}},
    {{4096, 4096}, {4096, 1}, {}, {}},
    {{64, 32, 8, 5}, {32, 8, 1}, {}, {}},
    {{4, 8}, {8}, {}, {}},
    // The named form of the first: img (?,CHANNEL,H,W) + lbl (?,H,W).
    {{10, 3, 256, 384}, {10, 256, 384}, {"?", "CHANNEL", "H", "W"}, {"?", "H", "W"}},
    // The tiny add with names: the fixed cost of matching by name.
    {{4, 8}, {8}, {"H", "W"}, {"W"}},
};

nt::Tensor<float> make(const std::vector<std::int64_t>& shape, const std::vector<std::string_view>& names) {
    auto t = nt::full<float>(shape, 1.5f);
    if (!names.empty()) {
        std::vector<nt::name> n(names.begin(), names.end());
        t = t.rename(n);
    }
    return t;
}

// range(0): case, range(1): threads, range(2): 1 = fresh result, 0 = out= form
void BM_add(benchmark::State& state) {
    const add_case& c = add_cases[state.range(0)];
    threads_from(state, 1);
    const bool fresh = state.range(2) != 0;
    const auto a = make(c.a, c.a_names);
    const auto b = make(c.b, c.b_names);
    auto out = a + b;
    for (auto _ : state) {
        if (fresh) {
            auto r = a + b;
            benchmark::DoNotOptimize(r.data());
        } else {
            nt::add(a, b, out);
            benchmark::DoNotOptimize(out.data());
        }
    }
    set_bytes(state, (a.size() + b.size() + out.size()) * static_cast<std::int64_t>(sizeof(float)));
    state.SetLabel(nt::to_string(a.spec()) + " + " + nt::to_string(b.spec()) + (fresh ? " fresh" : " out="));
}

// range(0): which copy, range(1): threads
void BM_copy(benchmark::State& state) {
    threads_from(state, 1);
    const auto which = state.range(0);
    nt::Tensor<float> src;
    std::string label;
    if (which == 0) {
        src = nt::arange<float>(3 * 256 * 384).reshape({3, 256, 384});
        label = "(3,256,384).permute(2,1,0).contiguous()";
    } else if (which == 1) {
        src = nt::arange<float>(4096 * 4096).reshape({4096, 4096});
        label = "(4096,4096).transpose().contiguous()";
    } else if (which == 2) {
        src = nt::arange<float>(256 * 384 * 3).reshape({256, 384, 3});
        label = "(256,384,3).reshape(-1, fortran)";
    } else {
        src = nt::arange<float>(10'000'000);
        label = "unfold(1e7, 8, 1).contiguous()";
    }
    auto run = [&] {
        if (which == 0) return src.permute({2, 1, 0}).contiguous();
        if (which == 1) return src.transpose().contiguous();
        if (which == 2) return src.reshape({-1}, nt::order::fortran);
        return src.unfold(0, 8, 1).contiguous();
    };
    // One untimed call: the first result of a size pays its page faults once, as in a
    // program that repeats the operation (the allocator then reuses the block).
    std::int64_t elements = run().size();
    for (auto _ : state) {
        nt::Tensor<float> r = run();
        benchmark::DoNotOptimize(r.data());
    }
    // Bytes written, plus bytes read (the unfold reads each source element 8 times
    // but from cache: count the written bytes twice as for the others).
    set_bytes(state, 2 * elements * static_cast<std::int64_t>(sizeof(float)));
    state.SetLabel(label);
}

// The naive baseline for the transpose copy: one nested loop.
void BM_transpose_naive(benchmark::State& state) {
    const std::int64_t n = 4096;
    std::vector<float> src(static_cast<std::size_t>(n * n), 1.0f), dst(src.size());
    for (auto _ : state) {
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) dst[static_cast<std::size_t>(i * n + j)] = src[static_cast<std::size_t>(j * n + i)];
        benchmark::DoNotOptimize(dst.data());
    }
    set_bytes(state, 2 * n * n * static_cast<std::int64_t>(sizeof(float)));
}

// A CT-like volume of the element types that imaging data comes in.
const std::vector<std::int64_t> volume_shape{32, 512, 512};

template <class T>
nt::Tensor<T> volume() {
    // Values a scanner might give (0 .. 4095), so no case overflows.
    return nt::astype<T>(nt::arange<std::int32_t>(volume_shape[0] * volume_shape[1] * volume_shape[2]) % 4096)
        .reshape(volume_shape);
}

// range(0): 0 = u16, 1 = i16, 2 = f16 volume; range(1): threads. The normalisation
// (ct - mean) / std into float32, with mean and std float32 scalars (rank-0 tensors:
// a tensor, unlike a C++ number, promotes u16 and i16 to float32, not double).
template <class T>
void normalize_case(benchmark::State& state, const char* name) {
    threads_from(state, 1);
    const auto ct = volume<T>();
    const auto mean = nt::scalar(2047.5f), stddev = nt::scalar(1182.4f);
    for (auto _ : state) {
        nt::Tensor<float> r = (ct - mean) / stddev;
        benchmark::DoNotOptimize(r.data());
    }
    set_bytes(state, ct.size() * static_cast<std::int64_t>(sizeof(T) + sizeof(float)));
    state.SetLabel(std::string("(ct - mean) / std, ") + name + " " + nt::to_string(ct.spec()) + " -> f32");
}
void BM_normalize(benchmark::State& state) {
    if (state.range(0) == 0) normalize_case<std::uint16_t>(state, "u16");
    else if (state.range(0) == 1) normalize_case<std::int16_t>(state, "i16");
    else normalize_case<nt::half>(state, "f16");
}

// Operands of two element types, converted as the operation reads them. range(0):
// 0 = a u16 volume added into a f32 accumulator (`acc += ct`), 1 = the u16 volume
// times a f32 scalar tensor, fresh, 2 = a tiny (4,8) u16 + (8) f32, fresh (the fixed
// cost); range(1): threads.
void BM_mixed(benchmark::State& state) {
    threads_from(state, 1);
    const auto ct = volume<std::uint16_t>();
    const auto scale = nt::scalar(0.25f);
    const auto small = nt::full<std::uint16_t>({4, 8}, 3);
    const auto row = nt::full<float>({8}, 1.5f);
    auto acc = nt::zeros<float>(volume_shape);
    std::string label;
    for (auto _ : state) {
        if (state.range(0) == 0) {
            acc += ct;
            benchmark::DoNotOptimize(acc.data());
        } else if (state.range(0) == 1) {
            nt::Tensor<float> r = ct * scale;
            benchmark::DoNotOptimize(r.data());
        } else {
            nt::Tensor<float> r = small + row;
            benchmark::DoNotOptimize(r.data());
        }
    }
    const std::int64_t elements = state.range(0) == 2 ? small.size() : ct.size();
    const std::int64_t bytes = state.range(0) == 0 ? 2 * sizeof(float) + sizeof(std::uint16_t)
                                                   : sizeof(float) + sizeof(std::uint16_t);
    set_bytes(state, elements * bytes);
    if (state.range(0) == 0) label = "f32 " + nt::to_string(acc.spec()) + " += u16 " + nt::to_string(ct.spec());
    else if (state.range(0) == 1) label = "u16 " + nt::to_string(ct.spec()) + " * f32 () fresh";
    else label = "u16 " + nt::to_string(small.spec()) + " + f32 " + nt::to_string(row.spec()) + " fresh";
    state.SetLabel(label);
}

// range(0): threads. A same-type add in place into a large accumulator: the output
// is also an input, so its stores stay plain (see streaming_pays in the engine).
void BM_in_place(benchmark::State& state) {
    threads_from(state, 0);
    const auto x = nt::astype<float>(volume<std::uint16_t>());
    auto acc = nt::zeros<float>(volume_shape);
    for (auto _ : state) {
        acc += x;
        benchmark::DoNotOptimize(acc.data());
    }
    set_bytes(state, 3 * acc.size() * static_cast<std::int64_t>(sizeof(float)));
    state.SetLabel("f32 " + nt::to_string(acc.spec()) + " += f32 " + nt::to_string(x.spec()));
}

// Thresholds into masks: range(0): 0 = u16 volume > 1000 (a scalar), 1 = f32 volume >
// 0.5 (a scalar), 2 = f32 a < b, same shapes, 3 = the u16 threshold on a (256,256)
// slice (in cache); range(1): threads. Fresh bool results.
void BM_compare(benchmark::State& state) {
    threads_from(state, 1);
    const auto ct = volume<std::uint16_t>();
    const auto f = nt::astype<float>(ct) * (1.0f / 4096);
    const auto g = f * 0.75f + 0.1f;
    const auto slice = ct.index(0, nt::all, nt::all).slice(0, 0, 256).slice(1, 0, 256).contiguous();
    const std::int64_t c = state.range(0);
    std::int64_t elements = 0, bytes = 0;
    for (auto _ : state) {
        nt::Tensor<bool> m;
        if (c == 0) m = ct > std::uint16_t{1000};
        else if (c == 1) m = f > 0.5f;
        else if (c == 2) m = f < g;
        else m = slice > std::uint16_t{1000};
        benchmark::DoNotOptimize(m.data());
        elements = m.size();
    }
    bytes = c == 0 ? 3 : c == 1 ? 5 : c == 2 ? 9 : 3;
    set_bytes(state, elements * bytes);
    const char* labels[] = {"u16 (32,512,512) > 1000", "f32 (32,512,512) > 0.5", "f32 (32,512,512) < f32 (32,512,512)",
                            "u16 (256,256) > 1000"};
    state.SetLabel(labels[c]);
}

// Float functions of a f32 volume (values 0 .. 1, so log and sqrt are defined):
// range(0): 0 = exp, 1 = log, 2 = sqrt, 3 = floor, 4 = tanh, 5 = sigmoid, 6 = round,
// 7 = sin; of the u16 volume (computed in f32): 8 = sqrt, 9 = log1p; range(1):
// threads. Fresh results.
void BM_unary(benchmark::State& state) {
    threads_from(state, 1);
    const auto ct = volume<std::uint16_t>();
    const auto x = nt::astype<float>(ct) * (1.0f / 4096) + (1.0f / 8192);
    const std::int64_t c = state.range(0);
    for (auto _ : state) {
        nt::Tensor<float> r;
        switch (c) {
            case 8: r = nt::sqrt(ct); break;
            case 9: r = nt::log1p(ct); break;
            case 0: r = nt::exp(x); break;
            case 1: r = nt::log(x); break;
            case 2: r = nt::sqrt(x); break;
            case 3: r = nt::floor(x * 8.0f); break;
            case 4: r = nt::tanh(x); break;
            case 5: r = nt::sigmoid(x); break;
            case 6: r = nt::round(x); break;
            default: r = nt::sin(x); break;
        }
        benchmark::DoNotOptimize(r.data());
    }
    set_bytes(state, x.size() * (c >= 8 ? 6 : 8));
    const char* labels[] = {"exp", "log", "sqrt", "floor", "tanh", "sigmoid", "round", "sin", "sqrt", "log1p"};
    state.SetLabel(std::string(labels[c]) + (c >= 8 ? " u16 (32,512,512)" : " f32 (32,512,512)"));
}

// Casts of a f32 volume (values 0 .. 4095.9) to the types images are stored in:
// range(0): 0 = u16, 1 = i16, 2 = u8 (saturating at 255), 3 = f64 -> i32 (the same
// values); range(1): threads. Fresh results.
void BM_cast(benchmark::State& state) {
    threads_from(state, 1);
    const auto x = nt::astype<float>(volume<std::uint16_t>()) * 1.0001f;
    const auto d = nt::astype<double>(x);
    const std::int64_t c = state.range(0);
    for (auto _ : state) {
        if (c == 0) benchmark::DoNotOptimize(x.astype<std::uint16_t>().data());
        else if (c == 1) benchmark::DoNotOptimize(x.astype<std::int16_t>().data());
        else if (c == 2) benchmark::DoNotOptimize(x.astype<std::uint8_t>().data());
        else benchmark::DoNotOptimize(d.astype<std::int32_t>().data());
    }
    set_bytes(state, x.size() * (c == 3 ? 12 : c == 2 ? 5 : 6));
    const char* labels[] = {"f32 (32,512,512) astype u16", "f32 (32,512,512) astype i16",
                            "f32 (32,512,512) astype u8", "f64 (32,512,512) astype i32"};
    state.SetLabel(labels[c]);
}

// range(0): 0 = u16, 1 = i16, 2 = u8 (labels; the volume's values wrap, as in
// NumPy's astype); range(1): threads. A same-type add, fresh result.
template <class T>
void add_int_case(benchmark::State& state, const char* name) {
    threads_from(state, 1);
    const auto a = volume<T>(), b = volume<T>();
    for (auto _ : state) {
        auto r = a + b;
        benchmark::DoNotOptimize(r.data());
    }
    set_bytes(state, 3 * a.size() * static_cast<std::int64_t>(sizeof(T)));
    state.SetLabel(std::string(name) + " " + nt::to_string(a.spec()) + " + " + name + " " + nt::to_string(b.spec()));
}
void BM_add_int(benchmark::State& state) {
    if (state.range(0) == 0) add_int_case<std::uint16_t>(state, "u16");
    else if (state.range(0) == 1) add_int_case<std::int16_t>(state, "i16");
    else add_int_case<std::uint8_t>(state, "u8");
}

// range(0): threads. The sum of a u16 volume (a uint64 result, as NumPy's).
void BM_sum_u16(benchmark::State& state) {
    threads_from(state, 0);
    const auto ct = volume<std::uint16_t>();
    for (auto _ : state) {
        auto r = nt::sum(ct);
        benchmark::DoNotOptimize(r.data());
    }
    set_bytes(state, ct.size() * static_cast<std::int64_t>(sizeof(std::uint16_t)));
    state.SetLabel("sum u16 " + nt::to_string(ct.spec()));
}

// range(0): the case, range(1): threads. Reductions of a segmentation pipeline: the
// extremes of a volume, a sum over slices, max and argmax over the classes of a
// probability map, and masks (any, logical_and).
void BM_reduce(benchmark::State& state) {
    threads_from(state, 1);
    const auto f = nt::astype<float>(volume<std::uint16_t>()) * (1.0f / 4096);
    const auto prob = f.reshape({16, 8, 256, 256});
    const auto ct = volume<std::int16_t>();
    const auto mask = f > 0.5f;
    std::string label;
    std::int64_t bytes = f.size() * std::int64_t{sizeof(float)};
    auto run = [&](const auto& reduction) {
        for (auto _ : state) {
            auto r = reduction();
            benchmark::DoNotOptimize(r.data());
        }
    };
    switch (state.range(0)) {
        case 0: label = "max f32 (32,512,512)"; run([&] { return nt::max(f); }); break;
        case 1: label = "min i16 (32,512,512)", bytes /= 2; run([&] { return nt::min(ct); }); break;
        case 2: label = "sum f32 (32,512,512) axis 0"; run([&] { return nt::sum(f, 0); }); break;
        case 3: label = "max f32 (16,8,256,256) axis 1"; run([&] { return nt::max(prob, 1); }); break;
        case 4: label = "argmax f32 (16,8,256,256) axis 1"; run([&] { return nt::argmax(prob, 1); }); break;
        case 5: label = "any bool (32,512,512)", bytes /= 4; run([&] { return nt::any(mask); }); break;
        default:
            label = "logical_and bool (32,512,512)", bytes /= 2;
            run([&] { return nt::logical_and(mask, mask); });
    }
    set_bytes(state, bytes);
    state.SetLabel(label);
}

// The layers of inference and training over the classes of a probability map:
// softmax, log_softmax and the cross-entropy loss against integer labels.
void BM_layers(benchmark::State& state) {
    threads_from(state, 1);
    const auto f = nt::astype<float>(volume<std::uint16_t>()) * (1.0f / 4096);
    const auto logits = f.reshape({16, 8, 256, 256});
    const auto labels = nt::astype<std::int64_t>(nt::argmax(logits, 1));
    std::string label;
    auto run = [&](const auto& layer) {
        for (auto _ : state) {
            auto r = layer();
            benchmark::DoNotOptimize(r.data());
        }
    };
    switch (state.range(0)) {
        case 0: label = "softmax f32 (16,8,256,256) axis 1"; run([&] { return nt::softmax(logits, 1); }); break;
        case 1: label = "log_softmax f32 (16,8,256,256) axis 1"; run([&] { return nt::log_softmax(logits, 1); }); break;
        default:
            label = "cross_entropy f32 (16,8,256,256) axis 1";
            run([&] { return nt::cross_entropy(logits, labels, 1); });
    }
    set_bytes(state, f.size() * std::int64_t{sizeof(float)});
    state.SetLabel(label);
}

// The SIMD row kernels on each instruction set the CPU runs, one thread, out= form:
// range(0) the case, range(1) the index in simd_targets() (0 = the best, which the
// library picks by itself). In L2 (768 KiB at most), so the instruction set shows.
template <class T>
void simd_add_case(benchmark::State& state, const std::string& target, std::vector<std::int64_t> a_shape,
                   std::vector<std::int64_t> b_shape, bool maximum = false) {
    const auto a = nt::full<T>(a_shape, T(3));
    const auto b = nt::full<T>(b_shape, T(2));
    auto out = a + b;
    for (auto _ : state) {
        if (maximum) nt::maximum(a, b, out);
        else nt::add(a, b, out);
        benchmark::DoNotOptimize(out.data());
    }
    set_bytes(state, (a.size() + b.size() + out.size()) * static_cast<std::int64_t>(sizeof(T)));
    state.SetLabel((maximum ? "maximum " : "") + nt::to_string(a.spec()) + (maximum ? ", " : " + ") +
                   nt::to_string(b.spec()) + " " + std::string(nt::to_string(nt::dtype_of<T>)) + " on " + target);
}
void BM_simd_add(benchmark::State& state) {
    nt::set_num_threads(1);
    const auto targets = nt::detail::simd_targets();
    const std::string target = targets.at(static_cast<std::size_t>(state.range(1)));
    nt::detail::force_simd_target(target);
    switch (state.range(0)) {
        case 0: simd_add_case<float>(state, target, {64, 1024}, {64, 1024}); break;
        case 1: simd_add_case<float>(state, target, {64, 1024}, {1024}); break;
        case 2: simd_add_case<float>(state, target, {64, 1024}, {64, 1}); break;
        case 3: simd_add_case<double>(state, target, {64, 512}, {64, 512}); break;
        case 4: simd_add_case<std::int16_t>(state, target, {64, 1024}, {64, 1024}); break;
        case 5: simd_add_case<std::uint8_t>(state, target, {64, 1024}, {64, 1024}); break;
        case 6: simd_add_case<std::uint8_t>(state, target, {64, 1024}, {64, 1024}, true); break;
        default: simd_add_case<float>(state, target, {64, 1024}, {64, 1024}, true); break;
    }
    nt::detail::force_simd_target("");
}
void simd_add_args(benchmark::internal::Benchmark* b) {
    const auto targets = static_cast<int>(nt::detail::simd_targets().size());
    for (int c = 0; c < 8; ++c)
        for (int t = 0; t < targets; ++t) b->Args({c, t});
    b->ArgNames({"case", "target"});
}

void add_args(benchmark::internal::Benchmark* b) {
    const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int c = 0; c < static_cast<int>(std::size(add_cases)); ++c)
        for (int threads : {1, all})
            for (int fresh : {0, 1}) b->Args({c, threads, fresh});
    b->ArgNames({"case", "threads", "fresh"});
}
void copy_args(benchmark::internal::Benchmark* b) {
    const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int c = 0; c < 4; ++c)
        for (int threads : {1, all}) b->Args({c, threads});
    b->ArgNames({"case", "threads"});
}
void typed_args(benchmark::internal::Benchmark* b, int cases) {
    const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int c = 0; c < cases; ++c)
        for (int threads : {1, all}) b->Args({c, threads});
    b->ArgNames({"case", "threads"});
}
void normalize_args(benchmark::internal::Benchmark* b) { typed_args(b, 3); }
void add_int_args(benchmark::internal::Benchmark* b) { typed_args(b, 3); }
void mixed_args(benchmark::internal::Benchmark* b) { typed_args(b, 3); }
void compare_args(benchmark::internal::Benchmark* b) { typed_args(b, 4); }
void unary_args(benchmark::internal::Benchmark* b) { typed_args(b, 10); }
void cast_args(benchmark::internal::Benchmark* b) { typed_args(b, 4); }
void reduce_args(benchmark::internal::Benchmark* b) { typed_args(b, 7); }
void layers_args(benchmark::internal::Benchmark* b) { typed_args(b, 3); }
void sum_args(benchmark::internal::Benchmark* b) {
    const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int threads : {1, all}) b->Args({threads});
    b->ArgNames({"threads"});
}
void memcpy_args(benchmark::internal::Benchmark* b) {
    // A ladder of sizes: scripts/bench.sh compares each case with the memcpy of
    // the nearest byte count (bandwidth depends on size through the caches).
    for (std::int64_t kb : {1, 16, 256, 1024, 4096, 16384, 65536, 131072, 262144, 524288})
        b->Arg(kb * 1024);
}

BENCHMARK(BM_memcpy)->Apply(memcpy_args)->UseRealTime();
BENCHMARK(BM_add)->Apply(add_args)->UseRealTime();
BENCHMARK(BM_copy)->Apply(copy_args)->UseRealTime();
BENCHMARK(BM_transpose_naive)->UseRealTime()->Iterations(3);
BENCHMARK(BM_normalize)->Apply(normalize_args)->UseRealTime();
BENCHMARK(BM_add_int)->Apply(add_int_args)->UseRealTime();
BENCHMARK(BM_mixed)->Apply(mixed_args)->UseRealTime();
BENCHMARK(BM_compare)->Apply(compare_args)->UseRealTime();
BENCHMARK(BM_unary)->Apply(unary_args)->UseRealTime();
BENCHMARK(BM_cast)->Apply(cast_args)->UseRealTime();
BENCHMARK(BM_in_place)->Apply(sum_args)->UseRealTime();
BENCHMARK(BM_sum_u16)->Apply(sum_args)->UseRealTime();
BENCHMARK(BM_reduce)->Apply(reduce_args)->UseRealTime();
BENCHMARK(BM_layers)->Apply(layers_args)->UseRealTime();
BENCHMARK(BM_simd_add)->Apply(simd_add_args)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
