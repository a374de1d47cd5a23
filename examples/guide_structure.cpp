// docs/guide.md, "Structural operations": one section per family. Every result
// here is a view of its operand unless a comment says otherwise.
#include <nt/nt.hpp>

#include <iostream>

// SHOW(expr) prints an expression and the tensor it gives; SPEC(expr) prints the
// expression and the tensor's spec: SPEC(t.unsqueeze(0)) prints "t.unsqueeze(0) -> (1,6)".
#define SHOW(...) (std::cout << #__VA_ARGS__ << "\n" << (__VA_ARGS__) << "\n")
#define SPEC(...) (std::cout << #__VA_ARGS__ << " -> " << (__VA_ARGS__).spec() << "\n")

int main() {
    std::cout << std::boolalpha;

    // [reshape]
    auto t = nt::arange<int>(6);
    SHOW(t.reshape({2, 3}));
    SHOW(t.reshape({-1, 2}));  // -1 is inferred: (3,2)
    SHOW(t.reshape({2, 3}, nt::order::fortran));  // NumPy order='F'
    auto m = t.reshape({2, 3}, {"H", "W"});
    SPEC(m.flatten());
    SPEC(m.flatten("H", "W", "HW"));
    SPEC(t.unflatten(0, {3, -1}, {"A", "B"}));
    // [reshape]

    // [squeeze]
    auto col = t.reshape({1, 6, 1});
    SPEC(col.squeeze(0));
    SPEC(col.squeeze_all());
    SPEC(t.unsqueeze(0));
    SPEC(t.unsqueeze(-1, "K"));  // positions refer to the result
    SPEC(t.expand_dims({0, 2}));
    // [squeeze]

    // [permute]
    auto c = nt::zeros<float>({2, 3, 4}, {"N", "H", "W"});
    SPEC(c.transpose());  // the last two axes
    SPEC(c.swap_axes(0, "W"));
    SPEC(c.permute({2, 0, 1}));  // axis k of the result is axis order[k]
    SPEC(c.move_axis("N", -1));
    SPEC(c.move_axes({0, -1}, {-1, 0}));
    SPEC(c.move_axes({2, 0, 1}));  // axis i goes to position [i]
    // [permute]

    // [slice]
    auto five = nt::arange<int>(5);
    SHOW(five.slice(0, 1, 4));  // five[1:4]
    SHOW(five.slice(0, std::nullopt, std::nullopt, -2));  // five[::-2]
    SHOW(five.slice(0, nt::range(-2)));  // five[-2:]
    SHOW(five.unfold(0, 3, 1));  // windows of 3, step 1
    std::cout << "overlapping windows are read-only: " << five.unfold(0, 3, 1).is_read_only() << "\n";
    SHOW(five.unfold(0, 2, 2));  // (5 - 2) / 2 + 1 = 2 windows
    // [slice]

    // [broadcast]
    auto row = nt::tensor<int>({1, 2, 3});
    SHOW(row.broadcast_to({2, 3}));
    SPEC(row.broadcast_left({4, 2}));
    auto img = nt::zeros<float>({2, 3, 4}, {"C", "H", "W"});
    auto h = nt::arange<float>(3).rename({"H"});
    SPEC(h.broadcast_like(img));  // pairs H with H
    std::cout << "strides " << nt::shape_string(h.broadcast_like(img).strides()) << "\n";
    // [broadcast]

    // [align]
    SPEC(img.align_to("W", "H", "C"));
    SPEC(img.align_to("W", "..."));
    SPEC(h.align_to("C", "H", "W"));  // inserts named singletons
    SPEC(h.align_as(img));
    // [align]

    // [contiguous]
    auto tr = m.transpose();
    std::cout << "tr.is_contiguous() " << tr.is_contiguous() << "\n";
    auto packed = tr.contiguous();  // a C-contiguous copy
    std::cout << "packed.is_contiguous() " << packed.is_contiguous() << ", shares storage "
              << packed.shares_storage(m) << "\n";
    std::cout << "m.contiguous() shares storage " << m.contiguous().shares_storage(m) << "\n";  // itself
    // [contiguous]
}
