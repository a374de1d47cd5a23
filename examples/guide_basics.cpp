// docs/guide.md, "Creating tensors" and "Reading and writing elements".
#include <nt/nt.hpp>

#include <iostream>

int main() {
    // [creation]
    auto a = nt::tensor<int>({{1, 2, 3}, {4, 5, 6}});       // from nested lists
    auto z = nt::zeros<float>({2, 3}, {"N", "C"});           // with names
    auto f = nt::full<double>({2}, 0.5);
    auto r = nt::arange<double>(0.0, 1.0, 0.25);             // start, stop, step
    auto v = nt::from_vector<std::int64_t>({1, 2, 3, 4, 5, 6}, {3, 2}, {"H", "W"});
    auto s = nt::scalar(99);                                 // rank 0
    std::cout << a << "\n" << z << "\n" << f << "\n" << r << "\n" << v << "\n" << s << "\n";
    std::cout << "rank " << v.rank() << ", size " << v.size() << ", shape " << nt::shape_string(v.shape())
              << ", spec " << v.spec() << ", size of W " << v.size("W") << "\n";
    // [creation]

    // [access]
    std::cout << a.at(1, -1) << "\n";  // 6: negative indices count from the end
    a(0, 0) = 10;                      // operator() gives a reference
    for (int x : a.to_vector()) std::cout << " " << x;  // row-major copy
    std::cout << "\n";
    // [access]

    // [index]
    auto m = nt::arange<int>(12).reshape({3, 4});
    std::cout << m.index(1) << "\n";                     // m[1]
    std::cout << m.index(nt::all, 1) << "\n";            // m[:, 1]
    std::cout << m.index(nt::range(1), nt::range(std::nullopt, std::nullopt, 2)) << "\n";  // m[1:, ::2]
    std::cout << m.index(nt::range(std::nullopt, std::nullopt, -1), -1) << "\n";            // m[::-1, -1]
    std::cout << m.index(-1, -1) << "\n";                // m[-1, -1], rank 0
    m.index(nt::all, 0).fill(-1);                        // writes through the view into m
    std::cout << m << "\n";
    // [index]
}
