// nt/conv.hpp: convolution by names (torch.nn.functional.conv{1,2,3}d and
// conv_transpose{1,2,3}d), and scipy.ndimage's correlate / convolve.
//
//     auto x = nt::zeros<float>({2, 16, 32, 64, 64}, {"", "CHANNEL", "D", "H", "W"});
//     auto w = nt::zeros<float>({8, 16, 3, 3, 3}, {"FEATURE", "CHANNEL", "D", "H", "W"});
//     nt::conv(x, w, {"D", "H", "W"}, {.padding = nt::padding::same});  // (2,8,32,64,64 | ?,FEATURE,D,H,W)
//     nt::correlate(ct, kernel, {"H", "W"}, nt::boundary::reflect);      // scipy.ndimage.correlate
//
// A convolution by names is nt::dot that slides: `w` has the spatial axes (its sizes
// there are the kernel's); a name in both `x` and `w` is summed over (CHANNEL), a name
// only in `w` becomes an output axis (FEATURE), an axis only in `x` is a batch axis, and
// `.keep` pairs a shared name without summing it (depthwise and grouped convolutions).
// The result's axes: x's batch and kept axes in x's order, then w's own axes in w's
// order, then the spatial axes in x's order (torch's layout for torch's operands).
// Operands without any name follow torch's layout: x (N, C, spatial...) and
// w (F, C, kernel...), the axis of x just before its spatial axes summed with w's
// second axis.
//
// The work is a product of matrices over tiles of the unfolded input, each small
// enough to stay in cache (OpenBLAS), on every thread: the input is never unfolded
// whole. conv, conv_transpose and correlate record their backward rules.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/boundary.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/small_vector.hpp"
#include "nt/structure.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// The padding of nt::conv: `nt::padding::valid` (none, the default),
/// `nt::padding::same` (the output has the input's size; stride 1 only, as torch),
/// one width for both sides of every spatial axis (`1`, torch's `padding=1`), or
/// `{before, after}` per spatial axis in the order of the axes (`{{1, 1}, {0, 2}}`;
/// one pair applies to every axis).
class padding {
public:
    enum class rule : std::uint8_t { valid, same, widths };
    static const padding valid;
    static const padding same;

    padding() noexcept = default;
    padding(std::int64_t both) : rule_(rule::widths), widths_{pad_amount{both, both}} {}  // NOLINT
    padding(std::initializer_list<pad_amount> widths) : rule_(rule::widths), widths_(widths) {}
    explicit padding(std::span<const pad_amount> widths)
        : rule_(rule::widths), widths_(widths.begin(), widths.end()) {}

    [[nodiscard]] rule kind() const noexcept { return rule_; }
    [[nodiscard]] std::span<const pad_amount> widths() const noexcept { return widths_; }

private:
    explicit padding(rule r) noexcept : rule_(r) {}
    rule rule_ = rule::valid;
    std::vector<pad_amount> widths_;
};
inline const padding padding::valid{padding::rule::valid};
inline const padding padding::same{padding::rule::same};

/// Options of nt::conv. Per-axis lists (stride, dilation) are empty (1), one value
/// for every spatial axis, or one per spatial axis in the order of the axes; they
/// own their values, so options may be named and kept.
struct conv_options {
    dims stride{};
    dims dilation{};
    nt::padding padding{};
    /// How the padded elements are filled: nt::pad's modes (constant is torch's zeros,
    /// reflect its reflect, edge its replicate, wrap its circular).
    nt::pad_mode pad_mode = nt::pad_mode::constant;
    /// Names in both x and w paired without summing (depthwise, grouped).
    std::vector<Axis> keep{};
    /// Added to the result: a tensor over w's own axes (or its kept and own axes).
    std::optional<any_tensor> bias{};
};

/// Options of nt::conv_transpose (torch's conv_transpose: `padding` is removed from
/// both sides of the full result, `output_padding` added at the end of each axis).
struct conv_transpose_options {
    dims stride{};
    dims dilation{};
    dims padding{};
    dims output_padding{};
    std::vector<Axis> keep{};
    std::optional<any_tensor> bias{};
};

namespace detail {

// The compiled core (src/imaging/conv.cpp), on any floating element types (half is
// computed in float); results in the promoted type.
[[nodiscard]] tensor_base conv(const tensor_base& x, const tensor_base& w, std::span<const Axis> axes,
                               const conv_options& options);
[[nodiscard]] tensor_base conv_transpose(const tensor_base& x, const tensor_base& w, std::span<const Axis> axes,
                                         const conv_transpose_options& options);
[[nodiscard]] tensor_base correlate(const tensor_base& x, const tensor_base& k, std::span<const Axis> axes,
                                    boundary mode, double cval, bool convolution);

}  // namespace detail

/// The convolution of `x` by `w` over the spatial `axes` (a correlation: the kernel is
/// not flipped), as torch.nn.functional.conv{1,2,3}d with names; see the header's
/// comment for which axes are summed, kept and made. Floating types.
///     nt::conv(x, w, {"H", "W"}, {.stride = {2}, .padding = 1});
template <element T>
[[nodiscard]] Tensor<T> conv(const Tensor<T>& x, const Tensor<T>& w, axes_arg axes, const conv_options& options = {}) {
    return Tensor<T>(detail::conv(x.base(), w.base(), axes.span(), options));
}
[[nodiscard]] inline any_tensor conv(const any_tensor& x, const any_tensor& w, axes_arg axes,
                                     const conv_options& options = {}) {
    return any_tensor(detail::conv(x.base(), w.base(), axes.span(), options));
}

/// The adjoint of nt::conv (torch's conv_transpose{1,2,3}d): names as nt::conv (a
/// name in both is summed, w's own names are made), each spatial size
/// (n - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1.
template <element T>
[[nodiscard]] Tensor<T> conv_transpose(const Tensor<T>& x, const Tensor<T>& w, axes_arg axes,
                                       const conv_transpose_options& options = {}) {
    return Tensor<T>(detail::conv_transpose(x.base(), w.base(), axes.span(), options));
}
[[nodiscard]] inline any_tensor conv_transpose(const any_tensor& x, const any_tensor& w, axes_arg axes,
                                               const conv_transpose_options& options = {}) {
    return any_tensor(detail::conv_transpose(x.base(), w.base(), axes.span(), options));
}

/// scipy.ndimage.correlate over the spatial `axes`: `k` has exactly those axes (by
/// name, or its axes in the order of `axes` when unnamed); every other axis of `x` is
/// a batch axis. Computed in double as scipy computes; the result has x's type
/// (integers converted as scipy converts them). Any numeric type.
template <element T, element K>
[[nodiscard]] Tensor<T> correlate(const Tensor<T>& x, const Tensor<K>& k, axes_arg axes,
                                  boundary mode = boundary::reflect, double cval = 0.0) {
    return Tensor<T>(detail::correlate(x.base(), k.base(), axes.span(), mode, cval, false));
}
[[nodiscard]] inline any_tensor correlate(const any_tensor& x, const any_tensor& k, axes_arg axes,
                                          boundary mode = boundary::reflect, double cval = 0.0) {
    return any_tensor(detail::correlate(x.base(), k.base(), axes.span(), mode, cval, false));
}

/// scipy.ndimage.convolve: correlate with the kernel mirrored (and, along an axis of
/// even size, shifted as scipy shifts it).
template <element T, element K>
[[nodiscard]] Tensor<T> convolve(const Tensor<T>& x, const Tensor<K>& k, axes_arg axes,
                                 boundary mode = boundary::reflect, double cval = 0.0) {
    return Tensor<T>(detail::correlate(x.base(), k.base(), axes.span(), mode, cval, true));
}
[[nodiscard]] inline any_tensor convolve(const any_tensor& x, const any_tensor& k, axes_arg axes,
                                         boundary mode = boundary::reflect, double cval = 0.0) {
    return any_tensor(detail::correlate(x.base(), k.base(), axes.span(), mode, cval, true));
}

}  // namespace nt
