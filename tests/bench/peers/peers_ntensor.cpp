// ntensor's side of scripts/bench.sh --peers: the workloads of peers_timing.hpp on 1
// and 2 threads, the named forms of the adds, and memcpy of each byte count.
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "nt/nt.hpp"
#include "peers_timing.hpp"
#include "segmentation_net.hpp"

namespace {

using peers::best_of_15;
using peers::keep;
using peers::report;

void memcpy_of(const char* workload, std::size_t bytes_moved) {
    std::vector<char> src(bytes_moved / 2, 1), dst(bytes_moved / 2, 0);
    report(workload, "memcpy", best_of_15([&] {
               std::memcpy(dst.data(), src.data(), src.size());
               keep(dst.data());
           }));
}

void add(const char* workload, std::vector<std::int64_t> a_shape, std::vector<std::int64_t> b_shape) {
    const auto a = nt::full<float>(a_shape, 1.5f), b = nt::full<float>(b_shape, 2.5f);
    auto out = a + b;
    for (const int threads : {1, 2}) {
        nt::set_num_threads(threads);
        report(workload, threads == 1 ? "ntensor 1T" : "ntensor 2T", best_of_15([&] {
                   nt::add(a, b, out);
                   keep(out.data());
               }));
    }
    nt::set_num_threads(1);
    memcpy_of(workload, static_cast<std::size_t>(a.size() + b.size() + out.size()) * sizeof(float));
}

template <class Make>
void copy(const char* workload, const nt::Tensor<float>& src, Make make) {
    for (const int threads : {1, 2}) {
        nt::set_num_threads(threads);
        report(workload, threads == 1 ? "ntensor 1T" : "ntensor 2T", best_of_15([&] {
                   const nt::Tensor<float> r = make(src);
                   keep(r.data());
               }));
    }
    nt::set_num_threads(1);
    memcpy_of(workload, static_cast<std::size_t>(make(src).size()) * 2 * sizeof(float));
}

// The named forms of an add (one thread): `a` named `a_names`, `b` named `b_names` in
// the same axis order ("ntensor named") and, when `b_swapped` is given, the same
// values stored with its last two axes swapped ("ntensor named, permuted").
void named(const char* workload, std::vector<std::int64_t> a_shape, nt::names_arg a_names,
           std::vector<std::int64_t> b_shape, nt::names_arg b_names,
           std::vector<std::int64_t> b_swapped_shape = {}, nt::names_arg b_swapped_names = {}) {
    nt::set_num_threads(1);
    const auto a = nt::full<float>(a_shape, 1.5f).rename(a_names);
    const auto same = nt::full<float>(b_shape, 2.5f).rename(b_names);
    auto out = a + same;
    report(workload, "ntensor named", best_of_15([&] {
               nt::add(a, same, out);
               keep(out.data());
           }));
    if (b_swapped_shape.empty()) return;
    const auto swapped = nt::full<float>(b_swapped_shape, 2.5f).rename(b_swapped_names);
    report(workload, "ntensor named, permuted", best_of_15([&] {
               nt::add(a, swapped, out);
               keep(out.data());
           }));
}

// The same adds as plain C++ loops over raw arrays ("hand loop", one thread, the
// compiler's vectorisation at these flags): what an add costs without a library. The
// speed issue's inner-broadcast target is 45 GB/s or at least this loop's speed.
// Shapes (n, c, m) + (n, 1, m): the add of a (10,3,256,384) image batch and its
// (10,1,256,384) labels is (10, 3, 256 * 384); the inner broadcast (4096,4096) +
// (4096,1) is m = 1 on the second operand: (4096, 4096, 1) + (4096, 1, 1), written as
// its own loop so that the compiler sees the scalar.
void hand_add(const char* workload, std::int64_t n, std::int64_t c, std::int64_t m) {
    std::vector<float> a(static_cast<std::size_t>(n * c * m), 1.5f), b(static_cast<std::size_t>(n * m), 2.5f),
        out(a.size());
    report(workload, "hand loop", best_of_15([&] {
               float* __restrict o = out.data();
               const float* __restrict x = a.data();
               const float* __restrict y = b.data();
               for (std::int64_t i = 0; i < n; ++i)
                   for (std::int64_t k = 0; k < c; ++k)
                       for (std::int64_t j = 0; j < m; ++j)
                           o[(i * c + k) * m + j] = x[(i * c + k) * m + j] + y[i * m + j];
               keep(out.data());
           }));
}
void hand_inner_broadcast(const char* workload, std::int64_t rows, std::int64_t cols) {
    std::vector<float> a(static_cast<std::size_t>(rows * cols), 1.5f), b(static_cast<std::size_t>(rows), 2.5f),
        out(a.size());
    report(workload, "hand loop", best_of_15([&] {
               float* __restrict o = out.data();
               const float* __restrict x = a.data();
               const float* __restrict y = b.data();
               for (std::int64_t i = 0; i < rows; ++i) {
                   const float v = y[i];
                   for (std::int64_t j = 0; j < cols; ++j) o[i * cols + j] = x[i * cols + j] + v;
               }
               keep(out.data());
           }));
}
void hand_tiny(const char* workload) {
    std::vector<float> a(32, 1.5f), b(8, 2.5f), out(32);
    report(workload, "hand loop", best_of_15([&] {
               float* __restrict o = out.data();
               const float* __restrict x = a.data();
               const float* __restrict y = b.data();
               for (int i = 0; i < 4; ++i)
                   for (int j = 0; j < 8; ++j) o[i * 8 + j] = x[i * 8 + j] + y[j];
               keep(out.data());
           }));
}

// One training step of examples/segmentation_net.hpp's network (forward, loss,
// backward, gradients cleared), as peers_torch's segmentation_step.
struct segmentation_step {
    seg::net model = seg::make_net(1, 8, 3, 7);
    seg::batch data = seg::make_batch(2, 32, 64, 64, 3, 0.6, 5);

    void run() const {
        const auto loss = seg::loss(seg::forward(model, data.volume), data.labels);
        loss.backward();
        for (const auto& p : model.parameters()) p.zero_grad();
    }
};

// 50 operations: 10 times (y * w, y + b, tanh, y - x, y * 0.5), as peers_torch.
nt::Tensor<float> chain(const nt::Tensor<float>& x, const nt::Tensor<float>& w, const nt::Tensor<float>& b) {
    nt::Tensor<float> y = x;
    for (int i = 0; i < 10; ++i) {
        y = y * w;
        y = y + b;
        y = nt::tanh(y);
        y = y - x;
        y = y * 0.5f;
    }
    return y;
}

void autograd_workloads() {
    for (const int threads : {1, 2}) {
        nt::set_num_threads(threads);
        const char* column = threads == 1 ? "ntensor 1T" : "ntensor 2T";
        for (const int mode : {0, 1, 2}) {
            auto x = nt::full<float>({4, 8}, 0.3f), w = nt::full<float>({4, 8}, 1.1f), b = nt::full<float>({4, 8}, 0.2f);
            if (mode > 0) {
                x.with_grad();
                w.with_grad();
                b.with_grad();
            }
            const char* workload = mode == 0   ? "chain of 50 ops (4,8), no gradients"
                                   : mode == 1 ? "chain of 50 ops (4,8), recording"
                                               : "chain of 50 ops (4,8), recording + backward";
            report(workload, column, best_of_15([&] {
                       const auto y = chain(x, w, b);
                       if (mode == 2) {
                           nt::sum(y).backward();
                           for (const auto* p : {&x, &w, &b}) p->zero_grad();
                       }
                       keep(y.data());
                   }));
        }
        const segmentation_step step;
        report("train step (2,1,32,64,64)", column, best_of_15([&] { step.run(); }));
    }
    nt::set_num_threads(1);
}

double peak_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

}  // namespace

int main(int argc, char** argv) {
    // --train-step-memory: only one training step, and the peak resident memory
    // before (the library, the model, the data) and after it.
    if (argc > 1 && std::strcmp(argv[1], "--train-step-memory") == 0) {
        nt::set_num_threads(1);
        const segmentation_step step;
        const double before = peak_mib();
        step.run();
        std::printf("ntensor train step (2,1,32,64,64): peak RSS %.0f MiB before the step, %.0f MiB after\n", before,
                    peak_mib());
        return 0;
    }
    const bool only_autograd = argc > 1 && std::strcmp(argv[1], "--autograd") == 0;
    autograd_workloads();
    if (only_autograd) return 0;
    // Named: the labels (?,H,W) stored in the image's order, and stored (?,W,H).
    add("add (10,3,256,384)+(10,1,256,384)", {10, 3, 256, 384}, {10, 1, 256, 384});
    named("add (10,3,256,384)+(10,1,256,384)", {10, 3, 256, 384}, {"?", "C", "H", "W"}, {10, 256, 384},
          {"?", "H", "W"}, {10, 384, 256}, {"?", "W", "H"});
    add("add (20,3,512,512)+(20,1,512,512)", {20, 3, 512, 512}, {20, 1, 512, 512});
    named("add (20,3,512,512)+(20,1,512,512)", {20, 3, 512, 512}, {"?", "C", "H", "W"}, {20, 512, 512},
          {"?", "H", "W"}, {20, 512, 512}, {"?", "W", "H"});
    hand_add("add (10,3,256,384)+(10,1,256,384)", 10, 3, 256 * 384);
    hand_add("add (20,3,512,512)+(20,1,512,512)", 20, 3, 512 * 512);
    add("inner broadcast (4096,4096)+(4096,1)", {4096, 4096}, {4096, 1});
    hand_inner_broadcast("inner broadcast (4096,4096)+(4096,1)", 4096, 4096);
    add("tiny (4,8)+(8) into out", {4, 8}, {8});
    hand_tiny("tiny (4,8)+(8) into out");
    named("tiny (4,8)+(8) into out", {4, 8}, {"R", "C"}, {8}, {"C"});
    {
        // A new result each call: the allocation is part of the time.
        const auto a = nt::full<float>({4, 8}, 1.5f), b = nt::full<float>({8}, 2.5f);
        for (const int threads : {1, 2}) {
            nt::set_num_threads(threads);
            report("tiny (4,8)+(8) fresh", threads == 1 ? "ntensor 1T" : "ntensor 2T", best_of_15([&] {
                       const auto r = a + b;
                       keep(r.data());
                   }));
        }
        nt::set_num_threads(1);
        const auto an = a.rename({"R", "C"}), bn = b.rename({"C"});
        report("tiny (4,8)+(8) fresh", "ntensor named", best_of_15([&] {
                   const auto r = an + bn;
                   keep(r.data());
               }));
        memcpy_of("tiny (4,8)+(8) fresh", (32 + 8 + 32) * sizeof(float));
    }
    copy("transpose copy 4096^2", nt::arange<float>(4096 * 4096).reshape({4096, 4096}),
         [](const nt::Tensor<float>& t) { return t.transpose().contiguous(); });
    copy("permuted copy (3,256,384)->(2,1,0)", nt::arange<float>(3 * 256 * 384).reshape({3, 256, 384}),
         [](const nt::Tensor<float>& t) { return t.permute({2, 1, 0}).contiguous(); });
    copy("Fortran flatten (256,384,3)", nt::arange<float>(256 * 384 * 3).reshape({256, 384, 3}),
         [](const nt::Tensor<float>& t) { return t.reshape({-1}, nt::order::fortran); });
    copy("unfold 1e7 window 8", nt::arange<float>(10'000'000),
         [](const nt::Tensor<float>& t) { return t.unfold(0, 8, 1).contiguous(); });
}
