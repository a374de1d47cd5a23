// docs/guide.md, "Handles and shared storage": copying a handle shares the
// elements, clone() copies them, and views keep their storage alive.
#include <nt/nt.hpp>

#include <iostream>
#include <memory>
#include <vector>

int main() {
    std::cout << std::boolalpha;

    // [handles]
    auto a = nt::zeros<int>({2, 3});
    auto b = a;          // a second handle to the same elements
    b(0, 0) = 7;         // seen through a as well
    auto c = a.clone();  // a deep copy
    c(0, 1) = 8;         // not seen through a
    std::cout << a << "\n";
    std::cout << "b shares storage with a: " << b.shares_storage(a) << "\n";
    std::cout << "c shares storage with a: " << c.shares_storage(a) << "\n";
    // [handles]

    // [no-dangling]
    auto first_row = [] {
        auto m = nt::arange<float>(6).reshape({2, 3});
        return m.index(0);  // m is destroyed here; the row keeps the storage alive
    };
    auto row = first_row();
    std::cout << row << "\n";
    // [no-dangling]

    // [eager]
    auto x = nt::ones<float>({3});
    auto y = x + x;  // computed now, into a new tensor
    x(0) = 100;      // does not change y
    std::cout << y << "\n";
    // [eager]

    // [wrap]
    auto buffer = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4, 5, 6});
    // Column-major (2,3): strides in elements, the owner keeps the buffer alive.
    auto w = nt::Tensor<float>::wrap(buffer->data(), {2, 3}, {1, 2}, buffer);
    std::cout << w << "\n";
    w(1, 2) = 60;  // writes into the buffer
    std::cout << "buffer[5] = " << (*buffer)[5] << "\n";
    // [wrap]
}
