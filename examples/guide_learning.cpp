// docs/guide.md, "Layers for learning": softmax along a named class axis, and the
// losses of a small segmentation batch (nt/learning.hpp).
#include <nt/nt.hpp>

#include <cstdint>
#include <iostream>

int main() {
    // [layers]
    // Scores of 3 classes for 2 images of 1x2 pixels; the class axis is named, not placed.
    auto logits = nt::tensor<float>({{{2.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, 3.0f}},
                                     {{0.5f, 0.5f}, {0.5f, 1.0f}, {0.5f, 0.0f}}})
                      .reshape({2, 3, 1, 2}, {"N", "CLASS", "H", "W"});
    auto labels = nt::tensor<std::uint8_t>({{{0, 2}}, {{1, 255}}}).rename({"N", "H", "W"});
    auto p = nt::softmax(logits, "CLASS");
    std::cout << "p(class 0)    " << p.index(nt::all, 0) << "\n";
    std::cout << "logsumexp     " << nt::logsumexp(logits, "CLASS") << "\n";
    std::cout << "cross entropy " << nt::cross_entropy(logits, labels, "CLASS", {}, 255) << "\n";
    std::cout << "weighted      "
              << nt::cross_entropy(logits, labels, "CLASS", nt::tensor<float>({1.0f, 2.0f, 1.0f}), 255) << "\n";
    // Dice of the softmax against one-hot labels (255 -> class 0 here).
    auto dense = nt::where(labels == std::uint8_t{255}, std::uint8_t{0}, labels);
    std::cout << "dice loss     " << nt::dice_loss(p, dense, "CLASS") << "\n";
    std::cout << "relu          " << nt::relu(nt::tensor<float>({-1.0f, 0.5f})) << "\n";
    // [layers]
}
