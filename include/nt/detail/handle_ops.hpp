// nt/detail/handle_ops.hpp: the queries and structural operations of a tensor
// handle, written once for nt::Tensor<T> and nt::any_tensor.
//
// Both handles wrap a detail::tensor_base, and every structural operation is the
// base's operation re-wrapped in the handle's own type. handle_ops<Self> (CRTP) does
// that wrapping: Self provides base() and a constructor from tensor_base.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nt/axis.hpp"
#include "nt/detail/grad_hooks.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/dtype.hpp"
#include "nt/index.hpp"
#include "nt/layout.hpp"
#include "nt/names.hpp"
#include "nt/spec.hpp"

namespace nt {

/// One argument of index (an integer, nt::all or nt::range), for lists whose length
/// is known at run time.
using index_item = detail::index_item;

namespace detail {
inline std::string_view name_text(std::string_view s) noexcept { return s; }
inline std::string_view name_text(const char* s) noexcept { return s; }
inline std::string_view name_text(name n) noexcept { return n.str(); }

/// Queries and views of a handle type Self (nt::Tensor<T> or nt::any_tensor); every
/// view is a Self.
template <class Self>
class handle_ops {
public:
    // --- queries --------------------------------------------------------------------

    /// Sizes per axis.
    [[nodiscard]] std::span<const std::int64_t> shape() const noexcept { return b().shape(); }
    /// Strides per axis, in elements (may be 0 or negative).
    [[nodiscard]] std::span<const std::int64_t> strides() const noexcept { return b().strides(); }
    /// Number of axes.
    [[nodiscard]] std::size_t rank() const noexcept { return b().rank(); }
    /// Number of elements (1 for rank 0).
    [[nodiscard]] std::int64_t size() const noexcept { return b().size(); }
    /// Size of one axis. Throws axis_out_of_range.
    [[nodiscard]] std::int64_t size(const Axis& axis) const { return b().size(axis); }
    /// One name per axis (nt::unnamed where absent).
    [[nodiscard]] std::span<const name> names() const noexcept { return b().names(); }
    /// Shape and names as an nt::spec (what the matcher sees).
    [[nodiscard]] nt::spec spec() const { return b().spec(); }
    /// Sizes, strides and offset.
    [[nodiscard]] const nt::layout& layout() const noexcept { return b().layout(); }
    /// The runtime element type tag.
    [[nodiscard]] nt::dtype dtype() const noexcept { return b().type(); }
    /// Row-major contiguous (strides of size-1 axes ignored; zero-size is contiguous).
    [[nodiscard]] bool is_contiguous() const noexcept { return b().is_contiguous(); }
    /// True for views whose elements alias each other (writes throw read_only), and
    /// for read-only file mappings and their views.
    [[nodiscard]] bool is_read_only() const noexcept { return b().is_read_only(); }
    /// True when both handles use the same storage block (or overlapping memory).
    template <class Other>
    [[nodiscard]] bool shares_storage(const handle_ops<Other>& other) const noexcept {
        return b().shares_storage(other.b());
    }

    // --- copies ---------------------------------------------------------------------

    /// A deep, writable, C-contiguous copy with the same names.
    [[nodiscard]] Self clone() const {
        detail::tensor_base out = b().clone();
        if (detail::records(b())) [[unlikely]]
            detail::record_identity("clone", b(), out);
        return Self(std::move(out));
    }
    /// Itself when C-contiguous and writable, else clone().
    [[nodiscard]] Self contiguous() const { return b().is_contiguous() && !b().is_read_only() ? Self(b()) : clone(); }

    // --- structural operations (views unless stated) ---------------------------------

    /// NumPy basic indexing, a view: an integer drops its axis (and name), nt::all and
    /// nt::range keep it; missing trailing arguments mean nt::all. Throws
    /// invalid_argument (too many arguments, step 0) or index_out_of_range.
    ///     t.index(nt::all, 1);   t.index(nt::range(1, 4, 2), -1);
    template <class... A>
    [[nodiscard]] Self index(const A&... args) const {
        const std::array<index_item, sizeof...(A)> items{to_index_item(args)...};
        return Self(detail::viewed("index", b(), [&](const detail::tensor_base& t_) { return t_.index(items); }));
    }
    /// index with a list whose length is known at run time (nt::index_item converts
    /// from an integer, nt::all and nt::range).
    ///     std::vector<nt::index_item> items{1, nt::all, nt::range(0, 2)};  t.index(items);
    [[nodiscard]] Self index(std::span<const index_item> items) const { return Self(detail::viewed("index", b(), [&](const detail::tensor_base& t_) { return t_.index(items); })); }
    [[nodiscard]] Self index(const std::vector<index_item>& items) const {
        return Self(detail::viewed("index", b(), [&](const detail::tensor_base& t_) { return t_.index(std::span<const index_item>(items)); }));
    }
    /// New sizes with the same element count; one size may be -1 (inferred). A view
    /// when the layout allows (as NumPy's reshape), else a copy in `o`'s order.
    /// Names: the longest common prefix of sizes, then suffix, keep theirs.
    /// Throws invalid_argument (count mismatch, two -1, negative size).
    [[nodiscard]] Self reshape(shape_arg shape, order o = order::c) const { return Self(detail::viewed("reshape", b(), [&](const detail::tensor_base& t_) { return t_.reshape(shape, o); })); }
    /// reshape with explicit names (empty: all unnamed). Also throws duplicate_name.
    [[nodiscard]] Self reshape(shape_arg shape, names_arg names, order o = order::c) const {
        return Self(detail::viewed("reshape", b(), [&](const detail::tensor_base& t_) { return t_.reshape(shape, names.span(), o); }));
    }
    /// Like reshape (C order) but never copies: throws not_a_view instead.
    [[nodiscard]] Self view(shape_arg shape) const { return Self(detail::viewed("view", b(), [&](const detail::tensor_base& t_) { return t_.view(shape); })); }
    /// All axes merged into one (names by the reshape rule); a view when possible, else a copy.
    [[nodiscard]] Self flatten() const { return Self(detail::viewed("flatten", b(), [&](const detail::tensor_base& t_) { return t_.flatten(); })); }
    /// Axes first..last (inclusive) merged into one named `n`; a view when possible,
    /// else a copy. Throws axis_out_of_range, invalid_argument (first after last).
    [[nodiscard]] Self flatten(const Axis& first, const Axis& last, name n = {}) const {
        return Self(detail::viewed("flatten", b(), [&](const detail::tensor_base& t_) { return t_.flatten(first, last, n); }));
    }
    /// Splits `axis` into `sizes` (one may be -1) named `names` (empty: unnamed). A view.
    [[nodiscard]] Self unflatten(const Axis& axis, shape_arg sizes, names_arg names = {}) const {
        return Self(detail::viewed("unflatten", b(), [&](const detail::tensor_base& t_) { return t_.unflatten(axis, sizes, names.span()); }));
    }
    /// Removes a size-1 axis (and its name). Throws invalid_argument if its size is not 1.
    [[nodiscard]] Self squeeze(const Axis& axis) const { return Self(detail::viewed("squeeze", b(), [&](const detail::tensor_base& t_) { return t_.squeeze(axis); })); }
    /// Removes every size-1 axis.
    [[nodiscard]] Self squeeze_all() const { return Self(detail::viewed("squeeze_all", b(), [&](const detail::tensor_base& t_) { return t_.squeeze_all(); })); }
    /// Inserts a size-1 axis at `pos` (-rank-1..rank, refers to the result), named `n`.
    [[nodiscard]] Self unsqueeze(std::int64_t pos, name n = {}) const { return Self(detail::viewed("unsqueeze", b(), [&](const detail::tensor_base& t_) { return t_.unsqueeze(pos, n); })); }
    /// Swaps the last two axes. Throws invalid_argument when rank < 2.
    [[nodiscard]] Self transpose() const { return Self(detail::viewed("transpose", b(), [&](const detail::tensor_base& t_) { return t_.transpose(); })); }
    /// Swaps axes a and b.
    [[nodiscard]] Self transpose(const Axis& first, const Axis& second) const {
        return Self(detail::viewed("swap_axes", b(), [&](const detail::tensor_base& t_) { return t_.swap_axes(first, second, "transpose"); }));
    }
    /// Swaps axes a and b.
    [[nodiscard]] Self swap_axes(const Axis& first, const Axis& second) const {
        return Self(detail::viewed("swap_axes", b(), [&](const detail::tensor_base& t_) { return t_.swap_axes(first, second); }));
    }
    /// Axis k of the result is axis order[k]. Throws invalid_argument unless `order`
    /// lists every axis once.
    [[nodiscard]] Self permute(axes_arg order) const { return Self(detail::viewed("permute", b(), [&](const detail::tensor_base& t_) { return t_.permute(order.span()); })); }
    /// permute with integer positions in a std::vector (any integer type).
    template <std::integral I>
    [[nodiscard]] Self permute(const std::vector<I>& order) const {
        std::vector<Axis> axes(order.begin(), order.end());
        return permute(axes_arg(axes));
    }
    /// Moves one axis to position `to`; the others keep their order.
    [[nodiscard]] Self move_axis(const Axis& from, std::int64_t to) const { return Self(detail::viewed("move_axis", b(), [&](const detail::tensor_base& t_) { return t_.move_axis(from, to); })); }
    /// NumPy moveaxis: axes `from` go to positions `to`, the rest keep their order.
    [[nodiscard]] Self move_axes(axes_arg from, shape_arg to) const { return Self(detail::viewed("move_axes", b(), [&](const detail::tensor_base& t_) { return t_.move_axes(from.span(), to); })); }
    /// Axis i goes to position new_positions[i] (a permutation).
    [[nodiscard]] Self move_axes(shape_arg new_positions) const {
        return Self(detail::viewed("move_axes", b(), [&](const detail::tensor_base& t_) { return t_.move_axes(new_positions.span()); }));
    }
    /// Python slice `start:end:step` of `axis` (bounds optional, negative from the
    /// end, clamped; negative step reverses). Throws invalid_argument for step 0.
    [[nodiscard]] Self slice(const Axis& axis, std::optional<std::int64_t> start,
                             std::optional<std::int64_t> end = std::nullopt, std::int64_t step = 1) const {
        return Self(detail::viewed("slice", b(), [&](const detail::tensor_base& t_) { return t_.slice(axis, range(start, end, step)); }));
    }
    /// slice with an nt::range.
    [[nodiscard]] Self slice(const Axis& axis, const range& r) const { return Self(detail::viewed("slice", b(), [&](const detail::tensor_base& t_) { return t_.slice(axis, r); })); }
    /// Sliding windows: `axis` becomes the window count (n - size) / step + 1 and a new
    /// last axis of length `size` (named `n`) is appended. Read-only when windows
    /// overlap. Throws invalid_argument (size > n, size < 0, step < 1).
    [[nodiscard]] Self unfold(const Axis& axis, std::int64_t size, std::int64_t step = 1, name n = {}) const {
        return Self(detail::viewed("unfold", b(), [&](const detail::tensor_base& t_) { return t_.unfold(axis, size, step, n); }));
    }
    /// Sliding windows over several axes at once: each listed axis becomes its window
    /// count (n - size) / step + 1 and keeps its name (so reducing over it afterwards
    /// sums over windows), and one window axis per listed axis is appended in the
    /// listed order, unnamed unless `window_names` names them. A view; read-only when
    /// windows overlap. nt::fold is the inverse. Throws axis_out_of_range,
    /// invalid_argument (lengths differ, an axis twice, size > n, step < 1).
    ///     vol.unfold({"D", "H", "W"}, {8, 8, 8}, {6, 6, 6});
    [[nodiscard]] Self unfold(axes_arg axes, shape_arg sizes, shape_arg steps, names_arg window_names = {}) const {
        return Self(detail::viewed("unfold", b(), [&](const detail::tensor_base& t_) {
            return unfold_axes(t_, axes.span(), sizes.span(), steps.span(), window_names.span());
        }));
    }
    /// A view with the listed axes reversed (negative strides; np.flip). Throws
    /// axis_out_of_range, invalid_argument (an axis twice).
    [[nodiscard]] Self flip(axes_arg axes) const { return Self(detail::viewed("flip", b(), [&](const detail::tensor_base& t_) { return detail::flip(t_, axes.span()); })); }
    /// A view with every axis reversed.
    [[nodiscard]] Self flip() const { return Self(detail::viewed("flip", b(), [&](const detail::tensor_base& t_) { return flip_all(t_); })); }
    /// Broadcast to a bare shape, NumPy style (right-aligned; names are carried over).
    /// A read-only stride-0 view. Throws incompatible_sizes.
    [[nodiscard]] Self broadcast_to(shape_arg shape) const { return Self(detail::viewed("broadcast_to", b(), [&](const detail::tensor_base& t_) { return t_.broadcast_to(shape.span()); })); }
    /// Broadcast to a spec (names first, unnamed right-aligned).
    /// (A template only so that `{2, 3}` picks the shape overload.)
    template <std::same_as<nt::spec> S>
    [[nodiscard]] Self broadcast_to(const S& target) const {
        return Self(detail::viewed("broadcast_to", b(), [&](const detail::tensor_base& t_) { return t_.broadcast_to(target); }));
    }
    /// broadcast_to(other.spec()).
    template <class Other>
    [[nodiscard]] Self broadcast_like(const handle_ops<Other>& other) const {
        return Self(detail::viewed("broadcast_like", b(), [&](const detail::tensor_base& t_) { return t_.broadcast_like(other.b()); }));
    }
    /// Prepends unnamed axes of `sizes` (stride 0).
    [[nodiscard]] Self broadcast_left(shape_arg sizes) const { return Self(detail::viewed("broadcast_left", b(), [&](const detail::tensor_base& t_) { return t_.broadcast_left(sizes.span()); })); }
    /// Inserts size-1 axes at `positions` (each refers to the result).
    [[nodiscard]] Self expand_dims(shape_arg positions) const { return Self(detail::viewed("expand_dims", b(), [&](const detail::tensor_base& t_) { return t_.expand_dims(positions.span()); })); }
    /// Permutes (and inserts named singletons) so the axes follow `names`; "..." stands
    /// for the axes not listed, in order. Throws no_counterpart for an axis left out.
    ///     t.align_to("W", "...", "N");
    template <class... N>
    [[nodiscard]] Self align_to(const N&... names) const {
        const std::array<std::string_view, sizeof...(N)> list{name_text(names)...};
        return Self(detail::viewed("align_to", b(), [&](const detail::tensor_base& t_) { return t_.align_to(list); }));
    }
    /// align_to with a list.
    [[nodiscard]] Self align_to(std::initializer_list<std::string_view> names) const {
        return Self(detail::viewed("align_to", b(), [&](const detail::tensor_base& t_) { return t_.align_to({names.begin(), names.size()}); }));
    }
    /// align_to with a list whose length is known at run time.
    [[nodiscard]] Self align_to(std::span<const std::string_view> names) const { return Self(detail::viewed("align_to", b(), [&](const detail::tensor_base& t_) { return t_.align_to(names); })); }
    [[nodiscard]] Self align_to(const std::vector<std::string_view>& names) const {
        return Self(detail::viewed("align_to", b(), [&](const detail::tensor_base& t_) { return t_.align_to(std::span<const std::string_view>(names)); }));
    }
    [[nodiscard]] Self align_to(const std::vector<std::string>& names) const {
        const std::vector<std::string_view> views(names.begin(), names.end());
        return align_to(views);
    }
    /// Permutes and inserts singletons so this follows `other`'s axes (names first,
    /// unnamed right-aligned); sizes are not broadcast.
    template <class Other>
    [[nodiscard]] Self align_as(const handle_ops<Other>& other) const {
        return Self(detail::viewed("align_as", b(), [&](const detail::tensor_base& t_) { return t_.align_as(other.b()); }));
    }
    /// Replaces all names (an empty list removes them). A view.
    [[nodiscard]] Self rename(names_arg names) const { return Self(detail::viewed("rename", b(), [&](const detail::tensor_base& t_) { return t_.rename(names.span()); })); }
    /// Takes the names of `s` (a spec of a config: cfg.spec("image")); its sizes
    /// are not compared (pipeline_config::check does that). Throws invalid_spec
    /// when the ranks differ. A view.
    template <std::same_as<nt::spec> Spec>
    [[nodiscard]] Self rename(const Spec& s) const {
        name_list names;
        for (const axis_spec& axis : s) names.push_back(axis.name);
        return Self(detail::viewed("rename", b(), [&](const detail::tensor_base& t_) { return t_.rename(names.span()); }));
    }
    /// Renames one axis.
    [[nodiscard]] Self rename(const Axis& axis, name n) const { return Self(detail::viewed("rename", b(), [&](const detail::tensor_base& t_) { return t_.rename(axis, n); })); }
    /// Names the unnamed axes ("?" keeps an axis unnamed, "..." the rest as they are).
    /// Throws name_mismatch when it would rename an already named axis.
    [[nodiscard]] Self refine_names(std::initializer_list<std::string_view> names) const {
        return Self(detail::viewed("refine_names", b(), [&](const detail::tensor_base& t_) { return t_.refine_names({names.begin(), names.size()}); }));
    }
    /// refine_names with a span.
    [[nodiscard]] Self refine_names(std::span<const std::string_view> names) const {
        return Self(detail::viewed("refine_names", b(), [&](const detail::tensor_base& t_) { return t_.refine_names(names); }));
    }

    // --- gradients (nt/autograd.hpp) --------------------------------------------------

    /// Marks this tensor as a leaf that accumulates a gradient (PyTorch's
    /// requires_grad_()); returns it. Copies of the handle share the leaf. Throws
    /// invalid_argument for element types other than nt::half, float and double, and
    /// for a result computed in a graph (mark t.detach() instead).
    ///     auto w = nt::zeros<float>({3, 4}, {"IN", "OUT"}).with_grad();
    Self& with_grad() & {
        static_cast<Self&>(*this).mutable_base() = detail::mark_with_grad(b());
        return static_cast<Self&>(*this);
    }
    Self with_grad() && { return std::move(with_grad()); }
    /// True for a leaf marked with_grad and for a result computed from one while recording.
    [[nodiscard]] bool requires_grad() const noexcept { return b().grad_node() != nullptr; }
    /// The reverse pass from this one-element tensor: adds d(this)/d(leaf) into the
    /// grad() of every leaf it was computed from, then frees the graph (see
    /// nt::backward_options). Throws invalid_argument when this tensor requires no
    /// gradient, has more than one element, or its graph was freed.
    void backward(const backward_options& options = {}) const { detail::backward_from(b(), nullptr, options); }
    /// The reverse pass seeded by `seed`, of this tensor's shape and names (the
    /// gradient of some scalar with respect to this tensor).
    template <class Other>
    void backward(const handle_ops<Other>& seed, const backward_options& options = {}) const {
        detail::backward_from(b(), &seed.b(), options);
    }
    /// The accumulated gradient of this leaf: its shape, names and element type.
    /// Throws no_gradient when no backward pass has reached it.
    [[nodiscard]] Self grad() const { return Self(detail::grad_of(b())); }
    /// True for a leaf that a backward pass has reached.
    [[nodiscard]] bool has_grad() const noexcept { return detail::has_grad_of(b()); }
    /// Sets this leaf's accumulated gradient to zeros (if it has one).
    void zero_grad() const { detail::zero_grad_of(b()); }
    /// The same storage outside any graph: nothing computed from it records.
    [[nodiscard]] Self detach() const { return Self(b().without_grad_node()); }

protected:
    handle_ops() = default;
    [[nodiscard]] const tensor_base& b() const noexcept { return static_cast<const Self&>(*this).base(); }

    template <class Other>
    friend class handle_ops;
};

}  // namespace detail
}  // namespace nt
