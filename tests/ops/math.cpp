// Element-wise math and masks: what the NumPy oracle (numpy_elementwise.cpp) cannot
// say. Errors (codes and what the messages name), read-only destinations, aliasing,
// result types at compile time, and the values ntensor defines where NumPy's are
// undefined (integer reciprocal of 0, clip bounds beyond an integer type's range).
#include <nt_test_support.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

#include "nt/nt.hpp"

using nt::test::error_message;

namespace {
template <class T>
std::vector<std::int64_t> shape_of(const T& t) {
    return {t.shape().begin(), t.shape().end()};
}
}  // namespace

TEST_CASE("math result types follow NumPy at compile time", "[ops][math]") {
    using nt::Tensor;
    using std::int8_t, std::int16_t, std::int32_t, std::uint8_t, std::int64_t;
    auto i32 = nt::zeros<int32_t>({2});
    auto u8 = nt::zeros<uint8_t>({2});
    auto i8 = nt::zeros<int8_t>({2});
    auto b = nt::zeros<bool>({2});
    auto h = nt::zeros<nt::half>({2});
    STATIC_REQUIRE(std::is_same_v<decltype(nt::floor(i32)), Tensor<double>>);  // np.floor(int32) is float64
    STATIC_REQUIRE(std::is_same_v<decltype(nt::round(i32)), Tensor<int32_t>>);  // np.round keeps integers
    STATIC_REQUIRE(std::is_same_v<decltype(nt::round(b)), Tensor<nt::half>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::isnan(h)), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::square(b)), Tensor<int8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::log1p(u8)), Tensor<nt::half>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::atan2(u8, i8)), Tensor<nt::half>>);  // not f32 of i16
    STATIC_REQUIRE(std::is_same_v<decltype(nt::hypot(i32, 2)), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::floor_divide(u8, i8)), Tensor<int16_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(u8 << 3), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(b & b), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(b & i8), Tensor<int8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(~b), Tensor<bool>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::clip(u8, 0, 100)), Tensor<uint8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::clip(i32, 0.5, 2.5)), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::clip(i8, u8, u8)), Tensor<int16_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::where(b, 0.0f, h)), Tensor<nt::half>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::where(b, i8, 0)), Tensor<int8_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::where(b, 1, 2.0)), Tensor<double>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::where(b, 1LL, 2u)), Tensor<int64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(nt::masked_select(h, b)), Tensor<nt::half>>);

}

TEST_CASE("integer reciprocal of 0 gives 0 (NumPy's is undefined)", "[ops][math]") {
    // NumPy computes 1.0 / x and casts inf to the integer type: INT_MIN on x86 for
    // 32 and 64 bits, 0 for 8 bits. ntensor defines it as 0, like x // 0.
    CHECK(nt::reciprocal(nt::tensor<std::int32_t>({0, 1, -1, 2, -2})).to_vector() ==
          std::vector<std::int32_t>{0, 1, -1, 0, 0});
    CHECK(nt::reciprocal(nt::tensor<std::uint64_t>({0, 1, 7})).to_vector() == std::vector<std::uint64_t>{0, 1, 0});
    CHECK(nt::reciprocal(nt::tensor<bool>({false, true})).to_vector() == std::vector<std::int8_t>{0, 1});
}

TEST_CASE("clip bounds beyond an integer type's range clip nothing", "[ops][math]") {
    // A bound converted by wrapping (as t + 300 converts 300) would clip at a wrong
    // value; clip saturates integer bounds at the type's limits instead.
    auto u8 = nt::tensor<std::uint8_t>({0, 7, 200, 255});
    CHECK(nt::clip(u8, -5, 300).to_vector() == u8.to_vector());
    CHECK(nt::clip(u8, 10, 1000).to_vector() == std::vector<std::uint8_t>{10, 10, 200, 255});
    auto i64 = nt::tensor<std::int64_t>({std::numeric_limits<std::int64_t>::min(), 0});
    CHECK(nt::clip(i64, std::numeric_limits<std::uint64_t>::max(), std::numeric_limits<std::uint64_t>::max())
              .to_vector() == std::vector<std::int64_t>(2, std::numeric_limits<std::int64_t>::max()));
    // The same through nt::any_tensor.
    const nt::any_tensor a = u8;
    CHECK(nt::clip(a, -5, 300).as<std::uint8_t>().to_vector() == u8.to_vector());
}

TEST_CASE("refused types: compile errors in the typed API, type_mismatch on any_tensor", "[ops][math][errors]") {
    auto f = nt::ones<float>({2});
    auto i = nt::ones<std::int32_t>({2});
    auto b = nt::ones<bool>({2});
    // The typed forms of these calls do not compile: a static_assert in the operation
    // names it and the fix (f & i, b << b, nt::sign(b), ~f). At run time:
    const nt::any_tensor af = f, ai = i, ab = b;
    const nt::any_tensor au64 = nt::ones<std::uint64_t>({2}), ai64 = nt::ones<std::int64_t>({2});
    struct refused {
        std::string op;
        std::function<void()> call;
        std::vector<std::string> named;  // what the message must name
    };
    const std::vector<refused> cases = {
        {"bitwise_and", [&] { (void)(af & ai); }, {"operator&", "f32", "i32", "astype"}},
        {"bitwise_or", [&] { (void)nt::bitwise_or(au64, ai64); }, {"bitwise_or", "u64", "i64", "f64", "astype"}},
        {"left_shift", [&] { (void)(ab << ab); }, {"operator<<", "b8", "integer", "astype"}},
        {"right_shift", [&] { (void)(af >> 1); }, {"operator>>", "f32", "astype"}},
        {"floor_divide", [&] { (void)nt::floor_divide(ab, ab); }, {"floor_divide", "b8", "astype"}},
        {"sign", [&] { (void)nt::sign(ab); }, {"sign", "b8", "astype"}},
        {"bitwise_not", [&] { (void)~af; }, {"bitwise_not", "f32", "logical_not"}},
    };
    for (const auto& c : cases) {
        INFO(c.op);
        const std::string m = error_message(nt::errc::type_mismatch, c.call);
        for (const auto& word : c.named) CHECK_THAT(m, Catch::Contains(word));
    }
    // The fixes the messages suggest, run on the same operands.
    CHECK_THAT(error_message(nt::errc::type_mismatch, [&] { (void)(af & ai); }),
               Catch::Contains("astype<std::int64_t>(), or use logical_and / logical_or / logical_xor"));
    CHECK(nt::any_tensor(af.astype<std::int64_t>() & ai).as<std::int64_t>().to_vector() == std::vector<std::int64_t>{1, 1});
    CHECK(nt::any_tensor(nt::logical_and(af, ai)).as<bool>().to_vector() == std::vector<bool>{true, true});
    CHECK(nt::any_tensor(nt::bitwise_or(au64.astype<std::int64_t>(), ai64)).as<std::int64_t>().to_vector() ==
          std::vector<std::int64_t>{1, 1});
    CHECK(nt::any_tensor(nt::logical_or(au64, ai64)).as<bool>().to_vector() == std::vector<bool>{true, true});
    CHECK_THAT(error_message(nt::errc::type_mismatch, [&] { (void)(ab << ab); }),
               Catch::Contains("e.g. astype<std::int64_t>()"));
    CHECK(nt::any_tensor(ab.astype<std::int64_t>() << ab.astype<std::int64_t>()).as<std::int64_t>().to_vector() ==
          std::vector<std::int64_t>{2, 2});
    CHECK(nt::any_tensor(af.astype<std::int64_t>() >> 1).as<std::int64_t>().to_vector() == std::vector<std::int64_t>{0, 0});
    CHECK_THAT(error_message(nt::errc::type_mismatch, [&] { (void)nt::floor_divide(ab, ab); }),
               Catch::Contains("e.g. astype<std::int32_t>()"));
    CHECK(nt::any_tensor(nt::floor_divide(ab.astype<std::int32_t>(), ab.astype<std::int32_t>())).as<std::int32_t>().to_vector() ==
          std::vector<std::int32_t>{1, 1});
    CHECK_THAT(error_message(nt::errc::type_mismatch, [&] { (void)nt::sign(ab); }),
               Catch::Contains("e.g. astype<std::int8_t>()"));
    CHECK(nt::any_tensor(nt::sign(ab.astype<std::int8_t>())).as<std::int8_t>().to_vector() == std::vector<std::int8_t>{1, 1});
    CHECK_THAT(error_message(nt::errc::type_mismatch, [&] { (void)~af; }),
               Catch::Contains("logical_not (operator !)"));
    CHECK(nt::any_tensor(~af.astype<std::int64_t>()).as<std::int64_t>().to_vector() == std::vector<std::int64_t>{-2, -2});
    CHECK(nt::any_tensor(!af).as<bool>().to_vector() == std::vector<bool>{false, false});
    // & | ^ on bool tensors, typed and any, and on integers.
    const nt::any_tensor m = nt::tensor<bool>({true, false, true});
    const auto n = nt::tensor<bool>({true, true, false});
    CHECK((m & n).as<bool>().to_vector() == std::vector<bool>{true, false, false});
    CHECK((n | n).to_vector() == std::vector<bool>{true, true, false});
    CHECK((nt::tensor<std::int32_t>({6, 5}) & nt::tensor<std::int32_t>({3, 3})).to_vector() ==
          std::vector<std::int32_t>{2, 1});
    CHECK((ai & m.index(nt::range(0, 2))).as<std::int32_t>().to_vector() == std::vector<std::int32_t>{1, 0});
}

TEST_CASE("masked_fill and assign_where write in place and refuse read-only views", "[ops][masks]") {
    auto t = nt::arange<float>(6).reshape({2, 3}, {"N", "C"});
    const auto mask = nt::tensor<bool>({true, false, true}, {"C"});
    auto& same = t.masked_fill(mask, -1.0f);
    CHECK(&same == &t);
    CHECK(t.to_vector() == std::vector<float>{-1, 1, -1, -1, 4, -1});

    // A broadcast view is read-only: nothing is written, the message names the op.
    auto ro = nt::zeros<float>({3}, {"C"}).broadcast_to(nt::spec({2, 3}, {"N", "C"}));
    const std::string m = error_message(nt::errc::read_only, [&] { ro.masked_fill(mask, 1.0f); });
    CHECK_THAT(m, Catch::Contains("masked_fill") && Catch::Contains("write into clone() or contiguous() instead"));
    // The fix it suggests, run: both copies take the write.
    CHECK(ro.clone().masked_fill(mask, 1.0f).to_vector() == std::vector<float>{1, 0, 1, 1, 0, 1});
    CHECK(ro.contiguous().masked_fill(mask, 1.0f).to_vector() == std::vector<float>{1, 0, 1, 1, 0, 1});
    error_message(nt::errc::read_only, [&] { ro.assign_where(mask, nt::ones<float>({3}, {"C"})); });
    nt::any_tensor aro = ro;
    error_message(nt::errc::read_only, [&] { aro.masked_fill(nt::any_tensor(mask), 1); });

    // The mask must be bool and match by names.
    const std::string not_bool =
        error_message(nt::errc::type_mismatch, [&] { nt::any_tensor(t).masked_fill(nt::any_tensor(t), 0); });
    CHECK_THAT(not_bool, Catch::Contains("masked_fill") && Catch::Contains("f32") && Catch::Contains("astype<bool>") &&
                             Catch::Contains("comparison (t > 0)"));
    // Both fixes it suggests, run: a comparison, or astype<bool>() (nonzero is true).
    {
        auto c1 = t.clone();
        c1.masked_fill(t > 0, 0.0f);
        nt::any_tensor c2 = t.clone();
        c2.masked_fill(nt::any_tensor(t).astype<bool>(), 0);
        CHECK(c1.to_vector() == std::vector<float>{-1, 0, -1, -1, 0, -1});
        CHECK(c2.as<float>().to_vector() == std::vector<float>(6, 0.0f));  // t has no zero: every element is true
    }
    const std::string unnamed = error_message(nt::errc::no_counterpart, [&] {
        t.masked_fill(nt::tensor<bool>({true, false, true}, {"W"}), 0.0f);
    });
    CHECK_THAT(unnamed, Catch::Contains("masked_fill") && Catch::Contains("'mask'") && Catch::Contains("'W'"));
    error_message(nt::errc::incompatible_sizes, [&] { t.masked_fill(nt::tensor<bool>({true, false}, {"C"}), 0.0f); });

    // assign_where converts the source as assign does (saturating, NaN to 0).
    auto u = nt::zeros<std::uint8_t>({4});
    u.assign_where(nt::tensor<bool>({true, true, true, false}), nt::tensor<double>({-3.0, 300.0, NAN, 7.0}));
    CHECK(u.to_vector() == std::vector<std::uint8_t>{0, 255, 0, 0});
}

TEST_CASE("masks and sources that overlap the destination are read before the write", "[ops][masks]") {
    // The mask is the tensor itself, reversed: each element is decided by the old
    // values, as if the mask were copied first.
    auto b = nt::tensor<bool>({true, false, false});
    b.masked_fill(b.flip(0), true);
    CHECK(b.to_vector() == std::vector<bool>{true, false, true});
    auto x = nt::arange<std::int32_t>(5);
    x.assign_where(nt::tensor<bool>({true, true, true, true, true}), x.flip(0));
    CHECK(x.to_vector() == std::vector<std::int32_t>{4, 3, 2, 1, 0});
}

TEST_CASE("masked_select follows the row-major order of t with a named, broadcast mask", "[ops][masks]") {
    auto t = nt::arange<std::int32_t>(12).reshape({2, 3, 2}, {"N", "C", "W"});
    const auto mask = nt::tensor<bool>({{true, false}, {false, false}, {false, true}}, {"C", "W"});  // (3,2)
    const auto s = nt::masked_select(t, mask.transpose());  // (W, C): matched by names
    CHECK(shape_of(s) == std::vector<std::int64_t>{4});
    CHECK(s.to_vector() == std::vector<std::int32_t>{0, 5, 6, 11});
    CHECK(nt::masked_select(t.slice("N", 0, 0), mask).size() == 0);
    const nt::any_tensor a = t;
    CHECK(nt::masked_select(a, nt::any_tensor(mask)).as<std::int32_t>().to_vector() == s.to_vector());
}

TEST_CASE("where with scalars, nan_to_num and rounding on any_tensor", "[ops][math]") {
    const auto v = nt::tensor<float>({-2, -0.5f, 0.5f, 2.5f});
    CHECK(nt::where(v > 0.0f, v, 0).to_vector() == std::vector<float>{0, 0, 0.5f, 2.5f});
    CHECK(nt::where(v > 0.0f, 1.0f, v).to_vector() == std::vector<float>{-2, -0.5f, 1, 1});
    const nt::any_tensor a = v;
    CHECK(nt::where(a > 0.0f, a, 0).as<float>().to_vector() == std::vector<float>{0, 0, 0.5f, 2.5f});
    CHECK(nt::round(a).as<float>().to_vector() == std::vector<float>{-2, -0.0f, 0, 2});
    const auto inf = std::numeric_limits<double>::infinity();
    const auto cleaned = nt::nan_to_num(nt::tensor<nt::half>({NAN, inf, -inf, 1}), 0.0);
    CHECK(std::vector<float>(cleaned.begin(), cleaned.end()) == std::vector<float>{0, 65504, -65504, 1});
}
