// A small 3-D segmentation network over named axes, and noisy synthetic volumes to
// train it on: shared by examples/train_segmentation.cpp and the benchmarks of one
// training step (tests/bench/bench_autograd.cpp, tests/bench/peers/peers_ntensor.cpp).
//
//   volume (?, CHANNEL, D, H, W)    float, one channel
//   labels (?, D, H, W)             int64, 0 = background, 1.. = sphere classes
//   logits (?, CLASS, D, H, W)
//
// Two 3x3x3 convolutions with ReLU, then a 1x1x1 projection to CLASS. A convolution
// is nt::conv over D, H, W: the weight's CHANNEL is summed with the input's, its OUT
// becomes the output's feature axis (renamed CHANNEL for the next layer). The input is
// padded by 2 once, so that the two unpadded ("valid") convolutions give back the
// input's size and no hidden activation needs padding.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <nt/nt.hpp>

namespace seg {

struct net {
    nt::Tensor<float> w1, b1;  // (OUT, CHANNEL, D, H, W) sized 3x3x3, (OUT)
    nt::Tensor<float> w2, b2;
    nt::Tensor<float> w3, b3;  // (CLASS, CHANNEL), (CLASS)

    [[nodiscard]] std::vector<nt::Tensor<float>> parameters() const { return {w1, b1, w2, b2, w3, b3}; }
};

/// He-initialised weights (normal, variance 2 / fan-in), zero biases, each marked
/// with_grad. Deterministic for a given seed.
inline net make_net(std::int64_t channels, std::int64_t hidden, std::int64_t classes, std::uint32_t seed = 1) {
    std::mt19937 rng(seed);
    auto normal = [&](std::vector<std::int64_t> shape, nt::names_arg names, double fan_in) {
        std::int64_t n = 1;
        for (const auto s : shape) n *= s;
        std::normal_distribution<float> d(0.0f, static_cast<float>(std::sqrt(2.0 / fan_in)));
        std::vector<float> v(static_cast<std::size_t>(n));
        for (auto& x : v) x = d(rng);
        return nt::from_vector(v, shape, names).with_grad();
    };
    const std::vector<nt::name> conv_names{"OUT", "CHANNEL", "D", "H", "W"};  // names_arg would dangle
    net m;
    m.w1 = normal({hidden, channels, 3, 3, 3}, conv_names, static_cast<double>(channels * 27));
    m.b1 = nt::zeros<float>({hidden}, {"OUT"}).with_grad();
    m.w2 = normal({hidden, hidden, 3, 3, 3}, conv_names, static_cast<double>(hidden * 27));
    m.b2 = nt::zeros<float>({hidden}, {"OUT"}).with_grad();
    m.w3 = normal({classes, hidden}, {"CLASS", "CHANNEL"}, static_cast<double>(hidden));
    m.b3 = nt::zeros<float>({classes}, {"CLASS"}).with_grad();
    return m;
}

/// A 3x3x3 convolution without padding: (?, CHANNEL, D, H, W) -> (?, CHANNEL, D-2, H-2, W-2).
inline nt::Tensor<float> conv3(const nt::Tensor<float>& x, const nt::Tensor<float>& w, const nt::Tensor<float>& b) {
    return nt::conv(x, w, {"D", "H", "W"}, {.bias = b}).rename("OUT", "CHANNEL");
}

/// The logits (?, CLASS, D, H, W) of a volume (?, CHANNEL, D, H, W).
inline nt::Tensor<float> forward(const net& m, const nt::Tensor<float>& volume) {
    const auto padded = nt::pad(volume, {{"D", {2, 2}}, {"H", {2, 2}}, {"W", {2, 2}}});
    const auto h1 = nt::relu(conv3(padded, m.w1, m.b1));
    const auto h2 = nt::relu(conv3(h1, m.w2, m.b2));
    return nt::einsum("... CHANNEL D H W, CLASS CHANNEL -> ... CLASS D H W", h2, m.w3) + m.b3;
}

/// Cross-entropy plus soft Dice (over the softmax of the logits).
inline nt::Tensor<float> loss(const nt::Tensor<float>& logits, const nt::Tensor<std::int64_t>& labels) {
    return nt::cross_entropy(logits, labels, "CLASS") + nt::dice_loss(nt::softmax(logits, "CLASS"), labels, "CLASS");
}

struct batch {
    nt::Tensor<float> volume;          // (?, CHANNEL, D, H, W)
    nt::Tensor<std::int64_t> labels;   // (?, D, H, W)
};

/// `count` volumes of depth, height and width `d`, `h`, `w`, each holding four
/// spheres of classes 1..classes-1 (radius 3 to a quarter of the smallest side) over
/// background 0. The intensity is the class's level (0, +1, -1, +2, ...) plus
/// Gaussian noise of standard deviation `noise`. Deterministic for a given seed.
inline batch make_batch(std::int64_t count, std::int64_t d, std::int64_t h, std::int64_t w, std::int64_t classes,
                        double noise, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<float> gauss(0.0f, static_cast<float>(noise));
    const std::int64_t voxels = d * h * w;
    std::vector<float> volume(static_cast<std::size_t>(count * voxels));
    std::vector<std::int64_t> labels(volume.size(), 0);
    auto level = [](std::int64_t c) {
        return c == 0 ? 0.0f : (c % 2 == 1 ? 1.0f : -1.0f) * static_cast<float>((c + 1) / 2);
    };
    const double max_radius = std::max(3.5, static_cast<double>(std::min({d, h, w})) / 4.0);
    for (std::int64_t v = 0; v < count; ++v) {
        std::int64_t* lab = labels.data() + v * voxels;
        for (std::int64_t s = 0; s < 4; ++s) {
            const double r = 3.0 + unit(rng) * (max_radius - 3.0);
            const double cz = unit(rng) * static_cast<double>(d), cy = unit(rng) * static_cast<double>(h),
                         cx = unit(rng) * static_cast<double>(w);
            const std::int64_t c = 1 + s % (classes - 1);
            for (std::int64_t z = 0; z < d; ++z)
                for (std::int64_t y = 0; y < h; ++y)
                    for (std::int64_t x = 0; x < w; ++x) {
                        const double dz = static_cast<double>(z) - cz, dy = static_cast<double>(y) - cy,
                                     dx = static_cast<double>(x) - cx;
                        if (dz * dz + dy * dy + dx * dx <= r * r) lab[(z * h + y) * w + x] = c;
                    }
        }
        float* vol = volume.data() + v * voxels;
        for (std::int64_t i = 0; i < voxels; ++i) vol[i] = level(lab[i]) + gauss(rng);
    }
    return {nt::from_vector(volume, {count, 1, d, h, w}, {"?", "CHANNEL", "D", "H", "W"}),
            nt::from_vector(labels, {count, d, h, w}, {"?", "D", "H", "W"})};
}

}  // namespace seg
