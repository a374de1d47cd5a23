// nt/structure.hpp: joining, splitting, padding, flipping, rolling, repeating,
// tiling, and sliding windows both ways (unfold over several axes, fold back).
//
//     auto v = nt::concatenate({a, b}, "D");                  // a copy
//     auto parts = nt::split(v, "D", 2);                       // views
//     auto p = nt::pad(img, {{"H", {2, 2}}, {"W", {2, 2}}}, nt::pad_mode::reflect);
//     auto w = vol.unfold({"D", "H", "W"}, {8, 8, 8}, {6, 6, 6});   // a view
//     auto back = nt::fold(w, {"D", "H", "W"}, {128, 128, 128}, {6, 6, 6},
//                          nt::fold_norm::average);
//
// Everything that does not depend on the element type is compiled once in
// src/ops/structure.cpp; copies go through the engine's strided copy.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "nt/axis.hpp"
#include "nt/detail/list_arg.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/elementwise.hpp"
#include "nt/layout.hpp"
#include "nt/match.hpp"
#include "nt/names.hpp"
#include "nt/small_vector.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// How nt::pad fills the new elements (NumPy's np.pad modes).
enum class pad_mode : std::uint8_t {
    constant,   ///< a value (default 0)
    edge,       ///< the edge element repeated
    reflect,    ///< mirrored without repeating the edge (wider pads reflect again, as NumPy)
    symmetric,  ///< mirrored with the edge repeated (any width: the mirror repeats)
    wrap,       ///< the other end of the axis (any width: periodic)
};

/// How nt::fold combines overlapping windows.
enum class fold_norm : std::uint8_t {
    none,     ///< overlapping windows are added
    average,  ///< added, then divided by the number of windows covering each element
};

/// Elements added before and after one axis.
struct pad_amount {
    std::int64_t before = 0;
    std::int64_t after = 0;
};
/// Padding of one axis: `{"H", {2, 2}}` or `{0, {1, 3}}`.
struct pad_width {
    Axis axis;
    pad_amount widths;
};

/// A list of pad widths as a parameter: binds to `{{"H", {2, 2}}, {"W", {1, 1}}}`, a
/// std::vector<pad_width> or a span. Non-owning.
using pad_widths_arg = detail::list_arg<pad_width>;

namespace detail {

using base_list = std::vector<tensor_base>;

template <class T>
base_list bases_of(std::span<const Tensor<T>> ts) {
    base_list out;
    for (const Tensor<T>& t : ts) out.push_back(t.base());
    return out;
}
template <class T>
std::vector<Tensor<T>> wrap_all(std::vector<tensor_base>&& parts) {
    std::vector<Tensor<T>> out;
    out.reserve(parts.size());
    for (tensor_base& p : parts) out.emplace_back(std::move(p));
    return out;
}

tensor_base concatenate(std::span<const tensor_base> ts, const Axis& axis);
tensor_base stack(std::span<const tensor_base> ts, std::int64_t pos, name n);
std::vector<tensor_base> split_equal(const tensor_base& t, const Axis& axis, std::int64_t sections);
std::vector<tensor_base> array_split(const tensor_base& t, const Axis& axis, std::int64_t sections);
std::vector<tensor_base> split_at(const tensor_base& t, const Axis& axis, std::span<const std::int64_t> indices);
std::vector<tensor_base> chunk(const tensor_base& t, std::int64_t chunks, const Axis& axis);
tensor_base pad(const tensor_base& t, std::span<const pad_width> widths, pad_mode mode, const void* value);
tensor_base roll(const tensor_base& t, std::int64_t shift, const Axis& axis);
tensor_base roll_flat(const tensor_base& t, std::int64_t shift);
tensor_base repeat(const tensor_base& t, std::int64_t n, const Axis& axis);
tensor_base tile(const tensor_base& t, std::span<const std::int64_t> reps);

/// What fold does, type-erased: a zero-filled result, and pairs (destination view of
/// the result, source view of the patches) whose windows do not overlap within a
/// pair, to be added in order. `count_axes` are the folded axes of the result.
struct fold_job {
    tensor_base out;
    std::vector<std::pair<tensor_base, tensor_base>> parts;
    dims axes;
    dims sizes;
    dims steps;
};
fold_job plan_fold(const tensor_base& patches, std::span<const Axis> axes, std::span<const std::int64_t> output_sizes,
                   std::span<const std::int64_t> steps, std::string_view op);
/// The number of windows covering each element, one factor per folded axis, as
/// (shape of the result with size 1 off the folded axis) int64 tensors.
std::vector<tensor_base> fold_count_factors(const fold_job& job);
/// Records fold's result `out` (computed from `patches` by `job`) on the tape: its
/// backward is unfold of the gradient (divided by the counts for fold_norm::average).
void record_fold(const tensor_base& patches, const fold_job& job, fold_norm norm, tensor_base& out);

}  // namespace detail

// --- joining -------------------------------------------------------------------------

/// Joins tensors along an existing axis (np.concatenate). Every input is matched to
/// the first by names (named axes by name, unnamed ones right-aligned, as align_as),
/// so inputs whose names come in another order join correctly; the result has the
/// first input's axis order and names. All inputs need the same rank and the same
/// sizes off `axis` (no broadcasting). A new C-contiguous tensor.
/// Throws invalid_argument (no inputs, rank 0, ranks differ), axis_out_of_range,
/// no_counterpart (a name absent from the first input), incompatible_sizes.
///     auto v = nt::concatenate({a, b, c}, "D");
template <element T>
[[nodiscard]] Tensor<T> concatenate(std::span<const Tensor<T>> tensors, const Axis& axis = 0) {
    const auto b = detail::bases_of(tensors);
    return Tensor<T>(detail::concatenate(b, axis));
}
template <element T>
[[nodiscard]] Tensor<T> concatenate(std::initializer_list<Tensor<T>> tensors, const Axis& axis = 0) {
    return concatenate(std::span<const Tensor<T>>(tensors.begin(), tensors.size()), axis);
}
template <element T>
[[nodiscard]] Tensor<T> concatenate(const std::vector<Tensor<T>>& tensors, const Axis& axis = 0) {
    return concatenate(std::span<const Tensor<T>>(tensors), axis);
}

/// Joins tensors along a new axis inserted at `pos` of the result (-rank-1..rank),
/// named `n` (np.stack). Inputs are matched to the first by names as in
/// concatenate and must have the same sizes. A new C-contiguous tensor.
///     auto batch = nt::stack({x, y}, 0, "N");
template <element T>
[[nodiscard]] Tensor<T> stack(std::span<const Tensor<T>> tensors, std::int64_t pos = 0, name n = {}) {
    const auto b = detail::bases_of(tensors);
    return Tensor<T>(detail::stack(b, pos, n));
}
template <element T>
[[nodiscard]] Tensor<T> stack(std::initializer_list<Tensor<T>> tensors, std::int64_t pos = 0, name n = {}) {
    return stack(std::span<const Tensor<T>>(tensors.begin(), tensors.size()), pos, n);
}
template <element T>
[[nodiscard]] Tensor<T> stack(const std::vector<Tensor<T>>& tensors, std::int64_t pos = 0, name n = {}) {
    return stack(std::span<const Tensor<T>>(tensors), pos, n);
}

// --- broadcast_tensors with a run-time number of inputs ------------------------------------

/// The inputs viewed as their matched output (no copies; stride 0 on broadcast axes,
/// read-only where an axis is actually broadcast), for a list whose length is known
/// at run time. `options` chooses the policy and lets axes absent from the host
/// become new output axes (`union_axes`):
///     auto views = nt::broadcast_tensors(list, nt::match_options{.union_axes = true});
/// Throws the matcher's errors (incompatible_sizes, no_counterpart, ...).
template <element T>
[[nodiscard]] std::vector<Tensor<T>> broadcast_tensors(std::span<const Tensor<T>> tensors,
                                                       const match_options& options = {}) {
    std::vector<spec> specs;
    specs.reserve(tensors.size());
    for (const Tensor<T>& t : tensors) specs.push_back(t.spec());
    const plan p = match(specs, options);
    std::vector<Tensor<T>> out;
    out.reserve(tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i) out.push_back(detail::aligned_view(tensors[i], p, i));
    return out;
}
template <element T>
[[nodiscard]] std::vector<Tensor<T>> broadcast_tensors(const std::vector<Tensor<T>>& tensors,
                                                       const match_options& options = {}) {
    return broadcast_tensors(std::span<const Tensor<T>>(tensors), options);
}

// --- splitting (views) -------------------------------------------------------------------

/// `sections` equal views along `axis` (np.split with an integer). Throws
/// invalid_argument when the axis size is not a multiple of `sections` (use
/// array_split or chunk) or sections < 1.
template <element T>
[[nodiscard]] std::vector<Tensor<T>> split(const Tensor<T>& t, const Axis& axis, std::int64_t sections) {
    return detail::wrap_all<T>(detail::split_equal(t.base(), axis, sections));
}
/// Views between the given indices along `axis` (np.split / np.array_split with
/// indices): [0, i0), [i0, i1), ..., [ik, n), each bound as a Python slice bound
/// (negative counts from the end, clamped), so some views may be empty.
template <element T>
[[nodiscard]] std::vector<Tensor<T>> split(const Tensor<T>& t, const Axis& axis, shape_arg indices) {
    return detail::wrap_all<T>(detail::split_at(t.base(), axis, indices.span()));
}
/// split at indices given as a braced list: `nt::split(t, "W", {1})` splits at 1 (a
/// one-element list would otherwise select the `sections` overload).
template <element T>
[[nodiscard]] std::vector<Tensor<T>> split(const Tensor<T>& t, const Axis& axis,
                                           std::initializer_list<std::int64_t> indices) {
    return detail::wrap_all<T>(
        detail::split_at(t.base(), axis, std::span<const std::int64_t>(indices.begin(), indices.size())));
}
/// `sections` views along `axis` whose sizes differ by at most one, the larger first
/// (np.array_split with an integer). Throws invalid_argument for sections < 1.
template <element T>
[[nodiscard]] std::vector<Tensor<T>> array_split(const Tensor<T>& t, const Axis& axis, std::int64_t sections) {
    return detail::wrap_all<T>(detail::array_split(t.base(), axis, sections));
}
/// At most `chunks` views of ceil(n / chunks) elements along `axis`, the last one
/// smaller (torch.chunk; fewer views when n is small). Throws invalid_argument for
/// chunks < 1.
template <element T>
[[nodiscard]] std::vector<Tensor<T>> chunk(const Tensor<T>& t, std::int64_t chunks, const Axis& axis = 0) {
    return detail::wrap_all<T>(detail::chunk(t.base(), chunks, axis));
}

// --- padding ----------------------------------------------------------------------------

/// A copy of `t` with elements added before and after the listed axes (np.pad);
/// axes not listed are not padded. Modes as NumPy's; `value` is for constant.
/// Names are kept. Throws axis_out_of_range, invalid_argument (negative width, an
/// axis listed twice, a non-constant mode on an empty axis).
///     nt::pad(img, {{"H", {2, 2}}, {"W", {2, 2}}}, nt::pad_mode::reflect);
template <element T>
[[nodiscard]] Tensor<T> pad(const Tensor<T>& t, pad_widths_arg widths, pad_mode mode = pad_mode::constant,
                            std::type_identity_t<T> value = T{}) {
    return Tensor<T>(detail::pad(t.base(), widths.span(), mode, &value));
}

// --- flip, roll, repeat, tile ----------------------------------------------------------------

/// A view with the listed axes reversed (negative strides; np.flip). Throws
/// axis_out_of_range, invalid_argument (an axis twice).
/// Recorded on the gradient tape as the view it is (as t.flip(axes)).
template <element T>
[[nodiscard]] Tensor<T> flip(const Tensor<T>& t, axes_arg axes) {
    return t.flip(axes);
}
/// A view with every axis reversed (np.flip with axis=None).
template <element T>
[[nodiscard]] Tensor<T> flip(const Tensor<T>& t) {
    return t.flip();
}

/// A copy with the elements shifted by `shift` along `axis`, those past the end
/// coming back at the start (np.roll). Names are kept.
template <element T>
[[nodiscard]] Tensor<T> roll(const Tensor<T>& t, std::int64_t shift, const Axis& axis) {
    return Tensor<T>(detail::roll(t.base(), shift, axis));
}
/// roll of the flattened elements, reshaped back (np.roll with axis=None).
template <element T>
[[nodiscard]] Tensor<T> roll(const Tensor<T>& t, std::int64_t shift) {
    return Tensor<T>(detail::roll_flat(t.base(), shift));
}

/// A copy with each element repeated `n` times along `axis` (np.repeat with an
/// integer count). Names are kept. Throws invalid_argument for n < 0.
template <element T>
[[nodiscard]] Tensor<T> repeat(const Tensor<T>& t, std::int64_t n, const Axis& axis) {
    return Tensor<T>(detail::repeat(t.base(), n, axis));
}

/// A copy of `t` repeated `reps[k]` times along axis k (np.tile): a shorter `reps`
/// is padded with leading 1s, a longer one prepends unnamed axes to `t`. Names are
/// kept. Throws invalid_argument for a negative repetition.
template <element T>
[[nodiscard]] Tensor<T> tile(const Tensor<T>& t, shape_arg reps) {
    return Tensor<T>(detail::tile(t.base(), reps.span()));
}

// --- windows ----------------------------------------------------------------------------------

/// Sliding windows over several axes at once, a view (see Tensor::unfold(axes, ...)),
/// recorded on the gradient tape as the method is.
template <element T>
[[nodiscard]] Tensor<T> unfold(const Tensor<T>& t, axes_arg axes, shape_arg sizes, shape_arg steps,
                               names_arg window_names = {}) {
    return t.unfold(axes, sizes, steps, window_names);
}

/// The number of windows covering each element of fold's result: shape of the
/// result with size 1 off the folded axes, the result's names. Same arguments and
/// errors as fold.
template <element T>
    requires(!std::same_as<T, bool>)
[[nodiscard]] Tensor<T> fold_counts(const Tensor<T>& patches, axes_arg axes, shape_arg output_sizes,
                                    shape_arg steps) {
    const detail::fold_job job =
        detail::plan_fold(patches.base(), axes.span(), output_sizes.span(), steps.span(), "fold_counts");
    Tensor<std::int64_t> counts;
    bool first = true;
    for (detail::tensor_base& f : detail::fold_count_factors(job)) {
        Tensor<std::int64_t> c(std::move(f));
        counts = first ? c : counts * c;
        first = false;
    }
    return counts.template astype<T>();
}

/// The inverse of unfold: `patches` is laid out as `unfold(axes, sizes, steps)` makes
/// it (each listed axis holds its window count, the last axes.size() axes are the
/// windows); the windows are added into a zero tensor whose listed axes have
/// `output_sizes` (overlaps add up; elements no window covers stay 0). With
/// fold_norm::average each element is divided by the number of windows covering it
/// (elements covered by none stay 0; integer types divide with truncation). The
/// result has the names of patches' leading axes. A new tensor.
/// `axes` refer to the result's axes (patches' leading ones). Throws
/// axis_out_of_range, invalid_argument (lengths differ, a step < 1, window counts
/// that `output_sizes` and `steps` do not give).
///     auto vol = nt::fold(w, {"D", "H", "W"}, {128, 128, 128}, {6, 6, 6}, nt::fold_norm::average);
template <element T>
    requires(!std::same_as<T, bool>)
[[nodiscard]] Tensor<T> fold(const Tensor<T>& patches, axes_arg axes, shape_arg output_sizes, shape_arg steps,
                             fold_norm norm = fold_norm::none) {
    detail::fold_job job = detail::plan_fold(patches.base(), axes.span(), output_sizes.span(), steps.span(), "fold");
    Tensor<T> out(job.out);
    for (auto& [dst, src] : job.parts) {
        Tensor<T> d(std::move(dst));
        d += Tensor<T>(std::move(src));
    }
    if (norm == fold_norm::average) {
        Tensor<T> counts = fold_counts(patches, axes, output_sizes, steps);
        out /= maximum(counts, T{1});
    }
    if (detail::records(patches.base())) [[unlikely]] {
        detail::tensor_base b = out.base();
        detail::record_fold(patches.base(), job, norm, b);
        return Tensor<T>(std::move(b));
    }
    return out;
}

}  // namespace nt
