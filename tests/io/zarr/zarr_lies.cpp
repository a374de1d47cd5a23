// Robustness, targeted (tests/io/zarr/zarr_fuzz.cpp mutates at random): each lying or
// unsupported .zarray field gets the error code the contract gives it, and a store
// whose .zarray lies about its chunks (the dtype, the chunk shape, the codec changed
// after the chunks were written) or whose 2-D chunk "0.1" / "0/1" is damaged gives
// format_error naming that key, for every codec and both separators. No Python.
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

fs::path fresh_dir(const std::string& name) {
    return nt::test::fresh_path(fs::path(NT_TEST_DATA_DIR) / "zarr" / "fuzz_targeted", name);
}

/// The outcome of opening (and reading all of) the store at `p`: "ok", or the error's
/// code name followed by its message.
struct outcome {
    bool ok = false;
    nt::errc code{};
    std::string message;
};

outcome try_open_read(const fs::path& p, bool read = true) {
    try {
        const auto a = nt::zarr::open(p.string());
        if (read) (void)a.read();
        return {true, {}, {}};
    } catch (const nt::error& e) {
        return {false, e.code(), e.message()};
    }
}

const json base_zarray = json::parse(R"({"zarr_format": 2, "shape": [6, 5], "chunks": [4, 3], "dtype": "<i2",
    "compressor": null, "fill_value": 0, "order": "C", "filters": null, "dimension_separator": "."})");

}  // namespace

TEST_CASE("each lying .zarray field gets its error code", "[zarr][fuzz]") {
    const auto p = fresh_dir("fields");
    fs::create_directories(p);
    struct edit {
        const char* what;
        json patch;  // merged into the base document (null values erase the key)
        nt::errc code;
        const char* named;  // a part of the message
    };
    const std::int64_t big = std::int64_t{1} << 40;
    const std::vector<edit> edits = {
        {"unknown dtype", {{"dtype", "<c16"}}, nt::errc::unsupported_dtype, "<c16"},
        {"object dtype", {{"dtype", "|O"}}, nt::errc::unsupported_dtype, "|O"},
        {"unknown compressor", {{"compressor", {{"id", "lzma"}, {"preset", 1}}}}, nt::errc::unsupported_dtype, "lzma"},
        {"unknown compressor bz2", {{"compressor", {{"id", "bz2"}, {"level", 1}}}}, nt::errc::unsupported_dtype, "bz2"},
        {"a filter", {{"filters", json::array({{{"id", "delta"}, {"dtype", "<i2"}}})}}, nt::errc::unsupported_dtype, "delta"},
        {"a filter quantize", {{"filters", json::array({{{"id", "quantize"}, {"digits", 2}}})}}, nt::errc::unsupported_dtype,
         "quantize"},
        {"shape longer than chunks", {{"shape", {6, 5, 2}}}, nt::errc::format_error, "chunks"},
        {"chunks longer than shape", {{"chunks", {4, 3, 1}}}, nt::errc::format_error, "chunks"},
        {"negative shape", {{"shape", {-6, 5}}}, nt::errc::format_error, "shape"},
        {"negative chunk", {{"chunks", {4, -3}}}, nt::errc::format_error, "chunks"},
        {"zero chunk", {{"chunks", {0, 3}}}, nt::errc::format_error, "chunks"},
        {"shape of strings", {{"shape", {"6", "5"}}}, nt::errc::format_error, "shape"},
        {"shape not an array", {{"shape", 6}}, nt::errc::format_error, "shape"},
        {"chunk product overflows", {{"shape", {big, big}}, {"chunks", {big, big}}}, nt::errc::format_error, "chunk"},
        {"huge chunk", {{"shape", {big}}, {"chunks", {big}}}, nt::errc::format_error, "chunk"},
        {"zarr_format 3", {{"zarr_format", 3}}, nt::errc::format_error, "zarr_format"},
        {"zarr_format missing", {{"zarr_format", nullptr}}, nt::errc::format_error, "zarr_format"},
        {"order X", {{"order", "X"}}, nt::errc::format_error, "order"},
        {"separator ':'", {{"dimension_separator", ":"}}, nt::errc::format_error, "dimension_separator"},
        {"fill value a word", {{"fill_value", "lots"}}, nt::errc::format_error, "fill_value"},
        {"fill value an array", {{"fill_value", {1, 2}}}, nt::errc::format_error, "fill_value"},
        {"blosc shuffle 7", {{"compressor", {{"id", "blosc"}, {"cname", "lz4"}, {"clevel", 5}, {"shuffle", 7}}}},
         nt::errc::unsupported_dtype, "shuffle"},  // either code would do; the core says unsupported
        {"blosc cname snappy", {{"compressor", {{"id", "blosc"}, {"cname", "snappy"}, {"clevel", 5}, {"shuffle", 1}}}},
         nt::errc::unsupported_dtype, "snappy"},
    };
    for (const auto& e : edits) {
        INFO(e.what);
        json doc = base_zarray;
        for (auto it = e.patch.begin(); it != e.patch.end(); ++it) {
            if (it.value().is_null()) doc.erase(it.key());
            else doc[it.key()] = it.value();
        }
        INFO(doc.dump());
        nt::test::write_file(p / ".zarray", doc.dump());
        const outcome o = try_open_read(p);
        REQUIRE_FALSE(o.ok);
        INFO(o.message);
        CHECK(o.code == e.code);
        CHECK(o.message.find(e.named) != std::string::npos);
    }
    // The unchanged document opens (the edits above are what breaks it).
    nt::test::write_file(p / ".zarray", base_zarray.dump());
    CHECK(try_open_read(p).ok);
}

// zarr v2 allows structured dtypes ([["a", "<i2"], ...]); ntensor reads none of them,
// so by the header's contract it is unsupported_dtype naming the dtype, not a
// malformed document (format_error).
TEST_CASE("a structured dtype is unsupported_dtype, not format_error", "[zarr][fuzz]") {
    const auto p = fresh_dir("structured");
    fs::create_directories(p);
    json doc = base_zarray;
    doc["dtype"] = json::array({json::array({"a", "<i2"}), json::array({"b", "<f4"})});
    nt::test::write_file(p / ".zarray", doc.dump());
    const outcome o = try_open_read(p);
    REQUIRE_FALSE(o.ok);
    INFO(o.message);
    CHECK(o.code == nt::errc::unsupported_dtype);
}

TEST_CASE("a .zarray that lies about written chunks gives format_error naming the key", "[zarr][fuzz]") {
    const std::vector<nt::zarr::codec> codecs = {
        nt::zarr::codec::none(), nt::zarr::codec::zlib(), nt::zarr::codec::gzip(), nt::zarr::codec::zstd(),
        nt::zarr::codec::blosc(), nt::zarr::codec::blosc("lz4hc", 5, 0), nt::zarr::codec::blosc("zlib", 5, 2),
        nt::zarr::codec::blosc("zstd", 3, 1)};
    std::mt19937 rng(13);
    for (const char sep : {'.', '/'}) {
        for (const auto& c : codecs) {
            const std::string key = sep == '.' ? "0.1" : "0/1";
            INFO(c.str() << ", chunk " << key);
            const auto p = fresh_dir("lie");
            nt::zarr::create_options o;
            o.compressor = c;
            o.dimension_separator = sep;
            auto a = nt::zarr::create(p.string(), nt::dtype::i32, {8, 8}, {4, 4}, {"Y", "X"}, o);
            auto t = nt::zeros<std::int32_t>({8, 8});
            for (auto& v : t) v = static_cast<std::int32_t>(rng());
            a.write(t);
            const json good = json::parse(nt::test::read_file(p / ".zarray"));
            const std::string stored = nt::test::read_file(p / key);
            // Only chunk 0.1 is left: every other chunk reads as the fill value, so an
            // error can only come from that key.
            for (const auto& k : {"0.0", "1.0", "1.1", "0/0", "1/0", "1/1"}) fs::remove(p / k);
            fs::remove_all(p / "1");
            if (sep == '/') {
                fs::remove(p / "0" / "0");
            }
            REQUIRE(try_open_read(p).ok);

            auto lie = [&](const char* what, json doc) {
                INFO(what);
                nt::test::write_file(p / ".zarray", doc.dump());
                const outcome r = try_open_read(p);
                if (!r.ok) {
                    INFO(r.message);
                    CHECK(r.code == nt::errc::format_error);
                    CHECK(r.message.find("'" + key + "'") != std::string::npos);
                }
                return r.ok;
            };
            json d = good;
            d["dtype"] = "<i8";  // 8-byte elements: the chunk holds half the bytes
            CHECK_FALSE(lie("dtype <i8", d));
            d = good;
            d["dtype"] = "<i2";  // 2-byte elements: twice the bytes
            CHECK_FALSE(lie("dtype <i2", d));
            d = good;
            d["chunks"] = {4, 8};
            d["shape"] = {8, 16};  // same chunk grid position, chunks twice as long
            CHECK_FALSE(lie("chunks (4,8)", d));
            d = good;
            d["chunks"] = {2, 4};
            d["shape"] = {4, 8};
            CHECK_FALSE(lie("chunks (2,4)", d));
            if (!c.id.empty()) {
                d = good;
                d["compressor"] = nullptr;  // compressed bytes read as raw elements
                CHECK_FALSE(lie("compressor null", d));
            }
            // The truth again: it reads, and chunk 0.1 holds what was written.
            nt::test::write_file(p / ".zarray", good.dump());
            const auto back = nt::zarr::open(p.string()).read({{"Y", nt::range(0, 4)}, {"X", nt::range(4, 8)}});
            CHECK(back.as<std::int32_t>().to_vector() ==
                  nt::any_tensor(t).index(nt::range(0, 4), nt::range(4, 8)).as<std::int32_t>().contiguous().to_vector());

            // Damaged copies of the chunk: truncated at every length class, bytes
            // appended, bytes flipped in the header. A damage the codec notices must
            // be format_error naming the key; truncations are always noticed.
            int noticed = 0, truncations = 0;
            for (int i = 0; i < 60; ++i) {
                std::string damaged = stored;
                const int kind = i % 3;
                if (kind == 0) {
                    damaged.resize(static_cast<std::size_t>(rng() % stored.size()));
                    ++truncations;
                } else if (kind == 1) {
                    damaged += std::string(1 + rng() % 40, static_cast<char>(rng()));
                } else {
                    damaged[rng() % std::min<std::size_t>(16, damaged.size())] ^= static_cast<char>(1 + rng() % 255);
                }
                nt::test::write_file(p / key, damaged);
                const outcome r = try_open_read(p);
                if (!r.ok) {
                    INFO("damage kind " << kind << ", " << damaged.size() << " of " << stored.size() << " bytes: "
                                        << r.message);
                    CHECK(r.code == nt::errc::format_error);
                    CHECK(r.message.find("'" + key + "'") != std::string::npos);
                    ++noticed;
                } else {
                    INFO("damage kind " << kind << " read without error, " << damaged.size() << " of " << stored.size()
                                        << " bytes");
                    CHECK(kind != 0);
                }
            }
            CHECK(noticed >= truncations);
        }
    }
}

TEST_CASE("random byte edits of .zarray text never crash", "[zarr][fuzz]") {
    const auto p = fresh_dir("bytes");
    auto a = nt::zarr::create(p.string(), nt::dtype::f64, {5, 7}, {2, 3}, {"Y", nt::unnamed});
    a.write(nt::any_tensor(nt::full<double>({5, 7}, 1.5)));
    const std::string zarray = nt::test::read_file(p / ".zarray"), zattrs = nt::test::read_file(p / ".zattrs");
    std::mt19937 rng(20261124);
    const std::string alphabet = "{}[]\",:-0123456789eE.+ntrufalsNIy<>|fiubc\\ \x00\xff";
    int opened = 0, refused = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string text = i % 2 ? zarray : zattrs;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % (text.size() + 1);
            switch (rng() % 3) {
                case 0: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
                case 1:
                    if (at < text.size()) text.erase(at, 1 + rng() % 3);
                    break;
                default:
                    if (at < text.size()) text[at] = alphabet[rng() % alphabet.size()];
                    break;
            }
        }
        nt::test::write_file(p / ".zarray", i % 2 ? text : zarray);
        nt::test::write_file(p / ".zattrs", i % 2 ? zattrs : text);
        INFO(text);
        try {
            const auto b = nt::zarr::open(p.string());
            std::int64_t elements = 1;
            for (auto s : b.shape()) elements = s > (1 << 20) ? (std::int64_t{1} << 40) : elements * s;
            if (elements <= (1 << 20)) (void)b.read();
            (void)b.names();
            ++opened;
        } catch (const nt::error&) {
            ++refused;
        }
    }
    CHECK(opened + refused == 3000);
    CHECK(opened > 100);
    CHECK(refused > 100);
}

TEST_CASE("odd files and names in a store are errors and never crash", "[zarr][fuzz]") {
    const auto p = fresh_dir("odd");
    nt::zarr::create_options o;
    o.compressor = nt::zarr::codec::zstd();
    auto a = nt::zarr::create(p.string(), nt::dtype::u16, {4, 6}, {2, 3}, {"Y", "X"}, o);
    a.write(nt::any_tensor(nt::full<std::uint16_t>({4, 6}, 11)));
    const std::string zarray = nt::test::read_file(p / ".zarray"), zattrs = nt::test::read_file(p / ".zattrs");

    // A chunk key that is a folder, not a file.
    fs::remove(p / "1.1");
    fs::create_directories(p / "1.1");
    {
        const outcome r = try_open_read(p);
        REQUIRE_FALSE(r.ok);
        INFO(r.message);
        CHECK(r.message.find("1.1") != std::string::npos);
    }
    fs::remove_all(p / "1.1");
    CHECK(try_open_read(p).ok);  // missing now: the fill value

    // An empty chunk file: format_error naming the key.
    nt::test::write_file(p / "0.1", "");
    {
        const outcome r = try_open_read(p);
        REQUIRE_FALSE(r.ok);
        INFO(r.message);
        CHECK(r.code == nt::errc::format_error);
        CHECK(r.message.find("'0.1'") != std::string::npos);
    }

    // .zarray empty, a folder, not an object; .zattrs names of the wrong count or kind.
    nt::test::write_file(p / ".zarray", "");
    CHECK(try_open_read(p, false).code == nt::errc::format_error);
    nt::test::write_file(p / ".zarray", "[2]");
    CHECK(try_open_read(p, false).code == nt::errc::format_error);
    fs::remove(p / ".zarray");
    fs::create_directories(p / ".zarray");
    CHECK_FALSE(try_open_read(p, false).ok);
    fs::remove_all(p / ".zarray");
    nt::test::write_file(p / ".zarray", zarray);
    for (const char* dims : {R"({"_ARRAY_DIMENSIONS": ["Y"]})", R"({"_ARRAY_DIMENSIONS": ["Y", "X", "Z"]})",
                             R"({"_ARRAY_DIMENSIONS": ["Y", 3]})", R"({"_ARRAY_DIMENSIONS": "YX"})",
                             R"({"_ARRAY_DIMENSIONS": ["Y", "Y"]})"}) {
        INFO(dims);
        nt::test::write_file(p / ".zattrs", dims);
        const outcome r = try_open_read(p, false);
        REQUIRE_FALSE(r.ok);
        INFO(r.message);
        CHECK((r.code == nt::errc::format_error || r.code == nt::errc::duplicate_name));
        CHECK(r.message.find("_ARRAY_DIMENSIONS") != std::string::npos);
    }
    // The truth again.
    nt::test::write_file(p / ".zattrs", zattrs);
    fs::remove(p / "0.1");
    CHECK(try_open_read(p).ok);
}
