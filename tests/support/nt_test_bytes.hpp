// The elements of a tensor as bytes in row-major order, for comparing two results bit
// for bit (NaN payloads and signed zeros included).
#pragma once

#include <cstddef>
#include <string>

#include "nt/any_tensor.hpp"

namespace nt::test {

inline std::string bytes_of(const nt::any_tensor& a) {
    std::string out(static_cast<std::size_t>(a.size()) * nt::size_of(a.dtype()), '\0');
    a.base().copy_to(out.data());
    return out;
}

}  // namespace nt::test
