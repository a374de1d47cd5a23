// Reductions over axes by index or name.
#include <nt_test_support.hpp>

#include "nt/nt.hpp"

using nt::test::error_message;

TEST_CASE("reductions by name keep the other names", "[ops][reduce]") {
    auto prob = nt::arange<float>(2 * 3 * 4).reshape({2, 3, 4}).rename({"N", "CLASS", "W"});
    auto per_class = nt::sum(prob, {"N", "W"});
    CHECK(nt::to_string(per_class.spec()) == "(3 | CLASS)");
    // class c: sum over n, w of (n*12 + c*4 + w)
    for (std::int64_t c = 0; c < 3; ++c) {
        float want = 0;
        for (int n = 0; n < 2; ++n)
            for (int w = 0; w < 4; ++w) want += float(n * 12 + c * 4 + w);
        CHECK(per_class.at(c) == want);
    }
    auto kept = nt::mean(prob, "CLASS", true);
    CHECK(nt::to_string(kept.spec()) == "(2,1,4 | N,CLASS,W)");
    auto total = nt::sum(prob);
    CHECK(total.rank() == 0);
    CHECK(total.at() == 276.0f);
    CHECK(nt::argmax(prob, "CLASS").to_vector() == std::vector<std::int64_t>(8, 2));
    CHECK(nt::all(prob >= 0.0f).at());
    CHECK_FALSE(nt::any(prob < 0.0f).at());
}

TEST_CASE("reduction errors name the operation and the axis", "[ops][reduce][errors]") {
    auto t = nt::zeros<float>({2, 0}, {"N", "W"});
    CHECK(nt::sum(t, "W").to_vector() == std::vector<float>{0, 0});
    const auto msg = error_message(nt::errc::invalid_argument, [&] { (void)nt::max(t, "W"); });
    CHECK_THAT(msg, Catch::Contains("max") && Catch::Contains("(2,0 | N,W)"));
    error_message(nt::errc::axis_out_of_range, [&] { (void)nt::sum(t, "H"); });
    error_message(nt::errc::axis_out_of_range, [&] { (void)nt::sum(t, 2); });
    error_message(nt::errc::invalid_argument, [&] { (void)nt::sum(t, {0, "N"}); });
}
