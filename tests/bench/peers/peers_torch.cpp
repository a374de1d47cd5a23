// libtorch's side of scripts/bench.sh --peers (libtorch 1.13 from Debian, one intra-op
// thread, its CPU kernels dispatched at run time like ntensor's).
#include <sys/resource.h>
#include <torch/torch.h>

#include <cstring>

#include "peers_timing.hpp"

namespace {

using peers::best_of_15;
using peers::keep;
using peers::report;

void add(const char* workload, std::vector<std::int64_t> a_shape, std::vector<std::int64_t> b_shape) {
    const auto a = torch::full(a_shape, 1.5f), b = torch::full(b_shape, 2.5f);
    auto out = a + b;
    report(workload, "libtorch", best_of_15([&] {
               torch::add_out(out, a, b);
               keep(out.data_ptr<float>());
           }));
}

template <class Make>
void copy(const char* workload, const torch::Tensor& src, Make make) {
    report(workload, "libtorch", best_of_15([&] {
               const torch::Tensor r = make(src);
               keep(r.data_ptr<float>());
           }));
}

// The network of examples/segmentation_net.hpp: two 3x3x3 convolutions without
// padding on an input padded by 2, ReLU, a 1x1x1 projection; cross-entropy plus soft
// Dice. The values do not change the time, so the data is torch's random numbers.
struct segmentation_step {
    torch::Tensor w1, b1, w2, b2, w3, b3, volume, labels;

    segmentation_step() {
        torch::manual_seed(7);
        auto param = [](torch::IntArrayRef shape, double fan_in) {
            return (torch::randn(shape) * std::sqrt(2.0 / fan_in)).requires_grad_();
        };
        w1 = param({8, 1, 3, 3, 3}, 27);
        b1 = torch::zeros({8}).requires_grad_();
        w2 = param({8, 8, 3, 3, 3}, 8 * 27);
        b2 = torch::zeros({8}).requires_grad_();
        w3 = param({3, 8, 1, 1, 1}, 8);
        b3 = torch::zeros({3}).requires_grad_();
        volume = torch::randn({2, 1, 32, 64, 64});
        labels = torch::randint(0, 3, {2, 32, 64, 64}, torch::kLong);
    }
    torch::Tensor loss() const {
        namespace F = torch::nn::functional;
        const auto padded = F::pad(volume, F::PadFuncOptions({2, 2, 2, 2, 2, 2}));
        const auto h1 = torch::relu(torch::conv3d(padded, w1, b1));
        const auto h2 = torch::relu(torch::conv3d(h1, w2, b2));
        const auto logits = torch::conv3d(h2, w3, b3);
        const auto p = torch::softmax(logits, 1);
        const auto t = torch::one_hot(labels, 3).permute({0, 4, 1, 2, 3}).to(torch::kFloat);
        const auto inter = (p * t).sum({0, 2, 3, 4});
        const auto dice = (2 * inter + 1) / (p.sum({0, 2, 3, 4}) + t.sum({0, 2, 3, 4}) + 1);
        return torch::nn::functional::cross_entropy(logits, labels) + (1 - dice.mean());
    }
    void run() {
        const auto l = loss();
        l.backward();
        for (auto* p : {&w1, &b1, &w2, &b2, &w3, &b3}) p->mutable_grad().zero_();
    }
};

// 50 operations: 10 times (y * w, y + b, tanh, y - x, y * 0.5), as peers_ntensor.
torch::Tensor chain(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
    torch::Tensor y = x;
    for (int i = 0; i < 10; ++i) {
        y = y * w;
        y = y + b;
        y = torch::tanh(y);
        y = y - x;
        y = y * 0.5f;
    }
    return y;
}

const char* column(int threads) { return threads == 1 ? "libtorch" : "libtorch 2T"; }

void autograd_workloads() {
    for (const int threads : {1, 2}) {
        torch::set_num_threads(threads);
        for (const int mode : {0, 1, 2}) {
            const bool grad = mode > 0;
            const auto x = torch::full({4, 8}, 0.3f).requires_grad_(grad), w = torch::full({4, 8}, 1.1f).requires_grad_(grad),
                       b = torch::full({4, 8}, 0.2f).requires_grad_(grad);
            const char* workload = mode == 0   ? "chain of 50 ops (4,8), no gradients"
                                   : mode == 1 ? "chain of 50 ops (4,8), recording"
                                               : "chain of 50 ops (4,8), recording + backward";
            report(workload, column(threads), best_of_15([&] {
                       const auto y = chain(x, w, b);
                       if (mode == 2) {
                           y.sum().backward();
                           for (const auto* p : {&x, &w, &b}) p->grad().zero_();
                       }
                       keep(y.data_ptr<float>());
                   }));
        }
        segmentation_step step;
        report("train step (2,1,32,64,64)", column(threads), best_of_15([&] { step.run(); }));
    }
    torch::set_num_threads(1);
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
        torch::set_num_threads(1);
        segmentation_step step;
        const double before = peak_mib();
        step.run();
        std::printf("libtorch train step (2,1,32,64,64): peak RSS %.0f MiB before the step, %.0f MiB after\n", before,
                    peak_mib());
        return 0;
    }
    const bool only_autograd = argc > 1 && std::strcmp(argv[1], "--autograd") == 0;
    autograd_workloads();
    if (only_autograd) return 0;
    torch::set_num_threads(1);
    add("add (10,3,256,384)+(10,1,256,384)", {10, 3, 256, 384}, {10, 1, 256, 384});
    add("add (20,3,512,512)+(20,1,512,512)", {20, 3, 512, 512}, {20, 1, 512, 512});
    add("inner broadcast (4096,4096)+(4096,1)", {4096, 4096}, {4096, 1});
    add("tiny (4,8)+(8) into out", {4, 8}, {8});
    {
        const auto a = torch::full({4, 8}, 1.5f), b = torch::full({8}, 2.5f);
        report("tiny (4,8)+(8) fresh", "libtorch", best_of_15([&] {
                   const torch::Tensor r = a + b;
                   keep(r.data_ptr<float>());
               }));
    }
    copy("transpose copy 4096^2", torch::arange(4096 * 4096, torch::kFloat).reshape({4096, 4096}),
         [](const torch::Tensor& t) { return t.t().contiguous(); });
    copy("permuted copy (3,256,384)->(2,1,0)", torch::arange(3 * 256 * 384, torch::kFloat).reshape({3, 256, 384}),
         [](const torch::Tensor& t) { return t.permute({2, 1, 0}).contiguous(); });
    copy("Fortran flatten (256,384,3)", torch::arange(256 * 384 * 3, torch::kFloat).reshape({256, 384, 3}),
         [](const torch::Tensor& t) { return t.permute({2, 1, 0}).contiguous().reshape({-1}); });
    copy("unfold 1e7 window 8", torch::arange(10'000'000, torch::kFloat),
         [](const torch::Tensor& t) { return t.unfold(0, 8, 1).contiguous(); });
}
