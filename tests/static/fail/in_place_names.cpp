// Expected not to compile: img += cls, CLASS has no counterpart in img (the left side).
#include <nt/static.hpp>
using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
using cls_t = nt::tensor_of<float, "CLASS", "H", "W">;
void f(img_t& img, const cls_t& cls) { img += cls; }
