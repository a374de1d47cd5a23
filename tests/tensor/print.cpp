// nt/print.hpp: NumPy-style text (expected strings follow numpy's repr with
// "array(" replaced by "tensor(").
#include "core_testing.hpp"

#include <limits>
#include <sstream>

namespace {
template <class T>
std::string str(const nt::Tensor<T>& t) {
    std::ostringstream os;
    os << t;
    return os.str();
}
}  // namespace

TEST_CASE("print: integers, shapes and names", "[print]") {
    CHECK(str(nt::arange<int>(6).reshape({2, 3}, {"N", "C"})) ==
          "tensor([[0, 1, 2],\n"
          "        [3, 4, 5]], shape=(2,3 | N,C), dtype=i32)");
    CHECK(str(nt::tensor<std::int64_t>({-5, 10, 200})) == "tensor([ -5,  10, 200], shape=(3), dtype=i64)");
    CHECK(str(nt::scalar(7)) == "tensor(7, shape=(), dtype=i32)");
    CHECK(str(nt::zeros<std::uint8_t>({2, 0})) == "tensor([], shape=(2,0), dtype=u8)");
    CHECK(str(nt::tensor<bool>({true, false})) == "tensor([ true, false], shape=(2), dtype=b8)");
    CHECK(nt::to_string(nt::arange<int>(3)) == "tensor([0, 1, 2], shape=(3), dtype=i32)");
}

TEST_CASE("print: floats as NumPy formats them", "[print]") {
    CHECK(str(nt::arange<double>(0.0, 1.0, 0.25)) == "tensor([0.  , 0.25, 0.5 , 0.75], shape=(4), dtype=f64)");
    CHECK(str(nt::from_vector<double>({0.1, 1.0 / 3, 100})) ==
          "tensor([  0.1       ,   0.33333333, 100.        ], shape=(3), dtype=f64)");
    CHECK(str(nt::from_vector<float>({1e-5f, 2.5e-5f, 1.f})) ==
          "tensor([1.0e-05, 2.5e-05, 1.0e+00], shape=(3), dtype=f32)");
    CHECK(str(nt::from_vector<float>({0.1f, 0.2f, 0.3f})) == "tensor([0.1, 0.2, 0.3], shape=(3), dtype=f32)");
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(str(nt::from_vector<double>({std::nan(""), -inf, 1.5})) ==
          "tensor([ nan, -inf,  1.5], shape=(3), dtype=f64)");
    CHECK(str(nt::scalar(2.0)) == "tensor(2., shape=(), dtype=f64)");
}

TEST_CASE("print: long rows wrap at 75 columns", "[print]") {
    CHECK(str(nt::arange<double>(30)) ==
          "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12.,\n"
          "        13., 14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25.,\n"
          "        26., 27., 28., 29.], shape=(30), dtype=f64)");
}

TEST_CASE("print: more than 1000 elements are summarised", "[print]") {
    CHECK(str(nt::arange<int>(2000)) == "tensor([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000), dtype=i32)");
    CHECK(str(nt::arange<int>(1000)).find("...") == std::string::npos);
    const std::string s = str(nt::arange<int>(40 * 50).reshape({40, 50}));
    CHECK(s.rfind("tensor([[   0,    1,    2, ...,   47,   48,   49],\n        [  50,", 0) == 0);
    CHECK(s.find("        ...,\n") != std::string::npos);
}

TEST_CASE("print: views print their own elements", "[print]") {
    auto a = nt::arange<int>(12).reshape({3, 4});
    CHECK(str(a.transpose().index(nt::range(std::nullopt, std::nullopt, -1))) ==
          "tensor([[ 3,  7, 11],\n"
          "        [ 2,  6, 10],\n"
          "        [ 1,  5,  9],\n"
          "        [ 0,  4,  8]], shape=(4,3), dtype=i32)");
    CHECK(str(nt::arange<int>(3).broadcast_to({2, 3})) ==
          "tensor([[0, 1, 2],\n"
          "        [0, 1, 2]], shape=(2,3), dtype=i32)");
}
