// nt::zarr against zarr-python, xarray and Dask, both ways.
//   reading:  tests/io/zarr/gen_zarr.py writes stores of every dtype, codec, order,
//             separator and fill value (chunks missing on purpose, xarray names) and
//             their elements and random regions as raw bytes; these cases open and
//             read them with ntensor and compare bytes and metadata.
//   writing:  these cases write stores of every dtype and codec (partial updates, a
//             (H,W) tile into a (Z,H,W) array by name) with their elements as raw
//             bytes; tests/io/zarr/check_zarr.py reads them with zarr-python and
//             xarray, and computes xr.open_zarr(p).mean("Z") with Dask on a
//             distributed LocalCluster of 2 workers against ntensor's nt::mean.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"
#include "nt_test_support.hpp"
#include "nt_test_bytes.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path data_dir = fs::path(NT_TEST_DATA_DIR) / "zarr" / "py";

std::string file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

using nt::test::bytes_of;

std::string fill_text(const std::optional<double>& f) {
    if (!f) return "null";
    if (std::isnan(*f)) return "nan";
    if (std::isinf(*f)) return *f > 0 ? "inf" : "-inf";
    std::ostringstream os;
    if (*f == std::trunc(*f)) os << static_cast<long long>(*f);
    else os << *f;
    return os.str();
}

}  // namespace

TEST_CASE("stores zarr-python and xarray write read back with ntensor", "[zarr][numpy]") {
    std::ifstream manifest(data_dir / "manifest.txt");
    REQUIRE(manifest);
    std::string line;
    int stores = 0, regions = 0;
    std::optional<nt::zarr::array> current;
    std::string current_id;
    while (std::getline(manifest, line)) {
        std::istringstream in(line);
        std::string kind, id;
        in >> kind >> id;
        INFO(line);
        if (kind == "store") {
            std::string path, dtype, order, sep, codec, fill;
            std::size_t rank = 0;
            in >> path >> dtype >> order >> sep >> codec >> fill >> rank;
            std::vector<std::int64_t> shape(rank), chunks(rank);
            std::vector<std::string> names(rank);
            for (auto& s : shape) in >> s;
            for (auto& c : chunks) in >> c;
            for (auto& n : names) in >> n;
            std::replace(codec.begin(), codec.end(), '_', ' ');
            const auto a = nt::zarr::open(path);
            CHECK(std::string(nt::to_string(a.dtype())) == dtype);
            CHECK(std::string(1, a.order()) == order);
            CHECK(std::string(1, a.dimension_separator()) == sep);
            CHECK(a.compressor().str() == codec);
            if (fill == "null" || fill == "nan" || fill == "inf" || fill == "-inf") {
                CHECK(fill_text(a.fill_value()) == fill);
            } else {  // a number, perhaps beyond 2^53: as close as a double gets
                REQUIRE(a.fill_value());
                CHECK(*a.fill_value() == std::strtod(fill.c_str(), nullptr));
            }
            CHECK(a.shape() == shape);
            CHECK(a.chunks() == chunks);
            std::vector<std::string> got;
            for (const auto n : a.names()) got.emplace_back(n.str());
            CHECK(got == names);
            CHECK(bytes_of(a.read()) == file_bytes(data_dir / "read" / (id + ".raw")));
            current = a;
            current_id = id;
            ++stores;
        } else if (kind == "region") {
            REQUIRE(current_id == id);
            int k = 0, by_name = 0;
            in >> k >> by_name;
            nt::zarr::region r;
            const auto names = current->names();
            for (std::size_t i = 0; i < current->shape().size(); ++i) {
                std::int64_t lo = 0, hi = 0;
                in >> lo >> hi;
                if (by_name) r.emplace_back(nt::Axis(names[i]), nt::range(lo, hi));
                else r.emplace_back(nt::Axis(static_cast<std::int64_t>(i)), nt::range(lo, hi));
            }
            CHECK(bytes_of(current->read(r)) == file_bytes(data_dir / "read" / (id + ".r" + std::to_string(k) + ".raw")));
            ++regions;
        }
    }
    CHECK(stores >= 60);
    CHECK(regions == 3 * stores);
}

TEST_CASE("ntensor writes stores for zarr-python, xarray and Dask", "[zarr][numpy]") {
    const fs::path out = data_dir / "written";
    fs::remove_all(out);
    fs::create_directories(out);
    std::ofstream manifest(out / "manifest.txt");
    std::mt19937 rng(20261124);
    const nt::dtype types[] = {nt::dtype::b8,  nt::dtype::i8,  nt::dtype::i16, nt::dtype::i32,
                               nt::dtype::i64, nt::dtype::u8,  nt::dtype::u16, nt::dtype::u32,
                               nt::dtype::u64, nt::dtype::f16, nt::dtype::f32, nt::dtype::f64};
    const std::vector<nt::zarr::codec> codecs = {nt::zarr::codec::blosc(), nt::zarr::codec::zstd(2),
                                                 nt::zarr::codec::zlib(4),  nt::zarr::codec::gzip(6),
                                                 nt::zarr::codec::none(),   nt::zarr::codec::blosc("zstd", 3, 2),
                                                 nt::zarr::codec::blosc("lz4hc", 5, 0)};
    int n = 0;
    for (const auto d : types) {
        for (int k = 0; k < 2; ++k, ++n) {
            nt::zarr::create_options o;
            o.compressor = codecs[static_cast<std::size_t>(n) % codecs.size()];
            o.order = k ? 'F' : 'C';
            o.dimension_separator = n % 3 ? '.' : '/';
            const bool is_float = d == nt::dtype::f16 || d == nt::dtype::f32 || d == nt::dtype::f64;
            o.fill_value = is_float && k ? std::optional<double>(std::nan("")) : std::optional<double>(d == nt::dtype::b8 ? 1 : 5);
            // The other fill values: the infinities on floats, null on some integers.
            const double infinity = std::numeric_limits<double>::infinity();
            if (is_float && !k) o.fill_value = d == nt::dtype::f32 ? -infinity : d == nt::dtype::f64 ? infinity : 5.0;
            const bool null_fill = k && (d == nt::dtype::i8 || d == nt::dtype::i32 || d == nt::dtype::u64);
            if (null_fill) o.fill_value = std::nullopt;
            const std::string id = std::string(nt::to_string(d)) + "_" + std::to_string(k);
            const std::vector<std::int64_t> shape{5, 7, 6};
            auto arr = nt::zarr::create((out / "all.zarr" / id).string(), d, shape, {2, 3, 4}, {"Z", nt::unnamed, "X"}, o);
            // Written in two parts; the chunks neither part touches keep the fill value.
            auto t = nt::zeros<std::int32_t>(shape);
            for (auto& v : t) v = static_cast<std::int32_t>(rng() % 200) - 100;
            auto expected = nt::any_tensor(t).astype(d);
            // A null fill leaves missing chunks undefined for zarr-python: write them all.
            if (null_fill) arr.write(expected);
            arr.write({{"Z", nt::range(0, 4)}, {"X", nt::range(0, 4)}},
                      expected.index(nt::range(0, 4), nt::all, nt::range(0, 4)));
            arr.write({{"Z", nt::range(1, 2)}, {"X", nt::range(3, 6)}}, expected.index(nt::range(1, 2), nt::all, nt::range(3, 6)));
            // What the store must hold, made in memory: the fill value, then the parts.
            auto full = null_fill ? expected.astype(d)
                                  : nt::any_tensor(nt::full<double>(shape, *o.fill_value.for_dtype(d))).astype(d);
            full.index(nt::range(0, 4), nt::all, nt::range(0, 4)).assign(expected.index(nt::range(0, 4), nt::all, nt::range(0, 4)));
            full.index(nt::range(1, 2), nt::all, nt::range(3, 6)).assign(expected.index(nt::range(1, 2), nt::all, nt::range(3, 6)));
            std::ofstream(out / (id + ".raw"), std::ios::binary) << bytes_of(full);
            manifest << id << ' ' << nt::to_string(d) << ' ' << o.order << ' ' << o.dimension_separator << ' '
                     << fill_text(o.fill_value.for_dtype(d)) << ' ' << (o.compressor.id.empty() ? "none" : o.compressor.id) << ' '
                     << (o.compressor.cname.empty() ? "-" : o.compressor.cname) << ' ' << o.compressor.level << ' '
                     << o.compressor.shuffle << " 2 3 4\n";
        }
    }
    // A (H,W) tile into a (Z,H,W) array at one Z, matched by names.
    {
        nt::zarr::create_options zero_fill;
        zero_fill.fill_value = 0.0;  // zarr-python reads unwritten chunks as it (a null fill leaves them undefined)
        auto arr = nt::zarr::create((out / "tile.zarr" / "img").string(), nt::dtype::u16, {4, 6, 8}, {1, 3, 8},
                                    {"Z", "H", "W"}, zero_fill);
        auto tile = nt::zeros<std::uint16_t>({6, 8}, {"H", "W"});
        for (auto& v : tile) v = static_cast<std::uint16_t>(rng() % 60000);
        arr.write({{"Z", nt::range(2, 3)}}, tile);
        nt::save_npy((out / "tile.npy").string(), tile);
    }
    // The same with the tile given as (W,H), in an F-order, '/'-separated zstd array
    // whose chunks the tile covers only in part (read, updated, written back): the
    // names put it in place; the Z=2 slice written first must survive.
    {
        nt::zarr::create_options o;
        o.order = 'F';
        o.dimension_separator = '/';
        o.compressor = nt::zarr::codec::zstd(3);
        o.fill_value = 9;
        auto arr = nt::zarr::create((out / "tile_f.zarr" / "img").string(), nt::dtype::i32, {4, 6, 8}, {3, 4, 5},
                                    {"Z", "H", "W"}, o);
        auto before = nt::zeros<std::int32_t>({6, 8}, {"H", "W"});
        for (auto& v : before) v = static_cast<std::int32_t>(rng() % 1000) - 500;
        arr.write({{"Z", nt::range(2, 3)}}, before);
        auto tile = nt::zeros<std::int32_t>({5, 4}, {"W", "H"});
        for (auto& v : tile) v = static_cast<std::int32_t>(rng() % 100000);
        arr.write({{"Z", nt::range(1, 2)}, {"H", nt::range(1, 5)}, {"W", nt::range(2, 7)}}, tile);
        nt::save_npy((out / "tile_f_before.npy").string(), before);
        nt::save_npy((out / "tile_f_tile.npy").string(), tile);
    }
    // Replaced with overwrite: the old chunks are gone (the new array is its fill
    // value); chunks of 0 take the whole axis; attributes set keep the names; a f64
    // tensor written into a u8 array converts as astype does.
    {
        const auto p = (out / "misc.zarr" / "over").string();
        auto old = nt::zarr::create(p, nt::dtype::i16, {6, 6}, {2, 2});
        old.write(nt::any_tensor(nt::full<std::int16_t>({6, 6}, 123)));
        nt::zarr::create_options o;
        o.overwrite = true;
        o.fill_value = -4;
        auto now = nt::zarr::create(p, nt::dtype::i16, {6, 6}, {3, 0}, {"A", "B"}, o);
        CHECK(now.chunks() == std::vector<std::int64_t>{3, 6});
        now.set_attributes(R"({"units": "HU", "note": "set by ntensor"})");
        auto conv = nt::zarr::create((out / "misc.zarr" / "conv").string(), nt::dtype::u8, {3, 4}, {2, 2},
                                     {"Y", "X"});
        auto f = nt::zeros<double>({3, 4}, {"Y", "X"});
        for (auto& v : f) v = static_cast<double>(rng() % 25500) / 100.0;
        conv.write(f);
        nt::save_npy((out / "conv_source.npy").string(), f);
    }
    // Random region writes (partly covered chunks read, updated, written back) against
    // the same assignments in memory, for several codecs, orders and separators; the
    // final stores go to zarr-python with the model's bytes.
    {
        std::ofstream rmw(out / "rmw.txt");
        const std::vector<std::int64_t> shape{7, 10, 9};
        for (int s = 0; s < 6; ++s) {
            nt::zarr::create_options o;
            o.compressor = codecs[static_cast<std::size_t>(s) % codecs.size()];
            o.order = s % 2 ? 'F' : 'C';
            o.dimension_separator = s % 3 ? '.' : '/';
            o.fill_value = s - 2;
            const std::string id = "rmw_" + std::to_string(s);
            auto arr = nt::zarr::create((out / "rmw.zarr" / id).string(), nt::dtype::i32, shape, {3, 4, 4},
                                        {"Z", "Y", "X"}, o);
            auto model = nt::full<std::int32_t>(shape, s - 2, {"Z", "Y", "X"});
            for (int w = 0; w < 25; ++w) {
                nt::zarr::region r;
                std::vector<nt::range> ranges;
                std::vector<std::int64_t> sizes;
                for (std::size_t k = 0; k < shape.size(); ++k) {
                    const std::int64_t lo = static_cast<std::int64_t>(rng() % static_cast<unsigned>(shape[k]));
                    const std::int64_t hi = lo + 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(shape[k] - lo));
                    ranges.emplace_back(lo, hi);
                    sizes.push_back(hi - lo);
                    const char* axis_name = k == 0 ? "Z" : k == 1 ? "Y" : "X";
                    if (w % 2) r.emplace_back(nt::Axis(axis_name), nt::range(lo, hi));
                    else r.emplace_back(nt::Axis(static_cast<std::int64_t>(k)), nt::range(lo, hi));
                }
                auto t = nt::zeros<std::int32_t>(sizes, {"Z", "Y", "X"});
                for (auto& v : t) v = static_cast<std::int32_t>(rng());
                arr.write(r, t);
                model.index(ranges[0], ranges[1], ranges[2]).assign(t);
                INFO(id << " write " << w);
                REQUIRE(bytes_of(arr.read()) == bytes_of(model));
            }
            std::ofstream(out / (id + ".raw"), std::ios::binary) << bytes_of(model);
            rmw << id << '\n';
        }
    }
    // Dask: a named f32 volume and ntensor's own mean over Z.
    {
        auto vol = nt::zeros<float>({12, 9, 10}, {"Z", "Y", "X"});
        std::normal_distribution<float> normal(100.0f, 15.0f);
        for (auto& v : vol) v = normal(rng);
        auto arr = nt::zarr::create((out / "dask.zarr" / "vol").string(), nt::dtype::f32, {12, 9, 10}, {5, 4, 10},
                                    {"Z", "Y", "X"});
        arr.write(vol);
        nt::save_npy((out / "dask_mean_z.npy").string(), nt::mean(arr.read().as<float>(), nt::Axis("Z")));
        // map_chunks with a halo of 1 on Z: the mean of the (up to) 3 neighbours along Z,
        // cut at the array's ends; check_dask.py compares with xarray's rolling mean.
        auto smooth = nt::zarr::create((out / "dask.zarr" / "smooth").string(), nt::dtype::f32, {12, 9, 10},
                                       {5, 4, 10}, {"Z", "Y", "X"});
        nt::zarr::map_chunks(
            arr, smooth,
            [](const nt::zarr::chunk_view& c) {
                const auto v = c.data.as<float>().contiguous();
                const auto s = v.shape();
                const std::int64_t nz = s[0], plane = s[1] * s[2];
                auto res = nt::zeros<float>(s, v.names());
                float* o = res.mutable_data();
                const float* d = v.data();
                for (std::int64_t z = 0; z < nz; ++z)
                    for (std::int64_t i = 0; i < plane; ++i) {
                        double sum = 0;
                        int count = 0;
                        for (std::int64_t q = std::max<std::int64_t>(0, z - 1); q <= std::min(nz - 1, z + 1);
                             ++q, ++count)
                            sum += d[q * plane + i];
                        o[z * plane + i] = static_cast<float>(sum / count);
                    }
                return nt::any_tensor(res);
            },
            {{"Z", 1}});
    }
    // Every element type written with create's defaults, zeros included: xarray must
    // open them (with its defaults, which read a fill value as "missing") with the
    // same dtype and values. A default fill of 0 made an int16 array float32 with NaN
    // for every 0.
    {
        std::ofstream listed(out / "defaults.txt");
        for (const auto d : types) {
            const std::string id = std::string(nt::to_string(d));
            auto t = nt::zeros<std::int32_t>({4, 6});
            for (auto& v : t) v = rng() % 3 == 0 ? 0 : static_cast<std::int32_t>(rng() % 100);
            const auto values = nt::any_tensor(t).astype(d);
            auto arr = nt::zarr::create((out / "defaults.zarr" / id).string(), d, {4, 6}, {2, 3}, {"Y", "X"});
            arr.write(values);
            std::ofstream(out / ("defaults_" + id + ".raw"), std::ios::binary) << bytes_of(values);
            listed << id << '\n';
        }
    }
    manifest.close();
    SUCCEED("check_zarr.py reads these");
}
