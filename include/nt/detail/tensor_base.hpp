// nt/detail/tensor_base.hpp: the element-type-independent half of nt::Tensor.
//
// tensor_base composes storage (owner + byte pointer + extent), a layout and the
// names layer, and implements every structural operation once, in src/tensor/ and src/ops/.
// Tensor<T> wraps it and re-wraps results with thin inline forwarding (the
// SmallVectorBase / fmt vprint split).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "nt/axis.hpp"
#include "nt/detail/node_ptr.hpp"
#include "nt/dtype.hpp"
#include "nt/index.hpp"
#include "nt/layout.hpp"
#include "nt/names.hpp"
#include "nt/spec.hpp"

namespace nt::detail {

/// A node of the gradient tape (src/autograd/graph.hpp).
struct tape_node;

/// Throws type_mismatch for a Tensor<T> built from a base of another dtype.
[[noreturn]] void throw_type_mismatch(dtype expected, dtype actual, const char* op);

/// One argument of Tensor::index: an integer (drops the axis), all or a range.
/// Public as nt::index_item, for index lists whose length is known at run time:
///     std::vector<nt::index_item> items{1, nt::all, nt::range(0, 2)};  t.index(items);
struct index_item {
    enum class kind : std::uint8_t { integer, all, range };
    kind k = kind::all;
    std::int64_t i = 0;
    nt::range r{};

    constexpr index_item() noexcept = default;
    constexpr index_item(kind k_, std::int64_t i_, nt::range r_) noexcept : k(k_), i(i_), r(r_) {}
    template <std::integral I>
        requires(!std::same_as<I, bool>)
    constexpr index_item(I v) noexcept : k(kind::integer), i(static_cast<std::int64_t>(v)) {}  // NOLINT
    constexpr index_item(all_t) noexcept {}                                                   // NOLINT
    constexpr index_item(const nt::range& rr) noexcept : k(kind::range), r(rr) {}             // NOLINT
};
template <std::integral I>
    requires(!std::same_as<I, bool>)
constexpr index_item to_index_item(I i) noexcept {
    return {index_item::kind::integer, static_cast<std::int64_t>(i), {}};
}
constexpr index_item to_index_item(all_t) noexcept { return {index_item::kind::all, 0, {}}; }
constexpr index_item to_index_item(const range& r) noexcept { return {index_item::kind::range, 0, r}; }

/// Tag of the handles' constructor from a callable returning a tensor_base: the base is
/// built in place (guaranteed elision), where adopting a tensor_base moves ~270 bytes.
struct in_place_base_t {
    explicit in_place_base_t() = default;
};
inline constexpr in_place_base_t in_place_base{};

/// The untyped tensor handle. Copying shares the storage.
class tensor_base {
public:
    /// An empty tensor of shape (0) and type `d`, without storage.
    explicit tensor_base(dtype d = dtype::f32);
    tensor_base(dtype d, std::shared_ptr<void> owner, std::byte* storage, std::int64_t extent, nt::layout&& layout,
                name_list&& names, bool read_only);
    tensor_base(dtype d, std::shared_ptr<void> owner, std::byte* storage, std::int64_t extent,
                const nt::layout& layout, const name_list& names, bool read_only);

    /// A fresh, uninitialised, C-contiguous, writable tensor. Throws invalid_spec for a
    /// negative size, a rank over max_rank or a names length that is neither 0 nor
    /// the rank; duplicate_name; invalid_argument when the element count overflows.
    [[nodiscard]] static tensor_base allocate(dtype d, std::span<const std::int64_t> shape,
                                              std::span<const name> names, std::string_view op);
    /// A fresh result shaped like `s`, a spec from a matcher plan (sizes >= 0, names
    /// unique, rank <= max_rank by construction): only the element count is checked.
    /// The fixed cost of a tiny element-wise op is mostly validation otherwise.
    [[nodiscard]] static tensor_base allocate_result(dtype d, const nt::spec& s, std::string_view op);
    /// The same from its parts, derived once per shape (alignment::result): a C-contiguous
    /// `c_layout` at offset 0, one name per axis, and its element count, -1 when that
    /// overflows (then this throws as above).
    [[nodiscard]] static tensor_base allocate_result(dtype d, const nt::layout& c_layout, const name_list& names,
                                                     std::int64_t count, std::string_view op);
    /// A fresh result of `like`'s shape and names, whose strides are already C order's
    /// (at any offset) and whose element count is `count`: its layout is copied, not
    /// derived (the tiny operation's path).
    [[nodiscard]] static tensor_base allocate_like(dtype d, const tensor_base& like, std::int64_t count,
                                                   std::string_view op);
    /// External memory: `ptr` is the element at index 0..0; empty `strides` means C
    /// order. Read-only when the strides may let two indices reach one element.
    [[nodiscard]] static tensor_base wrap(dtype d, void* ptr, std::span<const std::int64_t> shape,
                                          std::span<const std::int64_t> strides, std::shared_ptr<void> owner,
                                          std::span<const name> names);

    // --- queries ------------------------------------------------------------------
    [[nodiscard]] dtype type() const noexcept { return dtype_; }
    [[nodiscard]] std::size_t element_size() const noexcept { return size_of(dtype_); }
    [[nodiscard]] const nt::layout& layout() const noexcept { return layout_; }
    [[nodiscard]] std::size_t rank() const noexcept { return layout_.rank(); }
    [[nodiscard]] std::span<const std::int64_t> shape() const noexcept { return layout_.sizes(); }
    [[nodiscard]] std::span<const std::int64_t> strides() const noexcept { return layout_.strides(); }
    [[nodiscard]] std::int64_t size() const noexcept { return layout_.element_count(); }
    [[nodiscard]] std::int64_t size(const Axis& axis) const;
    [[nodiscard]] std::span<const name> names() const noexcept { return names_.span(); }
    [[nodiscard]] nt::spec spec() const;
    [[nodiscard]] bool is_contiguous() const noexcept { return layout_.is_contiguous(); }
    [[nodiscard]] bool is_read_only() const noexcept { return read_only_; }
    /// True when some element of this tensor's storage block lies in `other`'s (the
    /// same owner, or overlapping memory ranges). Inline: every out= operation asks.
    [[nodiscard]] bool shares_storage(const tensor_base& other) const noexcept {
        if (owner_ && owner_ == other.owner_) return true;
        if (!storage_ || !other.storage_ || extent_ == 0 || other.extent_ == 0) return false;
        const auto a0 = reinterpret_cast<std::uintptr_t>(storage_);
        const auto a1 = a0 + static_cast<std::uintptr_t>(extent_) * element_size();
        const auto b0 = reinterpret_cast<std::uintptr_t>(other.storage_);
        const auto b1 = b0 + static_cast<std::uintptr_t>(other.extent_) * other.element_size();
        return a0 < b1 && b0 < a1;
    }
    /// True when the elements reachable through the two layouts may overlap in memory.
    [[nodiscard]] bool may_overlap(const tensor_base& other) const noexcept;
    [[nodiscard]] std::byte* storage() const noexcept { return storage_; }
    [[nodiscard]] std::int64_t extent() const noexcept { return extent_; }
    [[nodiscard]] const std::shared_ptr<void>& owner() const noexcept { return owner_; }
    /// The element at index 0..0 (the storage start for a zero-size tensor).
    [[nodiscard]] std::byte* data() const noexcept {
        // Offset 0 (fresh tensors, most views) needs no emptiness test: inline.
        return layout_.offset() == 0 ? storage_ : offset_data();
    }
    /// "(2,3 | N,C)", for messages.
    [[nodiscard]] std::string describe() const;

    // --- element access -------------------------------------------------------------
    /// Offset in elements from the storage start of the element at `index`. Throws
    /// invalid_argument (wrong number of indices) or index_out_of_range, naming `op`.
    [[nodiscard]] std::int64_t element_offset(std::span<const std::int64_t> index, const char* op) const;
    /// Throws read_only, naming `op`, when this is a read-only view. Inline: every
    /// mutable_data() asks, a fresh result's too.
    void check_writable(const char* op) const {
        if (read_only_) throw_read_only(op);
    }
    /// Throws type_mismatch unless this holds `expected` elements. Inline: every
    /// typed result passes here.
    void check_type(dtype expected) const {
        if (dtype_ != expected) throw_type_mismatch(expected, dtype_, "Tensor");
    }

    // --- views ----------------------------------------------------------------------
    [[nodiscard]] tensor_base index(std::span<const index_item> items) const;
    [[nodiscard]] tensor_base reshape(std::span<const std::int64_t> shape, order o) const;
    [[nodiscard]] tensor_base reshape(std::span<const std::int64_t> shape, std::span<const name> names, order o) const;
    /// reshape() once -1 is resolved and the names are known (validated by the caller).
    [[nodiscard]] tensor_base reshape_inferred(std::span<const std::int64_t> sizes, name_list names, order o) const;
    [[nodiscard]] tensor_base view(std::span<const std::int64_t> shape) const;
    [[nodiscard]] tensor_base flatten() const;
    [[nodiscard]] tensor_base flatten(const Axis& first, const Axis& last, name n) const;
    [[nodiscard]] tensor_base unflatten(const Axis& axis, std::span<const std::int64_t> sizes,
                                        std::span<const name> names) const;
    [[nodiscard]] tensor_base squeeze(const Axis& axis) const;
    [[nodiscard]] tensor_base squeeze_all() const;
    [[nodiscard]] tensor_base unsqueeze(std::int64_t pos, name n) const;
    [[nodiscard]] tensor_base transpose() const;
    [[nodiscard]] tensor_base swap_axes(const Axis& a, const Axis& b, const char* op = "swap_axes") const;
    [[nodiscard]] tensor_base permute(std::span<const Axis> order) const;
    [[nodiscard]] tensor_base move_axis(const Axis& from, std::int64_t to) const;
    [[nodiscard]] tensor_base move_axes(std::span<const Axis> from, std::span<const std::int64_t> to,
                                        std::string_view op = "move_axes") const;
    [[nodiscard]] tensor_base move_axes(std::span<const std::int64_t> new_positions) const;
    [[nodiscard]] tensor_base slice(const Axis& axis, const range& r) const;
    [[nodiscard]] tensor_base unfold(const Axis& axis, std::int64_t size, std::int64_t step, name n) const;
    [[nodiscard]] tensor_base broadcast_to(std::span<const std::int64_t> shape) const;
    [[nodiscard]] tensor_base broadcast_to(const nt::spec& target) const;
    [[nodiscard]] tensor_base broadcast_like(const tensor_base& other) const;
    [[nodiscard]] tensor_base broadcast_left(std::span<const std::int64_t> dims) const;
    [[nodiscard]] tensor_base expand_dims(std::span<const std::int64_t> positions) const;
    [[nodiscard]] tensor_base align_to(std::span<const std::string_view> names) const;
    [[nodiscard]] tensor_base align_as(const tensor_base& other) const;
    [[nodiscard]] tensor_base rename(std::span<const name> names) const;
    [[nodiscard]] tensor_base rename(const Axis& axis, name n) const;
    [[nodiscard]] tensor_base refine_names(std::span<const std::string_view> names) const;

    // --- copies and writes ---------------------------------------------------------
    /// A fresh writable copy, C-contiguous (or F-contiguous for order::fortran).
    [[nodiscard]] tensor_base clone(order o = order::c) const;
    /// Itself when C-contiguous and writable, else clone().
    [[nodiscard]] tensor_base contiguous() const;
    /// Writes the element_size() bytes at `value` everywhere. Throws read_only.
    void fill(const void* value) const;
    /// Broadcasts `src` to this spec (policy names) and copies it in, converting the
    /// element type if it differs; copies `src` first when it may overlap this.
    /// Throws read_only and the matcher's errors.
    void assign(const tensor_base& src) const;
    /// Writes the elements in row-major order to `out` (size() * element_size() bytes).
    void copy_to(void* out) const;

    /// Same storage and names with another layout and read-only flag (no checks).
    [[nodiscard]] tensor_base with(nt::layout l, name_list names, bool read_only) const;

    // --- the gradient tape (nt/autograd.hpp) ------------------------------------------
    /// The node of this tensor in a graph: a leaf marked with_grad, or the operation
    /// that computed it from one while recording; null outside any graph.
    [[nodiscard]] const node_ptr& grad_node() const noexcept { return grad_; }
    void set_grad_node(detail::node_ptr node) noexcept { grad_ = std::move(node); }
    /// The same tensor outside any graph (detach).
    [[nodiscard]] tensor_base without_grad_node() const {
        tensor_base t(*this);
        t.grad_.reset();
        return t;
    }

private:
    // A fresh C-contiguous block of `bytes` for `extent` elements: the owner is
    // allocated into its member (see allocate_owned).
    tensor_base(dtype d, std::size_t bytes, std::int64_t extent, const nt::layout& layout, const name_list& names);
    [[noreturn]] void throw_read_only(const char* op) const;
    std::byte* offset_data() const noexcept;
    // A C-contiguous block for `shape` (sizes already valid); checks only the count.
    static tensor_base fresh(dtype d, std::span<const std::int64_t> shape, name_list names, std::string_view op);
    std::shared_ptr<void> owner_;
    // Beside the owner, in the first cache line that a fresh result's destructor
    // reads anyway.
    detail::node_ptr grad_;
    std::byte* storage_ = nullptr;
    std::int64_t extent_ = 0;
    nt::layout layout_;
    name_list names_;
    bool read_only_ = false;
    dtype dtype_ = dtype::f32;
};

/// Where each axis of `target` comes from when a tensor of spec `input` is broadcast
/// to it (broadcast_to's plan): an axis of `input`, or -1 for an inserted axis. Throws
/// the matcher's errors, naming `op`.
[[nodiscard]] small_vector<std::int32_t, 8> broadcast_source_axes(const nt::spec& input, const nt::spec& target,
                                                                 std::string_view op);

/// Views defined in src/ops/structure.cpp (Tensor::flip, Tensor::unfold over axes).
[[nodiscard]] tensor_base flip(const tensor_base& t, std::span<const Axis> axes);
[[nodiscard]] tensor_base flip_all(const tensor_base& t);
[[nodiscard]] tensor_base unfold_axes(const tensor_base& t, std::span<const Axis> axes,
                                      std::span<const std::int64_t> sizes, std::span<const std::int64_t> steps,
                                      std::span<const name> window_names);

/// Masks (src/ops/masks.cpp). `mask` must hold bool (type_mismatch otherwise) and is
/// matched to `t` by names and broadcast to it as assign broadcasts a source
/// (align_to_destination). masked_fill and assign_where write into `t` (read_only
/// for a read-only view); `value` points to one element of t's type.
void masked_fill(const tensor_base& t, const tensor_base& mask, const void* value);
void assign_where(const tensor_base& t, const tensor_base& mask, const tensor_base& src);
/// The elements of `t` where the mask is true, in row-major order: a new 1-D tensor.
[[nodiscard]] tensor_base masked_select(const tensor_base& t, const tensor_base& mask);


}  // namespace nt::detail
