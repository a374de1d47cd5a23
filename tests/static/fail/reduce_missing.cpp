// Expected not to compile: the type has no axis DEPTH to reduce.
#include <nt/static.hpp>
using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
auto f(const img_t& img) { return nt::sum<"H", "DEPTH">(img); }
