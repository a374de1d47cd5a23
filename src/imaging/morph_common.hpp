// What the mask and object operations share (src/imaging/morphology.cpp, labels.cpp,
// distance.cpp): the working layout of a call and the conversions into and out of it.
//
// The work runs on a C-contiguous buffer whose axes are the batch axes (in stored
// order) then the spatial axes in stored order, so that every slice is one block and
// the last axis of a block is spatial. The structuring elements are symmetric under a
// permutation of the axes, so the order the caller named the spatial axes in changes
// nothing but per-axis options (spacing), which are reordered here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "nt/axis.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/small_vector.hpp"

namespace nt::detail::imaging::morph {

struct plan {
    small_vector<std::size_t, 6> given;   // spatial axes, in the order the caller named them
    small_vector<std::size_t, 6> sorted;  // the same, ascending
    small_vector<std::size_t, 8> perm;    // work axis i is stored axis perm[i]
    bool identity = true;                 // perm is 0, 1, 2, ...
    std::int64_t batch = 1;               // number of slices
    small_vector<std::int64_t, 6> sizes;  // spatial sizes, ascending axis order
    std::int64_t slice = 1;               // elements per slice
    std::int64_t total = 0;               // elements in all
};

[[nodiscard]] plan make_plan(const tensor_base& x, std::span<const Axis> axes, std::string_view op);

/// Throws invalid_argument unless 1 <= connectivity <= rank.
void check_connectivity(int connectivity, std::size_t rank, std::string_view op);

/// The mask as 0/1 bytes in the working layout (nonzero is 1, as scipy).
[[nodiscard]] std::vector<std::uint8_t> mask_bytes(const tensor_base& x, const plan& p);

/// The mask as bytes that are nonzero where it is true, in the working layout: the
/// input's own memory when it already is that (one-byte type, C-contiguous, working
/// order), else mask_bytes.
struct mask_view {
    std::vector<std::uint8_t> copy;
    const std::uint8_t* data = nullptr;
};
[[nodiscard]] mask_view mask_nonzero(const tensor_base& x, const plan& p);

/// The input's elements as doubles / int64, in stored C order.
[[nodiscard]] std::vector<double> values_as_double(const tensor_base& x);
[[nodiscard]] std::vector<std::int64_t> labels_as_int64(const tensor_base& x, std::string_view op);

/// A fresh C-contiguous tensor of type `d` in the working layout of `x`.
[[nodiscard]] tensor_base allocate_work(dtype d, const tensor_base& x, const plan& p, std::string_view op);

/// A working-layout tensor returned in the input's axis order, C-contiguous.
[[nodiscard]] tensor_base to_stored(const tensor_base& work, const plan& p);

/// The structuring element of scipy's generate_binary_structure(rank, connectivity):
/// every offset in {-1, 0, 1}^rank with at most `connectivity` nonzero components.
[[nodiscard]] std::vector<small_vector<int, 6>> structure_offsets(std::size_t rank, int connectivity);

/// The connected components (structure of `connectivity`) of the true elements of
/// each slice of `bytes`, in the working layout: provisional labels into `prov` (0 on
/// false elements; slices never connect), and returned the root of every provisional
/// label, root[l] <= l, root[0] = 0. A component's root is its smallest provisional
/// label, the one its first element in raster order opened (labels.cpp).
[[nodiscard]] std::vector<std::int32_t> components(const plan& p, const std::uint8_t* bytes, int connectivity,
                                                   std::int32_t* prov, const char* op);

/// Calls f(offset) for the element offsets of a strided array in C order.
template <class F>
void for_each_offset(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, F&& f) {
    const std::size_t r = shape.size();
    for (std::int64_t s : shape)
        if (s == 0) return;
    if (r == 0) {
        f(std::int64_t{0});
        return;
    }
    small_vector<std::int64_t, 8> idx(r, 0);
    const std::int64_t n_last = shape[r - 1], s_last = strides[r - 1];
    std::int64_t base = 0;
    for (;;) {
        for (std::int64_t i = 0, o = base; i < n_last; ++i, o += s_last) f(o);
        std::size_t k = r - 1;
        for (;;) {
            if (k == 0) return;
            --k;
            if (++idx[k] < shape[k]) {
                base += strides[k];
                break;
            }
            base -= strides[k] * (shape[k] - 1);
            idx[k] = 0;
        }
    }
}

}  // namespace nt::detail::imaging::morph
