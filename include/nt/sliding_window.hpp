// nt/sliding_window.hpp: patch-wise inference in bounded memory, as MONAI's
// sliding_window_inference: a predictor runs on overlapping windows of a volume, a
// few windows at a time, and its predictions are blended back into one result.
//
//     auto probs = nt::sliding_window(ct, {"D", "H", "W"}, {96, 96, 96},
//         [&](const nt::Tensor<float>& windows) { return model(windows); },   // (4,C,96,96,96) -> (4,CLASS,96,96,96)
//         {.overlap = 0.5, .batch = 4, .blend = nt::blend::gaussian});
//
// Memory: the result (and, for gaussian blending, one weight per voxel of the spatial
// axes), plus one batch of windows and of predictions, whatever the size of x: the
// windows are copied out of x one batch at a time and never all at once (unfold +
// fold holds every window's prediction).
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "nt/any_tensor.hpp"
#include "nt/axis.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/layout.hpp"
#include "nt/structure.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// How nt::sliding_window weighs overlapping predictions (MONAI's BlendMode).
enum class blend : std::uint8_t {
    constant,  ///< every prediction counts equally: overlaps are averaged
    gaussian,  ///< a window's centre counts more than its edges (sigma = sigma_scale * roi per axis)
};

/// The options of nt::sliding_window, MONAI's defaults.
struct sliding_window_options {
    /// Fraction of a window shared with its neighbour, in [0, 1): windows start every
    /// int(roi * (1 - overlap)) elements (at least 1), the last one flush with the end.
    double overlap = 0.25;
    /// Windows per call of the predictor (the last call may get fewer), >= 1.
    std::int64_t batch = 4;
    nt::blend blend = nt::blend::constant;
    /// Gaussian blending: sigma of each axis is sigma_scale * its window size (> 0).
    double sigma_scale = 0.125;
    /// How a window is filled where x is smaller than the window (nt::pad's modes, as
    /// np.pad: reflect and wrap repeat past x's size); x is padded evenly on both
    /// sides (the extra element after) as MONAI pads it.
    nt::pad_mode pad_mode = nt::pad_mode::constant;
    /// The fill of pad_mode::constant, converted to x's element type.
    double pad_value = 0.0;
};

namespace detail {

/// The predictor, type-erased without allocating: calls back into the caller's
/// callable with a batch of windows and returns its prediction.
struct window_predictor {
    void* context;
    tensor_base (*call)(void* context, const tensor_base& windows);
};

/// The compiled core (src/imaging/sliding_window.cpp): a float64 result when the
/// predictions are float64, float32 otherwise.
[[nodiscard]] tensor_base sliding_window(const tensor_base& x, std::span<const Axis> axes,
                                         std::span<const std::int64_t> roi, window_predictor predictor,
                                         const sliding_window_options& options);

template <class X>
struct tensor_element {};
template <class U>
struct tensor_element<Tensor<U>> {
    using type = U;
};

}  // namespace detail

/// The element type of sliding_window's result for predictions of type U: double
/// stays double, everything else is blended in float.
template <element U>
using sliding_window_result_t = std::conditional_t<std::same_as<U, double>, double, float>;

/// Runs `predictor` on windows of sizes `roi` (one per spatial axis, in the order of
/// `axes`) over the spatial `axes` of `x`, `options.batch` windows per call, and
/// blends the predictions into one tensor whose spatial sizes are x's. The windows
/// reach the predictor as one tensor: a new leading unnamed axis (the window count
/// of the call), then x's axes in x's order with the spatial ones sized as `roi`;
/// every other axis of x (batch, CHANNEL) is in each window whole. The predictor
/// returns one prediction per window on the same leading axis; it may change, add or
/// drop the other axes (CHANNEL -> CLASS) but must keep the spatial axes and their
/// sizes, found by name (an unnamed spatial axis: by its position from the end). The
/// result has the prediction's axes and names without the leading one, spatial sizes
/// those of x; each element is sum(prediction * weight) / sum(weight) over the
/// windows covering it (weight 1, or a Gaussian per window). As MONAI's
/// sliding_window_inference: window starts, padding where x is smaller than the
/// window, the Gaussian importance map (clamped below at max(its minimum, 1e-3)).
/// A new tensor of sliding_window_result_t<U>. Inference only: nothing is recorded
/// for gradients while it runs, the predictor's own operations included (nt::no_grad).
/// Throws axis_out_of_range (an axis x lacks; a spatial axis the prediction lacks),
/// duplicate_name (an axis twice), invalid_argument (roi's length differs from the
/// axes', a window size < 1, overlap outside [0, 1), batch < 1, sigma_scale <= 0, a
/// prediction without the leading window axis), incompatible_sizes (a prediction
/// whose spatial sizes differ from the window's, or whose other axes change between
/// calls).
///     auto p = nt::sliding_window(x, {"H", "W"}, {64, 64}, [](const nt::Tensor<float>& w) { return w * 2.0f; });
template <element T, class F>
    requires std::invocable<F&, const Tensor<T>&> &&
             requires {
                 typename detail::tensor_element<std::remove_cvref_t<std::invoke_result_t<F&, const Tensor<T>&>>>::type;
             }
[[nodiscard]] auto sliding_window(const Tensor<T>& x, axes_arg axes, shape_arg roi, F&& predictor,
                                  const sliding_window_options& options = {}) {
    using P = std::remove_cvref_t<std::invoke_result_t<F&, const Tensor<T>&>>;
    using R = sliding_window_result_t<typename detail::tensor_element<P>::type>;
    using Fn = std::remove_reference_t<F>;
    if constexpr (std::is_function_v<Fn>) {
        // A function: through a pointer to it (a function's address is no object's).
        Fn* pointer = &predictor;
        return nt::sliding_window(x, axes, roi, pointer, options);
    } else {
        const detail::window_predictor call{
            const_cast<void*>(static_cast<const void*>(std::addressof(predictor))),
            [](void* context, const detail::tensor_base& windows) -> detail::tensor_base {
                return (*static_cast<Fn*>(context))(Tensor<T>(windows)).base();
            }};
        return Tensor<R>(detail::sliding_window(x.base(), axes.span(), roi.span(), call, options));
    }
}

/// sliding_window with element types decided at run time: the predictor takes the
/// windows as an any_tensor and returns an any_tensor (or a Tensor<U>).
///     auto p = nt::sliding_window(x, {"D", "H", "W"}, {32, 32, 32}, [&](const nt::any_tensor& w) { return net(w); });
template <class F>
    requires std::invocable<F&, const any_tensor&> &&
             std::convertible_to<std::invoke_result_t<F&, const any_tensor&>, any_tensor>
[[nodiscard]] any_tensor sliding_window(const any_tensor& x, axes_arg axes, shape_arg roi, F&& predictor,
                                        const sliding_window_options& options = {}) {
    using Fn = std::remove_reference_t<F>;
    if constexpr (std::is_function_v<Fn>) {
        Fn* pointer = &predictor;
        return nt::sliding_window(x, axes, roi, pointer, options);
    } else {
        const detail::window_predictor call{
            const_cast<void*>(static_cast<const void*>(std::addressof(predictor))),
            [](void* context, const detail::tensor_base& windows) -> detail::tensor_base {
                return any_tensor((*static_cast<Fn*>(context))(any_tensor(windows))).base();
            }};
        return any_tensor(detail::sliding_window(x.base(), axes.span(), roi.span(), call, options));
    }
}

}  // namespace nt
