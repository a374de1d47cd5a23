// nt/zarr.hpp without Python: round trips of every dtype through every codec, order
// and separator; regions against slices of the whole array; missing chunks as the
// fill value; names; partial-chunk writes; map_chunks against the same stencil in
// memory; the errors. zarr-python, xarray and Dask check the stores in zarr_python.cpp.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"
#include "nt_test_files.hpp"
#include "nt_test_support.hpp"
#include "nt_test_bytes.hpp"

namespace fs = std::filesystem;
using nt::test::require_error;

namespace {

fs::path scratch(const std::string& name) {
    return nt::test::fresh_path(fs::path(NT_TEST_DATA_DIR) / "zarr" / "core", name);
}

using nt::test::bytes_of;

/// Random elements of `d` (from random bytes through astype, so floats are finite).
nt::any_tensor random_tensor(nt::dtype d, std::vector<std::int64_t> shape, nt::names_arg names, unsigned seed) {
    auto t = nt::zeros<std::int16_t>(shape, names);
    std::mt19937 rng(seed);
    auto* p = t.mutable_data();
    for (std::int64_t i = 0; i < t.size(); ++i) p[i] = static_cast<std::int16_t>(rng() % 2001) - 1000;
    return nt::any_tensor(t).astype(d);
}

const nt::dtype all_types[] = {nt::dtype::b8,  nt::dtype::i8,  nt::dtype::i16, nt::dtype::i32,
                               nt::dtype::i64, nt::dtype::u8,  nt::dtype::u16, nt::dtype::u32,
                               nt::dtype::u64, nt::dtype::f16, nt::dtype::f32, nt::dtype::f64};

}  // namespace

TEST_CASE("every dtype round-trips through every codec, order and separator", "[zarr]") {
    const std::vector<nt::zarr::codec> codecs = {
        nt::zarr::codec::none(),          nt::zarr::codec::zlib(3),          nt::zarr::codec::gzip(5),
        nt::zarr::codec::zstd(3),         nt::zarr::codec::blosc(),          nt::zarr::codec::blosc("lz4hc", 4, 2),
        nt::zarr::codec::blosc("zstd", 3, 0), nt::zarr::codec::blosc("zlib", 1, 1), nt::zarr::codec::blosc("blosclz", 5, 1)};
    unsigned seed = 1;
    for (const auto d : all_types) {
        for (std::size_t c = 0; c < codecs.size(); ++c) {
            const char order = c % 2 ? 'F' : 'C';
            const char sep = c % 3 ? '.' : '/';
            const auto path = scratch(std::string("rt_") + std::string(nt::to_string(d)) + "_" + std::to_string(c));
            INFO(path.string() << " " << codecs[c].str() << " order " << order << " sep " << sep);
            nt::zarr::create_options o;
            o.compressor = codecs[c];
            o.order = order;
            o.dimension_separator = sep;
            // (7, 9, 5) in (3, 4, 2) chunks: partial chunks on every axis.
            auto arr = nt::zarr::create(path.string(), d, {7, 9, 5}, {3, 4, 2}, {"Z", "Y", "X"}, o);
            const auto data = random_tensor(d, {7, 9, 5}, {"Z", "Y", "X"}, seed++);
            arr.write(data);
            auto back = nt::zarr::open(path.string());
            CHECK(back.dtype() == d);
            CHECK(back.compressor() == codecs[c]);
            CHECK(back.order() == order);
            CHECK(back.dimension_separator() == sep);
            CHECK(back.chunk_count() == 3 * 3 * 3);
            const auto all = back.read();
            CHECK(all.spec() == data.spec());
            CHECK(bytes_of(all) == bytes_of(data));
            const auto part = back.read({{"Y", nt::range(2, 7)}, {0, nt::range(-3)}});
            CHECK(bytes_of(part) == bytes_of(data.index(nt::range(-3), nt::range(2, 7))));
            CHECK(part.spec() == nt::spec({3, 5, 5}, {"Z", "Y", "X"}));
        }
    }
}

TEST_CASE("missing chunks read as the fill value, NaN and infinities included", "[zarr]") {
    for (double fill : {0.0, -7.0, std::nan(""), HUGE_VAL, -HUGE_VAL}) {
        const auto path = scratch("fill");
        nt::zarr::create_options o;
        o.fill_value = fill;
        auto arr = nt::zarr::create(path.string(), nt::dtype::f32, {6, 6}, {4, 4}, {}, o);
        arr.write({{0, nt::range(0, 4)}, {1, nt::range(0, 4)}}, nt::any_tensor(nt::full<float>({4, 4}, 1.5f)));
        const auto t = nt::zarr::open(path.string()).read().as<float>();
        const float* p = t.data();
        for (int i = 0; i < 36; ++i) {
            const bool written = i / 6 < 4 && i % 6 < 4;
            INFO("fill " << fill << " element " << i);
            if (written) CHECK(p[i] == 1.5f);
            else if (std::isnan(fill)) CHECK(std::isnan(p[i]));
            else CHECK(p[i] == static_cast<float>(fill));
        }
        CHECK(fs::exists(path / "0.0"));
        CHECK_FALSE(fs::exists(path / "1.1"));
        auto again = nt::zarr::open(path.string());
        REQUIRE(again.fill_value().has_value());
        CHECK((std::isnan(fill) ? std::isnan(*again.fill_value()) : *again.fill_value() == fill));
    }
    // Integers: the fill value must be one of the type's values.
    nt::zarr::create_options o;
    o.fill_value = 300;
    require_error([&] { (void)nt::zarr::create(scratch("bad_fill").string(), nt::dtype::u8, {4}, {2}, {}, o); },
                  nt::errc::invalid_argument, {"300", "u8"});
}

TEST_CASE("a (H,W) tile written at one Z updates only the chunks it touches", "[zarr]") {
    const auto path = scratch("tile");
    auto arr = nt::zarr::create(path.string(), nt::dtype::u16, {4, 10, 12}, {2, 4, 5}, {"Z", "H", "W"});
    const auto base = random_tensor(nt::dtype::u16, {4, 10, 12}, {"Z", "H", "W"}, 11);
    arr.write(base);
    const auto tile = random_tensor(nt::dtype::u16, {3, 6}, {"H", "W"}, 12);
    arr.write({{"Z", nt::range(2, 3)}, {"H", nt::range(3, 6)}, {"W", nt::range(4, 10)}}, tile);
    auto expected = nt::any_tensor(base.base().clone());
    expected.index(2, nt::range(3, 6), nt::range(4, 10)).assign(tile);
    CHECK(bytes_of(arr.read()) == bytes_of(expected));
    // A source broadcast over a whole axis, matched by names: a (W) row into every H.
    const auto row = random_tensor(nt::dtype::u16, {12}, {"W"}, 13);
    arr.write({{"Z", nt::range(0, 1)}}, row);
    expected.index(0).assign(row);
    CHECK(bytes_of(arr.read()) == bytes_of(expected));
    // No temporary files stay behind.
    for (const auto& e : fs::recursive_directory_iterator(path))
        CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}

TEST_CASE("names follow xarray's _ARRAY_DIMENSIONS; unnamed axes are dim_<i>", "[zarr]") {
    const auto path = scratch("names.zarr") / "vol";
    auto arr = nt::zarr::create(path.string(), nt::dtype::f32, {2, 3, 4}, {0, 0, 2}, {nt::unnamed, "H", nt::unnamed});
    CHECK(fs::exists(path.parent_path() / ".zgroup"));
    std::ifstream in(path / ".zattrs");
    const std::string attrs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(attrs.find("\"dim_0\"") != std::string::npos);
    CHECK(attrs.find("\"dim_2\"") != std::string::npos);
    const auto back = nt::zarr::open(path.string());
    CHECK(back.spec() == nt::spec({2, 3, 4}, {nt::unnamed, "H", nt::unnamed}));
    CHECK(back.chunks() == std::vector<std::int64_t>{2, 3, 2});
    auto copy = back;
    copy.set_attributes(R"({"units": "HU"})");
    CHECK(nt::zarr::open(path.string()).attributes().find("\"units\"") != std::string::npos);
    CHECK(nt::zarr::open(path.string()).spec() == back.spec());
    require_error([&] { copy.set_attributes("[1]"); }, nt::errc::parse_error, {"JSON object"});
}

TEST_CASE("writes of one chunk from several threads lose nothing", "[zarr]") {
    const auto path = scratch("threads");
    auto arr = nt::zarr::create(path.string(), nt::dtype::i32, {8, 8}, {8, 8});
    std::vector<std::thread> workers;
    for (int k = 0; k < 8; ++k)
        workers.emplace_back([&, k] {
            arr.write({{0, nt::range(k, k + 1)}}, nt::any_tensor(nt::full<std::int32_t>({8}, k + 1)));
        });
    for (auto& w : workers) w.join();
    const auto t = arr.read().as<std::int32_t>();
    for (int i = 0; i < 64; ++i) CHECK(t.data()[i] == i / 8 + 1);
}

namespace {

/// The 3x3x3 mean over the neighbours inside the array (a box filter with the
/// window cut at the edges), computed on the whole volume.
std::vector<float> box_mean(const float* v, int nz, int ny, int nx) {
    std::vector<float> out(static_cast<std::size_t>(nz * ny * nx));
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                double s = 0;
                int n = 0;
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx) {
                            const int a = z + dz, b = y + dy, c = x + dx;
                            if (a < 0 || b < 0 || c < 0 || a >= nz || b >= ny || c >= nx) continue;
                            s += v[(a * ny + b) * nx + c];
                            ++n;
                        }
                out[static_cast<std::size_t>((z * ny + y) * nx + x)] = static_cast<float>(s / n);
            }
    return out;
}

}  // namespace

TEST_CASE("map_chunks with a halo equals the same stencil on the whole volume", "[zarr]") {
    const int nz = 9, ny = 10, nx = 11;
    const auto src_path = scratch("map_src"), dst_path = scratch("map_dst");
    auto src = nt::zarr::create(src_path.string(), nt::dtype::f32, {nz, ny, nx}, {4, 3, 5}, {"Z", "Y", "X"});
    const auto data = random_tensor(nt::dtype::f32, {nz, ny, nx}, {"Z", "Y", "X"}, 5);
    src.write(data);
    auto dst = nt::zarr::create(dst_path.string(), nt::dtype::f32, {nz, ny, nx}, {4, 3, 5}, {"Z", "Y", "X"});
    for (int threads : {1, 2}) {
        nt::set_num_threads(threads);
        std::vector<std::int64_t> seen;
        nt::zarr::map_options o;
        o.max_chunks_in_memory = 4;
        o.progress = [&](std::int64_t done, std::int64_t total) {
            CHECK(total == 3 * 4 * 3);
            seen.push_back(done);
        };
        nt::zarr::map_chunks(
            src, dst,
            [](const nt::zarr::chunk_view& c) {
                // The filter on the chunk with its halo; the halo part is cut away.
                const auto v = c.data.as<float>().contiguous();
                const auto s = v.shape();
                const auto m = box_mean(v.data(), static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2]));
                auto out = nt::zeros<float>(s, v.names());
                std::memcpy(out.mutable_data(), m.data(), m.size() * sizeof(float));
                return nt::any_tensor(out);
            },
            {{"Z", 1}, {"Y", 1}, {"X", 1}}, o);
        REQUIRE(seen.size() == 36);
        for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == static_cast<std::int64_t>(i + 1));
        const auto expected = box_mean(data.as<float>().data(), nz, ny, nx);
        const auto got = dst.read().as<float>();
        for (std::size_t i = 0; i < expected.size(); ++i) {
            INFO("threads " << threads << " element " << i);
            REQUIRE(got.data()[i] == Approx(expected[i]).epsilon(1e-6));
        }
    }
    nt::set_num_threads(2);
    // A result of neither shape, and an exception from f, reach the caller.
    require_error([&] { nt::zarr::map_chunks(src, dst, [](const nt::zarr::chunk_view&) { return nt::any_tensor(nt::zeros<float>({2})); }); },
                  nt::errc::invalid_argument, {"returned shape (2)", "chunk's shape"});
    require_error([&] {
        nt::zarr::map_chunks(src, dst, [](const nt::zarr::chunk_view&) -> nt::any_tensor {
            nt::throw_error(nt::errc::type_mismatch, "from f");
        });
    }, nt::errc::type_mismatch, {"from f"});
    auto other = nt::zarr::create(scratch("map_other").string(), nt::dtype::f32, {nz, ny}, {4, 3});
    require_error([&] { nt::zarr::map_chunks(src, other, [](const nt::zarr::chunk_view& c) { return c.data; }); },
                  nt::errc::invalid_argument, {"differ in shape"});
    require_error([&] { nt::zarr::map_chunks(src, dst, [](const nt::zarr::chunk_view& c) { return c.data; }, {{"T", 1}}); },
                  nt::errc::axis_out_of_range, {"T"});
}

TEST_CASE("errors name the store, the chunk and the fix", "[zarr]") {
    require_error([] { (void)nt::zarr::open((fs::path(NT_TEST_DATA_DIR) / "zarr" / "nowhere").string()); },
                  nt::errc::io_error, {"nowhere", "does not exist"});
    const auto group = scratch("group.zarr");
    (void)nt::zarr::create((group / "ct").string(), nt::dtype::i16, {4}, {2});
    require_error([&] { (void)nt::zarr::open(group.string()); }, nt::errc::io_error, {"zarr group", "ct"});
    require_error([&] { (void)nt::zarr::create((group / "ct").string(), nt::dtype::i16, {4}, {2}); },
                  nt::errc::io_error, {"exists", "overwrite"});
    nt::zarr::create_options over;
    over.overwrite = true;
    over.compressor = nt::zarr::codec::zstd();
    auto arr = nt::zarr::create((group / "ct").string(), nt::dtype::i16, {4}, {2}, {}, over);
    arr.write(random_tensor(nt::dtype::i16, {4}, {}, 3));
    // A corrupt chunk, a truncated one, one of the wrong size: format_error naming the key.
    const auto chunk = group / "ct" / "1";
    std::string stored;
    {
        std::ifstream in(chunk, std::ios::binary);
        stored.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    auto put = [&](const std::string& bytes) { std::ofstream(chunk, std::ios::binary | std::ios::trunc) << bytes; };
    put(stored.substr(0, stored.size() / 2));
    require_error([&] { (void)arr.read(); }, nt::errc::format_error, {"chunk '1'", "zstd"});
    put("garbage!");
    require_error([&] { (void)arr.read(); }, nt::errc::format_error, {"chunk '1'"});
    put(stored);
    CHECK_NOTHROW(arr.read());
    // Reads touch only the chunks of the region: chunk 1 is broken, chunk 0 reads.
    put("garbage!");
    CHECK_NOTHROW(arr.read({{0, nt::range(0, 2)}}));
    const auto raw_path = scratch("raw");
    auto raw = nt::zarr::create(raw_path.string(), nt::dtype::i16, {4}, {2}, {}, [] {
        nt::zarr::create_options o;
        o.compressor = nt::zarr::codec::none();
        return o;
    }());
    std::ofstream(raw_path / "0", std::ios::binary) << "abc";
    require_error([&] { (void)raw.read(); }, nt::errc::format_error, {"chunk '0'", "3 bytes", "4"});
    // Regions: a step, an unknown name, an axis twice.
    require_error([&] { (void)arr.read({{0, nt::range(0, 4, 2)}}); }, nt::errc::invalid_argument, {"step"});
    require_error([&] { (void)arr.read({{"Q", nt::range(0, 2)}}); }, nt::errc::axis_out_of_range, {"Q"});
    require_error([&] { (void)arr.read({{0, nt::range(0, 2)}, {-1, nt::range(1, 2)}}); }, nt::errc::invalid_argument,
                  {"twice"});
    // A tensor that does not match the array's names.
    auto named = nt::zarr::create(scratch("named").string(), nt::dtype::f32, {2, 3}, {1, 3}, {"H", "W"});
    require_error([&] { named.write(nt::any_tensor(nt::zeros<float>({3}, {"C"}))); }, nt::errc::no_counterpart,
                  {"zarr write", "named", "(2,3 | H,W)", "C"});
    // Metadata that ntensor does not read.
    const auto meta = scratch("meta");
    fs::create_directories(meta);
    auto zarray = [&](const std::string& text) { std::ofstream(meta / ".zarray") << text; };
    const std::string head = R"({"zarr_format": 2, "shape": [4], "chunks": [2], "order": "C", "fill_value": 0, )";
    zarray(head + R"("dtype": "<i2", "compressor": {"id": "lzma"}, "filters": null})");
    require_error([&] { (void)nt::zarr::open(meta.string()); }, nt::errc::unsupported_dtype, {"lzma"});
    zarray(head + R"("dtype": "<i2", "compressor": null, "filters": [{"id": "delta", "dtype": "<i2"}]})");
    require_error([&] { (void)nt::zarr::open(meta.string()); }, nt::errc::unsupported_dtype, {"delta"});
    zarray(head + R"("dtype": "<c8", "compressor": null, "filters": null})");
    require_error([&] { (void)nt::zarr::open(meta.string()); }, nt::errc::unsupported_dtype, {"<c8"});
    zarray(R"({"zarr_format": 2, "shape": [4, 4], "chunks": [2], "order": "C", "fill_value": 0, "dtype": "<i2", "compressor": null})");
    require_error([&] { (void)nt::zarr::open(meta.string()); }, nt::errc::format_error, {".zarray", "chunks"});
    zarray(R"({"zarr_format": 2, "shape": [4], "chunks": [4000000000], "order": "C", "fill_value": 0, "dtype": "<f8", "compressor": null})");
    require_error([&] { (void)nt::zarr::open(meta.string()); }, nt::errc::format_error, {"2 GiB"});
    zarray("{not json");
    require_error([&] { (void)nt::zarr::open(meta.string()); }, nt::errc::format_error, {"JSON"});
}

TEST_CASE("a pipeline config takes a tensor's shape and names from \"zarr\"", "[zarr]") {
    const auto dir = scratch("config");
    fs::create_directories(dir);
    auto ct = nt::zarr::create((dir / "scan.zarr" / "ct").string(), nt::dtype::i16, {3, 8, 5}, {1, 8, 5}, {"Z", "Y", "X"});
    std::ofstream(dir / "cfg.json") << R"({"tensors": {"ct": {"zarr": "scan.zarr/ct", "dtype": "i16"},
        "w": {"shape": ["Y", "X"], "names": "Y X"}}, "steps": [{"name": "s", "broadcast": ["ct", "w"]}]})";
    auto cfg = nt::load_config((dir / "cfg.json").string());
    CHECK(cfg.spec("ct") == ct.spec());
    CHECK_NOTHROW(cfg.check("ct", ct.read()));
    require_error([&] { cfg.check("ct", nt::any_tensor(nt::zeros<std::int16_t>({3, 8, 4}, {"Z", "Y", "X"}))); },
                  nt::errc::incompatible_sizes, {"ct"});

    // "names" that disagree with _ARRAY_DIMENSIONS, and a wrong "dtype": the fixes the
    // messages suggest (drop "names" or rename the axis; change "dtype") load.
    const auto config_with = [&](const std::string& ct_fields) {
        std::ofstream(dir / "cfg2.json") << R"({"tensors": {"ct": {"zarr": "scan.zarr/ct", )" + ct_fields + R"(},
            "w": {"shape": ["Y", "X"], "names": "Y X"}}, "steps": [{"name": "s", "broadcast": ["ct", "w"]}]})";
        return (dir / "cfg2.json").string();
    };
    require_error([&] { (void)nt::load_config(config_with(R"("dtype": "i16", "names": "Z Y W")")); },
                  nt::errc::invalid_spec,
                  {"'X' (_ARRAY_DIMENSIONS)", "'W'", "Fix: drop \"names\" to take the array's, or rename the axis"});
    CHECK(nt::load_config(config_with(R"("dtype": "i16")")).spec("ct") == ct.spec());
    CHECK(nt::load_config(config_with(R"("dtype": "i16", "names": "Z Y X")")).spec("ct") == ct.spec());
    require_error([&] { (void)nt::load_config(config_with(R"("dtype": "i32")")); }, nt::errc::type_mismatch,
                  {"holds i16", "or change \"dtype\""});
}
