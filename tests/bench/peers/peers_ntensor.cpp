// ntensor's side of scripts/bench.sh --peers: the workloads of peers_timing.hpp on 1
// and 2 threads, the named forms of the first add, and memcpy of each byte count.
#include <cstring>
#include <vector>

#include "nt/nt.hpp"
#include "peers_timing.hpp"

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

}  // namespace

int main() {
    add("add (10,3,256,384)+(10,1,256,384)", {10, 3, 256, 384}, {10, 1, 256, 384});
    {
        // The named forms: labels (?,H,W) stored in the image's order, and stored (?,W,H).
        nt::set_num_threads(1);
        const auto img = nt::full<float>({10, 3, 256, 384}, 1.5f).rename({"?", "C", "H", "W"});
        const auto same = nt::full<float>({10, 256, 384}, 2.5f).rename({"?", "H", "W"});
        const auto swapped = nt::full<float>({10, 384, 256}, 2.5f).rename({"?", "W", "H"});
        auto out = img + same;
        report("add (10,3,256,384)+(10,1,256,384)", "ntensor named", best_of_15([&] {
                   nt::add(img, same, out);
                   keep(out.data());
               }));
        report("add (10,3,256,384)+(10,1,256,384)", "ntensor named, permuted", best_of_15([&] {
                   nt::add(img, swapped, out);
                   keep(out.data());
               }));
    }
    add("add (20,3,512,512)+(20,1,512,512)", {20, 3, 512, 512}, {20, 1, 512, 512});
    add("inner broadcast (4096,4096)+(4096,1)", {4096, 4096}, {4096, 1});
    add("tiny (4,8)+(8) into out", {4, 8}, {8});
    copy("transpose copy 4096^2", nt::arange<float>(4096 * 4096).reshape({4096, 4096}),
         [](const nt::Tensor<float>& t) { return t.transpose().contiguous(); });
    copy("permuted copy (3,256,384)->(2,1,0)", nt::arange<float>(3 * 256 * 384).reshape({3, 256, 384}),
         [](const nt::Tensor<float>& t) { return t.permute({2, 1, 0}).contiguous(); });
    copy("Fortran flatten (256,384,3)", nt::arange<float>(256 * 384 * 3).reshape({256, 384, 3}),
         [](const nt::Tensor<float>& t) { return t.reshape({-1}, nt::order::fortran); });
    copy("unfold 1e7 window 8", nt::arange<float>(10'000'000),
         [](const nt::Tensor<float>& t) { return t.unfold(0, 8, 1).contiguous(); });
}
