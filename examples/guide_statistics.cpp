// docs/guide.md, "Statistics and sorting": per-channel statistics, quantiles, running
// sums, sorting and class counts on named axes (nt/statistics.hpp, nt/sort.hpp).
#include <nt/nt.hpp>

#include <cstdint>
#include <iostream>
#include <limits>

int main() {
    // [stats]
    // A batch of two 3-channel images, 2x3 pixels, one NaN in channel 1.
    auto img = nt::arange<float>(36).reshape({2, 3, 2, 3}, {"N", "C", "H", "W"});
    img(1, 1, 0, 0) = std::numeric_limits<float>::quiet_NaN();
    std::cout << "mean   " << nt::nanmean(img, {"N", "H", "W"}) << "\n";
    std::cout << "stddev " << nt::stddev(img.index(0), {"H", "W"}) << "\n";  // image 0: no NaN
    std::cout << "median " << nt::median(img, {"N", "H", "W"}) << "\n";      // NaN where a NaN is
    std::cout << "p90    " << nt::percentile(img.index(0), 90, {"H", "W"}) << "\n";
    std::cout << "cumsum " << nt::cumsum(nt::tensor<int>({1, 2, 3, 4}), 0) << "\n";
    // [stats]

    // [sort]
    auto scores = nt::tensor<float>({{0.1f, 0.7f, 0.2f}, {0.5f, 0.5f, 0.9f}}).rename({"N", "CLASS"});
    std::cout << nt::argsort(scores, "CLASS") << "\n";  // stable: equal scores keep their order
    auto [best, which] = nt::topk(scores, 2, "CLASS");
    std::cout << best << "\n" << which << "\n";
    auto labels = nt::tensor<std::uint8_t>({2, 0, 2, 2, 1, 0});
    auto [values, counts] = nt::unique_counts(labels);
    std::cout << values << " " << counts << "\n";
    // [sort]
}
