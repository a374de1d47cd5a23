// docs/guide.md, "Element-wise math by names" and "Reductions by name".
#include <nt/nt.hpp>

#include <cmath>
#include <iostream>

int main() {
    // [img-labels]
    auto img = nt::arange<float>(2 * 3 * 2 * 2).reshape({2, 3, 2, 2}, {"?", "C", "H", "W"});
    auto lbl = nt::tensor<float>({{{1, 0}, {0, 1}}, {{0, 1}, {1, 0}}}, {"?", "H", "W"});  // (2,2,2)
    auto masked = img * lbl;  // lbl gets a singleton at C: pairs ? with ?, H with H, W with W
    std::cout << masked.spec() << "\n";
    std::cout << masked.index(1, 2) << "\n";  // image 1, channel 2
    // [img-labels]

    // [order-free]
    auto hw = nt::ones<float>({2, 3}, {"H", "W"});
    auto wh = nt::ones<float>({3, 2}, {"W", "H"});
    std::cout << (hw + wh).spec() << "\n";  // the first operand's order
    // [order-free]

    // [scalars]
    auto x = nt::tensor<int>({1, 2, 3});
    std::cout << x * 2 + 1 << "\n";   // int scalars keep int32
    std::cout << x / 2 << "\n";       // true division: double
    std::cout << x * 0.5 << "\n";     // a floating scalar makes integers double
    std::cout << (x > 1) << "\n";     // comparisons give bool
    std::cout << nt::sqrt(nt::tensor<float>({4, 9})) << "\n";
    std::cout << nt::astype<float>(x) << "\n";
    // [scalars]

    // [promotion]
    auto i32 = nt::tensor<std::int32_t>({1, 2});
    auto f32 = nt::tensor<float>({0.5f, 0.5f});
    auto u8 = nt::tensor<std::uint8_t>({1, 2});
    std::cout << "i32 + f32 -> " << nt::to_string((i32 + f32).dtype()) << "\n";  // NumPy: float64 too
    std::cout << "u8 + f32  -> " << nt::to_string((u8 + f32).dtype()) << "\n";
    std::cout << "u8 + i32  -> " << nt::to_string((u8 + i32).dtype()) << "\n";
    std::cout << "u8 * 2    -> " << nt::to_string((u8 * 2).dtype()) << "\n";  // a scalar adapts
    auto i8 = nt::tensor<std::int8_t>({-1, 1});
    auto u16 = nt::tensor<std::uint16_t>({1, 2});
    auto i16 = nt::tensor<std::int16_t>({1, 2});
    auto f16 = nt::tensor<nt::half>({0.5, 1.5});
    std::cout << "u8 + i8   -> " << nt::to_string((u8 + i8).dtype()) << "\n";   // holds both: int16
    std::cout << "u16 + i16 -> " << nt::to_string((u16 + i16).dtype()) << "\n";
    std::cout << "u8 + f16  -> " << nt::to_string((u8 + f16).dtype()) << "\n";
    std::cout << "i16 + f16 -> " << nt::to_string((i16 + f16).dtype()) << "\n";  // float16 cannot hold int16
    std::cout << "sum(u8)   -> " << nt::to_string(nt::sum(u8).dtype()) << "\n";   // NumPy's uint64
    // [promotion]

    // [named-meets-unnamed]
    auto nc = nt::zeros<float>({2, 3}, {"N", "C"});
    auto bias = nt::tensor<float>({1, 2, 3});  // unnamed: pairs only with unnamed axes
    try {
        (void)(nc + bias);
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << "\n";
    }
    std::cout << nc + bias.rename({"C"}) << "\n";  // named C: pairs with C
    // [named-meets-unnamed]

    // [where]
    auto v = nt::tensor<float>({-2, -1, 0, 1, 2});
    std::cout << nt::where(v > 0.0f, v, nt::scalar(0.0f)) << "\n";  // ReLU
    std::cout << nt::maximum(v, nt::scalar(-1.0f)) << "\n";
    // [where]

    // [in-place]
    auto acc = nt::zeros<float>({2, 3}, {"N", "C"});
    acc += nt::tensor<float>({1, 2, 3}, {"C"});  // broadcast to acc's shape
    acc *= 2.0f;
    std::cout << acc << "\n";
    auto out = nt::zeros<float>({2, 3});
    nt::add(acc, nt::tensor<float>({10, 20, 30}, {"C"}), out);  // NumPy's out=: no allocation
    std::cout << out << "\n";
    // [in-place]

    // [broadcast-tensors]
    auto [bi, bl] = nt::broadcast_tensors(img, lbl);
    std::cout << bi.spec() << " " << bl.spec() << ", strides of bl "
              << nt::shape_string(bl.strides()) << ", read-only " << bl.is_read_only() << "\n";
    // [broadcast-tensors]

    // [with-union]
    auto labels = nt::tensor<std::int64_t>({0, 2, 1, 2}).reshape({2, 2}, {"H", "W"});
    auto classes = nt::arange<std::int64_t>(3).rename({"CLASS"});
    auto one_hot = nt::with_union(labels) == classes;  // CLASS becomes a new output axis
    std::cout << one_hot.spec() << " " << nt::sum(one_hot, {"H", "W"}) << "\n";
    // [with-union]

    // [reduce]
    auto prob = nt::arange<float>(24).reshape({2, 3, 2, 2}, {"?", "CLASS", "H", "W"});
    std::cout << nt::sum(prob, {"H", "W"}) << "\n";
    std::cout << nt::mean(prob, "CLASS", true).spec() << "\n";  // keepdims
    std::cout << nt::argmax(prob, "CLASS").spec() << " " << nt::max(prob) << "\n";
    std::cout << nt::sum(x) << "\n";                            // int64 for signed integers
    std::cout << nt::any(x > 2).at() << " " << nt::all(x > 2).at() << "\n";
    // Softmax over CLASS: the keepdims results pair with prob by name.
    auto e = nt::exp(prob - nt::max(prob, "CLASS", true));
    auto p = e / nt::sum(e, "CLASS", true);
    std::cout << p.spec() << "\n";
    // [reduce]

    // [softmax-values]
    std::cout << p.index(0, nt::all, 0, 0) << "\n";  // image 0, pixel (0, 0): sums to 1
    // [softmax-values]

    // [masks]
    auto scan = nt::tensor<float>({{{1, -2}, {NAN, 4}}, {{-5, 6}, {7, -8}}}, {"C", "H", "W"});
    auto valid = nt::tensor<bool>({{true, true}, {false, true}}, {"W", "H"});  // (W,H): permuted
    std::cout << nt::where(valid, scan, 0.0f).index(0) << "\n";           // channel 0
    std::cout << nt::clip(nt::nan_to_num(scan), -1.0f, 1.0f).index(1) << "\n";
    scan.masked_fill(!valid, -1.0f);                                      // in place, every channel
    std::cout << nt::masked_select(scan, scan > 0.0f) << "\n";           // row-major order
    std::cout << (nt::tensor<std::uint8_t>({0b1100, 0b1010}) >> 2) << " "
              << nt::floor_divide(nt::tensor<int>({-7, 7}), 2) << "\n";
    // [masks]
}
