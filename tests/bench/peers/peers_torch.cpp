// libtorch's side of scripts/bench.sh --peers (libtorch 1.13 from Debian, one intra-op
// thread, its CPU kernels dispatched at run time like ntensor's).
#include <torch/torch.h>

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

}  // namespace

int main() {
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
