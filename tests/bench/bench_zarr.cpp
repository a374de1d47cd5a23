// Zarr stores through nt/zarr.hpp: writing and reading a uint16 volume in 128^3
// chunks with blosc-lz4 (zarr-python's default) and zstd, on 1 and 2 threads, and
// map_chunks of a 3x3x3 mean filter (halo 1) against the same filter on the whole
// volume in memory. tests/bench/zarr_bench.py runs this program on a 2 GiB volume
// (NT_BENCH_ZARR_SLICES=1024) and times zarr-python on the same stores in the same
// run; without the variable the volume is small (the CTest smoke run).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"

namespace {

namespace fs = std::filesystem;

// (slices, side, side): NT_BENCH_ZARR_SLICES x 1024 x 1024, or 128 x 256 x 256 for
// the smoke run.
std::int64_t slices() {
    const char* env = std::getenv("NT_BENCH_ZARR_SLICES");
    return env ? std::atoll(env) : 128;
}
std::int64_t side() { return std::getenv("NT_BENCH_ZARR_SLICES") ? 1024 : 256; }

fs::path folder() {
    const char* env = std::getenv("NT_BENCH_DIR");
    fs::path p = (env ? fs::path(env) : fs::temp_directory_path() / "ntensor_bench_zarr");
    fs::create_directories(p);
    return p;
}

/// A CT-like volume: a disc of soft tissue around a denser core, with noise, as
/// uint16 (MR and microscopy data), so the codecs see realistic entropy.
const nt::Tensor<std::uint16_t>& volume() {
    static const nt::Tensor<std::uint16_t> v = [] {
        const std::int64_t d = slices(), n = side();
        auto t = nt::empty<std::uint16_t>({d, n, n}, {"Z", "Y", "X"});
        auto* p = t.mutable_data();
        std::uint32_t state = 12345;
        for (std::int64_t z = 0; z < d; ++z)
            for (std::int64_t y = 0; y < n; ++y)
                for (std::int64_t x = 0; x < n; ++x) {
                    state = state * 1664525u + 1013904223u;
                    const std::int64_t r2 = (y - n / 2) * (y - n / 2) + (x - n / 2) * (x - n / 2);
                    const int base = r2 < n * n / 5 ? (r2 < n * n / 40 ? 1900 : 1040) : 24;
                    *p++ = static_cast<std::uint16_t>(base + (state >> 27));
                }
        return t;
    }();
    return v;
}

nt::zarr::codec codec_of(int id) { return id == 0 ? nt::zarr::codec::blosc() : nt::zarr::codec::zstd(1); }
const char* codec_name(int id) { return id == 0 ? "blosc-lz4" : "zstd"; }

std::string store(int id) { return (folder() / (std::string("volume_") + codec_name(id) + ".zarr")).string(); }

nt::zarr::array create_store(int id) {
    nt::zarr::create_options o;
    o.compressor = codec_of(id);
    o.overwrite = true;
    o.io.durable = false;  // as zarr-python writes (no fsync): the library's time, not the disk's
    const auto& v = volume();
    return nt::zarr::create(store(id), nt::dtype::u16, v.shape(), {128, 128, 128},
                            {"Z", "Y", "X"}, o);
}

void BM_zarr_write(benchmark::State& state) {
    const int id = static_cast<int>(state.range(0));
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto& v = volume();
    for (auto _ : state) {
        auto a = create_store(id);
        a.write(v);
    }
    state.SetBytesProcessed(state.iterations() * v.size() * 2);
    state.SetLabel(codec_name(id));
    nt::set_num_threads(2);
}

void BM_zarr_read(benchmark::State& state) {
    const int id = static_cast<int>(state.range(0));
    const auto& v = volume();
    if (!fs::exists(store(id) + "/.zarray") || nt::zarr::open(store(id)).shape()[0] != v.shape()[0])
        create_store(id).write(v);
    nt::set_num_threads(static_cast<int>(state.range(1)));
    const auto a = nt::zarr::open(store(id));
    for (auto _ : state) benchmark::DoNotOptimize(a.read());
    state.SetBytesProcessed(state.iterations() * v.size() * 2);
    state.SetLabel(codec_name(id));
    nt::set_num_threads(2);
}

/// The 3x3x3 mean with the edge repeated at the faces (np.pad mode "edge"), the
/// stencil of docs/zarr.md, on a block with `before`/`after` elements missing.
nt::Tensor<float> mean3(const nt::Tensor<float>& v, const std::vector<nt::pad_width>& widths) {
    const auto windows = nt::pad(v, widths, nt::pad_mode::edge).unfold({"Z", "Y", "X"}, {3, 3, 3}, {1, 1, 1});
    return nt::mean(windows, {-3, -2, -1});
}

// The filter's volume: the first 256 slices (or all), as float32.
nt::Tensor<float> filter_volume() {
    const auto& v = volume();
    const std::int64_t d = std::min<std::int64_t>(v.shape()[0], 256);
    return v.index(nt::range(0, d)).astype<float>();
}

void BM_mean3_in_memory(benchmark::State& state) {
    nt::set_num_threads(static_cast<int>(state.range(0)));
    const auto v = filter_volume();
    for (auto _ : state)
        benchmark::DoNotOptimize(mean3(v, {{"Z", {1, 1}}, {"Y", {1, 1}}, {"X", {1, 1}}}));
    state.SetBytesProcessed(state.iterations() * v.size() * 4);
    nt::set_num_threads(2);
}

void BM_mean3_map_chunks(benchmark::State& state) {
    nt::set_num_threads(static_cast<int>(state.range(0)));
    const auto v = filter_volume();
    nt::zarr::create_options o;
    o.overwrite = true;
    o.io.durable = false;  // as zarr-python writes (no fsync)
    o.compressor = state.range(1) == 0 ? nt::zarr::codec::none() : nt::zarr::codec::blosc();
    state.SetLabel(state.range(1) == 0 ? "uncompressed" : "blosc-lz4");
    const std::vector<std::int64_t> shape(v.shape().begin(), v.shape().end());
    auto src = nt::zarr::create((folder() / "filter_src.zarr").string(), nt::dtype::f32, shape, {128, 128, 128},
                                {"Z", "Y", "X"}, o);
    src.write(v);
    auto dst = nt::zarr::create((folder() / "filter_dst.zarr").string(), nt::dtype::f32, shape, {128, 128, 128},
                                {"Z", "Y", "X"}, o);
    for (auto _ : state)
        nt::zarr::map_chunks(src, dst, [](const nt::zarr::chunk_view& c) {
            const auto data = c.data.as<float>();
            std::vector<nt::pad_width> widths;
            for (std::size_t i = 0; i < c.inner_in_data.size(); ++i) {
                const auto& r = c.inner_in_data[i].second;
                widths.push_back({nt::Axis(static_cast<std::int64_t>(i)),
                                  {1 - *r.start, 1 - (data.shape()[i] - *r.stop)}});
            }
            return nt::any_tensor(mean3(data, widths));
        }, {{"Z", 1}, {"Y", 1}, {"X", 1}});
    state.SetBytesProcessed(state.iterations() * v.size() * 4);
    nt::set_num_threads(2);
}

}  // namespace

BENCHMARK(BM_zarr_write)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_zarr_read)->ArgsProduct({{0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_mean3_in_memory)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_mean3_map_chunks)->ArgsProduct({{1, 2}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

BENCHMARK_MAIN();
