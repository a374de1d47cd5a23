// Eigen 3.4 Tensor's side of scripts/bench.sh --peers (row-major tensors, the default
// single-threaded device).
#include <unsupported/Eigen/CXX11/Tensor>

#include "peers_timing.hpp"

// The column: "Eigen", or "Eigen -march=native" for the second build.
#ifndef PEERS_COLUMN
#define PEERS_COLUMN "Eigen"
#endif

namespace {

using peers::best_of_15;
using peers::keep;
using peers::report;

template <int N>
using tensor = Eigen::Tensor<float, N, Eigen::RowMajor>;

template <int N>
void add(const char* workload, const Eigen::array<Eigen::Index, N>& a_shape,
         const Eigen::array<Eigen::Index, N>& b_shape) {
    tensor<N> a(a_shape), b(b_shape);
    a.setConstant(1.5f);
    b.setConstant(2.5f);
    Eigen::array<Eigen::Index, N> times;
    for (int i = 0; i < N; ++i) times[i] = a_shape[i] / b_shape[i];
    tensor<N> out(a_shape);
    report(workload, PEERS_COLUMN, best_of_15([&] {
               out = a + b.broadcast(times);
               keep(out.data());
           }));
}

// A materialised permutation of a random tensor.
template <int N>
void shuffled(const char* workload, const Eigen::array<Eigen::Index, N>& shape, const Eigen::array<int, N>& order) {
    tensor<N> t(shape);
    t.setRandom();
    report(workload, PEERS_COLUMN, best_of_15([&] {
               tensor<N> r = t.shuffle(order);
               keep(r.data());
           }));
}

}  // namespace

int main() {
    add<4>("add (10,3,256,384)+(10,1,256,384)", {10, 3, 256, 384}, {10, 1, 256, 384});
    add<4>("add (20,3,512,512)+(20,1,512,512)", {20, 3, 512, 512}, {20, 1, 512, 512});
    add<2>("inner broadcast (4096,4096)+(4096,1)", {4096, 4096}, {4096, 1});
    {
        // (4,8) + (8): the row as (1,8) broadcast 4 times.
        tensor<2> a(4, 8), b(1, 8), out(4, 8);
        a.setConstant(1.5f);
        b.setConstant(2.5f);
        const Eigen::array<Eigen::Index, 2> times{4, 1};
        report("tiny (4,8)+(8) into out", PEERS_COLUMN, best_of_15([&] {
                   out = a + b.broadcast(times);
                   keep(out.data());
               }));
        report("tiny (4,8)+(8) fresh", PEERS_COLUMN, best_of_15([&] {
                   const tensor<2> r = a + b.broadcast(times);
                   keep(r.data());
               }));
    }
    shuffled<2>("transpose copy 4096^2", {4096, 4096}, {1, 0});
    shuffled<3>("permuted copy (3,256,384)->(2,1,0)", {3, 256, 384}, {2, 1, 0});
    {
        // Fortran order of a row-major tensor: all axes reversed, then read in order.
        tensor<3> t(256, 384, 3);
        t.setRandom();
        const Eigen::array<int, 3> order{2, 1, 0};
        const Eigen::array<Eigen::Index, 1> flat{256 * 384 * 3};
        report("Fortran flatten (256,384,3)", PEERS_COLUMN, best_of_15([&] {
                   tensor<1> r = t.shuffle(order).reshape(flat);
                   keep(r.data());
               }));
    }
    {
        // Eigen's unfold: extract_patches of 8, (n-7, 8) in row-major.
        tensor<1> t(10'000'000);
        t.setRandom();
        const Eigen::array<Eigen::Index, 1> window{8};
        report("unfold 1e7 window 8", PEERS_COLUMN, best_of_15([&] {
                   tensor<2> r = t.extract_patches(window);
                   keep(r.data());
               }));
    }
}
