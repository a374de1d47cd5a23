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
#include "nt/detail/ops_kernels.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/dtype.hpp"
#include "nt/error.hpp"
#include "nt/index.hpp"
#include "nt/layout.hpp"
#include "nt/names.hpp"
#include "nt/spec.hpp"

namespace nt {

namespace detail {
inline std::string_view name_text(std::string_view s) noexcept { return s; }
inline std::string_view name_text(const char* s) noexcept { return s; }
inline std::string_view name_text(name n) noexcept { return n.str(); }
}  // namespace detail

/// One argument of Tensor::index (an integer, nt::all or nt::range), for lists.
using index_item = detail::index_item;

/// A strided tensor of `T` (float, double, std::int32_t, std::int64_t, std::uint8_t
/// or bool) with rank 0..nt::max_rank and an optional name per axis.
template <element T>
class Tensor {
public:
    using value_type = T;

    /// An empty tensor of shape (0), without storage.
    Tensor() : b_(dtype_of<T>) {}
    /// Adopts an untyped handle. Throws type_mismatch if its dtype is not T's.
    explicit Tensor(detail::tensor_base base) : b_(std::move(base)) { b_.check_type(dtype_of<T>); }

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

    // --- queries --------------------------------------------------------------------

    /// Sizes per axis.
    [[nodiscard]] std::span<const std::int64_t> shape() const noexcept { return b_.shape(); }
    /// Strides per axis, in elements (may be 0 or negative).
    [[nodiscard]] std::span<const std::int64_t> strides() const noexcept { return b_.strides(); }
    /// Number of axes.
    [[nodiscard]] std::size_t rank() const noexcept { return b_.rank(); }
    /// Number of elements (1 for rank 0).
    [[nodiscard]] std::int64_t size() const noexcept { return b_.size(); }
    /// Size of one axis. Throws axis_out_of_range.
    [[nodiscard]] std::int64_t size(const Axis& axis) const { return b_.size(axis); }
    /// One name per axis (nt::unnamed where absent).
    [[nodiscard]] std::span<const name> names() const noexcept { return b_.names(); }
    /// Shape and names as an nt::spec (what the matcher sees).
    [[nodiscard]] nt::spec spec() const { return b_.spec(); }
    /// Sizes, strides and offset.
    [[nodiscard]] const nt::layout& layout() const noexcept { return b_.layout(); }
    /// The runtime element type tag.
    [[nodiscard]] nt::dtype dtype() const noexcept { return b_.type(); }
    /// Row-major contiguous (strides of size-1 axes ignored; zero-size is contiguous).
    [[nodiscard]] bool is_contiguous() const noexcept { return b_.is_contiguous(); }
    /// True for views whose elements alias each other (writes throw read_only).
    [[nodiscard]] bool is_read_only() const noexcept { return b_.is_read_only(); }
    /// True when both handles use the same storage block (or overlapping memory).
    template <element U>
    [[nodiscard]] bool shares_storage(const Tensor<U>& other) const noexcept {
        return b_.shares_storage(other.base());
    }
    /// Pointer to the element at index 0..0 (for reading; see mutable_data).
    [[nodiscard]] const T* data() const noexcept { return reinterpret_cast<const T*>(b_.data()); }
    /// Pointer to the element at index 0..0 for writing. Throws read_only.
    [[nodiscard]] T* mutable_data() const {
        b_.check_writable("mutable_data");
        return reinterpret_cast<T*>(b_.data());
    }
    /// The untyped handle (for the library's own algorithms).
    [[nodiscard]] const detail::tensor_base& base() const noexcept { return b_; }

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

    /// NumPy basic indexing, a view: an integer drops its axis (and name), nt::all and
    /// nt::range keep it; missing trailing arguments mean nt::all. Throws
    /// invalid_argument (too many arguments, step 0) or index_out_of_range.
    ///     t.index(nt::all, 1);   t.index(nt::range(1, 4, 2), -1);
    template <class... A>
    [[nodiscard]] Tensor index(const A&... args) const {
        const std::array<detail::index_item, sizeof...(A)> items{detail::to_index_item(args)...};
        return Tensor(b_.index(items));
    }

    /// index with a list whose length is known at run time (nt::index_item converts
    /// from an integer, nt::all and nt::range).
    [[nodiscard]] Tensor index(std::span<const index_item> items) const { return Tensor(b_.index(items)); }
    [[nodiscard]] Tensor index(const std::vector<index_item>& items) const {
        return Tensor(b_.index(std::span<const index_item>(items)));
    }

    // --- iteration ---------------------------------------------------------------------

    /// Random-access iterators over the elements in row-major order, for any strides
    /// (a tensor is a std::ranges::random_access_range; std::ranges::sort(t) sorts a
    /// writable view in place). The non-const begin()/end() give references for
    /// writing and throw read_only on a read-only view: read one through a const
    /// tensor (std::as_const(t)) or cbegin()/cend(). Iterators hold no storage.
    using iterator = detail::element_iterator<T, false>;
    using const_iterator = detail::element_iterator<T, true>;
    [[nodiscard]] iterator begin() { return iterator(mutable_data(), shape(), strides(), is_contiguous(), 0); }
    [[nodiscard]] iterator end() { return iterator(mutable_data(), shape(), strides(), is_contiguous(), size()); }
    [[nodiscard]] const_iterator begin() const { return const_iterator(data(), shape(), strides(), is_contiguous(), 0); }
    [[nodiscard]] const_iterator end() const {
        return const_iterator(data(), shape(), strides(), is_contiguous(), size());
    }
    [[nodiscard]] const_iterator cbegin() const { return begin(); }
    [[nodiscard]] const_iterator cend() const { return end(); }

    /// The elements in row-major order (a copy).
    [[nodiscard]] std::vector<T> to_vector() const {
        if constexpr (std::is_same_v<T, bool>) {
            const auto n = static_cast<std::size_t>(size());
            std::unique_ptr<bool[]> tmp(new bool[n ? n : 1]);
            b_.copy_to(tmp.get());
            return std::vector<bool>(tmp.get(), tmp.get() + n);
        } else {
            std::vector<T> out(static_cast<std::size_t>(size()));
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

    // --- copies --------------------------------------------------------------------------

    /// A deep, writable, C-contiguous copy with the same names.
    [[nodiscard]] Tensor clone() const { return Tensor(b_.clone()); }

    /// The elements converted to U, in a new C-contiguous tensor with the same shape
    /// and names (a copy even when U is T). Float to integer saturates (NaN gives 0),
    /// any value to bool is `!= 0`.
    ///     auto mask = nt::arange<float>(4).astype<bool>();   // [0, 1, 1, 1]
    template <element U>
    [[nodiscard]] Tensor<U> astype() const {
        Tensor<U> out(detail::tensor_base::allocate(dtype_of<U>, shape(), names(), "astype"));
        detail::run_cast<U, T>(shape(), out.mutable_data(), out.strides(), data(), strides());
        return out;
    }
    /// Itself when C-contiguous and writable, else clone().
    [[nodiscard]] Tensor contiguous() const { return Tensor(b_.contiguous()); }

    // --- structural operations (views unless stated) ---------------------------------

    /// New sizes with the same element count; one size may be -1 (inferred). A view
    /// when the layout allows (as NumPy's reshape), else a copy in `o`'s order.
    /// Names: the longest common prefix of sizes, then suffix, keep theirs.
    /// Throws invalid_argument (count mismatch, two -1, negative size).
    [[nodiscard]] Tensor reshape(shape_arg shape, order o = order::c) const { return Tensor(b_.reshape(shape, o)); }
    /// reshape with explicit names (empty: all unnamed). Also throws duplicate_name.
    [[nodiscard]] Tensor reshape(shape_arg shape, names_arg names, order o = order::c) const {
        return Tensor(b_.reshape(shape, names.span(), o));
    }
    /// Like reshape (C order) but never copies: throws not_a_view instead.
    [[nodiscard]] Tensor view(shape_arg shape) const { return Tensor(b_.view(shape)); }
    /// All axes merged into one (names by the reshape rule); a view when possible, else a copy.
    [[nodiscard]] Tensor flatten() const { return Tensor(b_.flatten()); }
    /// Axes first..last (inclusive) merged into one named `n`; a view when possible,
    /// else a copy. Throws axis_out_of_range, invalid_argument (first after last).
    [[nodiscard]] Tensor flatten(const Axis& first, const Axis& last, name n = {}) const {
        return Tensor(b_.flatten(first, last, n));
    }
    /// Splits `axis` into `sizes` (one may be -1) named `names` (empty: unnamed). A view.
    [[nodiscard]] Tensor unflatten(const Axis& axis, shape_arg sizes, names_arg names = {}) const {
        return Tensor(b_.unflatten(axis, sizes, names.span()));
    }
    /// Removes a size-1 axis (and its name). Throws invalid_argument if its size is not 1.
    [[nodiscard]] Tensor squeeze(const Axis& axis) const { return Tensor(b_.squeeze(axis)); }
    /// Removes every size-1 axis.
    [[nodiscard]] Tensor squeeze_all() const { return Tensor(b_.squeeze_all()); }
    /// Inserts a size-1 axis at `pos` (-rank-1..rank, refers to the result), named `n`.
    [[nodiscard]] Tensor unsqueeze(std::int64_t pos, name n = {}) const { return Tensor(b_.unsqueeze(pos, n)); }
    /// Swaps the last two axes. Throws invalid_argument when rank < 2.
    [[nodiscard]] Tensor transpose() const { return Tensor(b_.transpose()); }
    /// Swaps axes a and b.
    [[nodiscard]] Tensor transpose(const Axis& a, const Axis& b) const { return Tensor(b_.swap_axes(a, b, "transpose")); }
    /// Swaps axes a and b.
    [[nodiscard]] Tensor swap_axes(const Axis& a, const Axis& b) const { return Tensor(b_.swap_axes(a, b)); }
    /// Axis k of the result is axis order[k]. Throws invalid_argument unless `order`
    /// lists every axis once.
    [[nodiscard]] Tensor permute(axes_arg order) const { return Tensor(b_.permute(order.span())); }
    /// Moves one axis to position `to`; the others keep their order.
    [[nodiscard]] Tensor move_axis(const Axis& from, std::int64_t to) const { return Tensor(b_.move_axis(from, to)); }
    /// NumPy moveaxis: axes `from` go to positions `to`, the rest keep their order.
    [[nodiscard]] Tensor move_axes(axes_arg from, shape_arg to) const { return Tensor(b_.move_axes(from.span(), to)); }
    /// Axis i goes to position new_positions[i] (a permutation).
    [[nodiscard]] Tensor move_axes(shape_arg new_positions) const { return Tensor(b_.move_axes(new_positions.span())); }
    /// Python slice `start:end:step` of `axis` (bounds optional, negative from the
    /// end, clamped; negative step reverses). Throws invalid_argument for step 0.
    [[nodiscard]] Tensor slice(const Axis& axis, std::optional<std::int64_t> start,
                               std::optional<std::int64_t> end = std::nullopt, std::int64_t step = 1) const {
        return Tensor(b_.slice(axis, range(start, end, step)));
    }
    /// slice with an nt::range.
    [[nodiscard]] Tensor slice(const Axis& axis, const range& r) const { return Tensor(b_.slice(axis, r)); }
    /// Sliding windows: `axis` becomes the window count (n - size) / step + 1 and a new
    /// last axis of length `size` (named `n`) is appended. Read-only when windows
    /// overlap. Throws invalid_argument (size > n, size < 0, step < 1).
    [[nodiscard]] Tensor unfold(const Axis& axis, std::int64_t size, std::int64_t step = 1, name n = {}) const {
        return Tensor(b_.unfold(axis, size, step, n));
    }
    /// Sliding windows over several axes at once: each listed axis becomes its window
    /// count (n - size) / step + 1 and keeps its name (so reducing over it afterwards
    /// sums over windows), and one window axis per listed axis is appended in the
    /// listed order, unnamed unless `window_names` names them. A view; read-only when
    /// windows overlap. nt::fold is the inverse. Throws axis_out_of_range,
    /// invalid_argument (lengths differ, an axis twice, size > n, step < 1).
    ///     vol.unfold({"D", "H", "W"}, {8, 8, 8}, {6, 6, 6});
    [[nodiscard]] Tensor unfold(axes_arg axes, shape_arg sizes, shape_arg steps, names_arg window_names = {}) const {
        return Tensor(detail::unfold_axes(b_, axes.span(), sizes.span(), steps.span(), window_names.span()));
    }
    /// A view with the listed axes reversed (negative strides; np.flip). Throws
    /// axis_out_of_range, invalid_argument (an axis twice).
    [[nodiscard]] Tensor flip(axes_arg axes) const { return Tensor(detail::flip(b_, axes.span())); }
    /// flip over one axis.
    [[nodiscard]] Tensor flip(const Axis& axis) const {
        const Axis a[1] = {axis};
        return Tensor(detail::flip(b_, a));
    }
    /// A view with every axis reversed.
    [[nodiscard]] Tensor flip() const { return Tensor(detail::flip_all(b_)); }
    /// Broadcast to a bare shape, NumPy style (right-aligned; names are carried over).
    /// A read-only stride-0 view. Throws incompatible_sizes.
    [[nodiscard]] Tensor broadcast_to(shape_arg shape) const { return Tensor(b_.broadcast_to(shape.span())); }
    /// Broadcast to a spec (names first, unnamed right-aligned).
    /// (A template only so that `{2, 3}` picks the shape overload.)
    template <std::same_as<nt::spec> S>
    [[nodiscard]] Tensor broadcast_to(const S& target) const {
        return Tensor(b_.broadcast_to(target));
    }
    /// broadcast_to(other.spec()).
    template <element U>
    [[nodiscard]] Tensor broadcast_like(const Tensor<U>& other) const {
        return Tensor(b_.broadcast_like(other.base()));
    }
    /// Prepends unnamed axes of `sizes` (stride 0).
    [[nodiscard]] Tensor broadcast_left(shape_arg sizes) const { return Tensor(b_.broadcast_left(sizes.span())); }
    /// Inserts size-1 axes at `positions` (each refers to the result).
    [[nodiscard]] Tensor expand_dims(shape_arg positions) const { return Tensor(b_.expand_dims(positions.span())); }
    /// Permutes (and inserts named singletons) so the axes follow `names`; "..." stands
    /// for the axes not listed, in order. Throws no_counterpart for an axis left out.
    ///     t.align_to("W", "...", "N");
    template <class... N>
    [[nodiscard]] Tensor align_to(const N&... names) const {
        const std::array<std::string_view, sizeof...(N)> list{detail::name_text(names)...};
        return Tensor(b_.align_to(list));
    }
    /// align_to with a list.
    [[nodiscard]] Tensor align_to(std::initializer_list<std::string_view> names) const {
        return Tensor(b_.align_to({names.begin(), names.size()}));
    }
    /// align_to with a list whose length is known at run time.
    [[nodiscard]] Tensor align_to(std::span<const std::string_view> names) const { return Tensor(b_.align_to(names)); }
    [[nodiscard]] Tensor align_to(const std::vector<std::string_view>& names) const {
        return Tensor(b_.align_to(std::span<const std::string_view>(names)));
    }
    [[nodiscard]] Tensor align_to(const std::vector<std::string>& names) const {
        const std::vector<std::string_view> views(names.begin(), names.end());
        return align_to(views);
    }
    /// permute with integer positions in a std::vector (any integer type).
    template <std::integral I>
    [[nodiscard]] Tensor permute(const std::vector<I>& order) const {
        std::vector<Axis> axes(order.begin(), order.end());
        return permute(axes_arg(axes));
    }
    /// Permutes and inserts singletons so this follows `other`'s axes (names first,
    /// unnamed right-aligned); sizes are not broadcast.
    template <element U>
    [[nodiscard]] Tensor align_as(const Tensor<U>& other) const {
        return Tensor(b_.align_as(other.base()));
    }
    /// Replaces all names (an empty list removes them). A view.
    [[nodiscard]] Tensor rename(names_arg names) const { return Tensor(b_.rename(names.span())); }
    /// Renames one axis.
    [[nodiscard]] Tensor rename(const Axis& axis, name n) const { return Tensor(b_.rename(axis, n)); }
    /// Names the unnamed axes ("?" keeps an axis unnamed, "..." the rest as they are).
    /// Throws name_mismatch when it would rename an already named axis.
    [[nodiscard]] Tensor refine_names(std::initializer_list<std::string_view> names) const {
        return Tensor(b_.refine_names({names.begin(), names.size()}));
    }
    /// refine_names with a span.
    [[nodiscard]] Tensor refine_names(std::span<const std::string_view> names) const {
        return Tensor(b_.refine_names(names));
    }

private:
    template <class... I>
    T* element_ptr(const char* op, I... i) const {
        const std::array<std::int64_t, sizeof...(I)> idx{static_cast<std::int64_t>(i)...};
        return reinterpret_cast<T*>(b_.storage()) + b_.element_offset(idx, op);
    }

    detail::tensor_base b_;
};

extern template class Tensor<float>;
extern template class Tensor<double>;
extern template class Tensor<std::int32_t>;
extern template class Tensor<std::int64_t>;
extern template class Tensor<std::uint8_t>;
extern template class Tensor<bool>;

}  // namespace nt
