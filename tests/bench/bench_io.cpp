// .npy files through the public API: save_npy and load_npy of a 1 GiB int16 volume
// (512,1024,1024), a memcpy of the same bytes in the same run as the baseline, and
// map_npy's open time for sparse files of growing size (it must not grow), and
// .npz archives of many small members (the time per member must not grow either).
// tests/bench/numpy_bench.py times np.save / np.load / np.load(mmap_mode='r') on the
// same shapes; scripts/bench.sh prints both.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "npy_header.hpp"
#include "nt/nt.hpp"

namespace {

namespace fs = std::filesystem;

const std::int64_t depth = 512, rows = 1024, cols = 1024;
const std::int64_t volume_bytes = depth * rows * cols * 2;

fs::path folder() {
    const char* env = std::getenv("NT_BENCH_DIR");
    fs::path p = env ? fs::path(env) : fs::temp_directory_path() / "ntensor_bench_io";
    fs::create_directories(p);
    return p;
}

const nt::Tensor<std::int16_t>& volume() {
    static const nt::Tensor<std::int16_t> v = [] {
        auto t = nt::empty<std::int16_t>({depth, rows, cols});
        auto* p = t.mutable_data();
        for (std::int64_t i = 0; i < t.size(); ++i) p[i] = static_cast<std::int16_t>(i * 7 % 4001 - 2000);
        return t;
    }();
    return v;
}

void set_bytes(benchmark::State& state, std::int64_t bytes) {
    state.SetBytesProcessed(state.iterations() * bytes);
    state.counters["bytes"] = static_cast<double>(bytes);
}

// The baseline: copy the volume's bytes once (read 1 GiB, write 1 GiB).
void BM_memcpy_volume(benchmark::State& state) {
    const auto& v = volume();
    auto out = std::make_unique<std::byte[]>(static_cast<std::size_t>(volume_bytes));
    std::memset(out.get(), 0, static_cast<std::size_t>(volume_bytes));
    for (auto _ : state) {
        std::memcpy(out.get(), v.data(), static_cast<std::size_t>(volume_bytes));
        benchmark::DoNotOptimize(out.get());
        benchmark::ClobberMemory();
    }
    set_bytes(state, volume_bytes);
    state.SetLabel("memcpy (512,1024,1024) i16");
}

void BM_save_npy(benchmark::State& state) {
    const auto& v = volume();
    const std::string path = (folder() / "volume.npy").string();
    for (auto _ : state) {
        // A new file each time (as for NumPy): rewriting one in place makes ext4
        // flush it to disk on rename, which times the disk, not the library.
        state.PauseTiming();
        fs::remove(path);
        state.ResumeTiming();
        // Not durable: a sync of 1 GiB times the disk; BM_save_npy_small measures
        // what durability costs.
        nt::save_npy(path, v, {.durable = false});
    }
    set_bytes(state, volume_bytes);
    state.SetLabel("save_npy (512,1024,1024) i16");
}

// What a durable write costs (the fsync of the file and of its folder) against the
// same write without it, for a small file where the syncs dominate: (256,256) f32.
void BM_save_npy_small(benchmark::State& state) {
    const bool durable = state.range(0) != 0;
    const auto t = nt::arange<float>(256 * 256).reshape({256, 256});
    const std::string path = (folder() / "small.npy").string();
    for (auto _ : state) nt::save_npy(path, t, {.durable = durable});
    fs::remove(path);
    set_bytes(state, 256 * 256 * 4);
    state.SetLabel(std::string("save_npy (256,256) f32, ") + (durable ? "durable" : "not durable"));
}

void BM_load_npy(benchmark::State& state) {
    const std::string path = (folder() / "volume_load.npy").string();
    nt::save_npy(path, volume());
    for (auto _ : state) {
        auto t = nt::load_npy(path);
        benchmark::DoNotOptimize(t.data());
    }
    set_bytes(state, volume_bytes);
    state.SetLabel("load_npy (512,1024,1024) i16");
}

// Opening a mapping: header read and mmap only, for sparse files of 1 GiB to 1 TiB.
void BM_map_npy_open(benchmark::State& state) {
    const std::int64_t gib = state.range(0);
    const std::string path = (folder() / ("sparse_" + std::to_string(gib) + ".npy")).string();
    {
        // The header of a (gib * 512, 1024, 1024) int16 file, then a hole up to its end.
        const std::vector<std::int64_t> shape{gib * 512, rows, cols};
        const std::string header = nt::detail::make_npy_header("<i2", false, shape);
        std::FILE* f = std::fopen(path.c_str(), "wb");
        std::fwrite(header.data(), 1, header.size(), f);
        std::fclose(f);
        if (::truncate(path.c_str(), static_cast<off_t>(header.size()) + gib * (std::int64_t{1} << 30)) != 0)
            state.SkipWithError("cannot make the sparse file");
    }
    for (auto _ : state) {
        auto t = nt::map_npy(path);
        benchmark::DoNotOptimize(t.data());
    }
    fs::remove(path);
    state.SetLabel("map_npy open, " + std::to_string(gib) + " GiB file");
}

// save_npz then load_npz of an archive of n two-element members: each member's cost
// is a zip entry and a header, so the time per member should be flat in n (a name
// check that scanned the earlier members made it grow linearly: 65,600 members took
// 26 s).
void BM_npz_members(benchmark::State& state) {
    const auto n = static_cast<std::int32_t>(state.range(0));
    std::vector<nt::npz_entry> entries;
    for (std::int32_t i = 0; i < n; ++i) entries.push_back({"e" + std::to_string(i), nt::tensor<std::int32_t>({i, -i})});
    const std::string path = (folder() / ("members_" + std::to_string(n) + ".npz")).string();
    for (auto _ : state) {
        nt::save_npz(path, entries);
        const nt::npz back = nt::load_npz(path);
        benchmark::DoNotOptimize(back.size());
    }
    fs::remove(path);
    state.counters["per_member"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.SetLabel("save_npz + load_npz, " + std::to_string(n) + " members");
}

}  // namespace

BENCHMARK(BM_memcpy_volume)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_save_npy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_save_npy_small)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_load_npy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_map_npy_open)->Arg(1)->Arg(16)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_npz_members)->Arg(1000)->Arg(8000)->Arg(64000)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
