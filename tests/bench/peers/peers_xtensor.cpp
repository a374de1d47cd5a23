// xtensor's side of scripts/bench.sh --peers (xtensor 0.24 with xsimd, one thread:
// xtensor runs single-threaded unless built with TBB or OpenMP, which Debian's is not).
#include <xtensor/xadapt.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xtensor.hpp>

#include "peers_timing.hpp"

// The column: "xtensor", or "xtensor -march=native" for the second build.
#ifndef PEERS_COLUMN
#define PEERS_COLUMN "xtensor"
#endif

namespace {

using peers::best_of_15;
using peers::keep;
using peers::report;

template <std::size_t NA, std::size_t NB>
void add(const char* workload, const std::array<std::size_t, NA>& a_shape, const std::array<std::size_t, NB>& b_shape) {
    xt::xtensor<float, NA> a(a_shape, 1.5f);
    xt::xtensor<float, NB> b(b_shape, 2.5f);
    xt::xtensor<float, NA> out = a + b;
    report(workload, PEERS_COLUMN, best_of_15([&] {
               xt::noalias(out) = a + b;
               keep(out.data());
           }));
}

}  // namespace

int main() {
    add<4, 4>("add (10,3,256,384)+(10,1,256,384)", {10, 3, 256, 384}, {10, 1, 256, 384});
    add<4, 4>("add (20,3,512,512)+(20,1,512,512)", {20, 3, 512, 512}, {20, 1, 512, 512});
    add<2, 2>("inner broadcast (4096,4096)+(4096,1)", {4096, 4096}, {4096, 1});
    add<2, 1>("tiny (4,8)+(8) into out", {4, 8}, {8});
    {
        const xt::xtensor<float, 2> a({4, 8}, 1.5f);
        const xt::xtensor<float, 1> b({8}, 2.5f);
        report("tiny (4,8)+(8) fresh", PEERS_COLUMN, best_of_15([&] {
                   const xt::xtensor<float, 2> r = a + b;
                   keep(r.data());
               }));
    }
    {
        xt::xtensor<float, 2> t = xt::reshape_view(xt::arange<float>(4096.0f * 4096.0f), {4096, 4096});
        report("transpose copy 4096^2", PEERS_COLUMN, best_of_15([&] {
                   xt::xtensor<float, 2> r = xt::transpose(t);
                   keep(r.data());
               }));
    }
    {
        xt::xtensor<float, 3> t = xt::reshape_view(xt::arange<float>(3.0f * 256 * 384), {3, 256, 384});
        report("permuted copy (3,256,384)->(2,1,0)", PEERS_COLUMN, best_of_15([&] {
                   xt::xtensor<float, 3> r = xt::transpose(t, {2, 1, 0});
                   keep(r.data());
               }));
    }
    {
        xt::xtensor<float, 3> t = xt::reshape_view(xt::arange<float>(256.0f * 384 * 3), {256, 384, 3});
        report("Fortran flatten (256,384,3)", PEERS_COLUMN, best_of_15([&] {
                   xt::xtensor<float, 1> r = xt::flatten<xt::layout_type::column_major>(t);
                   keep(r.data());
               }));
    }
    {
        // xtensor has no unfold: the windows as a strided view of shape (n-7, 8) and
        // strides (1,1) over the data (no copy), assigned to a new tensor.
        const std::size_t n = 10'000'000, w = 8;
        const xt::xtensor<float, 1> t = xt::arange<float>(static_cast<float>(n));
        report("unfold 1e7 window 8", PEERS_COLUMN, best_of_15([&] {
                   const auto windows = xt::strided_view(t, std::array<std::size_t, 2>{n - w + 1, w},
                                                         std::array<std::ptrdiff_t, 2>{1, 1});
                   xt::xtensor<float, 2> r = windows;
                   keep(r.data());
               }));
    }
}
