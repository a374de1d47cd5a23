// nt/tensor.hpp: structural operations (views unless stated), their names, their
// errors.
#include "core_testing.hpp"

#include <limits>

using namespace core_testing;
using nt::errc;
using nt::test::error_message;
using strings = std::vector<std::string>;
using i64s = std::vector<std::int64_t>;


namespace {
template <class T>
nt::Tensor<T> iota(std::initializer_list<std::int64_t> shape, nt::names_arg names = {}) {
    // 0, 1, 2, ... (mod 2 for bool) in row-major order
    auto t = nt::zeros<T>(shape, names);
    auto flat = t.reshape({-1});
    for (std::int64_t i = 0; i < t.size(); ++i) flat(i) = static_cast<T>(std::is_same_v<T, bool> ? i % 2 : i);
    return t;
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("reshape: views when NumPy's would be, else copies", "[views][reshape]", nt::test::element_types) {
    auto a = iota<TestType>({2, 3, 4});
    SECTION("contiguous: view") {
        auto r = a.reshape({4, -1});
        CHECK(shape(r) == shape_t{4, 6});
        CHECK(r.shares_storage(a));
        CHECK(ints(r) == ints(a));
    }
    SECTION("transposed: copy") {
        auto t = a.transpose();
        auto r = t.reshape({-1});
        CHECK_FALSE(r.shares_storage(a));
        CHECK(ints(r) == ints(t.contiguous()));
    }
    SECTION("merging only contiguous axes of a non-contiguous view: view") {
        auto s = a.slice(2, 0, 2);     // (2,3,2), strides (12,4,1)
        auto r = s.reshape({6, 2});    // merges axes 0 and 1: 12 == 3*4
        CHECK(r.shares_storage(a));
        CHECK(strides(r) == shape_t{4, 1});
        CHECK(ints(r) == ints(s.contiguous()));
        CHECK_FALSE(s.reshape({12}).shares_storage(a));
    }
    SECTION("fortran order") {
        auto f = a.reshape({4, 6}, nt::order::fortran);
        auto expected = a.transpose(0, 2).contiguous().reshape({-1});  // Fortran reading order of a
        auto read_f = f.transpose(0, 1).contiguous().reshape({-1});   // Fortran reading order of f
        CHECK(ints(read_f) == ints(expected));
        // a Fortran-contiguous layout reshapes in Fortran order as a view
        auto ft = a.transpose(0, 2);  // (4,3,2) Fortran-contiguous
        auto v = ft.reshape({12, 2}, nt::order::fortran);
        CHECK(v.shares_storage(a));
    }
    SECTION("size-1 axes and zero sizes") {
        auto z = nt::zeros<TestType>({0, 3});
        CHECK(shape(z.reshape({3, 0, 5})) == shape_t{3, 0, 5});
        CHECK(shape(a.reshape({1, 24, 1})) == shape_t{1, 24, 1});
        CHECK(shape(nt::scalar<TestType>(TestType(1)).reshape({1, 1})) == shape_t{1, 1});
        CHECK(nt::zeros<TestType>({1, 1}).reshape({}).rank() == 0);
    }
    SECTION("names: common prefix and suffix keep theirs") {
        auto n = iota<TestType>({2, 3, 4, 5}, {"N", "C", "H", "W"});
        CHECK(names(n.reshape({2, 3, 20})) == strings{"N", "C", "?"});
        CHECK(names(n.reshape({2, 12, 5})) == strings{"N", "?", "W"});
        CHECK(names(n.reshape({6, 4, 5})) == strings{"?", "H", "W"});
        CHECK(names(n.reshape({120})) == strings{"?"});
        CHECK(names(n.reshape({2, 3, 4, 5})) == strings{"N", "C", "H", "W"});
        CHECK(names(n.reshape({6, 20}, {"NC", "HW"})) == strings{"NC", "HW"});
        CHECK(names(n.reshape({6, 20}, nt::names_arg{})) == strings{"?", "?"});
    }
    SECTION("errors") {
        CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)a.reshape({5, 5}); }),
                   Catch::Contains("24 elements") && Catch::Contains("(5,5)"));
        CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)a.reshape({-1, -1}); }),
                   Catch::Contains("more than one -1"));
        error_message(errc::invalid_argument, [&] { (void)a.reshape({-1, 5}); });
        error_message(errc::invalid_argument, [&] { (void)a.reshape({-2, -12}); });
        error_message(errc::invalid_argument, [&] { (void)nt::zeros<TestType>({0}).reshape({-1, 0}); });
        error_message(errc::invalid_spec, [&] { (void)a.reshape({2, 3, 4}, {"A", "B"}); });
        error_message(errc::duplicate_name, [&] { (void)a.reshape({2, 3, 4}, {"A", "B", "A"}); });
    }
}

TEST_CASE("view: never copies", "[views][reshape]") {
    auto a = nt::arange<float>(1.f, 7.f).reshape({2, 3});
    CHECK(a.view({6}).shares_storage(a));
    const std::string msg = error_message(errc::not_a_view, [&] { (void)a.transpose().view({6}); });
    CHECK_THAT(msg, Catch::Contains("(3,2)") && Catch::Contains("(6)") &&
                        Catch::Contains("use reshape() to allow a copy, or contiguous().view(...)"));
    // Both fixes it suggests, run: the transpose's elements in its row-major order.
    const std::vector<float> transposed{1, 4, 2, 5, 3, 6};
    CHECK(a.transpose().reshape({6}).to_vector() == transposed);
    CHECK(a.transpose().contiguous().view({6}).to_vector() == transposed);
    CHECK(shape(a.transpose().view({3, 1, 2})) == shape_t{3, 1, 2});  // size-1 insertions are fine
}

TEMPLATE_LIST_TEST_CASE("flatten and unflatten", "[views][reshape]", nt::test::element_types) {
    auto a = iota<TestType>({2, 3, 4}, {"N", "C", "W"});
    CHECK(shape(a.flatten()) == shape_t{24});
    CHECK(a.flatten().shares_storage(a));
    CHECK(ints(a.flatten()) == ints(a));
    auto f = a.flatten("C", -1, "CW");
    CHECK(shape(f) == shape_t{2, 12});
    CHECK(names(f) == strings{"N", "CW"});
    CHECK(shape(a.flatten(0, 0)) == shape_t{2, 3, 4});
    CHECK(names(a.transpose().flatten(0, 1)) == strings{"?", "C"});
    CHECK_FALSE(a.transpose().flatten(0, 1).shares_storage(a));  // needs a copy
    CHECK(shape(nt::scalar<TestType>(TestType(0)).flatten()) == shape_t{1});
    error_message(errc::invalid_argument, [&] { (void)a.flatten(2, 0); });
    error_message(errc::duplicate_name, [&] { (void)a.flatten(1, 2, "N"); });

    auto u = f.unflatten(1, {3, -1}, {"C", "W"});
    CHECK(shape(u) == shape_t{2, 3, 4});
    CHECK(names(u) == strings{"N", "C", "W"});
    CHECK(u.shares_storage(a));
    CHECK(ints(u) == ints(a));
    // unflatten is a view even on a strided axis
    auto s = a.slice("W", 0, 4, 2).flatten(1, 2);  // (2,3,2) strides (12,4,2): still a view
    auto back = a.transpose(0, 2).unflatten(0, {2, 2});
    CHECK(shape(back) == shape_t{2, 2, 3, 2});
    CHECK(back.shares_storage(a));
    CHECK(back.at(1, 0, 2, 1) == a.at(1, 2, 2));
    CHECK(shape(s) == shape_t{2, 6});
    CHECK(s.shares_storage(a));
    error_message(errc::invalid_argument, [&] { (void)f.unflatten(1, {5, -1}); });
    error_message(errc::invalid_argument, [&] { (void)f.unflatten(1, {}); });
    error_message(errc::invalid_spec, [&] { (void)f.unflatten(1, {3, 4}, {"A"}); });
    error_message(errc::duplicate_name, [&] { (void)f.unflatten(1, {3, 4}, {"N", "B"}); });
}

TEMPLATE_LIST_TEST_CASE("squeeze, squeeze_all, unsqueeze, expand_dims", "[views]", nt::test::element_types) {
    auto a = iota<TestType>({1, 3, 1}, {"A", "B", "C"});
    auto s = a.squeeze(0);
    CHECK(shape(s) == shape_t{3, 1});
    CHECK(names(s) == strings{"B", "C"});
    CHECK(shape(a.squeeze("C")) == shape_t{1, 3});
    CHECK(shape(a.squeeze(-1)) == shape_t{1, 3});
    CHECK(shape(a.squeeze_all()) == shape_t{3});
    CHECK(names(a.squeeze_all()) == strings{"B"});
    CHECK(a.squeeze_all().shares_storage(a));
    CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)a.squeeze("B"); }),
               Catch::Contains("axis 1 'B'") && Catch::Contains("size 3") &&
                   Catch::Contains("use index() to pick one entry"));
    // The fix it suggests, run: index() picks entry 2 of 'B' and drops the axis.
    CHECK(shape(a.index(nt::all, 2)) == shape_t{1, 1});
    CHECK(names(a.index(nt::all, 2)) == strings{"A", "C"});
    CHECK(ints(a.index(nt::all, 2)) == ints(a.index(nt::all, nt::range(2, 3)).squeeze("B")));
    error_message(errc::axis_out_of_range, [&] { (void)a.squeeze(3); });
    error_message(errc::axis_out_of_range, [&] { (void)a.squeeze(-4); });

    auto v = iota<TestType>({3});
    CHECK(shape(v.unsqueeze(0)) == shape_t{1, 3});
    CHECK(shape(v.unsqueeze(1)) == shape_t{3, 1});
    CHECK(shape(v.unsqueeze(-1)) == shape_t{3, 1});
    CHECK(shape(v.unsqueeze(-2)) == shape_t{1, 3});
    CHECK(names(v.unsqueeze(0, "B")) == strings{"B", "?"});
    error_message(errc::axis_out_of_range, [&] { (void)v.unsqueeze(2); });
    error_message(errc::axis_out_of_range, [&] { (void)v.unsqueeze(-3); });
    error_message(errc::duplicate_name, [&] { (void)a.unsqueeze(0, "A"); });
    CHECK(shape(nt::scalar<TestType>(TestType(1)).unsqueeze(0)) == shape_t{1});

    CHECK(shape(v.expand_dims({0, 2})) == shape_t{1, 3, 1});
    CHECK(shape(v.expand_dims({-1, 0})) == shape_t{1, 3, 1});
    CHECK(shape(v.expand_dims({})) == shape_t{3});
    CHECK(ints(v.expand_dims({0, 2})) == ints(v));
    error_message(errc::invalid_argument, [&] { (void)v.expand_dims({0, -3}); });  // same position twice
    error_message(errc::axis_out_of_range, [&] { (void)v.expand_dims({3}); });
}

TEMPLATE_LIST_TEST_CASE("transpose, swap_axes, permute, move_axis, move_axes", "[views]", nt::test::element_types) {
    auto a = iota<TestType>({2, 3, 4}, {"N", "C", "W"});
    auto t = a.transpose();
    CHECK(shape(t) == shape_t{2, 4, 3});
    CHECK(names(t) == strings{"N", "W", "C"});
    CHECK(t.at(1, 3, 2) == a.at(1, 2, 3));
    CHECK(shape(a.transpose("N", "W")) == shape_t{4, 3, 2});
    CHECK(shape(a.swap_axes(0, -1)) == shape_t{4, 3, 2});
    CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)iota<TestType>({3}).transpose(); }),
               Catch::Contains("rank >= 2"));

    auto p = a.permute({"W", 0, -2});
    CHECK(shape(p) == shape_t{4, 2, 3});
    CHECK(names(p) == strings{"W", "N", "C"});
    CHECK(p.at(3, 1, 2) == a.at(1, 2, 3));
    error_message(errc::invalid_argument, [&] { (void)a.permute({0, 1}); });
    error_message(errc::invalid_argument, [&] { (void)a.permute({0, 1, 1}); });
    error_message(errc::axis_out_of_range, [&] { (void)a.permute({0, 1, "H"}); });

    CHECK(names(a.move_axis("N", -1)) == strings{"C", "W", "N"});
    CHECK(names(a.move_axis(-1, 0)) == strings{"W", "N", "C"});
    CHECK(names(a.move_axes({0, -1}, {-1, 0})) == strings{"W", "C", "N"});
    CHECK(names(a.move_axes({0, 1}, {2, 0})) == strings{"C", "W", "N"});  // numpy.moveaxis semantics
    CHECK(names(a.move_axes({2, 0, 1})) == strings{"C", "W", "N"});       // axis i goes to new_positions[i]
    error_message(errc::invalid_argument, [&] { (void)a.move_axes({0, 0}, {1, 2}); });
    error_message(errc::invalid_argument, [&] { (void)a.move_axes({0}, {1, 2}); });
    error_message(errc::axis_out_of_range, [&] { (void)a.move_axes({0}, {3}); });
    error_message(errc::invalid_argument, [&] { (void)a.move_axes({0, 0, 1}); });
}

TEMPLATE_LIST_TEST_CASE("permute: an image's channels moved last and first, copied", "[views][copy]",
                        nt::test::element_types) {
    // (C,H,W) <-> (H,W,C) with 2 to 4 channels: the copies move whole vectors of
    // channels (engine_copy.cpp checks each SIMD target); 70 columns leave tails.
    struct restore_threads {
        int saved = nt::get_num_threads();
        ~restore_threads() { nt::set_num_threads(saved); }
    } const restore;
    for (const int threads : {1, 2}) {
        nt::set_num_threads(threads);
        for (const std::int64_t c : {2, 3, 4}) {
            const auto chw = iota<TestType>({c, 5, 70}, {"C", "H", "W"});
            const auto hwc = chw.permute({1, 2, 0}).contiguous();
            REQUIRE(names(hwc) == strings{"H", "W", "C"});
            const auto back = hwc.permute({"C", "H", "W"}).contiguous();
            bool same = true;
            for (std::int64_t k = 0; k < c; ++k)
                for (std::int64_t h = 0; h < 5; ++h)
                    for (std::int64_t w = 0; w < 70; ++w)
                        same = same && hwc.at(h, w, k) == chw.at(k, h, w) && back.at(k, h, w) == chw.at(k, h, w);
            // A crop's rows do not merge into one run: the channels come apart row by row.
            const auto crop = hwc.slice("H", 1, 4).slice("W", 2, 67);
            const auto crop_chw = crop.permute({"C", "H", "W"}).contiguous();
            for (std::int64_t k = 0; k < c; ++k)
                for (std::int64_t h = 0; h < 3; ++h)
                    for (std::int64_t w = 0; w < 65; ++w)
                        same = same && crop_chw.at(k, h, w) == chw.at(k, h + 1, w + 2);
            INFO(c << " channels, " << threads << " threads");
            CHECK(same);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("permute: channels moved while the image transposes, copied", "[views][copy]",
                        nt::test::element_types) {
    // (C,H,W) -> (W,H,C) and the Fortran-order flatten of (H,W,C), whose order is
    // (C,W,H): one copy moves the channels and swaps the other two axes.
    for (const std::int64_t c : {2, 3, 4}) {
        const auto chw = iota<TestType>({c, 17, 20}, {"C", "H", "W"});
        const auto whc = chw.permute({2, 1, 0}).contiguous();
        REQUIRE(names(whc) == strings{"W", "H", "C"});
        const auto hwc = chw.permute({1, 2, 0}).contiguous();
        const auto flat = hwc.reshape({-1}, nt::order::fortran);
        REQUIRE(shape(flat) == shape_t{c * 17 * 20});
        bool same = true;
        for (std::int64_t k = 0; k < c; ++k)
            for (std::int64_t h = 0; h < 17; ++h)
                for (std::int64_t w = 0; w < 20; ++w)
                    same = same && whc.at(w, h, k) == chw.at(k, h, w) &&
                           flat.at(h + 17 * (w + 20 * k)) == chw.at(k, h, w);
        INFO(c << " channels");
        CHECK(same);
    }
}

TEMPLATE_LIST_TEST_CASE("slice: Python semantics, names kept", "[views][slice]", nt::test::element_types) {
    auto a = iota<TestType>({4, 5}, {"H", "W"});
    auto s = a.slice("W", 1, 4);
    CHECK(shape(s) == shape_t{4, 3});
    CHECK(names(s) == strings{"H", "W"});
    CHECK(s.at(2, 0) == a.at(2, 1));
    CHECK(shape(a.slice(0, -2)) == shape_t{2, 5});
    CHECK(shape(a.slice(0, 1, -1)) == shape_t{2, 5});
    CHECK(shape(a.slice(0, 10)) == shape_t{0, 5});
    CHECK(shape(a.slice(0, -10, 10)) == shape_t{4, 5});
    auto r = a.slice(1, std::nullopt, std::nullopt, -2);
    CHECK(shape(r) == shape_t{4, 3});
    CHECK(r.at(0, 0) == a.at(0, 4));
    CHECK(r.at(0, 2) == a.at(0, 0));
    CHECK(shape(a.slice(1, nt::range(3, std::nullopt, -1))) == shape_t{4, 4});
    CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)a.slice(0, 0, 2, 0); }), Catch::Contains("step is 0"));
    error_message(errc::axis_out_of_range, [&] { (void)a.slice(2, 0); });
}

TEMPLATE_LIST_TEST_CASE("unfold: sliding windows", "[views][unfold]", nt::test::element_types) {
    auto a = iota<TestType>({2, 7}, {"N", "T"});
    auto u = a.unfold("T", 3, 2);
    CHECK(shape(u) == shape_t{2, 3, 3});
    CHECK(names(u) == strings{"N", "T", "?"});
    CHECK(u.shares_storage(a));
    CHECK(u.is_read_only());  // windows overlap
    for (int n = 0; n < 2; ++n)
        for (int w = 0; w < 3; ++w)
            for (int k = 0; k < 3; ++k) CHECK(u.at(n, w, k) == a.at(n, 2 * w + k));
    CHECK(names(a.unfold(1, 2, 2, "K")) == strings{"N", "T", "K"});
    CHECK_FALSE(a.unfold(1, 2, 2).is_read_only());
    CHECK_FALSE(a.unfold(1, 7, 1).is_read_only());  // a single window
    CHECK(shape(a.unfold(1, 0, 1)) == shape_t{2, 8, 0});
    CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)a.unfold(1, 8, 1); }),
               Catch::Contains("window size 8") && Catch::Contains("size 7"));
    error_message(errc::invalid_argument, [&] { (void)a.unfold(1, 2, 0); });
    error_message(errc::duplicate_name, [&] { (void)a.unfold(1, 2, 1, "N"); });
}

TEMPLATE_LIST_TEST_CASE("broadcast_to, broadcast_like, broadcast_left", "[views][broadcast]", nt::test::element_types) {
    auto v = iota<TestType>({3});
    auto b = v.broadcast_to({2, 3});
    CHECK(shape(b) == shape_t{2, 3});
    CHECK(strides(b) == shape_t{0, 1});
    CHECK(b.is_read_only());
    CHECK(b.shares_storage(v));
    const i64s e = ints(v);
    CHECK(ints(b) == i64s{e[0], e[1], e[2], e[0], e[1], e[2]});

    SECTION("names are carried over by a bare shape and matched by a spec") {
        auto c = iota<TestType>({3}, {"C"});
        CHECK(names(c.broadcast_to({2, 3})) == strings{"?", "C"});
        auto s = c.broadcast_to(nt::parse_spec("(3,2 | C,W)"));
        CHECK(shape(s) == shape_t{3, 2});
        CHECK(strides(s) == shape_t{1, 0});
        CHECK(names(s) == strings{"C", "W"});
        error_message(errc::no_counterpart, [&] { (void)c.broadcast_to(nt::parse_spec("(3,2 | H,W)")); });
    }
    SECTION("broadcast_like") {
        auto like = nt::zeros<float>({4, 3});
        CHECK(shape(v.broadcast_like(like)) == shape_t{4, 3});
        auto img = nt::zeros<float>({10, 3, 4, 5}, {"?", "CHANNEL", "H", "W"});
        auto lbl = iota<TestType>({10, 4, 5}, {"?", "H", "W"});
        auto l = lbl.broadcast_like(img);
        CHECK(shape(l) == shape_t{10, 3, 4, 5});
        CHECK(names(l) == strings{"?", "CHANNEL", "H", "W"});
        CHECK(l.at(7, 2, 3, 4) == lbl.at(7, 3, 4));
    }
    SECTION("broadcast_left") {
        auto l = v.broadcast_left({2, 2});
        CHECK(shape(l) == shape_t{2, 2, 3});
        CHECK(strides(l) == shape_t{0, 0, 1});
        CHECK(shape(v.broadcast_left({})) == shape_t{3});
        CHECK_FALSE(v.broadcast_left({1}).is_read_only());
    }
    SECTION("errors name the shapes") {
        for (auto target : {shape_t{3, 1}, shape_t{4}, shape_t{2, 2}}) {
            CHECK_THAT(error_message(errc::incompatible_sizes, [&] { (void)v.broadcast_to(target); }),
                       Catch::Contains("(3)"));
        }
        error_message(errc::invalid_spec, [&] { (void)v.broadcast_to({-1, 3}); });
    }
    SECTION("zero sizes and scalars") {
        CHECK(shape(nt::zeros<TestType>({1, 3}).broadcast_to({0, 3})) == shape_t{0, 3});
        CHECK(ints(nt::scalar<TestType>(TestType(1)).broadcast_to({2, 2})) == i64s{1, 1, 1, 1});
    }
}

TEST_CASE("align_to and align_as", "[views][names]") {
    auto a = nt::arange<int>(24).reshape({2, 3, 4}, {"N", "C", "W"});
    auto w = a.align_to("W", "N", "C");
    CHECK(names(w) == strings{"W", "N", "C"});
    CHECK(w.at(3, 1, 2) == a.at(1, 2, 3));
    CHECK(names(a.align_to("W", "...")) == strings{"W", "N", "C"});
    CHECK(names(a.align_to("...", "N")) == strings{"C", "W", "N"});
    auto ins = a.align_to("B", "N", "C", "H", "W");
    CHECK(shape(ins) == shape_t{1, 2, 3, 1, 4});
    CHECK(names(ins) == strings{"B", "N", "C", "H", "W"});
    CHECK(names(a.align_to({"C", "..."})) == strings{"C", "N", "W"});
    CHECK_THAT(error_message(errc::no_counterpart, [&] { (void)a.align_to("N", "C"); }),
               Catch::Contains("'W'") && Catch::Contains("..."));
    error_message(errc::invalid_argument, [&] { (void)a.align_to("...", "N", "..."); });
    error_message(errc::duplicate_name, [&] { (void)a.align_to("N", "N", "..."); });

    auto u = nt::arange<int>(6).reshape({2, 3}).rename({"?", "C"});
    CHECK(names(u.align_to("C", "...")) == strings{"C", "?"});
    error_message(errc::no_counterpart, [&] { (void)u.align_to("C"); });

    SECTION("align_as: names first, unnamed right-aligned, singletons elsewhere") {
        auto target = nt::zeros<float>({5, 4, 2, 7, 3}, {"?", "W", "N", "?", "C"});
        auto x = nt::arange<int>(6).reshape({2, 3}, {"N", "C"});
        auto y = x.align_as(target);
        CHECK(shape(y) == shape_t{1, 1, 2, 1, 3});
        CHECK(names(y) == strings{"?", "W", "N", "?", "C"});
        auto z = nt::arange<int>(7).rename({"?"}).align_as(target);
        CHECK(shape(z) == shape_t{1, 1, 1, 7, 1});
        error_message(errc::no_counterpart, [&] { (void)nt::zeros<int>({2}, {"H"}).align_as(target); });
        error_message(errc::no_counterpart, [&] { (void)nt::zeros<int>({2, 2, 2}).align_as(target); });
    }
}

TEST_CASE("rename and refine_names", "[views][names]") {
    auto a = nt::zeros<int>({2, 3, 4}, {"N", "?", "?"});
    CHECK(names(a.rename({"A", "B", "C"})) == strings{"A", "B", "C"});
    CHECK(names(a.rename({})) == strings{"?", "?", "?"});
    CHECK(names(a.rename("N", "M")) == strings{"M", "?", "?"});
    CHECK(names(a.rename(1, "C")) == strings{"N", "C", "?"});
    CHECK(a.rename({"A", "B", "C"}).shares_storage(a));
    error_message(errc::invalid_spec, [&] { (void)a.rename({"A"}); });
    error_message(errc::duplicate_name, [&] { (void)a.rename(1, "N"); });
    error_message(errc::invalid_spec, [&] { (void)a.rename(1, "1bad"); });

    CHECK(names(a.refine_names({"N", "C", "W"})) == strings{"N", "C", "W"});
    CHECK(names(a.refine_names({"N", "?", "W"})) == strings{"N", "?", "W"});
    CHECK(names(a.refine_names({"...", "W"})) == strings{"N", "?", "W"});
    CHECK(names(a.refine_names({"N", "...", "W"})) == strings{"N", "?", "W"});
    CHECK_THAT(error_message(errc::name_mismatch, [&] { (void)a.refine_names({"B", "C", "W"}); }),
               Catch::Contains("'N'") && Catch::Contains("rename"));
    error_message(errc::name_mismatch, [&] { (void)a.refine_names({"?", "C", "W"}); });
    error_message(errc::invalid_argument, [&] { (void)a.refine_names({"N", "C"}); });
    error_message(errc::duplicate_name, [&] { (void)a.refine_names({"N", "N", "W"}); });
}

TEST_CASE("axis errors name the tensor, the axis and the valid range", "[views][errors]") {
    auto a = nt::zeros<int>({2, 3}, {"N", "C"});
    CHECK_THAT(error_message(errc::axis_out_of_range, [&] { (void)a.squeeze(2); }),
               Catch::Contains("squeeze") && Catch::Contains("axis 2") && Catch::Contains("-2..1") &&
                   Catch::Contains("(2,3 | N,C)"));
    CHECK_THAT(error_message(errc::axis_out_of_range, [&] { (void)a.slice("H", 0); }),
               Catch::Contains("slice") && Catch::Contains("'H'") && Catch::Contains("N, C"));
    CHECK_THAT(error_message(errc::axis_out_of_range, [&] { (void)nt::scalar(1).squeeze(0); }),
               Catch::Contains("rank 0"));
    error_message(errc::invalid_spec, [&] { (void)a.squeeze("not a name"); });
}

TEST_CASE("rank 0 and zero-size tensors go through every view op", "[views]") {
    auto s = nt::scalar(5);
    CHECK(s.reshape({1}).at(0) == 5);
    CHECK(s.unsqueeze(0).unsqueeze(0).squeeze_all().at() == 5);
    CHECK(s.expand_dims({0, 1}).rank() == 2);
    CHECK(s.permute({}).at() == 5);
    CHECK(s.move_axes({}).at() == 5);
    CHECK(s.broadcast_to({2}).to_vector() == std::vector<int>{5, 5});
    CHECK(s.align_to("A").rank() == 1);
    CHECK(s.rename({}).rank() == 0);
    CHECK(s.clone().at() == 5);
    CHECK(s.contiguous().at() == 5);
    CHECK(s.index().at() == 5);

    auto z = nt::zeros<float>({2, 0, 3}, {"A", "B", "C"});
    CHECK(z.transpose().size() == 0);
    CHECK(shape(z.slice(2, 1)) == shape_t{2, 0, 2});
    CHECK(shape(z.unfold(2, 2, 1)) == shape_t{2, 0, 2, 2});
    CHECK(shape(z.reshape({0, 5})) == shape_t{0, 5});
    CHECK(shape(z.flatten()) == shape_t{0});
    CHECK(shape(z.align_to("C", "...")) == shape_t{3, 2, 0});
    CHECK(shape(z.broadcast_left({4})) == shape_t{4, 2, 0, 3});
    CHECK(z.clone().size() == 0);
    z.fill(1.f);
    z.assign(nt::scalar(2.f));
    CHECK(z.to_vector().empty());
    CHECK(z.unflatten(1, {0, 7}).rank() == 4);
}

TEST_CASE("malformed arguments throw nt::error, never crash", "[views][errors]") {
    auto a = nt::arange<int>(6).reshape({2, 3});
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const std::int64_t small = std::numeric_limits<std::int64_t>::min();
    CHECK(a.slice(1, small, big).size() == 6);
    CHECK(a.slice(1, big, small, -1).size() == 6);
    CHECK(a.slice(1, 0, 3, big).size() == 2);
    error_message(errc::invalid_argument, [&] { (void)a.slice(1, 0, 3, small); });
    error_message(errc::invalid_argument, [&] { (void)a.unfold(1, big, 1); });
    error_message(errc::invalid_argument, [&] { (void)a.unfold(1, 2, small); });
    error_message(errc::invalid_argument, [&] { (void)a.broadcast_left({big, big}); });
    error_message(errc::invalid_argument, [&] { (void)a.reshape({big, big}); });
    error_message(errc::invalid_argument, [&] { (void)a.unflatten(1, {big, -1}); });
    error_message(errc::axis_out_of_range, [&] { (void)a.squeeze(small); });
    error_message(errc::axis_out_of_range, [&] { (void)a.unsqueeze(big); });
    error_message(errc::index_out_of_range, [&] { (void)a.at(small, 0); });
    error_message(errc::index_out_of_range, [&] { (void)a.index(big); });
    error_message(errc::axis_out_of_range, [&] { (void)a.move_axes({big, 0}); });
    error_message(errc::invalid_argument, [&] { (void)nt::arange<std::int64_t>(small, big, 1); });
}
