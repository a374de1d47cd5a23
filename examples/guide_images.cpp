// docs/images.md: the imaging operations over named spatial axes (convolution,
// pooling and resampling, filters, masks and objects, patch-wise inference).
#include <nt/nt.hpp>

#include <cstdint>
#include <iostream>

int main() {
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
