// Expected not to compile: CLASS of prob has no counterpart in pred (the host).
#include <nt/static.hpp>
using prob_t = nt::tensor_of<float, "?", "CLASS", "H", "W">;
using pred_t = nt::tensor_of<float, "?", "SCALE1", "SCALE2", "SCALE3", "H", "W">;
auto f(const prob_t& prob, const pred_t& pred) { return prob + pred; }
