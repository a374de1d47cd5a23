// docs/guide.md, "Views and copies", "Write safety" and "Assigning through views".
#include <nt/nt.hpp>

#include <iostream>

int main() {
    std::cout << std::boolalpha;

    // [reshape-rule]
    auto m = nt::arange<int>(6).reshape({2, 3});  // a view of the arange
    auto flat = m.reshape({-1});                  // still a view: m is contiguous
    auto tflat = m.transpose().reshape({-1});     // a copy: no strides can do this
    std::cout << "flat is a view: " << flat.shares_storage(m) << "\n";
    std::cout << "tflat is a view: " << tflat.shares_storage(m) << "\n";
    std::cout << tflat << "\n";
    // [reshape-rule]

    // [reshape-strided]
    auto x = nt::arange<int>(24).reshape({2, 3, 4});
    auto even = x.slice(2, 0, std::nullopt, 2);  // x[:, :, ::2]: shape (2,3,2), strides (12,4,2)
    auto e12 = even.reshape({12});               // a single stride of 2 reaches every element
    std::cout << "even.reshape({12}): strides " << nt::shape_string(e12.strides()) << ", view "
              << e12.shares_storage(x) << "\n";
    auto col0 = x.index(nt::all, 0);             // x[:, 0]: shape (2,4), strides (12,1)
    auto c8 = col0.reshape({8});                 // elements 0-3 and 12-15: no single stride
    std::cout << "col0.reshape({8}): view " << c8.shares_storage(x) << "\n";
    auto r6 = nt::arange<int>(6);
    auto fo = r6.reshape({2, 3}, nt::order::fortran);  // a 1-D range is both C and F contiguous
    std::cout << "r6.reshape({2, 3}, fortran): strides " << nt::shape_string(fo.strides()) << ", view "
              << fo.shares_storage(r6) << "\n";
    // [reshape-strided]

    // [view-throws]
    try {
        (void)m.transpose().view({6});  // view() never copies
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << ": " << e.message() << "\n";
    }
    // [view-throws]

    // [read-only]
    auto row = nt::tensor<int>({1, 2, 3});
    auto grid = row.broadcast_to({2, 3});  // stride 0 on axis 0
    std::cout << "grid is read-only: " << grid.is_read_only() << "\n";
    try {
        grid(0, 0) = 5;  // would change grid(1, 0) as well
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << ": " << e.message() << "\n";
    }
    // A view of a read-only view is read-only too, even without stride 0:
    auto first = grid.index(0);
    std::cout << "grid.index(0) strides " << nt::shape_string(first.strides()) << ", read-only "
              << first.is_read_only() << "\n";
    // clone() and contiguous() give writable copies.
    auto own = grid.clone();
    own(0, 0) = 5;
    std::cout << own << "\n";
    // [read-only]

    // [assign]
    auto a = nt::tensor<int>({{1, 2, 3}, {4, 5, 6}});
    a.index(nt::all, 1).assign(nt::scalar(99));                  // set a column
    a.index(0).assign(nt::tensor<int>({7, 8, 9}));               // set a row
    a.slice(1, 0, 2).assign(nt::tensor<int>({{-1}, {-2}}));      // (2,1) broadcast to (2,2)
    std::cout << a << "\n";
    auto f = nt::zeros<float>({2, 2});
    f.index(0).assign(nt::tensor<int>({1, 2}));  // other element types convert
    f.index(1).fill(0.5f);
    std::cout << f << "\n";
    // [assign]

    // [assign-by-name]
    auto nc = nt::zeros<int>({2, 3}, {"N", "C"});
    nc.assign(nt::tensor<int>({{1, 2}, {3, 4}, {5, 6}}, {"C", "N"}));  // (3,2 | C,N): paired by name
    std::cout << nc << "\n";
    // [assign-by-name]

    // [overlap]
    auto sq = nt::arange<int>(9).reshape({3, 3});
    sq.assign(sq.transpose());  // as if the source were copied first
    std::cout << sq << "\n";
    auto s = nt::arange<int>(5);
    s.slice(0, 1).assign(s.slice(0, 0, 4));  // s[1:] = s[:4]
    std::cout << s << "\n";
    // [overlap]
}
