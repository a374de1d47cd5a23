// .npy / .npz against NumPy: tests/io/gen_npy.py writes files with NumPy (every
// dtype, both byte orders, C and F order, versions 1-3, ranks 0-5, zero sizes,
// stored / deflate / zip64 archives) plus their elements as raw little-endian C-order
// bytes; these cases read them with ntensor and compare, then write them back and
// list the outputs in written.txt for tests/io/check_written.py, which reads them
// with np.load (also mmap_mode='r').
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_files.hpp"
#include "nt_test_support.hpp"
#include "nt_test_bytes.hpp"

using nt::test::read_file;

namespace {

const std::string dir = std::string(NT_TEST_DATA_DIR) + "/io";

using nt::test::bytes_of;

std::vector<std::int64_t> shape_of(const nt::any_tensor& a) { return {a.shape().begin(), a.shape().end()}; }

struct expected_array {
    std::string dtype;
    char order = 'C';
    std::vector<std::int64_t> shape;
};

expected_array read_expected(std::istringstream& in) {
    expected_array e;
    std::size_t rank = 0;
    in >> e.dtype >> e.order >> rank;
    e.shape.resize(rank);
    for (auto& s : e.shape) in >> s;
    return e;
}

void check_array(const std::string& label, const nt::any_tensor& a, const expected_array& e, const std::string& raw) {
    INFO(label);
    CHECK(std::string(nt::to_string(a.dtype())) == e.dtype);
    CHECK(shape_of(a) == e.shape);
    if (e.order == 'F') {
        // Fortran order loads as a Fortran-strided tensor, not a copy into C order.
        CHECK(a.layout().is_f_contiguous());
        CHECK_FALSE(a.is_contiguous());
    } else {
        CHECK(a.is_contiguous());
    }
    CHECK(bytes_of(a) == raw);
}

nt::any_tensor reversed_view(const nt::any_tensor& a) {
    // NumPy's a.transpose()[::-1]: no longer contiguous either way.
    std::vector<nt::Axis> order;
    for (std::size_t i = a.rank(); i-- > 0;) order.push_back(nt::Axis(static_cast<std::int64_t>(i)));
    return a.permute(order).slice(0, std::nullopt, std::nullopt, -1);
}

struct written_list {
    std::ofstream out{dir + "/written.txt", std::ios::app};
};

}  // namespace

TEST_CASE("NumPy's .npy files load, map and save back", "[numpy][npy]") {
    std::ifstream manifest(dir + "/manifest.txt");
    REQUIRE(manifest);
    written_list written;
    std::size_t files = 0, mapped = 0;
    std::vector<std::string> missing_types;
    for (std::string line; std::getline(manifest, line);) {
        std::istringstream in(line);
        std::string kind, id, version, byteorder;
        in >> kind;
        if (kind != "npy") continue;
        in >> id >> version >> byteorder;
        const expected_array e = read_expected(in);
        nt::dtype d{};
        if (!nt::dtype_from_string(e.dtype, d)) {  // every NumPy type must be one of ntensor's
            missing_types.push_back(e.dtype);
            continue;
        }

        const std::string path = dir + "/npy/" + id + ".npy";
        const std::string raw = read_file(dir + "/npy/" + id + ".raw");
        ++files;
        INFO(line);
        const nt::any_tensor a = nt::load_npy(path);
        check_array(id, a, e, raw);
        CHECK_FALSE(a.is_read_only());

        // The typed form gives the same tensor type; another type is type_mismatch.
        nt::visit(
            [&](const auto& t) {
                using T = typename std::decay_t<decltype(t)>::value_type;
                const nt::Tensor<T> typed = nt::load_npy<T>(path);
                CHECK(bytes_of(typed) == raw);
            },
            a);
        const bool is_f64 = a.dtype() == nt::dtype::f64;
        const std::string msg = nt::test::error_message(nt::errc::type_mismatch, [&] {
            if (is_f64) (void)nt::load_npy<float>(path);
            else (void)nt::load_npy<double>(path);
        });
        CHECK_THAT(msg, Catch::Contains(id) && Catch::Contains(e.dtype));

        // Mapping: no copy; big-endian data cannot be mapped.
        if (byteorder == ">") {
            const std::string m = nt::test::error_message(nt::errc::unsupported_dtype, [&] { (void)nt::map_npy(path); });
            CHECK_THAT(m, Catch::Contains("load_npy"));
        } else {
            const nt::any_tensor m = nt::map_npy(path);
            check_array(id + " (mapped)", m, e, raw);
            CHECK(m.is_read_only());
            ++mapped;
        }

        // Written back, as is and as a non-contiguous view.
        const std::string out = dir + "/written/" + id;
        nt::save_npy(out + ".npy", a);
        written.out << "npy " << out << ".npy " << path << " same\n";
        if (a.rank() >= 1) {
            nt::save_npy(out + ".view.npy", reversed_view(a));
            written.out << "npy " << out << ".view.npy " << path << " view\n";
        }
    }
    CHECK(missing_types.empty());
    CHECK(files > 300);
    CHECK(mapped > 100);
}

TEST_CASE("NumPy's .npz archives load and save back", "[numpy][npz]") {
    std::ifstream manifest(dir + "/manifest.txt");
    REQUIRE(manifest);
    written_list written;
    std::size_t archives = 0;
    std::string line;
    while (std::getline(manifest, line)) {
        std::istringstream in(line);
        std::string kind, file;
        int compressed = 0;
        std::size_t count = 0;
        in >> kind;
        if (kind != "npz") continue;
        in >> file >> compressed >> count;
        ++archives;
        INFO(file);
        const std::string path = dir + "/npz/" + file;
        const nt::npz z = nt::load_npz(path);
        REQUIRE(z.size() == count);
        std::vector<std::string> names;
        for (std::size_t i = 0; i < count; ++i) {
            REQUIRE(std::getline(manifest, line));
            std::istringstream entry(line);
            std::string word, name;
            entry >> word >> name;
            REQUIRE(word == "entry");
            const expected_array e = read_expected(entry);
            names.push_back(name);
            check_array(file + "[" + name + "]", z[name], e, read_file(dir + "/npz/" + name + ".raw"));
            CHECK(z.contains(name + ".npy"));
        }
        CHECK(z.names() == names);
        std::size_t k = 0;
        for (const auto& [name, array] : z) CHECK(name == names[k++]);

        std::vector<nt::npz_entry> entries(z.begin(), z.end());
        const std::string out = dir + "/written/" + file;
        nt::save_npz(out + ".stored.npz", entries);
        nt::save_npz(out + ".deflate.npz", entries, nt::npz_compression::deflate);
        written.out << "npz " << out << ".stored.npz " << path << " stored\n";
        written.out << "npz " << out << ".deflate.npz " << path << " deflate\n";
    }
    CHECK(archives == 3);

    // More than 65535 members: the writer needs the zip64 end record.
    std::vector<nt::npz_entry> many;
    const std::int32_t count = 65600;
    for (std::int32_t i = 0; i < count; ++i) many.push_back({"e" + std::to_string(i), nt::tensor<std::int32_t>({i, -i})});
    const std::string out = dir + "/written/many.npz";
    nt::save_npz(out, many);
    const nt::npz back = nt::load_npz(out);
    REQUIRE(back.size() == static_cast<std::size_t>(count));
    CHECK(back["e65599"].as<std::int32_t>().to_vector() == std::vector<std::int32_t>{65599, -65599});
    written.out << "many " << out << " " << count << "\n";
}

TEST_CASE("map_npy read_write reaches the file, copy_on_write never does", "[numpy][map]") {
    written_list written;
    {
        nt::any_tensor rw = nt::map_npy(dir + "/rw.npy", nt::map_mode::read_write);
        CHECK_FALSE(rw.is_read_only());
        rw.index(1).fill(-7);
        auto t = rw.as<std::int32_t>();
        t(3, 5) = 99;
    }  // unmapped here: NumPy reads the file afterwards
    written.out << "rw " << dir << "/rw.npy\n";
    {
        nt::any_tensor cow = nt::map_npy(dir + "/cow.npy", nt::map_mode::copy_on_write);
        CHECK_FALSE(cow.is_read_only());
        cow.fill(3.5);
        auto again = nt::load_npy<double>(dir + "/cow.npy");
        CHECK(cow.as<double>().at(2, 2) == 3.5);
        CHECK(again.at(2, 2) == 14.0);  // the file still holds arange
    }
    written.out << "cow " << dir << "/cow.npy " << dir << "/cow.sha256\n";
}
