// Zarr stores under concurrency, failure and hostile metadata: handles of one array
// opened separately share their chunk locks, an overwrite that fails keeps the old
// array, OME-Zarr levels cannot lead out of their image, regions lie inside the
// array, and a write has one matching rule for every element type.
#include <catch2/catch.hpp>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"
#include "nt_test_files.hpp"
#include "nt_test_support.hpp"

namespace fs = std::filesystem;
using nt::test::require_error;

namespace {

fs::path scratch(const std::string& name) {
    return nt::test::fresh_path(fs::path(NT_TEST_DATA_DIR) / "zarr" / "hardening", name);
}

/// A file-size limit for this process while it lives (writes past it fail with
/// EFBIG instead of raising SIGXFSZ), as a full disk or a quota makes them fail.
class file_size_limit {
public:
    explicit file_size_limit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &saved_);
        previous_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit r = saved_;
        r.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &r);
    }
    ~file_size_limit() {
        ::setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_);
    }
    file_size_limit(const file_size_limit&) = delete;
    file_size_limit& operator=(const file_size_limit&) = delete;

private:
    rlimit saved_{};
    void (*previous_)(int) = nullptr;
};

}  // namespace

TEST_CASE("two handles of one array, opened separately, never lose each other's elements", "[zarr][threads]") {
    // One chunk of 2048 elements; two threads write alternate elements one at a time,
    // each through its own handle (one opened under another spelling of the path).
    // Each write reads, updates and rewrites the whole chunk: without a lock that both
    // handles share, one thread's rewrite drops the other's elements.
    const auto path = scratch("two_handles");
    const nt::io_options scratch_io{.durable = false};
    nt::zarr::create_options o;
    o.compressor = nt::zarr::codec::none();
    o.io = scratch_io;
    (void)nt::zarr::create(path.string(), nt::dtype::i32, {2048}, {2048}, {"X"}, o);
    auto first = nt::zarr::open(path.string(), scratch_io);
    auto second = nt::zarr::open((path.parent_path() / "." / path.filename()).string() + "/", scratch_io);
    const auto writer = [](nt::zarr::array a, std::int64_t parity) {
        for (std::int64_t i = parity; i < 2048; i += 2)
            a.write({{"X", nt::range(i, i + 1)}}, nt::any_tensor(nt::full<std::int32_t>({1}, static_cast<std::int32_t>(i + 1))));
    };
    std::thread even(writer, first, 0), odd(writer, second, 1);
    even.join();
    odd.join();
    const auto all = nt::zarr::open(path.string()).read().as<std::int32_t>().to_vector();
    std::int64_t lost = 0;
    for (std::int64_t i = 0; i < 2048; ++i) lost += all[static_cast<std::size_t>(i)] != i + 1;
    CHECK(lost == 0);
}

TEST_CASE("create with overwrite that fails keeps the old array whole", "[zarr]") {
    const auto path = scratch("overwrite");
    auto old = nt::zarr::create(path.string(), nt::dtype::i16, {6, 5}, {3, 5}, {"Y", "X"});
    const auto data = nt::arange<std::int16_t>(30).reshape({6, 5}).rename({"Y", "X"});
    old.write(nt::any_tensor(data));
    nt::zarr::create_options o;
    o.overwrite = true;
    {
        // The new metadata cannot be written (a file-size limit of 64 bytes: the
        // new .zarray is several hundred). The old array must survive it.
        const file_size_limit limit(64);
        require_error([&] { (void)nt::zarr::create(path.string(), nt::dtype::f64, {4}, {4}, {"T"}, o); },
                      nt::errc::io_error, {path.string().c_str()});
    }
    const auto back = nt::zarr::open(path.string());
    CHECK(back.dtype() == nt::dtype::i16);
    CHECK(back.read().as<std::int16_t>().to_vector() == data.to_vector());
    // No temporary folder is left beside it.
    for (const auto& e : fs::directory_iterator(path.parent_path()))
        CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    // Without the limit the overwrite replaces it.
    (void)nt::zarr::create(path.string(), nt::dtype::f64, {4}, {4}, {"T"}, o);
    CHECK(nt::zarr::open(path.string()).dtype() == nt::dtype::f64);
    CHECK_FALSE(fs::exists(path / "0.0"));
}

TEST_CASE("write_ome with overwrite that fails keeps the old image whole", "[zarr][ome]") {
    const auto path = scratch("ome_overwrite");
    const auto img = nt::arange<std::uint16_t>(2 * 8 * 8).reshape({2, 8, 8}).rename({"c", "y", "x"});
    nt::zarr::ome_options o;
    o.chunks = {1, 4, 4};
    (void)nt::zarr::write_ome(path.string(), nt::any_tensor(img), o);
    o.overwrite = true;
    {
        const file_size_limit limit(64);
        require_error([&] { (void)nt::zarr::write_ome(path.string(), nt::any_tensor(img.astype<double>()), o); },
                      nt::errc::io_error, {});
    }
    const auto back = nt::zarr::open_ome(path.string());
    REQUIRE(back.levels.size() == 2);
    CHECK(back.levels[0].data.read().as<std::uint16_t>().to_vector() == img.to_vector());
}

TEST_CASE("OME-Zarr levels cannot lead out of the image's folder", "[zarr][ome]") {
    const auto root = scratch("ome_escape");
    const auto image = root / "image.zarr";
    // An array outside the image that a hostile .zattrs points at.
    (void)nt::zarr::create((root / "elsewhere" / "secret").string(), nt::dtype::u8, {4, 4}, {4, 4}, {"y", "x"});
    nt::zarr::ome_options o;
    (void)nt::zarr::write_ome(image.string(), nt::any_tensor(nt::zeros<std::uint8_t>({4, 4}, {"y", "x"})), o);
    fs::create_directory_symlink(root / "elsewhere" / "secret", image / "linked");
    const std::string attrs = nt::test::read_file((image / ".zattrs").string());
    const std::vector<std::string> hostiles = {"../elsewhere/secret", (root / "elsewhere" / "secret").string(), "linked",
                                               "0/../../elsewhere/secret"};
    for (const std::string& hostile : hostiles) {
        INFO(hostile);
        std::string changed = attrs;
        const auto at = changed.find("\"path\": \"0\"");
        REQUIRE(at != std::string::npos);
        changed.replace(at, std::string("\"path\": \"0\"").size(), "\"path\": \"" + hostile + "\"");
        nt::test::write_file((image / ".zattrs").string(), changed);
        require_error([&] { (void)nt::zarr::open_ome(image.string()); }, nt::errc::format_error, {hostile.c_str()});
        const auto broken = nt::zarr::validate_ome(image.string());
        REQUIRE_FALSE(broken.empty());
        CHECK(broken.front().find(hostile) != std::string::npos);
    }
}

TEST_CASE("a region outside the array is index_out_of_range, for reads and writes", "[zarr]") {
    const auto path = scratch("outside");
    auto a = nt::zarr::create(path.string(), nt::dtype::f32, {4, 6}, {2, 3}, {"Y", "X"});
    require_error([&] { (void)a.read({{"Y", nt::range(10, 20)}}); }, nt::errc::index_out_of_range,
                  {"10", "'Y'", "4 elements"});
    require_error([&] { (void)a.read({{"X", nt::range(2, 7)}}); }, nt::errc::index_out_of_range, {"7", "'X'"});
    require_error([&] { (void)a.read({{"X", nt::range(-7, 2)}}); }, nt::errc::index_out_of_range, {"-7"});
    require_error([&] { a.write({{"Y", nt::range(4, 6)}}, nt::any_tensor(nt::zeros<float>({2, 6}))); },
                  nt::errc::index_out_of_range, {"6"});
    // Bounds on the edges are inside: an empty region at the end, negative ones.
    CHECK(a.read({{"Y", nt::range(4, 4)}}).shape()[0] == 0);
    CHECK(a.read({{"Y", nt::range(-4)}}).shape()[0] == 4);
}

TEST_CASE("a write matches the tensor to the array by one rule for every element type", "[zarr]") {
    const auto path = scratch("one_rule");
    for (const auto d : {nt::dtype::i32, nt::dtype::f32, nt::dtype::u8, nt::dtype::f64}) {
        INFO(nt::to_string(d));
        auto a = nt::zarr::create(path.string(), d, {4, 4}, {2, 2}, {"Y", "X"}, {.overwrite = true});
        const auto expected = [&](const nt::any_tensor& t) {
            return nt::any_tensor(t.astype(nt::dtype::f64).base().clone()).as<double>().broadcast_to(nt::spec({4, 4}));
        };
        // Unnamed tensors carry no claim about names: broadcast by position, in
        // every type (i32 was written and f32 refused with no_counterpart).
        for (const auto& t : {nt::any_tensor(nt::arange<std::int32_t>(16).reshape({4, 4})),
                              nt::any_tensor(nt::arange<float>(16).reshape({4, 4})),
                              nt::any_tensor(nt::arange<float>(4).reshape({1, 4})),
                              nt::any_tensor(nt::arange<std::int32_t>(4)),
                              nt::any_tensor(nt::arange<double>(4).reshape({4, 1}))}) {
            INFO(nt::to_string(t.spec()) << " " << nt::to_string(t.dtype()));
            a.write(t);
            const auto back = a.read().astype(nt::dtype::f64).as<double>().to_vector();
            CHECK(back == expected(t).contiguous().to_vector());
        }
        // Named tensors follow assign: names first; permuted names are aligned.
        const auto yx = nt::arange<double>(16).reshape({4, 4}).rename({"Y", "X"});
        a.write(nt::any_tensor(yx.align_to("X", "Y")));
        CHECK(a.read().astype(nt::dtype::f64).as<double>().to_vector() == yx.to_vector());
        // A name the array lacks is refused in every type alike.
        require_error([&] { a.write(nt::any_tensor(nt::zeros<float>({4, 4}, {"Y", "Z"})).astype(d)); },
                      nt::errc::no_counterpart, {"Z"});
        // Sizes that differ are said to differ, with the region meant.
        require_error([&] { a.write(nt::any_tensor(nt::zeros<float>({3, 3})).astype(d)); }, nt::errc::incompatible_sizes,
                      {"sizes differ", "(3,3)", "nt::range(0, 4)", "nt::range(0, 3)"});
    }
}

TEST_CASE("default fill values are xarray's: none for integers and bools, NaN for floats", "[zarr]") {
    const auto path = scratch("default_fill");
    for (const auto d : {nt::dtype::b8, nt::dtype::i16, nt::dtype::u8, nt::dtype::u64}) {
        auto a = nt::zarr::create(path.string(), d, {4}, {2}, {}, {.overwrite = true});
        CHECK_FALSE(a.fill_value().has_value());
        CHECK(nt::test::read_file((path / ".zarray").string()).find("\"fill_value\": null") != std::string::npos);
    }
    for (const auto d : {nt::dtype::f16, nt::dtype::f32, nt::dtype::f64}) {
        auto a = nt::zarr::create(path.string(), d, {4}, {2}, {}, {.overwrite = true});
        REQUIRE(a.fill_value().has_value());
        CHECK(std::isnan(*a.fill_value()));
    }
    // A chosen value or none is kept.
    nt::zarr::create_options o{.overwrite = true};
    o.fill_value = 0.0;
    CHECK(nt::zarr::create(path.string(), nt::dtype::i16, {4}, {2}, {}, o).fill_value() == 0.0);
    o.fill_value = std::nullopt;
    CHECK_FALSE(nt::zarr::create(path.string(), nt::dtype::f32, {4}, {2}, {}, o).fill_value().has_value());
}

TEST_CASE("create takes a tensor's own shape and names", "[zarr]") {
    const auto path = scratch("shape_of_tensor");
    const auto t = nt::zeros<float>({3, 5}, {"Y", "X"});
    auto a = nt::zarr::create(path.string(), t.dtype(), t.shape(), {2, 2}, t.names());
    CHECK(a.spec() == t.spec());
}

TEST_CASE("a config's zarr tensor with a shape and no names takes the array's names", "[zarr][config]") {
    const auto root = scratch("config_names");
    (void)nt::zarr::create((root / "ct.zarr").string(), nt::dtype::i16, {2, 4, 5}, {1, 4, 5}, {"Z", "Y", "X"});
    const std::string config = R"({"tensors": {
        "ct": {"zarr": "ct.zarr", "shape": ["D", 4, 5]},
        "mask": {"shape": [4, 5], "names": ["Y", "X"]}},
      "steps": [{"name": "apply", "broadcast": ["ct", "mask"]}]})";
    nt::test::write_file((root / "pipeline.json").string(), config);
    const auto cfg = nt::load_config((root / "pipeline.json").string());
    const auto spec = cfg.spec("ct");
    CHECK(nt::to_string(spec).find("Z") != std::string::npos);
    CHECK(spec.name(1) == nt::name("Y"));
}
