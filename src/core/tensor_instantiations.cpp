// The one place Tensor<T> is instantiated for the supported element types (the
// header declares them extern).
#include "nt/tensor.hpp"

namespace nt {

template class Tensor<float>;
template class Tensor<double>;
template class Tensor<std::int32_t>;
template class Tensor<std::int64_t>;
template class Tensor<std::uint8_t>;
template class Tensor<bool>;

}  // namespace nt
