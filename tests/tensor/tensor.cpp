// nt/tensor.hpp: the handle, element access, index(), writes and write safety.
#include "core_testing.hpp"

#include <array>
#include <cstring>
#include <memory>

using namespace core_testing;
using nt::errc;
using nt::test::error_message;


TEMPLATE_LIST_TEST_CASE("a default tensor is empty and valid", "[tensor]", nt::test::element_types) {
    nt::Tensor<TestType> t;
    CHECK(shape(t) == shape_t{0});
    CHECK(t.size() == 0);
    CHECK(t.rank() == 1);
    CHECK(t.is_contiguous());
    CHECK_FALSE(t.is_read_only());
    CHECK(t.to_vector().empty());
    CHECK(t.clone().size() == 0);
    CHECK(t.dtype() == nt::dtype_of<TestType>);
}

TEMPLATE_LIST_TEST_CASE("handles share storage, clone copies", "[tensor]", nt::test::element_types) {
    auto a = nt::zeros<TestType>({2, 3});
    auto b = a;  // handle copy
    b(1, 2) = TestType(1);
    CHECK(a.at(1, 2) == TestType(1));
    CHECK(a.shares_storage(b));
    auto c = a.clone();
    CHECK_FALSE(c.shares_storage(a));
    c(0, 0) = TestType(1);
    CHECK(a.at(0, 0) == TestType(0));
    CHECK(c.is_contiguous());
    CHECK(reinterpret_cast<std::uintptr_t>(a.data()) % nt::storage_alignment == 0);
}

TEMPLATE_LIST_TEST_CASE("queries", "[tensor]", nt::test::element_types) {
    auto t = nt::zeros<TestType>({2, 3, 4}, {"N", "?", "W"});
    CHECK(shape(t) == shape_t{2, 3, 4});
    CHECK(strides(t) == shape_t{12, 4, 1});
    CHECK(t.rank() == 3);
    CHECK(t.size() == 24);
    CHECK(t.size("W") == 4);
    CHECK(t.size(-2) == 3);
    CHECK(names(t) == std::vector<std::string>{"N", "?", "W"});
    CHECK(t.spec() == nt::parse_spec("(2,3,4 | N,?,W)"));
    CHECK(t.is_contiguous());
    CHECK(t.layout().offset() == 0);
    CHECK_FALSE(t.transpose().is_contiguous());
}

TEMPLATE_LIST_TEST_CASE("element access: at, operator(), negative indices, errors", "[tensor]", nt::test::element_types) {
    auto t = nt::zeros<TestType>({2, 3}, {"N", "C"});
    t(1, -1) = TestType(1);
    CHECK(t.at(1, 2) == TestType(1));
    CHECK(t.at(-1, -1) == TestType(1));
    const auto& ct = t;
    CHECK(ct(1, 2) == TestType(1));

    SECTION("out of range names the index, axis, size and tensor") {
        const std::string msg = error_message(errc::index_out_of_range, [&] { (void)t.at(2, 0); });
        CHECK_THAT(msg, Catch::Contains("index 2") && Catch::Contains("axis 0 'N'") && Catch::Contains("size 2") &&
                            Catch::Contains("(2,3 | N,C)") && Catch::Contains("-2..1"));
        error_message(errc::index_out_of_range, [&] { (void)t.at(0, -4); });
        error_message(errc::index_out_of_range, [&] { t(0, 3) = TestType(0); });
    }
    SECTION("wrong number of indices") {
        const std::string msg = error_message(errc::invalid_argument, [&] { (void)t.at(1); });
        CHECK_THAT(msg, Catch::Contains("1 indices") && Catch::Contains("rank 2") &&
                            Catch::Contains("give one index per axis (use index() for views)"));
        // Both fixes it suggests, run: one index per axis, or index() for the view of row 1.
        CHECK(t.at(1, 2) == TestType(1));
        CHECK(t.index(1).at(2) == TestType(1));
        CHECK(t.index(1).shares_storage(t));
        error_message(errc::invalid_argument, [&] { (void)t.at(0, 0, 0); });
    }
    SECTION("rank 0") {
        auto s = nt::scalar<TestType>(TestType(1));
        CHECK(s.at() == TestType(1));
        s() = TestType(0);
        CHECK(s.at() == TestType(0));
        CHECK(s.to_vector().size() == 1);
    }
}

TEMPLATE_LIST_TEST_CASE("index(): integers drop axes, all and range keep them", "[tensor][index]", nt::test::element_types) {
    auto a = nt::zeros<TestType>({4, 5}, {"H", "W"});
    auto col = a.index(nt::all, 1);
    CHECK(shape(col) == shape_t{4});
    CHECK(names(col) == std::vector<std::string>{"H"});
    CHECK(col.shares_storage(a));
    col.fill(TestType(1));
    for (int i = 0; i < 4; ++i) CHECK(a.at(i, 1) == TestType(1));
    CHECK(a.at(0, 0) == TestType(0));

    auto rows = a.index(nt::range(1, 4, 2), -1);
    CHECK(shape(rows) == shape_t{2});
    CHECK(strides(rows) == shape_t{10});
    CHECK(names(rows) == std::vector<std::string>{"H"});

    auto row = a.index(2);  // trailing all
    CHECK(shape(row) == shape_t{5});
    CHECK(names(row) == std::vector<std::string>{"W"});

    auto same = a.index();
    CHECK(shape(same) == shape_t{4, 5});
    auto elem = a.index(0, 0);
    CHECK(elem.rank() == 0);
    CHECK(elem.size() == 1);

    auto rev = a.index(nt::range(std::nullopt, std::nullopt, -1));
    CHECK(strides(rev) == shape_t{-5, 1});
    auto empty = a.index(nt::range(3, 1));
    CHECK(shape(empty) == shape_t{0, 5});

    error_message(errc::invalid_argument, [&] { (void)a.index(0, 0, 0); });
    error_message(errc::index_out_of_range, [&] { (void)a.index(4); });
    error_message(errc::invalid_argument, [&] { (void)a.index(nt::range(0, 4, 0)); });
}

TEST_CASE("index() follows Python slice semantics", "[tensor][index]") {
    auto a = nt::arange<int>(10);
    CHECK(ints(a.index(nt::range(2))) == std::vector<std::int64_t>{2, 3, 4, 5, 6, 7, 8, 9});
    CHECK(ints(a.index(nt::range(-3))) == std::vector<std::int64_t>{7, 8, 9});
    CHECK(ints(a.index(nt::range(std::nullopt, -7))) == std::vector<std::int64_t>{0, 1, 2});
    CHECK(ints(a.index(nt::range(8, 2, -2))) == std::vector<std::int64_t>{8, 6, 4});
    CHECK(ints(a.index(nt::range(100, -100, -4))) == std::vector<std::int64_t>{9, 5, 1});
    CHECK(ints(a.index(nt::range(-100, 100, 3))) == std::vector<std::int64_t>{0, 3, 6, 9});
    CHECK(ints(a.index(nt::range(5, 5))).empty());
}

TEMPLATE_LIST_TEST_CASE("fill and assign", "[tensor][write]", nt::test::element_types) {
    auto a = nt::zeros<TestType>({2, 3});
    SECTION("fill through a strided view") {
        a.index(nt::all, nt::range(0, 3, 2)).fill(TestType(1));
        CHECK(ints(a) == std::vector<std::int64_t>{1, 0, 1, 1, 0, 1});
    }
    SECTION("assign a value") {
        a.assign(TestType(1));
        CHECK(ints(a) == std::vector<std::int64_t>{1, 1, 1, 1, 1, 1});
    }
    SECTION("assign broadcasts the source (right-aligned)") {
        a.assign(nt::tensor<TestType>({TestType(1), TestType(0), TestType(1)}));
        CHECK(ints(a) == std::vector<std::int64_t>{1, 0, 1, 1, 0, 1});
        a.assign(nt::tensor<TestType>({{TestType(0)}, {TestType(1)}}));
        CHECK(ints(a) == std::vector<std::int64_t>{0, 0, 0, 1, 1, 1});
    }
    SECTION("assign from an incompatible shape names both shapes") {
        auto src = nt::zeros<TestType>({2});
        const std::string msg = error_message(errc::incompatible_sizes, [&] { a.assign(src); });
        CHECK_THAT(msg, Catch::Contains("(2)") && Catch::Contains("(2,3)"));
    }
}

TEST_CASE("assign pairs named axes by name", "[tensor][write]") {
    auto a = nt::zeros<int>({2, 3}, {"N", "C"});
    auto c = nt::tensor<int>({1, 2}, {"N"});
    a.assign(c);
    CHECK(ints(a) == std::vector<std::int64_t>{1, 1, 1, 2, 2, 2});
    auto h = nt::tensor<int>({1, 2}, {"H"});
    error_message(errc::no_counterpart, [&] { a.assign(h); });
}

TEST_CASE("assign with an overlapping source behaves as if the source were copied first", "[tensor][write]") {
    SECTION("transpose into itself") {
        auto a = nt::arange<int>(9).reshape({3, 3});
        a.assign(a.transpose());
        CHECK(ints(a) == std::vector<std::int64_t>{0, 3, 6, 1, 4, 7, 2, 5, 8});
    }
    SECTION("shifted slices of one buffer") {
        auto a = nt::arange<int>(6);
        a.slice(0, 1).assign(a.slice(0, 0, 5));
        CHECK(ints(a) == std::vector<std::int64_t>{0, 0, 1, 2, 3, 4});
    }
    SECTION("reversed into itself") {
        auto a = nt::arange<int>(5);
        a.assign(a.slice(0, std::nullopt, std::nullopt, -1));
        CHECK(ints(a) == std::vector<std::int64_t>{4, 3, 2, 1, 0});
    }
}

TEST_CASE("write safety: aliasing views are read-only", "[tensor][write]") {
    auto base = nt::arange<int>(3);
    auto b = base.broadcast_to({4, 3});
    REQUIRE(b.is_read_only());
    CHECK_FALSE(base.is_read_only());

    auto expect_read_only = [](auto fn) {
        const std::string msg = error_message(errc::read_only, fn);
        CHECK_THAT(msg, Catch::Contains("read-only") && Catch::Contains("clone()"));
    };
    expect_read_only([&] { b.fill(0); });
    expect_read_only([&] { b.assign(7); });
    expect_read_only([&] { b.assign(nt::scalar(1)); });
    expect_read_only([&] { b(0, 0) = 1; });
    expect_read_only([&] { (void)b.mutable_data(); });
    CHECK(b.at(3, 2) == 2);  // reading is fine
    const auto& cb = b;
    CHECK(cb(3, 1) == 1);

    SECTION("sticky through views") {
        CHECK(b.transpose().is_read_only());
        CHECK(b.index(0).is_read_only());
        CHECK(b.slice(0, 0, 1).is_read_only());
        CHECK(b.reshape({2, 2, 3}).is_read_only());
        CHECK(b.unsqueeze(0).is_read_only());
    }
    SECTION("clone and contiguous give writable copies") {
        auto c = b.clone();
        CHECK_FALSE(c.is_read_only());
        c(0, 0) = 5;
        CHECK(base.at(0) == 0);
        auto d = b.contiguous();
        CHECK_FALSE(d.is_read_only());
        CHECK_FALSE(d.shares_storage(base));
        CHECK(ints(d) == std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});
    }
    SECTION("a reshape that has to copy is writable") {
        auto r = b.reshape({12});
        CHECK_FALSE(r.is_read_only());
        CHECK_FALSE(r.shares_storage(base));
    }
    SECTION("broadcasting a size-1 axis to size 1 or 0 stays writable") {
        CHECK_FALSE(nt::zeros<int>({1, 3}).broadcast_to({1, 3}).is_read_only());
        CHECK_FALSE(nt::zeros<int>({1, 3}).broadcast_to({0, 3}).is_read_only());
    }
    SECTION("overlapping unfold windows") {
        auto w = nt::arange<int>(5).unfold(0, 2, 1);
        CHECK(w.is_read_only());
        expect_read_only([&] { w.fill(0); });
        CHECK_FALSE(nt::arange<int>(6).unfold(0, 2, 2).is_read_only());  // disjoint windows
        CHECK(nt::arange<int>(5).unfold(0, 3, 1).index(0).is_read_only());  // sticky
    }
}

TEST_CASE("wrap: external memory without a copy", "[tensor][wrap]") {
    auto buffer = std::make_shared<std::array<float, 6>>();
    for (std::size_t i = 0; i < 6; ++i) (*buffer)[i] = static_cast<float>(i);
    SECTION("C order") {
        auto t = nt::Tensor<float>::wrap(buffer->data(), {2, 3}, {}, buffer, {"H", "W"});
        CHECK(t.at(1, 2) == 5.f);
        CHECK(names(t) == std::vector<std::string>{"H", "W"});
        t(0, 0) = 42.f;
        CHECK((*buffer)[0] == 42.f);
        CHECK_FALSE(t.is_read_only());
    }
    SECTION("negative strides: ptr is the element at index 0") {
        auto t = nt::Tensor<float>::wrap(buffer->data() + 5, {6}, {-1}, buffer);
        CHECK(ints(t) == std::vector<std::int64_t>{5, 4, 3, 2, 1, 0});
        CHECK(t.layout().offset() == 5);
        CHECK(t.base().extent() == 6);
    }
    SECTION("the owner keeps the memory alive") {
        std::weak_ptr<std::array<float, 6>> weak = buffer;
        auto t = nt::Tensor<float>::wrap(buffer->data(), {6}, {1}, buffer);
        buffer.reset();
        CHECK_FALSE(weak.expired());
        CHECK(t.at(5) == 5.f);
        t = nt::Tensor<float>();
        CHECK(weak.expired());
    }
    SECTION("aliasing strides make it read-only") {
        CHECK(nt::Tensor<float>::wrap(buffer->data(), {3, 3}, {1, 1}, buffer).is_read_only());
        CHECK(nt::Tensor<float>::wrap(buffer->data(), {2, 3}, {0, 1}, buffer).is_read_only());
        CHECK_FALSE(nt::Tensor<float>::wrap(buffer->data(), {2, 3}, {1, 2}, buffer).is_read_only());
    }
    SECTION("errors") {
        error_message(errc::invalid_argument, [&] { (void)nt::Tensor<float>::wrap(buffer->data(), {2, 3}, {1}, buffer); });
        error_message(errc::invalid_spec, [&] { (void)nt::Tensor<float>::wrap(buffer->data(), {-1}, {}, buffer); });
        error_message(errc::invalid_spec, [&] {
            (void)nt::Tensor<float>::wrap(buffer->data(), {2, 3}, {}, buffer, {"H"});
        });
    }
}

TEST_CASE("type_mismatch when adopting a base of another dtype", "[tensor]") {
    auto f = nt::zeros<float>({2});
    const std::string msg = error_message(errc::type_mismatch, [&] { (void)nt::Tensor<int>(f.base()); });
    CHECK_THAT(msg, Catch::Contains("f32") && Catch::Contains("i32"));
}

TEST_CASE("rank-8 views chain", "[tensor]") {
    auto t = nt::zeros<float>({2, 3, 4, 5, 1, 1, 1, 1});
    auto v = t.transpose().unsqueeze(0).squeeze(0).slice(1, 1);
    CHECK(v.base().layout().sizes().size() == 8);
    CHECK(v.base().names().size() == 8);
    CHECK(shape(v) == shape_t{2, 2, 4, 5, 1, 1, 1, 1});
}

TEST_CASE("rank up to max_rank works, beyond is invalid_spec", "[tensor]") {
    std::vector<std::int64_t> shape(nt::max_rank, 1);
    auto t = nt::zeros<std::uint8_t>(shape);
    CHECK(t.rank() == nt::max_rank);
    CHECK(t.squeeze_all().rank() == 0);
    error_message(errc::invalid_spec, [&] { (void)t.unsqueeze(0); });
    shape.push_back(1);
    error_message(errc::invalid_spec, [&] { (void)nt::zeros<float>(shape); });
}

TEST_CASE("assign converts between element types", "[tensor][write]") {
    auto f = nt::zeros<float>({2, 3});
    f.index(nt::all, 1).assign(nt::scalar(99));
    CHECK(f.to_vector() == std::vector<float>{0, 99, 0, 0, 99, 0});
    auto i = nt::zeros<std::uint8_t>({4});
    i.assign(nt::from_vector<double>({-5.0, 300.0, std::nan(""), 7.9}));
    CHECK(i.to_vector() == std::vector<std::uint8_t>{0, 255, 0, 7});
    auto b = nt::zeros<bool>({3});
    b.assign(nt::tensor<int>({0, 2, -1}));
    CHECK(b.to_vector() == std::vector<bool>{false, true, true});
    auto overlap = nt::arange<int>(4);
    auto as_float = nt::zeros<float>({4});
    as_float.assign(overlap.slice(0, std::nullopt, std::nullopt, -1));
    CHECK(as_float.to_vector() == std::vector<float>{3, 2, 1, 0});
}

TEMPLATE_LIST_TEST_CASE("wrap, to_vector, astype and printing for every element type", "[tensor][wrap]",
                        nt::test::element_types) {
    using T = TestType;
    const auto value = [](int i) { return std::is_same_v<T, bool> ? static_cast<T>(i % 2) : static_cast<T>(i); };
    std::shared_ptr<T[]> buffer(new T[6]);
    for (int i = 0; i < 6; ++i) buffer[i] = value(i);
    auto t = nt::Tensor<T>::wrap(buffer.get(), {2, 3}, {}, buffer, {"H", "W"});
    CHECK(t.dtype() == nt::dtype_of<T>);
    std::vector<T> expected;
    for (int i = 0; i < 6; ++i) expected.push_back(value(i));
    CHECK(t.to_vector() == expected);
    // A Fortran-ordered view of the same memory, and a write through it.
    auto f = nt::Tensor<T>::wrap(buffer.get(), {3, 2}, {1, 3}, buffer);
    CHECK(f.at(2, 1) == value(5));
    f(0, 1) = value(7);
    CHECK(t.at(1, 0) == value(7));
    // Every type converts to every other (spot check through double and back).
    const auto round_trip = t.template astype<double>().template astype<T>();
    CHECK(round_trip.to_vector() == t.to_vector());
    const std::string text = nt::to_string(t);
    CHECK_THAT(text, Catch::EndsWith("shape=(2,3 | H,W), dtype=" + std::string(nt::to_string(nt::dtype_of<T>)) + ")"));
}
