// A tour of ntensor's structural operations, following the seeds' examples
// (Numerics.NET "Manipulating Tensors" and maidenx "Transform Operations").
// CTest runs it and compares its output with tour.expected.
#include <nt/nt.hpp>

#include <iostream>
#include <string>

namespace {
template <class T>
void show(const std::string& label, const nt::Tensor<T>& t) {
    std::cout << label << " =\n" << t << "\n\n";
}
void shape(const std::string& label, std::span<const std::int64_t> s) {
    std::cout << label << ".shape -> " << nt::shape_string(s) << "\n";
}
}  // namespace

int main() {
    std::cout << "== Broadcasting a single tensor ==\n\n";
    auto t = nt::tensor<int>({1, 2, 3});
    show("t", t);
    show("t.unsqueeze(0)", t.unsqueeze(0));
    show("t.broadcast_to({2, 3})", t.broadcast_to({2, 3}));
    struct condition {
        std::vector<std::int64_t> from, to;
    };
    for (const condition& c : {condition{{1, 3}, {4, 3}}, condition{{4, 1}, {4, 3}}, condition{{1, 4}, {4, 3}},
                               condition{{3, 1}, {4, 3}}, condition{{5, 3}, {4, 3}}, condition{{3}, {3, 1}}}) {
        std::cout << nt::shape_string(c.from) << " -> " << nt::shape_string(c.to) << ": ";
        try {
            auto view = nt::zeros<int>(c.from).broadcast_to(c.to);
            std::cout << "ok, strides " << nt::shape_string(view.strides()) << "\n";
        } catch (const nt::error& err) {
            std::cout << "error " << nt::to_string(err.code()) << "\n";
        }
    }
    std::cout << "\n";

    std::cout << "== Writing through an indexer ==\n\n";
    auto a = nt::tensor<int>({{1, 2, 3}, {4, 5, 6}});
    show("a", a);
    a.index(nt::all, 1).assign(nt::scalar(99));
    show("a after a.index(nt::all, 1).assign(nt::scalar(99))", a);

    std::cout << "== Broadcasting two operands ==\n\n";
    auto x = nt::tensor<int>({{10}, {20}});
    auto y = nt::tensor<int>({1, 2, 3});
    const nt::plan p = nt::match({x.spec(), y.spec()});
    auto xb = x.broadcast_to(p.output), yb = y.broadcast_to(p.output);
    show("x", x);
    show("y", y);
    show("x.broadcast_to(common)", xb);
    show("y.broadcast_to(common)", yb);
    auto z = nt::zeros<int>(p.output.sizes());
    for (std::int64_t i = 0; i < 2; ++i)
        for (std::int64_t j = 0; j < 3; ++j) z(i, j) = xb.at(i, j) + yb.at(i, j);
    show("z = x + y", z);

    std::cout << "== Reshaping ==\n\n";
    auto r = nt::arange<int>(12);
    show("a", r);
    auto b = r.reshape({3, 4});
    show("b = a.reshape({3, 4})", b);
    std::cout << "b shares storage with a: " << std::boolalpha << b.shares_storage(r) << "\n\n";
    show("c = a.reshape({4, 3})", r.reshape({4, 3}));
    show("d = a.reshape({-1, 6})", r.reshape({-1, 6}));
    auto e = b.index(nt::all, nt::range(0, 3));
    show("e = b.index(nt::all, nt::range(0, 3))", e);
    show("f = e.reshape({-1})", e.reshape({-1}));
    show("g = e.reshape({-1}, nt::order::fortran)", e.reshape({-1}, nt::order::fortran));
    try {
        (void)nt::zeros<int>({2, 3}).reshape({2, 2});
    } catch (const nt::error& err) {
        std::cout << "(2,3) -> (2,2): " << err.what() << "\n\n";
    }

    std::cout << "== Transposing and moving axes ==\n\n";
    auto m = nt::arange<int>(3 * 4 * 5).reshape({3, 4, 5});
    shape("a", m.shape());
    shape("a.move_axes({0, -1}, {-1, 0})", m.move_axes({0, -1}, {-1, 0}).shape());
    shape("a.move_axis(0, -1)", m.move_axis(0, -1).shape());
    shape("a.swap_axes(0, 2)", m.swap_axes(0, 2).shape());
    shape("a.transpose()", m.transpose().shape());
    std::cout << "\n";

    std::cout << "== View operations ==\n\n";
    auto v = nt::from_vector<float>({1, 2, 3, 4, 5, 6}).reshape({2, 3});
    show("a", v);
    show("a.view({6})", v.view({6}));
    show("a.view({3, 2})", v.view({3, 2}));
    try {
        (void)v.transpose().view({6});
    } catch (const nt::error& err) {
        std::cout << "a.transpose().view({6}): " << err.what() << "\n\n";
    }
    show("[1,2,3].reshape({1, 3}).squeeze(0)", nt::from_vector<float>({1, 2, 3}).reshape({1, 3}).squeeze(0));
    show("[1,2,3].reshape({1, 3, 1}).squeeze_all()",
         nt::from_vector<float>({1, 2, 3}).reshape({1, 3, 1}).squeeze_all());
    auto three = nt::from_vector<float>({1, 2, 3});
    show("[1,2,3].unsqueeze(0)", three.unsqueeze(0));
    show("[1,2,3].unsqueeze(1)", three.unsqueeze(1));

    std::cout << "== Layout operations ==\n\n";
    show("a.transpose(0, 1)", v.transpose(0, 1));
    auto five = nt::from_vector<float>({1, 2, 3, 4, 5});
    show("[1..5].slice(0, 1, 4, 1)", five.slice(0, 1, 4, 1));
    show("[1..5].slice(0, 0, 5, 2)", five.slice(0, 0, 5, 2));
    show("[1..5].slice(0, std::nullopt, std::nullopt, -1)", five.slice(0, std::nullopt, std::nullopt, -1));
    auto windows = five.unfold(0, 2, 1);
    show("[1..5].unfold(0, 2, 1)", windows);
    std::cout << "overlapping windows are read-only: " << windows.is_read_only() << "\n\n";

    std::cout << "== Broadcasting operations ==\n\n";
    show("[1,2,3].broadcast_to({2, 3})", three.broadcast_to({2, 3}));
    show("[1,2,3].broadcast_like(zeros(2, 3))", three.broadcast_like(nt::zeros<float>({2, 3})));
    auto left = three.broadcast_left({2, 2});
    shape("[1,2,3].broadcast_left({2, 2})", left.shape());
    try {
        left.fill(0.f);
    } catch (const nt::error& err) {
        std::cout << "writing into it: " << err.what() << "\n\n";
    }

    std::cout << "== Named axes ==\n\n";
    auto img = nt::arange<float>(2 * 3 * 2 * 2).reshape({2, 3, 2, 2}, {"N", "C", "H", "W"});
    auto lbl = nt::from_vector<float>({1, 2, 3, 4}).reshape({2, 2}, {"H", "W"});
    show("lbl.broadcast_like(img).index(1, 2)", lbl.broadcast_like(img).index(1, 2));
    show("img.align_to(\"W\", \"...\").index(0, 0)", img.align_to("W", "...").index(0, 0));
    show("img.flatten(\"H\", \"W\", \"HW\").index(0)", img.flatten("H", "W", "HW").index(0));
    show("img.index(nt::all, 0).rename({\"B\", \"Y\", \"X\"})", img.index(nt::all, 0).rename({"B", "Y", "X"}));
    return 0;
}
