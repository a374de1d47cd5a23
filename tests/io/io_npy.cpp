// .npy / .npz without NumPy: round trips through ntensor, names, the header reader,
// atomic saves, mapping modes and every error code with what its message names.
// (NumPy as the oracle: io_numpy.cpp. Random and damaged files: tests/io/fuzz.)
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy_header.hpp"
#include "nt/nt.hpp"
#include "nt_test_files.hpp"
#include "nt_test_support.hpp"

namespace fs = std::filesystem;
using nt::test::error_message;

using nt::test::read_file;
using nt::test::npy_bytes;
using nt::test::write_file;

namespace {

/// A fresh folder under the test data dir, removed at the end of the case.
struct scratch {
    fs::path path;
    explicit scratch(const std::string& name) : path(fs::path(NT_TEST_DATA_DIR) / "io_scratch" / name) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~scratch() { fs::remove_all(path); }
    [[nodiscard]] std::string operator/(const std::string& file) const { return (path / file).string(); }
    [[nodiscard]] std::vector<std::string> files() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename().string());
        return out;
    }
};


}  // namespace

TEST_CASE("save_npy and load_npy round trip with names, orders and views", "[npy]") {
    scratch dir("roundtrip");
    auto t = nt::arange<float>(24).reshape({2, 3, 4}, {"N", "H", "W"});
    nt::save_npy(dir / "a.npy", t);
    const nt::any_tensor back = nt::load_npy(dir / "a.npy");
    CHECK(back.dtype() == nt::dtype::f32);
    CHECK(back.spec() == nt::spec({2, 3, 4}));  // .npy has no names
    CHECK(back.as<float>().to_vector() == t.to_vector());

    const auto named = nt::load_npy(dir / "a.npy", {"?", "H", "W"});
    CHECK(named.spec() == nt::spec({2, 3, 4}, {nt::unnamed, "H", "W"}));
    const auto typed = nt::load_npy<float>(dir / "a.npy", {"N", "H", "W"});
    CHECK(typed.spec() == t.spec());

    // A Fortran-contiguous tensor is written in Fortran order and reads back so.
    const auto f = t.clone().base().clone(nt::order::fortran);
    nt::save_npy(dir / "f.npy", nt::any_tensor(f));
    CHECK(nt::detail::read_npy_header(dir / "f.npy").fortran_order);
    const auto fback = nt::load_npy(dir / "f.npy");
    CHECK(fback.layout().is_f_contiguous());
    CHECK(fback.as<float>().to_vector() == t.to_vector());

    // Any strides: a reversed, permuted, broadcast view is written in C order.
    const auto view = t.permute({2, 0, 1}).slice(0, std::nullopt, std::nullopt, -1);
    nt::save_npy(dir / "v.npy", view);
    CHECK(nt::load_npy<float>(dir / "v.npy").to_vector() == view.to_vector());
    const auto wide = nt::arange<std::int32_t>(5).broadcast_to({3, 5});
    nt::save_npy(dir / "b.npy", wide);
    CHECK(nt::load_npy<std::int32_t>(dir / "b.npy").to_vector() == wide.to_vector());

    // Rank 0 and zero-size.
    nt::save_npy(dir / "s.npy", nt::scalar<double>(2.5));
    CHECK(nt::load_npy<double>(dir / "s.npy").at() == 2.5);
    nt::save_npy(dir / "z.npy", nt::zeros<std::uint8_t>({3, 0, 2}));
    CHECK(nt::load_npy(dir / "z.npy").spec() == nt::spec({3, 0, 2}));
    CHECK(dir.files().size() == 6);  // no temporaries left behind
}

TEST_CASE("large non-contiguous saves are written block by block", "[npy]") {
    scratch dir("blocks");
    // 3 x 5000 x 700 int16 (21 MB): rows of the transposed view are split into runs.
    auto t = nt::arange<std::int32_t>(3 * 5000 * 700).reshape({3, 5000, 700}).astype<std::int16_t>();
    const auto view = t.transpose(1, 2);
    nt::save_npy(dir / "t.npy", view);
    const auto back = nt::load_npy<std::int16_t>(dir / "t.npy");
    CHECK(back.spec() == view.spec());
    CHECK(back.to_vector() == view.to_vector());
    // A single huge last axis, reversed.
    auto line = nt::arange<std::int32_t>(5'000'000).slice(0, std::nullopt, std::nullopt, -1);
    nt::save_npy(dir / "l.npy", line);
    CHECK(nt::load_npy<std::int32_t>(dir / "l.npy").to_vector() == line.to_vector());
}

TEST_CASE("the header reader returns what the header says", "[npy][header]") {
    scratch dir("header");
    write_file(dir / "h.npy",
               npy_bytes("{'descr': '>u2', 'fortran_order': True, 'shape': (2, 3), }", std::string(12, '\0'), 2));
    const nt::detail::npy_header h = nt::detail::read_npy_header(dir / "h.npy");
    CHECK(h.descr == ">u2");
    CHECK(h.kind == 'u');
    CHECK(h.item_size == 2);
    CHECK(h.byte_order == nt::detail::npy_byte_order::big);
    CHECK(h.needs_swap());
    CHECK(h.dtype == "u16");
    CHECK(h.fortran_order);
    CHECK(h.shape == std::vector<std::int64_t>{2, 3});
    CHECK(h.data_offset == 128);
    CHECK(h.version_string() == "2.0");

    // Python 2 long literals, any key order, double quotes, a trailing comma in shape.
    write_file(dir / "p.npy", npy_bytes("{\"shape\": (3L,), 'fortran_order': False, 'descr': '<f8'}", std::string(24, '\0')));
    const auto p = nt::detail::read_npy_header(dir / "p.npy");
    CHECK(p.shape == std::vector<std::int64_t>{3});
    CHECK(p.dtype == "f64");

    const std::pair<const char*, const char*> table[] = {
        {"|b1", "b8"}, {"|i1", "i8"}, {"<i2", "i16"}, {"<i4", "i32"}, {"<i8", "i64"}, {"|u1", "u8"},
        {"<u2", "u16"}, {"<u4", "u32"}, {"<u8", "u64"}, {"<f2", "f16"}, {"<f4", "f32"}, {"<f8", "f64"},
        {">i4", "i32"}, {"=f4", "f32"}, {"?", "b8"}, {"<c8", ""}, {"|O", ""}, {"<U3", ""}, {"<M8[ns]", ""}};
    for (const auto& [descr, name] : table) {
        CHECK(nt::detail::npy_dtype_name(descr) == name);
        if (*name) CHECK(nt::detail::npy_dtype_name(nt::detail::npy_descr_for(name)) == name);
    }
}

TEST_CASE("format errors name the path, the field or byte and what was expected", "[npy][errors]") {
    scratch dir("format");
    const std::string path = dir / "bad.npy";
    const auto message = [&](const std::string& bytes, nt::errc code = nt::errc::format_error) {
        write_file(path, bytes);
        const std::string m = error_message(code, [&] { (void)nt::load_npy(path); });
        CHECK_THAT(m, Catch::Contains("load_npy: '" + path + "'"));
        return m;
    };
    CHECK_THAT(message("PK\x03\x04 not npy"), Catch::Contains("byte 0") && Catch::Contains("magic"));
    CHECK_THAT(message(std::string("\x93NUMPY\x04\x00", 8) + std::string(8, ' ')),
               Catch::Contains("version 4.0"));
    CHECK_THAT(message(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", std::string(11, '\0'))),
               Catch::Contains("12 data bytes") && Catch::Contains("has 11") && Catch::Contains("truncated"));
    CHECK_THAT(message(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", std::string(13, '\0'))),
               Catch::Contains("12 data bytes") && Catch::Contains("has 13"));
    CHECK_THAT(message(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'names': 1}", "")),
               Catch::Contains("unexpected key \"names\""));
    CHECK_THAT(message(npy_bytes("{'descr': '<f4', 'shape': (3,), }", "")), Catch::Contains("'fortran_order'"));
    CHECK_THAT(message(npy_bytes("{'descr': '<f4', 'fortran_order': maybe, 'shape': (3,), }", "")),
               Catch::Contains("header byte") && Catch::Contains("True or False"));
    CHECK_THAT(message(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", "")),
               Catch::Contains("non-negative"));
    // A shape whose byte count overflows is rejected before any allocation.
    CHECK_THAT(message(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "")),
               Catch::Contains("exceeds 2^63"));
    CHECK_THAT(message(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", "")),
               Catch::Contains("8000000000000 data bytes"));
    // A header length past the end of the file.
    CHECK_THAT(message(std::string("\x93NUMPY\x01\x00\xff\xff{", 11)), Catch::Contains("header ends at byte 65545"));
    CHECK_THAT(message(std::string("\x93NUMPY\x01", 7)), Catch::Contains("truncated"));

    CHECK_THAT(message(npy_bytes("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", std::string(16, '\0')),
                       nt::errc::unsupported_dtype),
               Catch::Contains("\"<c16\"") && Catch::Contains("complex"));
    CHECK_THAT(message(npy_bytes("{'descr': [('a', '<i4'), ('b', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                                std::string(8, '\0')),
                       nt::errc::unsupported_dtype),
               Catch::Contains("structured"));
    CHECK_THAT(message(npy_bytes("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')),
                       nt::errc::unsupported_dtype),
               Catch::Contains("Python objects"));
}

TEST_CASE("io errors name the path and the system's reason", "[npy][errors]") {
    scratch dir("io");
    CHECK_THAT(error_message(nt::errc::io_error, [&] { (void)nt::load_npy(dir / "missing.npy"); }),
               Catch::Contains("missing.npy") && Catch::Contains("No such file or directory"));
    CHECK_THAT(error_message(nt::errc::io_error, [&] { (void)nt::load_npy(dir.path.string()); }),
               Catch::Contains("not a regular file"));
    CHECK_THAT(error_message(nt::errc::io_error, [&] { (void)nt::map_npy(dir / "missing.npy"); }),
               Catch::Contains("map_npy: '"));
    CHECK_THAT(error_message(nt::errc::io_error, [&] { nt::save_npy(dir / "no/such/folder/a.npy", nt::scalar(1)); }),
               Catch::Contains("save_npy: '") && Catch::Contains("No such file or directory"));
    CHECK_THAT(error_message(nt::errc::io_error, [&] { (void)nt::load_npz(dir / "missing.npz"); }),
               Catch::Contains("load_npz: '"));
    CHECK(dir.files().empty());
}

TEST_CASE("a failed save leaves no file and keeps the old one", "[npy][atomic]") {
    scratch dir("atomic");
    const std::string path = dir / "a.npy";
    nt::save_npy(path, nt::arange<std::int32_t>(4));
    ::chmod(path.c_str(), 0640);
    const std::string before = read_file(path);

    // Writes beyond RLIMIT_FSIZE fail with EFBIG (SIGXFSZ ignored): as a full disk.
    struct rlimit old {};
    ::getrlimit(RLIMIT_FSIZE, &old);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 1 << 16;
    ::setrlimit(RLIMIT_FSIZE, &small);
    const auto big = nt::zeros<double>({1 << 16});
    const std::string m1 = error_message(nt::errc::io_error, [&] { nt::save_npy(path, big); });
    const std::string m2 = error_message(nt::errc::io_error, [&] { nt::save_npy(dir / "new.npy", big); });
    const std::string m3 =
        error_message(nt::errc::io_error, [&] { nt::save_npz(dir / "new.npz", {{"a", big}}, nt::npz_compression::none); });
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK_THAT(m1, Catch::Contains("cannot write") && Catch::Contains("File too large"));
    CHECK_THAT(m3, Catch::Contains("save_npz"));

    CHECK(dir.files() == std::vector<std::string>{"a.npy"});  // no new file, no temporary
    CHECK(read_file(path) == before);                          // the old file is intact

    // Overwriting keeps the file's permissions; a new file gets 0666 & ~umask.
    nt::save_npy(path, nt::arange<std::int32_t>(5));
    struct stat st {};
    ::stat(path.c_str(), &st);
    CHECK((st.st_mode & 0777) == 0640);
    const mode_t mask = ::umask(022);
    ::umask(mask);
    nt::save_npy(dir / "fresh.npy", nt::arange<std::int32_t>(5));
    ::stat((dir / "fresh.npy").c_str(), &st);
    CHECK((st.st_mode & 0777) == (0666 & ~mask));
}

TEST_CASE("map_npy modes", "[npy][map]") {
    scratch dir("map");
    const std::string path = dir / "m.npy";
    nt::save_npy(path, nt::arange<float>(12).reshape({3, 4}));

    const nt::any_tensor ro = nt::map_npy(path, nt::map_mode::read_only, {"H", "W"});
    CHECK(ro.is_read_only());
    CHECK(ro.spec() == nt::spec({3, 4}, {"H", "W"}));
    const std::string m = error_message(nt::errc::read_only, [&] { nt::any_tensor(ro).fill(1); });
    CHECK_THAT(m, Catch::Contains("map_mode::read_only") && Catch::Contains("write into clone(), or map the file with "
                                                                             "map_mode::read_write or map_mode::copy_on_write"));
    // The fixes it suggests, run further down: clone() (a writable copy), read_write and copy_on_write.
    CHECK(ro.index(nt::all, 1).is_read_only());  // views of it too
    const auto copy = ro.clone();
    CHECK_FALSE(copy.is_read_only());
    nt::any_tensor written = ro.clone();  // the first fix: the copy takes the write, the file keeps its values
    written.fill(-3);
    CHECK(written.as<float>().at(1, 1) == -3.0f);
    CHECK(ro.as<float>().at(1, 1) == 5.0f);

    {
        nt::any_tensor rw = nt::map_npy(path, nt::map_mode::read_write);
        rw.index(0).fill(-1);
        CHECK(ro.as<float>().at(0, 3) == -1.0f);  // the shared mapping sees it at once
    }
    CHECK(nt::load_npy<float>(path).at(0, 2) == -1.0f);
    {
        nt::any_tensor cow = nt::map_npy(path, nt::map_mode::copy_on_write);
        cow.fill(7);
        CHECK(cow.as<float>().at(2, 3) == 7.0f);
    }
    CHECK(nt::load_npy<float>(path).at(2, 3) == 11.0f);

    // The mapping outlives the handle it came from: a view keeps it alive.
    nt::any_tensor view;
    {
        const auto a = nt::map_npy(path);
        view = a.index(2);
    }
    CHECK(view.as<float>().at(1) == 9.0f);

    CHECK_THAT(error_message(nt::errc::invalid_spec, [&] { (void)nt::map_npy(path, nt::map_mode::read_only, {"H"}); }),
               Catch::Contains("map_npy"));
}

TEST_CASE("npz: names, lookup, order and errors", "[npz]") {
    scratch dir("npz");
    const auto img = nt::arange<float>(6).reshape({2, 3});
    const auto lbl = nt::arange<std::uint8_t>(3);
    for (const auto c : {nt::npz_compression::none, nt::npz_compression::deflate}) {
        nt::save_npz(dir / "a.npz", {{"img", img}, {"lbl", lbl}, {"s", nt::scalar<double>(1.5)}}, c);
        const nt::npz z = nt::load_npz(dir / "a.npz");
        CHECK(z.names() == std::vector<std::string>{"img", "lbl", "s"});
        CHECK(z["img"].as<float>().to_vector() == img.to_vector());
        CHECK(z["lbl.npy"].as<std::uint8_t>().to_vector() == lbl.to_vector());
        CHECK(z["s"].as<double>().at() == 1.5);
        CHECK_THAT(error_message(nt::errc::invalid_argument, [&] { (void)z["mask"]; }),
                   Catch::Contains("'mask'") && Catch::Contains("'img', 'lbl', 's'"));
    }
    CHECK_THAT(error_message(nt::errc::invalid_argument, [&] { nt::save_npz(dir / "b.npz", {{"a", img}, {"a", lbl}}); }),
               Catch::Contains("given twice"));
    CHECK_THAT(error_message(nt::errc::invalid_argument, [&] { nt::save_npz(dir / "b.npz", {{"x/y", img}}); }),
               Catch::Contains("'x/y'"));
    nt::save_npz(dir / "empty.npz", std::span<const nt::npz_entry>{});
    CHECK(nt::load_npz(dir / "empty.npz").empty());

    write_file(dir / "not.npz", "hello");
    CHECK_THAT(error_message(nt::errc::format_error, [&] { (void)nt::load_npz(dir / "not.npz"); }),
               Catch::Contains("no zip end record"));
}

namespace {
/// Resident memory of this process in KiB (VmRSS).
long resident_kib() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}
}  // namespace

TEST_CASE("map_npy of a sparse 16 GiB file reads only what is used", "[npy][map][big]") {
    scratch dir("sparse");
    const std::string path = dir / "big.npy";
    // (2048, 2048, 1024) int32 = 16 GiB of data, but sparse: the header, then a hole.
    const std::vector<std::int64_t> shape{2048, 2048, 1024};
    const std::string header = nt::detail::make_npy_header("<i4", false, shape);
    write_file(path, header);
    const std::uint64_t bytes = header.size() + std::uint64_t{2048} * 2048 * 1024 * 4;
    REQUIRE(::truncate(path.c_str(), static_cast<off_t>(bytes)) == 0);

    const long before = resident_kib();
    const nt::any_tensor big = nt::map_npy(path, nt::map_mode::read_only, {"D", "H", "W"});
    CHECK(big.spec() == nt::spec({2048, 2048, 1024}, {"D", "H", "W"}));
    // One slice (8 MiB) read through the mapping; the rest is never touched.
    const auto slice = big.index(1000).as<std::int32_t>();
    CHECK(nt::sum(slice).at() == 0);
    CHECK(big.as<std::int32_t>().at(2047, 2047, 1023) == 0);
    const long grown = resident_kib() - before;
    INFO("resident memory grew by " << grown << " KiB");
    CHECK(grown < 64 * 1024);

    // copy_on_write of a file larger than memory: writes cost only the pages touched.
    nt::any_tensor cow = nt::map_npy(path, nt::map_mode::copy_on_write);
    cow.index(5, 5).fill(1);
    CHECK(nt::sum(cow.index(5).as<std::int32_t>()).at() == 1024);
}
