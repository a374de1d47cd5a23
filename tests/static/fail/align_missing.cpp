// Expected not to compile: align_to names CLASS, which the type lacks.
#include <nt/static.hpp>
using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
auto f(const img_t& img) { return img.align_to<"H", "W", "CLASS", "?">(); }
