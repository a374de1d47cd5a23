// Internal: the .npy pieces shared by npy.cpp and npz.cpp (dtype and layout from a
// header, the allocation, byte swaps, the header and data of a tensor to write).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "npy_header.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/names.hpp"

namespace nt::detail {

/// The core dtype of a header's descr. Throws unsupported_dtype naming `where`.
[[nodiscard]] dtype npy_dtype(const npy_header& h, std::string_view where);
/// C- or F-contiguous layout of the header's shape.
[[nodiscard]] nt::layout npy_layout(const npy_header& h);
/// A fresh tensor for the header's data (its dtype, shape, order) named `names`.
[[nodiscard]] tensor_base allocate_npy(const npy_header& h, names_arg names, std::string_view where,
                                       std::string_view op);
/// Throws type_mismatch naming both dtypes unless the header holds `expected`.
void check_npy_type(const npy_header& h, dtype expected, std::string_view where);
/// After the raw bytes are in: big-endian swapped, bool bytes normalised to 0/1.
void finish_npy_data(const npy_header& h, std::byte* data) noexcept;
/// The .npy header for `t`; `fortran` says whether the data goes in Fortran order
/// (a Fortran- but not C-contiguous tensor, written as is, as NumPy does).
[[nodiscard]] std::string npy_header_for(const tensor_base& t, bool& fortran);
/// Hands the data bytes of `t` to `put` in file order, in blocks of a few MiB.
void write_npy_data(const tensor_base& t, bool fortran, const std::function<void(const void*, std::size_t)>& put);

}  // namespace nt::detail
