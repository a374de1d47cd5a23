// Training a small 3-D segmentation network with gradients over named axes.
//
//   volume (?, CHANNEL, D, H, W)   noisy spheres of two classes over background
//   labels (?, D, H, W)            0, 1, 2
//   logits (?, CLASS, D, H, W)     two 3x3x3 convolutions (unfold + einsum), ReLU,
//                                  a 1x1x1 projection (examples/segmentation_net.hpp)
//
// Adam on cross-entropy plus soft Dice, a fresh synthetic batch each step; then the
// hard Dice per class (argmax over CLASS) on held-out volumes. The program fails
// (exit 1) when the loss did not fall or the held-out mean Dice is not above 0.9,
// so CTest checks the training without comparing floats that vary by platform.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <nt/nt.hpp>

#include "segmentation_net.hpp"

namespace {

// Hard Dice of class c: 2 |pred & truth| / (|pred| + |truth|).
double hard_dice(const nt::Tensor<std::int64_t>& predicted, const nt::Tensor<std::int64_t>& truth, std::int64_t c) {
    const auto p = predicted == c, t = truth == c;
    const double both = nt::sum(nt::astype<double>(p & t))();
    const double total = nt::sum(nt::astype<double>(p))() + nt::sum(nt::astype<double>(t))();
    return total == 0 ? 1.0 : 2.0 * both / total;
}

}  // namespace

int main() {
    const auto start = std::chrono::steady_clock::now();
    constexpr std::int64_t classes = 3, hidden = 8, batch = 2, size = 16, steps = 120;
    constexpr double noise = 0.6;

    seg::net model = seg::make_net(1, hidden, classes, 7);
    nt::optim::adam optimiser(model.parameters(), {.lr = 0.01});

    std::vector<double> losses;
    for (std::int64_t step = 0; step < steps; ++step) {
        const seg::batch b = seg::make_batch(batch, size, size, size, classes, noise, 1000 + static_cast<std::uint32_t>(step));
        const auto loss = seg::loss(seg::forward(model, b.volume), b.labels);
        loss.backward();
        optimiser.step();
        optimiser.zero_grad();
        losses.push_back(loss());
        if (step % 10 == 0 || step == steps - 1) std::printf("step %3lld  loss %.4f\n", static_cast<long long>(step), loss());
    }

    // Held-out volumes: seeds never used for training.
    const seg::batch test = seg::make_batch(2, 24, 24, 24, classes, noise, 99);
    nt::Tensor<std::int64_t> predicted;
    {
        const nt::no_grad quiet;
        predicted = nt::argmax(seg::forward(model, test.volume), "CLASS");
    }
    double mean_dice = 0;
    std::printf("held-out Dice:");
    for (std::int64_t c = 0; c < classes; ++c) {
        const double d = hard_dice(predicted, test.labels, c);
        mean_dice += d / classes;
        std::printf("  class %lld %.3f", static_cast<long long>(c), d);
    }
    std::printf("  mean %.3f\n", mean_dice);

    // The loss fell: the mean of the last ten steps against the first ten.
    double first = 0, last = 0;
    for (std::size_t i = 0; i < 10; ++i) {
        first += losses[i] / 10;
        last += losses[losses.size() - 1 - i] / 10;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("loss %.4f -> %.4f (means of the first and last ten steps), %.1f s\n", first, last, seconds);
    if (!(last < 0.5 * first) || !(mean_dice > 0.9)) {
        std::printf("FAILED: the loss must halve and the held-out mean Dice exceed 0.9\n");
        return 1;
    }
}
