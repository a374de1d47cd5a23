// Compile-cost probe (docs/performance.md, "Compile cost of <nt/static.hpp>"): ten
// operations on run-time tensors; ten_ops_static.cpp is the same on tensor_of.
#include <nt/nt.hpp>

nt::Tensor<float> ten_ops(const nt::Tensor<float>& img, const nt::Tensor<float>& lbl, const nt::Tensor<float>& w) {
    auto a = img + lbl;
    auto b = a * w;
    auto c = b - img;
    auto d = nt::maximum(c, lbl);
    auto e = d / (w + 1.f);
    auto f = nt::exp(e);
    auto g = nt::where(f > img, f, img);
    auto h = nt::mean(g, {"H", "W"});
    auto i = h * nt::sum(w, {"H", "W"});
    return nt::minimum(i, h);
}
