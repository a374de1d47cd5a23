// The one place Tensor<T> is instantiated for the supported element types (the
// header declares them extern).
#include "nt/tensor.hpp"

namespace nt {

#define NT_INSTANTIATE_TENSOR(T, TAG, NAME) template class Tensor<T>;
NT_FOR_EACH_ELEMENT_TYPE(NT_INSTANTIATE_TENSOR)
#undef NT_INSTANTIATE_TENSOR

}  // namespace nt
