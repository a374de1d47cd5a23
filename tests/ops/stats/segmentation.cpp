// nt/segmentation.hpp beyond the NumPy replay: errors and their messages, names and
// types of one_hot, and the confusion matrix law.
#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"

using nt::test::require_error;

TEST_CASE("one_hot: the class axis placed and named; types on request", "[segmentation]") {
    const auto lbl = nt::tensor<std::uint8_t>({{0, 2}, {1, 1}}).rename({"H", "W"});
    const auto hot = nt::one_hot(lbl, 3, 0, "CLASS");
    CHECK(hot.spec() == nt::spec({3, 2, 2}, {"CLASS", "H", "W"}));
    CHECK(hot.dtype() == nt::dtype::i64);
    CHECK(nt::sum(hot, "CLASS").to_vector() == std::vector<std::int64_t>{1, 1, 1, 1});
    CHECK(nt::argmax(hot, "CLASS").to_vector() == std::vector<std::int64_t>{0, 2, 1, 1});
    CHECK(nt::one_hot<bool>(lbl, 3, -1).spec() == nt::spec({2, 2, 3}, {"H", "W", nt::name{}}));
    CHECK(nt::one_hot<float>(lbl, 4, 1, "K").dtype() == nt::dtype::f32);
    // The same masks as the union comparison of the guide.
    const auto classes = nt::arange<std::uint8_t>(3).rename({"CLASS"});
    CHECK(nt::all(nt::one_hot<bool>(lbl, 3, -1, "CLASS") == (nt::with_union(lbl) == classes)).at());
}

TEST_CASE("segmentation helpers: bad input is an nt::error naming the values and the fix", "[segmentation][errors]") {
    const auto lbl = nt::tensor<std::int32_t>({0, 3, 1});
    require_error([&] { (void)nt::one_hot(lbl, 3, 0); }, nt::errc::invalid_argument,
                  {"one_hot", "hold 3", "element 1", "0..2", "Fix: pass the number of classes"});
    CHECK(nt::one_hot(lbl, 4, 0).spec().size(0) == 4);  // the fix: the number of classes
    CHECK(nt::argmax(nt::one_hot(lbl, 4, 0), 0).to_vector() == std::vector<std::int64_t>{0, 3, 1});
    require_error([&] { (void)nt::one_hot(nt::tensor<std::int32_t>({-1}), 3, 0); }, nt::errc::invalid_argument,
                  {"-1"});
    require_error([&] { (void)nt::one_hot(lbl, 0, 0); }, nt::errc::invalid_argument, {"classes = 0"});
    require_error([&] { (void)nt::one_hot(lbl, 4, 3); }, nt::errc::axis_out_of_range, {});
    require_error([&] { (void)nt::bincount(nt::tensor<std::int32_t>({1, -2})); }, nt::errc::invalid_argument,
                  {"bincount", "element 1", "-2", "non-negative"});
    require_error([&] { (void)nt::bincount(nt::zeros<std::int32_t>({2, 2})); }, nt::errc::invalid_argument,
                  {"bincount", "1-D", "flatten()"});
    CHECK(nt::bincount(nt::zeros<std::int32_t>({2, 2}).flatten()).to_vector() == std::vector<std::int64_t>{4});  // the fix
    require_error([&] { (void)nt::bincount(lbl, nt::ones<float>({2})); }, nt::errc::invalid_argument,
                  {"weights", "length"});
    require_error([&] { (void)nt::bincount(lbl, -1); }, nt::errc::invalid_argument, {"minlength = -1"});
    require_error([&] { (void)nt::histogram(lbl, 0, 0.0, 1.0); }, nt::errc::invalid_argument, {"bins = 0"});
    require_error([&] { (void)nt::histogram(lbl, 3, 2.0, 1.0); }, nt::errc::invalid_argument, {"lo < hi", "Fix"});
}

TEST_CASE("the any_tensor forms refuse labels that are not integers, naming the type", "[segmentation][errors]") {
    const nt::any_tensor floats(nt::tensor<float>({0.0f, 1.0f}));
    require_error([&] { (void)nt::one_hot(floats, 3, 0); }, nt::errc::type_mismatch, {"one_hot", "f32", "integers", "Fix"});
    require_error([&] { (void)nt::bincount(floats); }, nt::errc::type_mismatch,
                  {"bincount", "f32", "Fix", "astype<std::int64_t>()"});
    // The fix the messages suggest, run.
    CHECK(nt::bincount(floats.astype<std::int64_t>()).to_vector() == std::vector<std::int64_t>{1, 1});
    CHECK(nt::one_hot(floats.astype<std::int64_t>(), 3, 0).shape()[0] == 3);
    require_error([&] { (void)nt::one_hot(nt::any_tensor(nt::tensor<bool>({true})), 2, 0); }, nt::errc::type_mismatch,
                  {"b8"});
    const nt::any_tensor hot = nt::one_hot(nt::any_tensor(nt::tensor<std::uint8_t>({2, 0})), 3, 0, "CLASS", nt::dtype::f32);
    CHECK(hot.dtype() == nt::dtype::f32);
    CHECK(hot.as<float>().to_vector() == std::vector<float>{0, 1, 0, 0, 1, 0});
}

TEST_CASE("a confusion matrix from bincount sums to the pixel count, its rows to the classes", "[segmentation]") {
    const auto truth = nt::tensor<std::int64_t>({0, 1, 2, 2, 1, 0, 0});
    const auto pred = nt::tensor<std::int64_t>({0, 2, 2, 1, 1, 0, 1});
    const auto cm = nt::bincount(truth * 3 + pred, 9).reshape({3, 3}, {"TRUTH", "PRED"});
    CHECK(nt::sum(cm).at() == 7);
    CHECK(nt::sum(cm, "PRED").to_vector() == nt::bincount(truth, 3).to_vector());
    CHECK(nt::sum(cm, "TRUTH").to_vector() == nt::bincount(pred, 3).to_vector());
}
