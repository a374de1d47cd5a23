// Per-class scores of a segmentation, with names only: no manual unsqueeze,
// permute or reshape to line axes up.
//
//   image  (?, C, H, W)       a batch of 2 two-channel uint16 images, 4x6 pixels
//   logits (?, CLASS, H, W)   3 classes
//   truth  (?, H, W)          the true class of every pixel
//
// The image normalised per channel (mean and stddev); softmax over CLASS, one-hot
// truth, then Dice and IoU per class; the confusion matrix of the hard predictions
// (bincount) and the hard Dice and IoU from it.
#include <cstdint>
#include <iomanip>
#include <iostream>

#include <nt/nt.hpp>

int main() {
    constexpr std::int64_t batch = 2, classes = 3, height = 4, width = 6;

    // Deterministic logits and labels (a real pipeline would load them).
    auto index = nt::arange<float>(batch * classes * height * width)
                     .reshape({batch, classes, height, width})
                     .rename({"?", "CLASS", "H", "W"});
    auto logits = nt::sin(index * 0.37f) * 2.0f;
    auto pixel = nt::arange<std::int32_t>(batch * height * width).reshape({batch, height, width}).rename({"?", "H", "W"});
    auto truth = (pixel * 7 + (pixel * pixel) % 5) % 3;  // values 0, 1, 2

    // [normalise]
    // A two-channel uint16 image (as microscopy stores it), normalised per channel:
    // mean and standard deviation over the batch and the pixels, kept as (1,C,1,1).
    auto channel_offset = nt::arange<std::int32_t>(2).rename({"C"}) * 500;
    auto image = nt::astype<std::uint16_t>((pixel.unsqueeze(1, "C") * 97 + channel_offset) % 4096);
    auto values = nt::astype<float>(image);
    auto centred = values - nt::mean(values, {0, "H", "W"}, true);
    auto normalised = centred / nt::stddev(values, {0, "H", "W"}, 0, true);
    // [normalise]

    // Softmax over CLASS: the keepdims sum (?,1,H,W) pairs with logits by name.
    auto e = nt::exp(logits - nt::max(logits, "CLASS", true));
    auto prob = e / nt::sum(e, "CLASS", true);

    // [one-hot]
    // One-hot truth: a CLASS axis inserted at position 1, as prob has it.
    auto onehot = nt::one_hot<float>(truth, classes, 1, "CLASS");
    // [one-hot]

    // Per class: sums over the batch (unnamed axis 0) and the pixels, by name.
    auto intersection = nt::sum(prob * onehot, {0, "H", "W"});
    auto predicted = nt::sum(prob, {0, "H", "W"});
    auto actual = nt::sum(onehot, {0, "H", "W"});
    auto dice = intersection * 2.0f / (predicted + actual);
    auto iou = intersection / (predicted + actual - intersection);

    // Hard predictions: argmax over CLASS, compared with truth by name.
    auto hard = nt::argmax(prob, "CLASS");  // (?,H,W), int64
    auto accuracy = nt::mean(nt::astype<double>(hard == truth));

    // The pipeline's shape config checks these tensors as they flow (docs/config.md).
    const nt::pipeline_config cfg = nt::load_config("examples/specs/segmentation_pipeline.json");
    cfg.check("prob", prob);      // binds N, H, W
    cfg.check("labels", truth);
    cfg.check("onehot", onehot);  // the output of its step "one_hot"
    cfg.check("dice", dice);
    std::cout << "checked against segmentation_pipeline.json: N = " << *cfg.size("N") << ", H = " << *cfg.size("H")
              << ", W = " << *cfg.size("W") << "\n";

    std::cout << "prob   " << prob.spec() << "\n";
    std::cout << "onehot " << onehot.spec() << "\n";
    std::cout << "dice   " << dice.spec() << "\n";
    std::cout << std::fixed << std::setprecision(4);
    const auto spread = nt::stddev(normalised, {0, "H", "W"});
    std::cout << "image  " << image.spec() << ", per-channel std after normalising: " << spread.at(0) << " "
              << spread.at(1) << "\n";
    for (std::int64_t c = 0; c < classes; ++c)
        std::cout << "class " << c << ": pixels " << std::setw(4) << actual.at(c) << "  dice " << dice.at(c)
                  << "  iou " << iou.at(c) << "\n";
    std::cout << "pixel accuracy " << accuracy.at() << "\n";

    // [confusion]
    // The confusion matrix of the hard predictions: truth * K + pred, counted.
    auto pairs = (nt::astype<std::int64_t>(truth) * classes + hard).flatten();
    auto confusion = nt::bincount(pairs, classes * classes).reshape({classes, classes}, {"TRUTH", "PRED"});
    std::cout << "confusion (rows: truth, columns: prediction)\n" << confusion << "\n";
    // Hard Dice and IoU per class from it: the diagonal (einsum "k k -> k"), the row
    // sums (true pixels) and the column sums (predicted pixels), all named CLASS.
    auto hits = nt::einsum("k k -> k", confusion.rename({})).rename({"CLASS"});
    auto true_pixels = nt::sum(confusion, "PRED").rename({"CLASS"});
    auto predicted_pixels = nt::sum(confusion, "TRUTH").rename({"CLASS"});
    auto hard_dice = nt::astype<double>(hits * 2) / nt::astype<double>(true_pixels + predicted_pixels);
    auto hard_iou = nt::astype<double>(hits) / nt::astype<double>(true_pixels + predicted_pixels - hits);
    for (std::int64_t c = 0; c < classes; ++c)
        std::cout << "class " << c << ": hard dice " << hard_dice.at(c) << "  hard iou " << hard_iou.at(c) << "\n";
    // [confusion]
}
