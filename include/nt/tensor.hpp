// nt/tensor.hpp: nt::Tensor<T>, a strided n-dimensional array with named axes.
//
// A Tensor is a cheap handle (as torch::Tensor and cv::Mat): copying it shares the
// storage, and every structural operation returns a view sharing the storage, so a
// write through one is seen through the others. clone() makes a deep copy. Views
// never dangle: each keeps the storage alive.
//
//     auto a = nt::arange<int>(12).reshape({3, 4});   // view of the arange
//     auto col = a.index(nt::all, 1);                  // shape (3), a view
//     col.fill(0);                                     // a(0, 1) == 0 now
//     auto b = a.transpose().clone();                  // independent copy
//
// Views in which two indices reach one element (broadcasts, overlapping unfold
// windows) are read-only: writes through them throw nt::error (read_only).
// Axes are given as nt::Axis: an index (negative counts from the end) or a name.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "nt/axis.hpp"
#include "nt/detail/element_iterator.hpp"
#include "nt/detail/handle_ops.hpp"
#include "nt/detail/ops_kernels.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/dtype.hpp"
#include "nt/error.hpp"
#include "nt/index.hpp"
#include "nt/layout.hpp"
#include "nt/names.hpp"
#include "nt/spec.hpp"

namespace nt {

/// A strided tensor of `T` (one of the element types of nt/dtype.hpp: bool, signed
/// and unsigned integers of 8 to 64 bits, nt::half, float, double) with rank
/// 0..nt::max_rank and an optional name per axis.
template <class T>
class Tensor : public detail::handle_ops<Tensor<T>> {
    static_assert(element<T>, "nt::Tensor<T>: T must be one of the element types " NT_ELEMENT_TYPE_NAMES
                              " (cv-unqualified; see NT_FOR_EACH_ELEMENT_TYPE in <nt/dtype.hpp>)");

public:
    using value_type = T;

    /// An empty tensor of shape (0), without storage.
    Tensor() : b_(dtype_of<T>) {}
    /// Adopts an untyped handle. Throws type_mismatch if its dtype is not T's.
    explicit Tensor(detail::tensor_base base) : b_(std::move(base)) { b_.check_type(dtype_of<T>); }
    /// Adopts the handle `make()` returns, built in place (the fresh results of operations).
    template <class Make>
        requires std::same_as<std::invoke_result_t<Make>, detail::tensor_base>
    Tensor(detail::in_place_base_t, Make&& make) : b_(std::forward<Make>(make)()) {
        b_.check_type(dtype_of<T>);
    }

    /// Wraps external memory without copying: `ptr` is the element at index 0..0,
    /// `strides` are in elements (empty: C order; may be negative or 0), `owner`
    /// keeps the memory alive (may be null if the caller guarantees lifetime). The
    /// result is read-only when the strides may let two indices reach one element.
    /// Throws invalid_spec / invalid_argument for bad shapes or lengths.
    ///     auto t = nt::Tensor<float>::wrap(buf.data(), {2, 3}, {}, nullptr);
    [[nodiscard]] static Tensor wrap(T* ptr, shape_arg shape, shape_arg strides, std::shared_ptr<void> owner,
                                     names_arg names = {}) {
        return Tensor(detail::tensor_base::wrap(dtype_of<T>, static_cast<void*>(ptr), shape, strides,
                                                std::move(owner), names.span()));
    }

    // --- queries (shape, strides, names, spec, ...: see detail::handle_ops) ---------

    /// Pointer to the element at index 0..0 (for reading; see mutable_data).
    [[nodiscard]] const T* data() const noexcept { return reinterpret_cast<const T*>(b_.data()); }
    /// Pointer to the element at index 0..0 for writing. Throws read_only.
    [[nodiscard]] T* mutable_data() const {
        b_.check_writable("mutable_data");
        return reinterpret_cast<T*>(b_.data());
    }
    /// The untyped handle (for the library's own algorithms).
    [[nodiscard]] const detail::tensor_base& base() const noexcept { return b_; }
    /// The untyped handle, to attach a gradient node to a fresh result (library use).
    [[nodiscard]] detail::tensor_base& mutable_base() noexcept { return b_; }

    // --- element access --------------------------------------------------------------

    /// The element at (i, j, ...), by value. One index per axis, negative counts from
    /// the end. Throws invalid_argument (count) or index_out_of_range.
    template <std::integral... I>
    [[nodiscard]] T at(I... i) const {
        return *element_ptr("at", i...);
    }
    /// A reference to the element at (i, j, ...), for reading and writing. Throws
    /// read_only on a read-only view, invalid_argument or index_out_of_range.
    template <std::integral... I>
    [[nodiscard]] T& operator()(I... i) {
        b_.check_writable("operator()");
        return *element_ptr("operator()", i...);
    }
    /// A const reference to the element at (i, j, ...) (no read_only check).
    template <std::integral... I>
    [[nodiscard]] const T& operator()(I... i) const {
        return *element_ptr("operator()", i...);
    }

    // --- iteration ---------------------------------------------------------------------

    /// Random-access iterators over the elements in row-major order, for any strides
    /// (a tensor is a std::ranges::random_access_range; std::ranges::sort(t) sorts a
    /// writable view in place). The non-const begin()/end() give references for
    /// writing and throw read_only on a read-only view: read one through a const
    /// tensor (std::as_const(t)) or cbegin()/cend(). Iterators hold no storage.
    using iterator = detail::element_iterator<T, false>;
    using const_iterator = detail::element_iterator<T, true>;
    [[nodiscard]] iterator begin() { return iterator_at<iterator>(mutable_data(), 0); }
    [[nodiscard]] iterator end() { return iterator_at<iterator>(mutable_data(), b_.size()); }
    [[nodiscard]] const_iterator begin() const { return iterator_at<const_iterator>(data(), 0); }
    [[nodiscard]] const_iterator end() const { return iterator_at<const_iterator>(data(), b_.size()); }
    [[nodiscard]] const_iterator cbegin() const { return begin(); }
    [[nodiscard]] const_iterator cend() const { return end(); }

    /// The elements in row-major order (a copy).
    [[nodiscard]] std::vector<T> to_vector() const {
        if constexpr (std::is_same_v<T, bool>) {
            const auto n = static_cast<std::size_t>(b_.size());
            std::unique_ptr<bool[]> tmp(new bool[n ? n : 1]);
            b_.copy_to(tmp.get());
            return std::vector<bool>(tmp.get(), tmp.get() + n);
        } else {
            std::vector<T> out(static_cast<std::size_t>(b_.size()));
            b_.copy_to(out.data());
            return out;
        }
    }

    // --- writes ------------------------------------------------------------------------

    /// Sets every element to `value`. Throws read_only.
    Tensor& fill(T value) {
        b_.fill(&value);
        return *this;
    }
    /// Same as fill(value).
    Tensor& assign(T value) { return fill(value); }
    /// Copies `src`, broadcast to this tensor's spec (names first, unnamed axes
    /// right-aligned; docs/matching.md), into this view. Works when `src` overlaps
    /// this (as if `src` were copied first). Throws read_only and the matcher's errors
    /// (incompatible_sizes, no_counterpart).
    ///     a.index(nt::all, 1).assign(nt::scalar(99));
    Tensor& assign(const Tensor& src) {
        b_.assign(src.base());
        return *this;
    }
    /// assign from another element type: values convert as static_cast does, except
    /// that NaN gives 0, floating values saturate at an integer type's limits and any
    /// non-zero value gives true.
    ///     floats.index(nt::all, 1).assign(nt::scalar(99));
    template <element U>
        requires(!std::same_as<U, T>)
    Tensor& assign(const Tensor<U>& src) {
        b_.assign(src.base());
        return *this;
    }

    /// Sets the elements where `mask` is true to `value` (torch's masked_fill_,
    /// NumPy's t[mask] = value), in place; returns this tensor. The mask is matched
    /// to this tensor by names and broadcast to it as assign broadcasts a source, so a
    /// (H,W) mask fills every channel of a (C,H,W) tensor. Throws read_only,
    /// type_mismatch (a mask that is not bool) and the matcher's errors.
    ///     logits.masked_fill(padding, -1e9f);
    Tensor& masked_fill(const Tensor<bool>& mask, T value) {
        detail::masked_fill(b_, mask.base(), &value);
        return *this;
    }
    /// Copies `src` into the elements where `mask` is true, in place (np.copyto with
    /// where=, this = where(mask, src, this)); returns this tensor. The mask and `src`
    /// are each matched to this tensor by names and broadcast to it; `src` converts
    /// to T as assign converts. Works when `src` or the mask overlaps this. Throws
    /// read_only, type_mismatch (mask) and the matcher's errors.
    ///     img.assign_where(mask, background);
    template <element U>
    Tensor& assign_where(const Tensor<bool>& mask, const Tensor<U>& src) {
        detail::assign_where(b_, mask.base(), src.base());
        return *this;
    }

    // --- copies --------------------------------------------------------------------------

    /// The elements converted to U, in a new C-contiguous tensor with the same shape
    /// and names (a copy even when U is T). Float to integer saturates (NaN gives 0),
    /// any value to bool is `!= 0`.
    ///     auto mask = nt::arange<float>(4).astype<bool>();   // [0, 1, 1, 1]
    template <element U>
    [[nodiscard]] Tensor<U> astype() const {
        Tensor<U> out(detail::tensor_base::allocate(dtype_of<U>, b_.shape(), b_.names(), "astype"));
        detail::run_cast<U, T>(b_.shape(), out.mutable_data(), out.strides(), data(), b_.strides());
        if constexpr (is_floating_element_v<U> && is_floating_element_v<T>)
            if (detail::records(b_)) [[unlikely]]
                detail::record_cast(b_, out.mutable_base());
        return out;
    }


private:
    template <class It, class P>
    [[nodiscard]] It iterator_at(P first, std::int64_t position) const {
        return It(first, b_.shape(), b_.strides(), b_.is_contiguous(), position);
    }
    template <class... I>
    T* element_ptr(const char* op, I... i) const {
        const std::array<std::int64_t, sizeof...(I)> idx{static_cast<std::int64_t>(i)...};
        return reinterpret_cast<T*>(b_.storage()) + b_.element_offset(idx, op);
    }

    detail::tensor_base b_;
};

#define NT_EXTERN_TENSOR(T, TAG, NAME) extern template class Tensor<T>;
NT_FOR_EACH_ELEMENT_TYPE(NT_EXTERN_TENSOR)
#undef NT_EXTERN_TENSOR

}  // namespace nt
