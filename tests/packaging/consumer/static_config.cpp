// A consumer of <nt/static.hpp> whose types come from shapes.json.
#include <type_traits>

#include "shapes.hpp"

int main() {
    static_assert(std::is_same_v<shapes::image, nt::tensor_of<float, "?", "CHANNEL", "H", "W">>);
    const auto img = shapes::image::ones({2, 3, 4, 5});
    const auto mask = shapes::mask::full({2, 4, 5}, 2.0f);
    auto out = img * mask;  // solved while compiling
    static_assert(std::is_same_v<decltype(out), shapes::image>);
    return nt::sum<"H", "W">(out).at(1, 2) == 40.0f ? 0 : 1;
}
