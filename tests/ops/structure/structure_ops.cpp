// nt/structure.hpp: laws (fold of unfold, split then concatenate), the spellings
// (braced lists, vectors, spans), views versus copies, names, and the errors with
// what their messages name. Values against NumPy are in numpy_structure_ops.cpp.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "nt/nt.hpp"
#include "nt_test_support.hpp"
#include "structure_testing.hpp"

namespace {

using nt::test::require_error;
using nt::test::shape_of;

using i64 = std::int64_t;

nt::Tensor<double> random_tensor(std::mt19937_64& rng, const std::vector<i64>& shape) {
    i64 n = 1;
    for (i64 s : shape) n *= s;
    std::uniform_int_distribution<int> d(-20, 20);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = d(rng);
    return nt::from_vector<double>(v, shape);
}



}  // namespace

TEST_CASE("fold(unfold(x)) == x * fold_counts for random shapes, windows and steps", "[structure][law]") {
    std::mt19937_64 rng(Catch::rngSeed());
    std::uniform_int_distribution<int> pick(0, 1000);
    for (int trial = 0; trial < 200; ++trial) {
        const int rank = 1 + pick(rng) % 4;
        std::vector<i64> shape;
        for (int k = 0; k < rank; ++k) shape.push_back(1 + pick(rng) % 7);
        const nt::Tensor<double> x = random_tensor(rng, shape);
        std::vector<nt::Axis> axes;
        std::vector<i64> sizes, steps, outs;
        for (int k = 0; k < rank; ++k) {
            if (pick(rng) % 3 == 0 && !(axes.empty() && k == rank - 1)) continue;
            axes.push_back(k - (pick(rng) % 2 ? rank : 0));  // some negative
            sizes.push_back(1 + pick(rng) % shape[static_cast<std::size_t>(k)]);
            steps.push_back(1 + pick(rng) % 3);
            outs.push_back(shape[static_cast<std::size_t>(k)]);
        }
        INFO("shape rank " << rank << " trial " << trial);
        const auto w = x.unfold(axes, sizes, steps);
        CHECK(w.shares_storage(x));
        const auto back = nt::fold(w, axes, outs, steps);
        const auto counts = nt::fold_counts(w, axes, outs, steps);
        const auto expected = x * counts;
        REQUIRE(shape_of(back) == shape);
        CHECK(back.to_vector() == expected.to_vector());
        // average: x where some window covers an element, 0 elsewhere.
        const auto avg = nt::fold(w, axes, outs, steps, nt::fold_norm::average);
        const auto covered = nt::where(counts > 0.0, x, nt::scalar(0.0));
        CHECK(avg.to_vector() == covered.to_vector());
    }
}

TEST_CASE("split then concatenate gives the input back", "[structure][law]") {
    std::mt19937_64 rng(Catch::rngSeed());
    for (int trial = 0; trial < 50; ++trial) {
        const std::vector<i64> shape{1 + static_cast<i64>(rng() % 5), 1 + static_cast<i64>(rng() % 9)};
        const auto x = random_tensor(rng, shape).rename({"H", "W"});
        const auto parts = nt::array_split(x, "W", 1 + static_cast<i64>(rng() % 4));
        for (const auto& p : parts) CHECK(p.shares_storage(x));
        const auto y = nt::concatenate(parts, "W");
        CHECK(y.to_vector() == x.to_vector());
        CHECK(!y.shares_storage(x));
        CHECK(nt::names_text(y.names()) == "H, W");
    }
}

TEST_CASE("joining accepts braced lists, vectors and spans", "[structure]") {
    const auto a = nt::arange<int>(6).reshape({2, 3});
    const auto b = nt::arange<int>(3).reshape({1, 3});
    const auto braced = nt::concatenate({a, b}, 0);
    const std::vector<nt::Tensor<int>> list{a, b};
    const auto from_vector = nt::concatenate(list, 0);
    const auto from_span = nt::concatenate(std::span<const nt::Tensor<int>>(list), 0);
    CHECK(shape_of(braced) == std::vector<i64>{3, 3});
    CHECK(braced.to_vector() == from_vector.to_vector());
    CHECK(braced.to_vector() == from_span.to_vector());
    const auto s = nt::stack({a, a}, -1, "K");
    CHECK(shape_of(s) == std::vector<i64>{2, 3, 2});
    CHECK(nt::names_text(s.names()) == "?, ?, K");
    const auto s2 = nt::stack(list.size() ? std::vector<nt::Tensor<int>>{a, a} : list, 0);
    CHECK(shape_of(s2) == std::vector<i64>{2, 2, 3});
}

TEST_CASE("split with a one-element braced list splits at that index", "[structure]") {
    // Regression: {1} bound to the `sections` overload and gave one part.
    const auto a = nt::arange<int>(6).reshape({2, 3});
    const auto parts = nt::split(a, 1, {1});
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].shape()[1] == 1);
    CHECK(parts[1].shape()[1] == 2);
    CHECK(nt::split(a, 1, 3).size() == 3);
}

TEST_CASE("concatenate matches inputs by names", "[structure]") {
    const auto a = nt::arange<int>(6).reshape({2, 3}).rename({"H", "W"});
    const auto b = (nt::arange<int>(6) + 100).reshape({3, 2}).rename({"W", "H"});
    const auto c = nt::concatenate({a, b}, "H");
    CHECK(shape_of(c) == std::vector<i64>{4, 3});
    CHECK(nt::names_text(c.names()) == "H, W");
    CHECK(c.to_vector() == nt::concatenate({a, b.align_to("H", "W")}, 0).to_vector());
}

TEST_CASE("flip is a view with negative strides", "[structure]") {
    auto t = nt::arange<int>(6).reshape({2, 3}).rename({"H", "W"});
    auto f = t.flip("W");
    CHECK(f.shares_storage(t));
    CHECK(f.strides()[1] == -1);
    CHECK(f.at(0, 0) == 2);
    f(0, 0) = 42;  // writes through
    CHECK(t.at(0, 2) == 42);
    CHECK(t.flip().at(0, 0) == 5);
    CHECK(nt::flip(t, {"H", "W"}).to_vector() == t.flip().to_vector());
}

TEST_CASE("unfold over several axes keeps the axis names and appends window axes", "[structure]") {
    const auto vol = nt::zeros<float>({20, 20, 20}, {"D", "H", "W"});
    const auto w = vol.unfold({"D", "H", "W"}, {8, 8, 8}, {6, 6, 6}, {"d", "h", "w"});
    CHECK(shape_of(w) == std::vector<i64>{3, 3, 3, 8, 8, 8});
    CHECK(nt::names_text(w.names()) == "D, H, W, d, h, w");
    CHECK(w.is_read_only());
    CHECK(!vol.unfold({"D"}, {4}, {4}).is_read_only());
}

TEST_CASE("structure errors name the axis and the fix", "[structure][errors]") {
    const auto a = nt::zeros<float>({2, 3}, {"H", "W"});
    const auto b = nt::zeros<float>({2, 4}, {"H", "W"});
    SECTION("sizes off the concatenation axis") {
        require_error([&] { (void)nt::concatenate({a, b}, "H"); }, nt::errc::incompatible_sizes,
                      {"concatenate", "input 1", "'W'", "crop or pad", "join along another axis"});
    }
    SECTION("no inputs") {
        require_error([&] { (void)nt::concatenate(std::vector<nt::Tensor<float>>{}, 0); }, nt::errc::invalid_argument,
                      {"concatenate", "at least one"});
    }
    SECTION("a name absent from the first input") {
        const auto c = nt::zeros<float>({2, 3}, {"H", "X"});
        require_error([&] { (void)nt::concatenate({a, c}, 0); }, nt::errc::no_counterpart,
                      {"'X'", "input 1", "rename"});
    }
    SECTION("ranks differ") {
        const auto c = nt::zeros<float>({2, 3, 1});
        require_error([&] { (void)nt::stack({a, c}, 0); }, nt::errc::invalid_argument, {"stack", "rank", "unsqueeze"});
    }
    SECTION("pad widths whose sum with the size overflows (UBSan caught before/after being added first)") {
        const i64 big = i64{1} << 62;
        require_error([&] { (void)nt::pad(a, {{"W", {big, big}}}, nt::pad_mode::reflect); },
                      nt::errc::invalid_argument,
                      {"pad", "axis 1 'W'", "size 3", "{4611686018427387904, 4611686018427387904}", "2^63 - 1"});
        require_error([&] { (void)nt::pad(a, {{0, {INT64_MAX - 1, 0}}}); }, nt::errc::invalid_argument,
                      {"axis 0 'H'", "size 2", "2^63 - 1"});
    }
    SECTION("a non-constant pad of an empty axis") {
        const auto e = nt::zeros<float>({0, 3}, {"H", "W"});
        require_error([&] { (void)nt::pad(e, {{"H", {1, 0}}}, nt::pad_mode::reflect); }, nt::errc::invalid_argument,
                      {"pad", "axis 0 'H'", "empty", "pad_mode::constant"});
        // The fix the message suggests.
        CHECK(shape_of(nt::pad(e, {{"H", {1, 0}}}, nt::pad_mode::constant)) == std::vector<i64>{1, 3});
    }
    SECTION("negative pad width") {
        require_error([&] { (void)nt::pad(a, {{"W", {-1, 0}}}); }, nt::errc::invalid_argument, {"'W'", "slice"});
    }
    SECTION("split into sections that do not divide the axis") {
        require_error([&] { (void)nt::split(a, "W", 2); }, nt::errc::invalid_argument,
                      {"split", "'W'", "size 3", "array_split"});
    }
    SECTION("fold with output sizes that unfold did not use") {
        const auto w = nt::zeros<float>({10, 10}).unfold({0, 1}, {4, 4}, {2, 2});
        require_error([&] { (void)nt::fold(w, {0, 1}, {12, 10}, {2, 2}); }, nt::errc::invalid_argument,
                      {"fold", "axis 0", "4 windows", "output size 12", "gives 5", "unfold was given"});
    }
    SECTION("unfold with an axis listed twice") {
        require_error([&] { (void)a.unfold({"W", -1}, {2, 2}, {1, 1}); }, nt::errc::invalid_argument,
                      {"unfold", "'W'", "twice"});
    }
    SECTION("flip with an axis listed twice") {
        require_error([&] { (void)a.flip({0, "H"}); }, nt::errc::invalid_argument, {"flip", "'H'", "twice"});
    }
}

TEST_CASE("run-time-length forms: index, align_to, permute, broadcast_tensors", "[structure][runtime]") {
    const auto t = nt::arange<int>(24).reshape({2, 3, 4}, {"N", "C", "W"});
    const std::vector<nt::index_item> items{1, nt::all, nt::range(1, 3)};
    CHECK(t.index(items).to_vector() == t.index(1, nt::all, nt::range(1, 3)).to_vector());
    CHECK(nt::names_text(t.index(std::span<const nt::index_item>(items)).names()) == "C, W");
    const std::vector<std::string> order{"W", "N", "C"};
    CHECK(nt::names_text(t.align_to(order).names()) == "W, N, C");
    const std::vector<std::string_view> order_views{"C", "..."};
    CHECK(nt::names_text(t.align_to(order_views).names()) == "C, N, W");
    const std::vector<int> perm{2, 0, 1};
    CHECK(t.permute(perm).to_vector() == t.permute({2, 0, 1}).to_vector());

    const std::vector<nt::Tensor<float>> list{nt::zeros<float>({2, 3}, {"H", "W"}), nt::zeros<float>({3}, {"W"}),
                                              nt::zeros<float>({2, 1}, {"H", "W"})};
    const auto views = nt::broadcast_tensors(list);
    REQUIRE(views.size() == 3);
    for (const auto& v : views) CHECK(nt::names_text(v.names()) == "H, W");
    CHECK(views[1].shares_storage(list[1]));
    // union: an axis the host lacks becomes a new output axis.
    const std::vector<nt::Tensor<float>> disjoint{nt::zeros<float>({2}, {"H"}), nt::zeros<float>({3}, {"K"})};
    require_error([&] { (void)nt::broadcast_tensors(disjoint); }, nt::errc::no_counterpart, {"'K'"});
    const auto joined = nt::broadcast_tensors(disjoint, nt::match_options{.union_axes = true});
    CHECK(joined[0].shape().size() == 2);
    CHECK(joined[0].size() == 6);
}

TEST_CASE("an operator's no_counterpart suggests fixes an operator can take", "[structure][errors]") {
    // Regression: the message told users of `a + b` to "set 'union'", which an operator cannot.
    const auto a = nt::ones<float>({2, 4}, {"N", "H"});
    const auto c = nt::ones<float>({3}, {"C"});
    try {
        (void)(c + a);
        FAIL("no error");
    } catch (const nt::error& e) {
        INFO(e.what());
        CHECK(e.code() == nt::errc::no_counterpart);
        const std::string m = e.message();
        CHECK(m.find("set 'union'") == std::string::npos);
        CHECK(m.find("host.unsqueeze(2, \"C\")") != std::string::npos);  // appended, as union would
        CHECK(m.find("align_to") != std::string::npos);
        CHECK(m.find("nt::broadcast_tensors(inputs, nt::match_options{.union_axes = true})") != std::string::npos);
        CHECK(m.find("nt::with_union(operand)") != std::string::npos);
        CHECK(m.find("did you mean") == std::string::npos);  // C is no typo of N or H
    }
    // ... and the suggested calls work, with the same result.
    CHECK((c + a.unsqueeze(2, "C")).spec() == nt::spec({2, 4, 3}, {"N", "H", "C"}));
    const std::vector<nt::Tensor<float>> inputs{a, c};
    const auto views = nt::broadcast_tensors(inputs, nt::match_options{.union_axes = true});
    CHECK(views[0].rank() == 3);
    for (const auto& sum : {nt::with_union(c) + a, c + nt::with_union(a), nt::with_union(c) + nt::with_union(a)}) {
        CHECK(sum.spec() == views[0].spec());
        CHECK(sum.to_vector() == (views[0] + views[1]).to_vector());
    }
}

TEST_CASE("the matcher's suggested fixes (policy, union, rename, refine_names, unsqueeze, squeeze) work", "[structure][errors]") {
    const auto spec_of = [](const char* text) { return nt::parse_spec(text); };
    const auto message_of = [](const nt::match_result& r) {
        REQUIRE(!r.ok());
        return r.error().message;
    };
    const nt::match_options positional{.policy = nt::policy::positional};
    const nt::match_options names{.policy = nt::policy::names};
    SECTION("positional, two names on one axis: rename one of the axes, or use policy 'names'") {
        const std::vector<nt::spec> typo{spec_of("(2,3 | N,C)"), spec_of("(2,3 | N,D)")};
        CHECK_THAT(message_of(nt::try_match(typo, positional)),
                   Catch::Contains("Fix: rename one of the axes, or use policy 'names' to pair axes by name"));
        const std::vector<nt::spec> renamed{typo[0], spec_of("(2,3 | N,C)")};
        CHECK(nt::try_match(renamed, positional)->output == typo[0]);
        const std::vector<nt::spec> swapped{spec_of("(2,3 | A,B)"), spec_of("(3,2 | B,A)")};
        CHECK_THAT(message_of(nt::try_match(swapped, positional)), Catch::Contains("use policy 'names'"));
        CHECK(nt::try_match(swapped, names)->output == swapped[0]);
    }
    SECTION("positional, one name on two axes: use policy 'names'") {
        const std::vector<nt::spec> specs{spec_of("(3,3 | A,?)"), spec_of("(3 | A)")};
        CHECK_THAT(message_of(nt::try_match(specs, positional)),
                   Catch::Contains("Fix: use policy 'names' to pair axes by name"));
        CHECK(nt::try_match(specs, names)->output == specs[0]);
    }
    SECTION("positional broadcast_to, a name landing on another: rename one of the axes, or use policy 'names'") {
        CHECK_THAT(message_of(nt::try_broadcast_to(spec_of("(3 | A)"), spec_of("(2,3 | N,C)"), positional)),
                   Catch::Contains("Fix: rename one of the axes, or use policy 'names'"));
        CHECK(nt::try_broadcast_to(spec_of("(3 | C)"), spec_of("(2,3 | N,C)"), positional).ok());
        CHECK_THAT(message_of(nt::try_broadcast_to(spec_of("(3,3 | A,B)"), spec_of("(3,3 | B,A)"), positional)),
                   Catch::Contains("use policy 'names'"));
        CHECK(nt::try_broadcast_to(spec_of("(3,3 | A,B)"), spec_of("(3,3 | B,A)"), names).ok());
    }
    SECTION("positional broadcast_to with extra axes: squeeze or index them away") {
        const auto t = nt::ones<float>({1, 3});
        CHECK_THAT(message_of(nt::try_broadcast_to(t.spec(), spec_of("(3)"), positional)),
                   Catch::Contains("squeeze or index away the extra leading axes first"));
        CHECK(nt::try_broadcast_to(t.squeeze(0).spec(), spec_of("(3)"), positional).ok());
        CHECK(nt::try_broadcast_to(t.index(0).spec(), spec_of("(3)"), positional).ok());
    }
    SECTION("positional sizes that disagree: name the axes and use policy 'names', or unsqueeze") {
        const auto a = nt::arange<float>(6).reshape({2, 3});
        const auto b = nt::arange<float>(2);
        const std::vector<nt::spec> specs{a.spec(), b.spec()};
        CHECK_THAT(message_of(nt::try_match(specs, positional)),
                   Catch::Contains("name the axes and use policy 'names', or insert axes (unsqueeze)"));
        const std::vector<nt::spec> named{a.refine_names({"N", "C"}).spec(), b.refine_names({"N"}).spec()};
        CHECK(nt::try_match(named, names)->output == nt::spec({2, 3}, {"N", "C"}));
        const std::vector<nt::spec> unsqueezed{a.spec(), b.unsqueeze(1).spec()};
        CHECK(nt::try_match(unsqueezed, positional)->output == a.spec());
        CHECK((a + b.unsqueeze(1)).to_vector() == std::vector<float>{0, 1, 2, 4, 5, 6});
    }
    SECTION("unnamed sizes that disagree: refine_names, or use policy 'search'") {
        const auto a = nt::arange<float>(6).reshape({2, 3});
        const auto b = nt::arange<float>(2);
        const std::string m = nt::test::error_message(nt::errc::incompatible_sizes, [&] { (void)(a + b); });
        CHECK_THAT(m, Catch::Contains("name the axes so they pair by name (refine_names), or use policy 'search'"));
        const auto by_name = a.refine_names({"N", "C"}) + b.refine_names({"N"});
        CHECK(by_name.to_vector() == std::vector<float>{0, 1, 2, 4, 5, 6});
        const std::vector<nt::Tensor<float>> inputs{a, b};
        const auto views = nt::broadcast_tensors(inputs, nt::match_options{.policy = nt::policy::search});
        CHECK((views[0] + views[1]).to_vector() == by_name.to_vector());
    }
    SECTION("search with equally good placements: name the axes (refine_names)") {
        const std::vector<nt::spec> specs{spec_of("(2,3,2)"), spec_of("(2,1)")};
        CHECK_THAT(message_of(nt::try_match(specs, nt::match_options{.policy = nt::policy::search})),
                   Catch::Contains("Fix: name the axes so they pair by name (refine_names)"));
        const std::vector<nt::spec> named{spec_of("(2,3,2 | A,B,C)"), spec_of("(2,1 | A,C)")};
        CHECK(nt::try_match(named, nt::match_options{.policy = nt::policy::search})->output == named[0]);
    }
    SECTION("broadcast_to a target of another size: give the target that size, or name the axes") {
        CHECK_THAT(message_of(nt::try_broadcast_to(spec_of("(2,3 | N,C)"), spec_of("(2,4 | N,C)"))),
                   Catch::Contains("Fix: give the target size 3 there"));
        CHECK(nt::try_broadcast_to(spec_of("(2,3 | N,C)"), spec_of("(2,3 | N,C)")).ok());
        CHECK_THAT(message_of(nt::try_broadcast_to(spec_of("(3)"), spec_of("(3,4)"))),
                   Catch::Contains("Fix: give the target size 3 there, or name the axes so they pair by name"));
        CHECK(nt::try_broadcast_to(spec_of("(3)"), spec_of("(4,3)")).ok());
        CHECK(nt::try_broadcast_to(spec_of("(3 | N)"), spec_of("(3,4 | N,C)"))->output == spec_of("(3,4 | N,C)"));
    }
    SECTION("an operator's operand with an axis the host lacks: rename the matching axis of the host") {
        const auto host = nt::arange<float>(6).reshape({2, 3}, {"N", "H"});
        const auto c = nt::arange<float>(3).rename({"C"});
        const std::string m = nt::test::error_message(nt::errc::no_counterpart, [&] { (void)(host + c); });
        CHECK_THAT(m, Catch::Contains("or rename the matching axis of the host to 'C'"));
        CHECK((host.rename("H", "C") + c).to_vector() == std::vector<float>{0, 2, 4, 3, 5, 7});
    }
    SECTION("an axis the host lacks: set 'union'") {
        const std::vector<nt::spec> specs{spec_of("(2,3 | N,C)"), spec_of("(4 | Z)")};
        CHECK_THAT(message_of(nt::try_match(specs)),
                   Catch::Contains("Fix: set 'union' to add it as a new output axis"));
        CHECK(nt::try_match(specs, nt::match_options{.union_axes = true})->output ==
              nt::spec({2, 3, 4}, {"N", "C", "Z"}));
    }
    SECTION("a likely typo: rename the axis, or set 'union' if it is a new axis") {
        const std::vector<nt::spec> specs{spec_of("(2,3,4,5 | ?,D,H,W)"), spec_of("(2,3,4,5 | ?,Z,H,W)")};
        CHECK_THAT(message_of(nt::try_match(specs)),
                   Catch::Contains("Fix: rename the axis 'Z' to 'D', or set 'union' if it is a new axis"));
        const std::vector<nt::spec> renamed{specs[0], spec_of("(2,3,4,5 | ?,D,H,W)")};
        CHECK(nt::try_match(renamed)->output == specs[0]);
        CHECK(nt::try_match(specs, nt::match_options{.union_axes = true})->output.rank() == 5);
    }
}

TEST_CASE("with_union: one-hot labels by a comparison with the class axis", "[structure][union]") {
    // Labels (N,H,W) against classes (CLASS): union appends CLASS (matching.md rule 6).
    auto lbl = nt::arange<std::int64_t>(2 * 3 * 4).reshape({2, 3, 4}, {"N", "H", "W"});
    lbl = lbl % 3;
    const auto classes = nt::arange<std::int64_t>(3).rename({"CLASS"});
    const auto one_hot = nt::with_union(lbl) == classes;
    REQUIRE(one_hot.spec() == nt::spec({2, 3, 4, 3}, {"N", "H", "W", "CLASS"}));
    // The same values through explicit alignment.
    const auto explicit_form = lbl.unsqueeze(3, "CLASS") == classes;
    CHECK(one_hot.to_vector() == explicit_form.to_vector());
    // Without union the operator refuses, and says how to get it.
    require_error([&] { (void)(lbl == classes); }, nt::errc::no_counterpart, {"'CLASS'", "nt::with_union"});
    // Unnamed operands: union adds nothing NumPy's rule would not.
    const auto x = nt::ones<float>({2, 3});
    const auto y = nt::ones<float>({3});
    CHECK((nt::with_union(x) + y).spec() == (x + y).spec());
}

TEST_CASE("no_counterpart suggests a present name one edit away", "[structure][errors]") {
    const auto vol = nt::ones<float>({2, 3}, {"DEPTH", "W"});
    const auto typo = nt::ones<float>({2}, {"DEPT"});
    require_error([&] { (void)(vol + typo); }, nt::errc::no_counterpart,
                  {"'DEPT'", "(did you mean 'DEPTH'?)", "rename the axis 'DEPT' to 'DEPTH'",
                   "or, if it is a new axis, give it to the host (host.unsqueeze(2, \"DEPT\"))"});
    // Both fixes it suggests, run: the rename, or the host given the new axis.
    CHECK((vol + typo.rename("DEPT", "DEPTH")).spec() == vol.spec());
    CHECK((vol.unsqueeze(2, "DEPT") + typo).spec() == nt::spec({2, 3, 2}, {"DEPTH", "W", "DEPT"}));
    const auto lower = nt::ones<float>({3}, {"w"});
    require_error([&] { (void)(vol + lower); }, nt::errc::no_counterpart, {"(did you mean 'W'?)"});
    // The matcher says the same for configs (which can set union).
    const std::vector<nt::spec> specs{nt::parse_spec("(2,3 | DEPTH,W)"), nt::parse_spec("(2 | DEPT)")};
    const auto p = nt::try_match(specs);
    REQUIRE(!p.ok());
    CHECK(p.error().message.find("(did you mean 'DEPTH'?)") != std::string::npos);
    CHECK(p.error().message.find("set 'union'") != std::string::npos);
}

TEST_CASE("one-element braced axis lists compile and agree with the other forms", "[structure][axes]") {
    // Regression: {1} converted equally well to an Axis and to an axes_arg, so these
    // calls were ambiguous while {0, 1} compiled (NumPy users write axis=(1,)).
    const auto t = nt::arange<double>(24).reshape({2, 3, 4}, {"N", "H", "W"});
    CHECK(t.flip({1}).to_vector() == t.flip(1).to_vector());
    CHECK(t.flip({1}).to_vector() == t.flip({1, 1 - 1}).flip({0}).to_vector());
    CHECK(nt::flip(t, {"H"}).to_vector() == nt::flip(t, "H").to_vector());
    CHECK(nt::sum(t, {0}).to_vector() == nt::sum(t, 0).to_vector());
    CHECK(nt::sum(t, {0}, true).spec() == nt::sum(t, nt::axes_arg{0}, true).spec());
    CHECK(nt::mean(t, {"W"}).to_vector() == nt::mean(t, "W").to_vector());
    CHECK(nt::max(t, {-1}).to_vector() == nt::max(t, -1).to_vector());
    CHECK(nt::all(t > 1.0, {0}).to_vector() == nt::all(t > 1.0, 0).to_vector());
    CHECK(nt::any(t > 1.0, {0}).to_vector() == nt::any(t > 1.0, 0).to_vector());
    CHECK(nt::var(t, {1}).to_vector() == nt::var(t, 1).to_vector());
    CHECK(nt::stddev(t, {1}, 1).to_vector() == nt::stddev(t, 1, 1).to_vector());
    CHECK(nt::median(t, {2}).to_vector() == nt::median(t, 2).to_vector());
    CHECK(nt::quantile(t, 0.25, {2}).to_vector() == nt::quantile(t, 0.25, 2).to_vector());
    CHECK(nt::percentile(t, 25, {2}).to_vector() == nt::percentile(t, 25, 2).to_vector());
    CHECK(nt::nansum(t, {0}).to_vector() == nt::nansum(t, 0).to_vector());
    CHECK(nt::nanmax(t, {0}).to_vector() == nt::nanmax(t, 0).to_vector());
    CHECK(nt::count_nonzero(t, {0}).to_vector() == nt::count_nonzero(t, 0).to_vector());
    CHECK(nt::unfold(t, {2}, {2}, {2}).spec() == t.unfold(2, 2, 2).spec());
    CHECK(t.permute({0, 1, 2}).spec() == t.spec());
    const auto w = nt::ones<double>({4, 5}, {"W", "K"});
    CHECK(nt::dot(t, w, {"W"}).to_vector() == nt::dot(t, w, "W").to_vector());
    const nt::any_tensor a(t);
    CHECK(nt::sum(a, {0}).as<double>().to_vector() == nt::sum(t, 0).to_vector());
    CHECK(nt::var(a, {0}).as<double>().to_vector() == nt::var(t, 0).to_vector());
    CHECK(nt::quantile(a, 0.5, {1}).to_vector() == nt::quantile(t, 0.5, 1).to_vector());
    // The single-axis form is held by the axes_arg itself: a copy stays valid.
    const nt::axes_arg one = 2;
    const nt::axes_arg copy = one;
    REQUIRE(copy.size() == 1);
    CHECK(copy[0].index() == 2);
}

TEST_CASE("with_union through clip, where, masked_select and out= forms", "[structure][union]") {
    // Labels (N,H,W) against per-class values (CLASS): only union adds CLASS.
    auto lbl = nt::arange<std::int64_t>(2 * 3 * 4).reshape({2, 3, 4}, {"N", "H", "W"}) % 3;
    const auto classes = nt::arange<std::int64_t>(3).rename({"CLASS"});
    const auto expanded = lbl.unsqueeze(3, "CLASS");  // the explicit alignment union gives
    const auto lo = nt::tensor<std::int64_t>({0, 1, 1}).rename({"CLASS"});
    const auto hi = nt::tensor<std::int64_t>({1, 1, 2}).rename({"CLASS"});

    require_error([&] { (void)nt::clip(lbl, lo, hi); }, nt::errc::no_counterpart, {"clip", "'CLASS'"});
    const auto clipped = nt::clip(nt::with_union(lbl), lo, hi);
    CHECK(clipped.spec() == nt::spec({2, 3, 4, 3}, {"N", "H", "W", "CLASS"}));
    CHECK(clipped.to_vector() == nt::clip(expanded, lo, hi).to_vector());
    CHECK(nt::clip(lbl, nt::with_union(lo), 1).to_vector() == nt::clip(expanded, lo, 1).to_vector());

    const auto mask = nt::with_union(lbl) == classes;  // one-hot (N,H,W,CLASS)
    require_error([&] { (void)nt::where(lbl == 1, classes, -1); }, nt::errc::no_counterpart, {"where", "'CLASS'"});
    CHECK(nt::where(nt::with_union(lbl == 1), classes, -1).to_vector() ==
          nt::where(expanded == 1, classes, -1).to_vector());
    CHECK(nt::where(lbl == 1, nt::with_union(classes), lbl).to_vector() ==
          nt::where(expanded == 1, classes, expanded).to_vector());
    CHECK(nt::where(nt::with_union(mask), 1.5, 0).spec() == mask.spec());

    const auto x = nt::arange<float>(12).reshape({3, 4}, {"H", "W"});
    const auto per_class = nt::arange<std::int64_t>(3).reshape({3, 1, 1}, {"CLASS", "H", "W"}) ==
                           nt::arange<std::int64_t>(12).reshape({1, 3, 4}, {"CLASS", "H", "W"}) % 3;
    require_error([&] { (void)nt::masked_select(x, per_class); }, nt::errc::no_counterpart, {"masked_select"});
    const auto selected = nt::masked_select(x, nt::with_union(per_class));
    const auto [xv, mv] = nt::broadcast_tensors(x.unsqueeze(0, "CLASS"), per_class);
    CHECK(selected.to_vector() == nt::masked_select(xv.clone(), mv).to_vector());
    CHECK(selected.size() == 12);

    auto out = nt::zeros<std::int64_t>({2, 3, 4, 3}, {"N", "H", "W", "CLASS"});
    nt::add(nt::with_union(lbl), classes, out);
    CHECK(out.to_vector() == (expanded + classes).to_vector());
    auto out_f = nt::zeros<double>({2, 3, 4, 3}, {"N", "H", "W", "CLASS"});
    nt::add(lbl, nt::with_union(classes.astype<double>()), out_f);  // converting path
    CHECK(out_f.to_vector() == (expanded + classes.astype<double>()).to_vector());
    require_error([&] { nt::add(lbl, classes, out); }, nt::errc::no_counterpart, {"'CLASS'", "nt::with_union"});
}

TEST_CASE("no_counterpart names the one name each side lacks as the likely typo, and its fix works",
          "[structure][errors]") {
    // Regression: `? Z H W` with `? D H W` was told to use union; the typo is the answer.
    const auto a = nt::ones<float>({2, 3, 4, 5}, {"?", "D", "H", "W"});
    const auto b = nt::ones<float>({2, 3, 4, 5}, {"?", "Z", "H", "W"});
    require_error([&] { (void)(a + b); }, nt::errc::no_counterpart,
                  {"(did you mean 'D'?)", "Fix: rename the axis 'Z' to 'D'"});
    CHECK((a + b.rename("Z", "D")).spec() == a.spec());  // the suggested fix
    // Not when the sizes cannot pair, nor when several names are missing.
    const auto c = nt::ones<float>({2, 7, 4, 5}, {"?", "Z", "H", "W"});
    try {
        (void)(a + c);
        FAIL("no error");
    } catch (const nt::error& e) {
        CHECK(std::string(e.message()).find("did you mean") == std::string::npos);
    }
    const std::vector<nt::spec> specs{nt::parse_spec("(2,3,4,5 | ?,D,H,W)"), nt::parse_spec("(2,3,4,5 | ?,Z,H,W)")};
    const auto p = nt::try_match(specs);
    REQUIRE(!p.ok());
    CHECK(p.error().message.find("Fix: rename the axis 'Z' to 'D', or set 'union' if it is a new axis") !=
          std::string::npos);
}
