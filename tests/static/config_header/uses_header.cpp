// Built with ntensor_config_header(test_static_config configs/segmentation.json):
// the generated aliases are the config's tensors, and code written against them
// compiles only while the config keeps those names and ranks.
#include <cstdio>
#include <type_traits>

#include "segmentation.hpp"

static_assert(std::is_same_v<image, nt::tensor_of<float, "?", "CHANNEL", "H", "W">>);
static_assert(std::is_same_v<labels, nt::tensor_of<std::int32_t, "?", "H", "W">>);
static_assert(std::is_same_v<weights, nt::tensor_of<double, "CHANNEL">>);
static_assert(std::is_same_v<overlay, image>);

int main() {
    const auto img = image::ones({2, 3, 4, 5});
    const auto w = weights::full({3}, 0.5);
    auto weighted = img * w;  // typed by the config: ("?", CHANNEL, H, W), in double
    static_assert(std::is_same_v<decltype(weighted), nt::tensor_of<double, "?", "CHANNEL", "H", "W">>);
    std::printf("%s %g\n", nt::to_string(weighted.spec()).c_str(), weighted.at(1, 2, 3, 4));
    return weighted.at(1, 2, 3, 4) == 0.5 ? 0 : 1;
}
