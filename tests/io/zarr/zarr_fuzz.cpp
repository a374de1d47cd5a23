// Robustness: thousands of mutated .zarray / .zattrs documents and damaged chunks of
// every codec. Every outcome is a store that opens and reads, or an nt::error with a
// code: never a crash, a hang, another exception or a huge allocation (the test also
// runs under AddressSanitizer and UBSan). Damaged chunks that a codec notices give
// format_error naming the chunk's key.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"
#include "nt_test_files.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

fs::path fresh(const std::string& name) {
    return nt::test::fresh_path(fs::path(NT_TEST_DATA_DIR) / "zarr" / "fuzz", name);
}

/// A JSON value of a random kind, biased to the ones that break parsers of sizes.
json random_value(std::mt19937& rng) {
    switch (rng() % 14) {
        case 0: return nullptr;
        case 1: return rng() % 2 == 0;
        case 2: return -static_cast<std::int64_t>(rng() % 5) - 1;
        case 3: return std::int64_t{1} << (rng() % 63);
        case 4: return std::numeric_limits<std::uint64_t>::max() - rng() % 3;
        case 5: return 0.5 + static_cast<double>(rng() % 7);
        case 6: return "NaN";
        case 7: return std::string(1, "<>|="[rng() % 4]) + "fiubcUSOmM"[rng() % 10] + std::to_string(rng() % 17);
        case 8: return json::array({rng() % 5, -1});
        case 9: return json::array({std::int64_t{1} << 40, std::int64_t{1} << 40, 3});
        case 10: return json::array();
        case 11: return json::object({{"id", std::string("blosc\0lz", 8)}, {"cname", rng() % 2 ? "lz4" : "snappy"}});
        case 12: return json::object({{"id", "zstd"}, {"level", -100000}});
        default: return static_cast<std::int64_t>(rng() % 9);
    }
}

}  // namespace

TEST_CASE("mutated .zarray and .zattrs documents never crash", "[zarr][fuzz]") {
    const auto base_path = fresh("base");
    auto base = nt::zarr::create(base_path.string(), nt::dtype::i16, {6, 5}, {4, 3}, {"Y", "X"});
    base.write(nt::any_tensor(nt::full<std::int16_t>({6, 5}, 7)));
    std::string zarray_text, zattrs_text;
    {
        std::ifstream a(base_path / ".zarray"), b(base_path / ".zattrs");
        zarray_text.assign(std::istreambuf_iterator<char>(a), std::istreambuf_iterator<char>());
        zattrs_text.assign(std::istreambuf_iterator<char>(b), std::istreambuf_iterator<char>());
    }
    const json zarray = json::parse(zarray_text), zattrs = json::parse(zattrs_text);
    const std::vector<std::string> keys = {"zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value",
                                           "order", "filters", "dimension_separator", "extra"};
    std::mt19937 rng(20261124);
    int opened = 0, refused = 0;
    for (int i = 0; i < 3000; ++i) {
        json doc = zarray, attrs = zattrs;
        std::string text;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            const auto& key = keys[rng() % keys.size()];
            if (rng() % 5 == 0) doc.erase(key);
            else doc[key] = random_value(rng);
            if (rng() % 4 == 0) attrs["_ARRAY_DIMENSIONS"] = rng() % 2 ? random_value(rng) : json::array({"Y", "Y"});
        }
        text = doc.dump();
        if (rng() % 6 == 0) {  // byte-level damage: a flipped character, or the text cut short
            if (rng() % 2) text[rng() % text.size()] = static_cast<char>(rng() % 128);
            else text.resize(rng() % text.size());
        }
        nt::test::write_file(base_path / ".zarray", text);
        nt::test::write_file(base_path / ".zattrs", rng() % 10 == 0 ? std::string("{\"_ARRAY_DIMENSIONS\": [") : attrs.dump());
        INFO(text);
        try {
            const auto a = nt::zarr::open(base_path.string());
            // Read one element's region when the chunk is small enough to be a fair
            // fuzz input (a lying .zarray may claim chunks up to the 2 GiB limit).
            std::int64_t chunk_bytes = static_cast<std::int64_t>(nt::size_of(a.dtype()));
            for (auto c : a.chunks()) chunk_bytes = c > (std::int64_t{1} << 24) ? (std::int64_t{1} << 40) : chunk_bytes * c;
            bool empty = false;
            for (auto s : a.shape()) empty = empty || s == 0;
            if (chunk_bytes <= (std::int64_t{1} << 24) && !empty) {
                nt::zarr::region r;
                for (std::size_t k = 0; k < a.shape().size(); ++k)
                    r.emplace_back(nt::Axis(static_cast<std::int64_t>(k)), nt::range(0, 1));
                (void)a.read(r);
            }
            ++opened;
        } catch (const nt::error&) {
            ++refused;
        }
    }
    CHECK(opened + refused == 3000);
    CHECK(refused > 1000);
    CHECK(opened > 100);
}

TEST_CASE("damaged chunks of every codec are format errors naming the key", "[zarr][fuzz]") {
    const std::vector<nt::zarr::codec> codecs = {nt::zarr::codec::none(), nt::zarr::codec::zlib(), nt::zarr::codec::gzip(),
                                                 nt::zarr::codec::zstd(), nt::zarr::codec::blosc(),
                                                 nt::zarr::codec::blosc("zstd", 5, 2)};
    std::mt19937 rng(7);
    for (const auto& c : codecs) {
        INFO(c.str());
        const auto path = fresh("chunks");
        nt::zarr::create_options o;
        o.compressor = c;
        auto a = nt::zarr::create(path.string(), nt::dtype::f32, {64, 64}, {32, 32}, {}, o);
        auto t = nt::zeros<float>({64, 64});
        for (auto& v : t) v = static_cast<float>(rng() % 1000) / 7.0f;
        a.write(t);
        std::string stored;
        {
            std::ifstream in(path / "1.0", std::ios::binary);
            stored.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        int noticed = 0;
        for (int i = 0; i < 300; ++i) {
            std::string damaged = stored;
            switch (i % 3) {
                case 0: damaged.resize(rng() % damaged.size()); break;                      // truncated
                case 1: damaged[rng() % std::min<std::size_t>(32, damaged.size())] ^= static_cast<char>(1 + rng() % 255); break;  // header
                default: damaged += std::string(1 + rng() % 9, 'x'); break;                 // trailing bytes
            }
            nt::test::write_file(path / "1.0", damaged);
            try {
                (void)a.read({{0, nt::range(32, 64)}});
            } catch (const nt::error& e) {
                CHECK(e.code() == nt::errc::format_error);
                CHECK(e.message().find("chunk '1.0'") != std::string::npos);
                ++noticed;
            }
        }
        CHECK(noticed >= 100);  // every truncation at least: no codec reads a short chunk as whole
    }
}
