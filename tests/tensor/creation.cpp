// nt/creation.hpp: tensor, from_vector, arange, zeros, ones, full, scalar.
#include "core_testing.hpp"

using namespace core_testing;
using nt::errc;
using nt::test::error_message;
using strings = std::vector<std::string>;
using i64s = std::vector<std::int64_t>;


TEMPLATE_LIST_TEST_CASE("zeros, ones, full, scalar", "[creation]", nt::test::element_types) {
    using T = TestType;
    auto z = nt::zeros<T>({2, 3}, {"N", "C"});
    CHECK(shape(z) == shape_t{2, 3});
    CHECK(names(z) == strings{"N", "C"});
    CHECK(ints(z) == i64s(6, 0));
    CHECK(z.is_contiguous());
    CHECK_FALSE(z.is_read_only());
    CHECK(reinterpret_cast<std::uintptr_t>(z.data()) % 64 == 0);
    CHECK(ints(nt::ones<T>({3})) == i64s(3, 1));
    CHECK(ints(nt::full<T>({2, 2}, T(1), {"A", "?"})) == i64s(4, 1));
    auto s = nt::scalar<T>(T(1));
    CHECK(s.rank() == 0);
    CHECK(s.size() == 1);
    CHECK(s.at() == T(1));
    CHECK(nt::zeros<T>({}).rank() == 0);
    CHECK(nt::zeros<T>({0, 4}).size() == 0);
    CHECK(names(nt::zeros<T>({2}, {})) == strings{"?"});
}

TEST_CASE("creation errors", "[creation]") {
    CHECK_THAT(error_message(errc::invalid_spec, [] { (void)nt::zeros<float>({2, 3}, {"N"}); }),
               Catch::Contains("1 names") && Catch::Contains("2 axes"));
    CHECK_THAT(error_message(errc::duplicate_name, [] { (void)nt::zeros<float>({2, 3}, {"N", "N"}); }),
               Catch::Contains("'N'"));
    CHECK_THAT(error_message(errc::invalid_spec, [] { (void)nt::ones<int>({2, -3}); }), Catch::Contains("-3"));
    error_message(errc::invalid_spec, [] { (void)nt::zeros<float>({2}, {"9x"}); });
    error_message(errc::invalid_argument,
                  [] { (void)nt::zeros<std::uint8_t>({1 << 30, 1 << 30, 1 << 30}); });  // count overflows
}

TEMPLATE_LIST_TEST_CASE("tensor() from nested lists", "[creation]", nt::test::element_types) {
    using T = TestType;
    auto a = nt::tensor<T>({{T(1), T(0), T(1)}, {T(0), T(1), T(0)}});
    CHECK(shape(a) == shape_t{2, 3});
    CHECK(ints(a) == i64s{1, 0, 1, 0, 1, 0});
    auto col = nt::tensor<T>({{T(1)}, {T(0)}}, {"H", "W"});
    CHECK(shape(col) == shape_t{2, 1});
    CHECK(names(col) == strings{"H", "W"});
    auto s = nt::tensor<T>(T(1));
    CHECK(s.rank() == 0);
    CHECK(shape(nt::tensor<T>({})) == shape_t{0});
    CHECK(shape(nt::tensor<T>({{}, {}})) == shape_t{2, 0});
    CHECK(shape(nt::tensor<T>({{{T(1)}, {T(1)}}})) == shape_t{1, 2, 1});
}

TEST_CASE("tensor() rejects ragged lists", "[creation]") {
    CHECK_THAT(error_message(errc::invalid_argument, [] { (void)nt::tensor<int>({{1, 2}, {3}}); }),
               Catch::Contains("ragged"));
    error_message(errc::invalid_argument, [] { (void)nt::tensor<int>({{1, 2}, 3}); });
    error_message(errc::invalid_argument, [] { (void)nt::tensor<int>({1, {2, 3}}); });
    error_message(errc::invalid_argument, [] { (void)nt::tensor<int>({{}, {1}}); });
}

TEMPLATE_LIST_TEST_CASE("from_vector", "[creation]", nt::test::element_types) {
    using T = TestType;
    std::vector<T> v{T(1), T(0), T(1), T(1), T(0), T(0)};
    auto a = nt::from_vector(v, {2, 3}, {"?", "W"});
    CHECK(shape(a) == shape_t{2, 3});
    CHECK(a.to_vector() == v);
    CHECK(shape(nt::from_vector(v)) == shape_t{6});
    CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)nt::from_vector(v, {4, 2}); }),
               Catch::Contains("6 values") && Catch::Contains("(4,2)"));
    CHECK(nt::from_vector(std::vector<T>{}).size() == 0);
}

TEMPLATE_TEST_CASE("arange", "[creation]", float, double, std::int32_t, std::int64_t, std::uint8_t) {
    using T = TestType;
    CHECK(ints(nt::arange<T>(5)) == i64s{0, 1, 2, 3, 4});
    CHECK(nt::arange<T>(0).size() == 0);
    CHECK(ints(nt::arange<T>(T(2), T(11), T(3))) == i64s{2, 5, 8});
    CHECK(ints(nt::arange<T>(T(2), T(12), T(3))) == i64s{2, 5, 8, 11});
    CHECK(nt::arange<T>(T(5), T(2)).size() == 0);
    CHECK(names(nt::arange<T>(3, {"X"})) == strings{"X"});
    CHECK_THAT(error_message(errc::invalid_argument, [] { (void)nt::arange<T>(T(0), T(3), T(0)); }),
               Catch::Contains("step is 0"));
    error_message(errc::invalid_argument, [] { (void)nt::arange<T>(-1); });
}

TEST_CASE("arange: NumPy lengths for fractional and negative steps", "[creation]") {
    CHECK(nt::arange<double>(0.0, 1.0, 0.25).to_vector() == std::vector<double>{0, 0.25, 0.5, 0.75});
    CHECK(nt::arange<double>(1.0, 0.0, -0.3).size() == 4);  // ceil(1 / 0.3)
    CHECK(nt::arange<int>(10, 0, -3).to_vector() == std::vector<int>{10, 7, 4, 1});
    CHECK(nt::arange<int>(0, 10, -1).size() == 0);
    CHECK(nt::arange<std::int64_t>(-5, -1).to_vector() == std::vector<std::int64_t>{-5, -4, -3, -2});
}
