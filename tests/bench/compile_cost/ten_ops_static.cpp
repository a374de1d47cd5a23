// Compile-cost probe: ten_ops_runtime.cpp's ten operations on tensor_of operands.
#include <nt/nt.hpp>
#include <nt/static.hpp>

using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
using lbl_t = nt::tensor_of<float, "?", "H", "W">;
using w_t = nt::tensor_of<float, "CHANNEL", "H", "W">;

nt::Tensor<float> ten_ops(const img_t& img, const lbl_t& lbl, const w_t& w) {
    auto a = img + lbl;
    auto b = a * w;
    auto c = b - img;
    auto d = nt::maximum(c, lbl);
    auto e = d / (w + 1.f);
    auto f = nt::exp(e);
    auto g = nt::where(f > img, f, img);
    auto h = nt::mean<"H", "W">(g);
    auto i = h * nt::sum<"H", "W">(w);
    return nt::minimum(i, h);
}
