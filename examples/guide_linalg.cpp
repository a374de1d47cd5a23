// docs/guide.md, "Contraction: dot, einsum, matmul, tensordot".
#include <nt/nt.hpp>

#include <iostream>

int main() {
    // [dot]
    auto x = nt::arange<float>(2 * 3 * 2 * 2).reshape({2, 3, 2, 2}, {"N", "C", "H", "W"});
    auto w = nt::tensor<float>({{1, 0}, {0, 1}, {1, 1}}, {"C", "K"});  // (3,2 | C,K)
    auto y = nt::dot(x, w, "C");  // sums over C; N, H, W and K are kept
    std::cout << y.spec() << "\n";
    std::cout << y.index(0, 0, 0) << "\n";  // x[0, :, 0, 0] = (0, 4, 8)
    // The axis order of the operands does not matter: axes pair by name.
    auto y2 = nt::dot(x.permute({"W", "C", "H", "N"}), w.transpose(), "C");
    std::cout << nt::all(y2.align_to("N", "H", "W", "K") == y).at() << "\n";
    // [dot]

    // [einsum]
    auto z = nt::einsum("N C H W, C K -> N K H W", x, w);  // the right side names the result
    std::cout << z.spec() << "\n";
    auto gram = nt::einsum("N C H W, N D H W -> N C D", x, x.rename({"N", "D", "H", "W"}));
    auto sq = nt::arange<int>(9).reshape({3, 3});
    std::cout << gram.spec() << " " << nt::einsum("i i ->", sq).at() << "\n";  // a trace: 0 + 4 + 8
    try {
        (void)nt::einsum("N C H W, D K -> N K H W", x, w);  // w's axis 0 is C, not D
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << "\n";
    }
    // '?' is one unnamed axis (the k-th '?' of every part is the same axis), '...'
    // NumPy's ellipsis: both stay unnamed, so the result still pairs by names.
    auto batch = nt::arange<float>(2 * 3 * 2 * 2).reshape({2, 3, 2, 2}, {"?", "C", "H", "W"});
    std::cout << nt::einsum("? C H W, C K -> ? K H W", batch, w).spec() << " "
              << nt::einsum("... C H W, C K -> ... K H W", batch, w).spec() << "\n";
    // [einsum]

    // [matmul]
    auto a = nt::arange<float>(2 * 2 * 3).reshape({2, 2, 3});  // a batch of two 2x3
    auto b = nt::ones<float>({3, 4});                           // broadcast over the batch
    std::cout << nt::matmul(a, b).spec() << " " << nt::matmul(a, b).at(1, 1, 0) << "\n";
    auto v = nt::tensor<float>({1, 2, 3});
    std::cout << nt::matmul(v, v) << "\n";  // two 1-D operands: a scalar
    std::cout << nt::tensordot(a, b, 1).spec() << " " << nt::tensordot(a, a, {1, 2}, {1, 2}).spec() << "\n";
    auto i = nt::tensor<std::int8_t>({100, 100});
    std::cout << nt::matmul(i, i) << "\n";  // int8 wraps, as in NumPy: 20000 mod 256
    // [matmul]
}
