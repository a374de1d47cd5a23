// The 20 worked examples of spec/matching.md, each a required test.
#include <nt_test_support.hpp>

using nt::test::map_of;

namespace {

struct expectation {
    std::vector<std::string> inputs;
    nt::policy policy;
    bool union_axes;
    std::string output;                 // empty when an error is expected
    std::vector<std::vector<int>> maps;  // -1 = inserted singleton; may be empty
    std::string error;                  // error code when output is empty
};

nt::match_options options_for(const expectation& e) {
    nt::match_options o;
    o.policy = e.policy;
    o.union_axes = e.union_axes;
    return o;
}

}  // namespace

TEST_CASE("matching.md worked examples 1-17 (match)", "[matcher][examples]") {
    using nt::policy;
    const std::string img = "(10,3,256,384 | ?,CHANNEL,H,W)";
    const std::string lbl = "(10,256,384 | ?,H,W)";
    const std::string truth = "(20,512,512 | ?,H,W)";
    const std::string prob = "(20,3,512,512 | ?,CLASS,H,W)";
    const std::string pred = "(20,1,17,15,512,512 | ?,SCALE1,SCALE2,SCALE3,H,W)";
    const std::string union_out = "(20,1,17,15,3,512,512 | ?,SCALE1,SCALE2,SCALE3,CLASS,H,W)";

    auto [number, e] = GENERATE_COPY(table<int, expectation>({
        {1, {{img, lbl}, policy::names, false, img, {{0, 1, 2, 3}, {0, -1, 1, 2}}, ""}},
        {2, {{"(64,32,8,5)", "(32,8,1)"}, policy::names, false, "(64,32,8,5)", {{0, 1, 2, 3}, {-1, 0, 1, 2}}, ""}},
        {3, {{"(64,32,8,5)", "(64,32,8)"}, policy::names, false, "", {}, "incompatible_sizes"}},
        {4, {{"(64,32,8,5)", "(64,32,8)"}, policy::search, false, "(64,32,8,5)", {{0, 1, 2, 3}, {0, 1, 2, -1}}, ""}},
        {5, {{truth, prob}, policy::names, false, prob, {{0, -1, 1, 2}, {0, 1, 2, 3}}, ""}},
        {6, {{prob, pred}, policy::names, false, "", {}, "no_counterpart"}},
        {7, {{prob, pred}, policy::names, true, union_out, {{0, -1, -1, -1, 1, 2, 3}, {0, 1, 2, 3, -1, 4, 5}}, ""}},
        {8, {{truth, prob, pred}, policy::names, true, union_out,
             {{0, -1, -1, -1, -1, 1, 2}, {0, -1, -1, -1, 1, 2, 3}, {0, 1, 2, 3, -1, 4, 5}}, ""}},
        {9, {{"(4,5 | H,W)", "(5,4 | W,H)"}, policy::names, false, "(4,5 | H,W)", {{0, 1}, {1, 0}}, ""}},
        {10, {{"(2,3 | N,C)", "(3 | H)"}, policy::positional, false, "", {}, "name_mismatch"}},
        {11, {{"(2,3 | N,C)", "(3 | C)"}, policy::positional, false, "(2,3 | N,C)", {{0, 1}, {-1, 0}}, ""}},
        {13, {{"(0,3)", "(1,3)"}, policy::names, false, "(0,3)", {{0, 1}, {0, 1}}, ""}},
        {14, {{"()", "(2,3)"}, policy::names, false, "(2,3)", {{-1, -1}, {0, 1}}, ""}},
        {15, {{"(1,3,4)", "(3,1,4)", "(3,1)"}, policy::names, false, "(3,3,4)", {{0, 1, 2}, {0, 1, 2}, {-1, 0, 1}}, ""}},
        {16, {{"(1,3,4)", "(3,1,4)", "(3,2,4)"}, policy::names, false, "", {}, "incompatible_sizes"}},
        {17, {{"(3,4,3,4,7)", "(3,4)"}, policy::search, false, "", {}, "ambiguous"}},
    }));

    CAPTURE(number);
    std::vector<nt::spec> specs;
    for (const auto& text : e.inputs) specs.push_back(nt::parse_spec(text));
    const auto result = nt::try_match(specs, options_for(e));

    if (e.output.empty()) {
        REQUIRE_FALSE(result.ok());
        CHECK(nt::to_string(result.error().code) == e.error);
        // The throwing form reports the same code.
        try {
            (void)nt::match(specs, options_for(e));
            FAIL("match did not throw");
        } catch (const nt::error& err) {
            CHECK(nt::to_string(err.code()) == e.error);
        }
        return;
    }
    REQUIRE(result.ok());
    const nt::plan& p = *result;
    CHECK(p.output == nt::parse_spec(e.output));
    REQUIRE(p.inputs.size() == e.inputs.size());
    for (std::size_t i = 0; i < e.maps.size(); ++i) {
        CAPTURE(i);
        CHECK(p.inputs[i].source_axes == map_of(e.maps[i]));
    }
}

TEST_CASE("example 4: search marks the searched input", "[matcher][examples]") {
    nt::match_options o;
    o.policy = nt::policy::search;
    const auto p = nt::match({nt::parse_spec("(64,32,8,5)"), nt::parse_spec("(64,32,8)")}, o);
    CHECK_FALSE(p.inputs[0].searched);
    CHECK(p.inputs[1].searched);
    CHECK(p.rules[0] == nt::axis_rule::searched);
    CHECK(p.rules[3] == nt::axis_rule::right_aligned);
}

TEST_CASE("example 6: no_counterpart names CLASS of prob and suggests union", "[matcher][examples]") {
    const std::string_view labels[] = {"prob", "pred"};
    nt::match_options o;
    o.labels = labels;
    const auto msg = nt::test::error_message(nt::errc::no_counterpart, [&] {
        (void)nt::match({nt::parse_spec("(20,3,512,512 | ?,CLASS,H,W)"),
                         nt::parse_spec("(20,1,17,15,512,512 | ?,SCALE1,SCALE2,SCALE3,H,W)")},
                        o);
    });
    CHECK_THAT(msg, Catch::Contains("'prob'") && Catch::Contains("axis 1 'CLASS' (size 3)") &&
                        Catch::Contains("'pred'") && Catch::Contains("union"));
}

TEST_CASE("example 12: a repeated name is duplicate_name under every policy", "[matcher][examples]") {
    const auto policy = GENERATE(nt::policy::names, nt::policy::positional, nt::policy::search);
    nt::match_options o;
    o.policy = policy;
    const nt::spec hh = nt::test::unchecked_spec({2, 2}, {"H", "H"});
    const auto msg = nt::test::error_message(nt::errc::duplicate_name, [&] { (void)nt::match({hh}, o); });
    CHECK_THAT(msg, Catch::Contains("'H'") && Catch::Contains("axis 0") && Catch::Contains("axis 1"));
    // The spec parser refuses it too.
    nt::test::error_message(nt::errc::duplicate_name, [] { (void)nt::parse_spec("(2,2 | H,H)"); });
}

TEST_CASE("example 17: ambiguous lists the 3 candidates as source maps", "[matcher][examples]") {
    nt::match_options o;
    o.policy = nt::policy::search;
    const nt::spec specs[] = {nt::parse_spec("(3,4,3,4,7)"), nt::parse_spec("(3,4)")};
    const auto result = nt::try_match(specs, o);
    REQUIRE_FALSE(result.ok());
    const nt::mismatch& why = result.error();
    CHECK(why.code == nt::errc::ambiguous);
    CHECK(why.candidate_count == 3);
    REQUIRE(why.candidates.size() == 3);
    std::vector<std::vector<int>> got;
    for (const auto& c : why.candidates) got.emplace_back(c.begin(), c.end());
    std::sort(got.begin(), got.end());
    const std::vector<std::vector<int>> expected{{-1, -1, 0, 1, -1}, {0, -1, -1, 1, -1}, {0, 1, -1, -1, -1}};
    CHECK(got == expected);
    CHECK_THAT(why.message, Catch::Contains("3 order-preserving placements") && Catch::Contains("[0,1,null,null,null]"));
}

TEST_CASE("matching.md worked examples 18-20 (broadcast_to)", "[matcher][examples]") {
    SECTION("18: (3) to (2,3)") {
        const auto p = nt::broadcast_to(nt::parse_spec("(3)"), nt::parse_spec("(2,3)"));
        CHECK(p.output == nt::parse_spec("(2,3)"));
        REQUIRE(p.inputs.size() == 1);
        CHECK(p.inputs[0].source_axes == map_of({-1, 0}));
        CHECK(p.host == nt::plan::npos);
    }
    SECTION("19: (3) to (3,1); (1,4), (3,1), (5,3) to (4,3) are incompatible_sizes") {
        auto [input, target] = GENERATE(table<std::string, std::string>({
            {"(3)", "(3,1)"},
            {"(1,4)", "(4,3)"},
            {"(3,1)", "(4,3)"},
            {"(5,3)", "(4,3)"},
        }));
        CAPTURE(input, target);
        const auto r = nt::try_broadcast_to(nt::parse_spec(input), nt::parse_spec(target));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == nt::errc::incompatible_sizes);
        CHECK_THAT(r.error().message, Catch::Contains(target) && Catch::Contains(input));
    }
    SECTION("20: (1,3) and (4,1) to (4,3)") {
        const auto input = GENERATE(as<std::string>{}, "(1,3)", "(4,1)");
        const auto p = nt::broadcast_to(nt::parse_spec(input), nt::parse_spec("(4,3)"));
        CHECK(p.output == nt::parse_spec("(4,3)"));
        CHECK(p.inputs[0].source_axes == map_of({0, 1}));
    }
}
