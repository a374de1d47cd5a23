// map_chunks holds a bounded number of chunks: over a store four times larger than
// the address-space limit this test sets on its own process (RLIMIT_AS, what
// `ulimit -v` sets), it completes, and its peak resident size stays under the bound
// docs/zarr.md states. CTest runs each case in its own process, so the limit and
// the peak (VmHWM) belong to this case alone. Not built under AddressSanitizer, whose
// shadow memory reserves terabytes of address space.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define NT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NT_TEST_ASAN 1
#endif
#endif

#ifndef NT_TEST_ASAN
namespace {

/// A field of /proc/self/status in bytes ("VmSize", "VmHWM").
std::int64_t status_bytes(const std::string& field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1)) * 1024;
    return -1;
}

/// Sets the soft address-space limit for the life of the object.
struct address_space_limit {
    rlimit old{};
    explicit address_space_limit(std::int64_t bytes) {
        getrlimit(RLIMIT_AS, &old);
        rlimit l = old;
        l.rlim_cur = static_cast<rlim_t>(bytes);
        REQUIRE(setrlimit(RLIMIT_AS, &l) == 0);
    }
    ~address_space_limit() { setrlimit(RLIMIT_AS, &old); }
};

}  // namespace

TEST_CASE("map_chunks over a store 4x the process's memory limit stays under the documented bound",
          "[zarr][memory]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(NT_TEST_DATA_DIR) / "zarr" / "memory";
    fs::remove_all(dir);
    nt::set_num_threads(2);
    (void)nt::sum(nt::zeros<float>({512, 512}) + 1.0f);  // the pool's threads exist before the limit

    // (Z, Y, X) u16 in (64, 128, 128) chunks: 2 MiB per chunk.
    const std::int64_t chunk_bytes = 64 * 128 * 128 * 2;
    const std::int64_t budget = std::int64_t{96} << 20;
    const std::int64_t limit = status_bytes("VmSize") + budget;
    const std::int64_t slices = ((4 * limit) / (512 * 512 * 2) / 64 + 1) * 64;  // >= 4x the limit
    const std::vector<std::int64_t> shape{slices, 512, 512}, chunks{64, 128, 128};
    const std::int64_t store_bytes = slices * 512 * 512 * 2;
    REQUIRE(store_bytes >= 4 * limit);
    INFO("limit " << (limit >> 20) << " MiB, store " << (store_bytes >> 20) << " MiB");

    nt::zarr::map_options options;
    options.max_chunks_in_memory = 4;  // W = min(2 threads, 4 / 2) = 2 chunks in flight
    std::ofstream("/proc/self/clear_refs") << "5";  // VmHWM restarts from the current RSS
    const std::int64_t baseline_rss = status_bytes("VmRSS");
    {
        address_space_limit guard(limit);
        // Written chunk by chunk from an array with no chunks (all fill value), so
        // that the store never exists in memory either.
        auto empty = nt::zarr::create((dir / "empty").string(), nt::dtype::u16, shape, chunks, {"Z", "Y", "X"});
        auto big = nt::zarr::create((dir / "big").string(), nt::dtype::u16, shape, chunks, {"Z", "Y", "X"});
        nt::zarr::map_chunks(empty, big, [](const nt::zarr::chunk_view& c) {
            return nt::any_tensor(nt::full<std::uint16_t>(c.data.shape(), static_cast<std::uint16_t>(c.chunk_index[0] + 7),
                                                          c.data.names()));
        }, {}, options);
        auto out = nt::zarr::create((dir / "out").string(), nt::dtype::u16, shape, chunks, {"Z", "Y", "X"});
        std::int64_t calls = 0;
        options.progress = [&](std::int64_t done, std::int64_t total) { calls = done == total ? total : calls; };
        nt::zarr::map_chunks(big, out, [](const nt::zarr::chunk_view& c) {
            return nt::any_tensor(c.data.as<std::uint16_t>() + std::uint16_t{1});
        }, {{"Z", 1}}, options);
        CHECK(calls == out.chunk_count());
        // Spot checks: the last chunk's first element went through both passes.
        const auto last = out.read({{"Z", nt::range(slices - 64, slices - 63)}, {"Y", nt::range(0, 1)}, {"X", nt::range(0, 2)}});
        CHECK(last.as<std::uint16_t>().at(0, 0, 1) == static_cast<std::uint16_t>(slices / 64 - 1 + 7 + 1));
    }
    // The bound of docs/zarr.md with W = 2: input with halo, f's result, the result
    // in dst's dtype, a decoded chunk and its stored bytes.
    const std::int64_t in_halo = 66 * 128 * 128 * 2;
    const std::int64_t bound = 2 * (in_halo + in_halo + chunk_bytes + 2 * chunk_bytes);
    const std::int64_t grown = status_bytes("VmHWM") - baseline_rss;
    INFO("peak RSS grew by " << (grown >> 20) << " MiB; documented bound " << (bound >> 20) << " MiB + 16 MiB slack");
    CHECK(grown <= bound + (std::int64_t{16} << 20));
    fs::remove_all(dir);
}
#endif
