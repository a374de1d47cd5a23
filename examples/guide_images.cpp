// docs/images.md: the imaging operations over named spatial axes (convolution,
// pooling and resampling, filters, masks and objects, patch-wise inference).
#include <nt/nt.hpp>

#include <cstdint>
#include <iostream>

int main() {
    {
        // [conv]
        // A batch of two 3-channel images and 4 filters of 3x3: CHANNEL is in both, so
        // it is summed; FEATURE is the kernel's own, so it becomes an output axis.
        auto x = nt::ones<float>({2, 3, 6, 6}, {"", "CHANNEL", "H", "W"});
        auto w = nt::full<float>({4, 3, 3, 3}, 0.5f, {"FEATURE", "CHANNEL", "H", "W"});
        auto y = nt::conv(x, w, {"H", "W"}, {.padding = nt::padding::same});
        std::cout << "conv      " << y.spec() << ", corner " << y.index(0).index(0).index(0).index(0).to_vector()[0]
                  << ", centre " << y.index(0).index(0).index(3).index(3).to_vector()[0] << "\n";
        // Strides, dilation, explicit padding and torch's pad modes; a bias per FEATURE.
        auto b = nt::tensor<float>({1, 2, 3, 4}).rename({"FEATURE"});
        auto down = nt::conv(x, w, {"H", "W"}, {.stride = {2}, .padding = 1, .pad_mode = nt::pad_mode::reflect, .bias = b});
        std::cout << "strided   " << down.spec() << "\n";
        // Depthwise: .keep pairs CHANNEL without summing it.
        auto dw = nt::conv(x, nt::ones<float>({3, 3, 3}, {"CHANNEL", "H", "W"}), {"H", "W"}, {.keep = {nt::Axis("CHANNEL")}});
        std::cout << "depthwise " << dw.spec() << "\n";
        // The adjoint, as torch's conv_transpose: twice the size with stride 2.
        auto up = nt::conv_transpose(y, nt::ones<float>({4, 3, 2, 2}, {"FEATURE", "CHANNEL", "H", "W"}), {"H", "W"},
                                     {.stride = {2}});
        std::cout << "transpose " << up.spec() << "\n";
        // scipy.ndimage.correlate on an int16 image: each slice of the batch on its own.
        auto ct = nt::arange<std::int16_t>(2 * 4 * 4).reshape({2, 4, 4}, {"", "H", "W"});
        auto k = nt::tensor<double>({0.25, 0.5, 0.25}).reshape({1, 3}, {"H", "W"});
        std::cout << "correlate " << nt::correlate(ct, k, {"H", "W"}, nt::boundary::nearest).index(1).index(0) << "\n";
        // [conv]
    }
    {
        // [pool]
        // A batch of two one-channel 4x4 images: (2,1,4,4 | ?,CHANNEL,H,W).
        auto img = nt::arange<float>(32).reshape({2, 1, 4, 4}, {"", "CHANNEL", "H", "W"});
        // Pooled over H and W only: the batch and CHANNEL axes are batch axes.
        auto maxed = nt::max_pool(img, {"H", "W"}, {2, 2});
        auto mean = nt::avg_pool(img, {"H", "W"}, {2, 2});
        std::cout << "max_pool  " << maxed.spec() << "\n" << maxed.index(1) << "\n";
        std::cout << "avg_pool  " << mean.index(0) << "\n";
        // The positions of the maxima, as torch's return_indices (flat within H x W).
        auto [values, where] = nt::max_pool_with_indices(img, {"H", "W"}, {2, 2});
        std::cout << "indices   " << where.index(0) << "\n";
        // [pool]
    }
    {
        // [resize]
        auto img = nt::arange<float>(4).reshape({1, 2, 2}, {"CHANNEL", "H", "W"});
        // Sizes by name, as torch.nn.functional.interpolate (bilinear here).
        auto up = nt::resize(img, {{"H", 4}, {"W", 4}}, nt::interp::linear);
        std::cout << "resize    " << up << "\n";
        // Labels are resampled with nearest, which keeps integer types exact.
        auto labels = nt::tensor<std::uint8_t>({0, 1, 2, 3}).reshape({2, 2}, {"H", "W"});
        std::cout << "nearest   " << nt::resize(labels, {{"H", 4}, {"W", 4}}, nt::interp::nearest).index(0) << "\n";
        // scipy.ndimage.zoom: factors per listed axis, spline order 0, 1 or 3.
        auto z = nt::zoom(img, {2.0}, {"W"}, 1);
        std::cout << "zoom      " << z.spec() << " " << z.index(0) << "\n";
        // [resize]
    }
    {
        // [filters]
        // A CT batch (2,8,8 | ?,H,W) of int16: each image smoothed over H and W on its
        // own (scipy.ndimage would also smooth across the batch axis).
        auto ct = nt::zeros<std::int16_t>({2, 8, 8}, {"", "H", "W"});
        ct.index(0).index(4).index(4).fill(std::int16_t{1000});
        auto smooth = nt::gaussian_filter(ct, 1.0, {"H", "W"});  // int16 in, int16 out, as scipy
        std::cout << "gaussian  " << smooth.index(0).index(4) << "\n";
        std::cout << "image 1   untouched: " << (nt::max(smooth.index(1)).to_vector()[0] == 0) << "\n";
        // Per-axis sigmas follow the order of the axes; scipy's boundary modes by name.
        auto f = nt::gaussian_filter(ct.astype<float>(), {0.0, 2.0}, {"H", "W"}, {.mode = nt::boundary::nearest});
        auto edges = nt::sobel(f, "W", {"H", "W"});
        auto med = nt::median_filter(ct, 3, {"H", "W"});
        std::cout << "sobel     " << edges.spec() << ", median " << med.spec() << "\n";
        // [filters]
    }
    {
        // [objects]
        // Two 6x6 masks (2,6,6 | ?,H,W): each labelled on its own, numbered on from one
        // image to the next, as scipy.ndimage.label numbers them.
        auto mask = nt::zeros<bool>({2, 6, 6}, {"", "H", "W"});
        mask.index(0).slice("H", 0, 2).slice("W", 0, 2).fill(true);
        mask.index(0).slice("H", 3, 6).slice("W", 3, 6).fill(true);
        mask.index(1).slice("H", 1, 4).slice("W", 2, 5).fill(true);
        auto [labels, count] = nt::label(mask, {"H", "W"});
        std::cout << "label     " << count << " objects\n" << labels.index(0) << "\n";
        // The distance from each voxel of an object to the background, per image.
        auto dist = nt::distance_transform_edt(mask, {"H", "W"});
        std::cout << "edt       " << dist.index(0).index(4) << "\n";
        // Per-label measurements: bounding boxes and statistics of the values.
        auto boxes = nt::find_objects(labels, {"H", "W"});
        auto stats = nt::region_stats(nt::arange<float>(72).reshape({2, 6, 6}, {"", "H", "W"}), labels, {"H", "W"});
        std::cout << "object 2  rows " << boxes[1]->begin[0] << ".." << boxes[1]->end[0] << ", count "
                  << stats.count.to_vector()[1] << ", mean " << stats.mean.to_vector()[1] << "\n";
        // Masks clean up with scipy's structuring elements (connectivity 1: a cross).
        auto opened = nt::binary_opening(mask, {"H", "W"}, {.connectivity = 1});
        std::cout << "opening   keeps " << nt::sum(opened.astype<std::int32_t>()).to_vector()[0] << " of "
                  << nt::sum(mask.astype<std::int32_t>()).to_vector()[0] << " voxels\n";
        // [objects]
    }
    {
        // [sliding]
        // A volume too large to predict at once: windows of 8x8 over H and W, four at a
        // time, blended into one result. The predictor may change the other axes.
        auto x = nt::ones<float>({1, 20, 30}, {"CHANNEL", "H", "W"});
        auto predictor = [](const nt::Tensor<float>& windows) {  // (4,1,8,8 | ?,CHANNEL,H,W)
            return nt::concatenate({windows, 2.0f * windows}, 1).rename({"", "CLASS", "H", "W"});
        };
        auto probs = nt::sliding_window(x, {"H", "W"}, {8, 8}, predictor,
                                        {.overlap = 0.5, .batch = 4, .blend = nt::blend::gaussian});
        std::cout << "sliding   " << probs.spec() << ", class 1 everywhere 2: "
                  << (nt::max(nt::abs(probs.index(1) - 2.0f)).to_vector()[0] < 1e-6f) << "\n";
        // [sliding]
    }
    return 0;
}
