// nt/print.hpp: NumPy-style text for tensors.
//
//     std::cout << nt::arange<int>(6).reshape({2, 3}, {"N", "C"});
//     // tensor([[0, 1, 2],
//     //         [3, 4, 5]], shape=(2,3 | N,C), dtype=i32)
//
// Elements are formatted as NumPy's repr does (common width, floats with at most 8
// fractional digits, scientific notation for wide ranges, lines wrapped at 75
// columns). Tensors of more than 1000 elements are summarised: axes longer than 6
// show their first and last 3 entries around "...".
#pragma once

#include <iosfwd>
#include <string>

#include "nt/detail/tensor_base.hpp"
#include "nt/tensor.hpp"

namespace nt {

namespace detail {
void print(std::ostream& os, const tensor_base& t);
[[nodiscard]] std::string format(const tensor_base& t);
}  // namespace detail

/// Writes `t` as `tensor([...], shape=(sizes | names), dtype=...)`.
template <element T>
std::ostream& operator<<(std::ostream& os, const Tensor<T>& t) {
    detail::print(os, t.base());
    return os;
}

/// The text operator<< writes.
template <element T>
[[nodiscard]] std::string to_string(const Tensor<T>& t) {
    return detail::format(t.base());
}

}  // namespace nt
