// Expected not to compile: lbl += img would give lbl img's type (a higher rank).
#include <nt/static.hpp>
using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
using lbl_t = nt::tensor_of<float, "?", "H", "W">;
void f(lbl_t& lbl, const img_t& img) { lbl += img; }
