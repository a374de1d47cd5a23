// Gradient laws of the layers of <nt/learning.hpp> (their values and gradients are
// also checked against PyTorch in torch_programs.cpp).
#include "laws_support.hpp"

#include <optional>

using nt::test::random_tensor;
using nt::test::require_float_gradient;
using nt::test::require_gradient_law;

TEST_CASE("activations and softmax: gradients agree with central differences", "[autograd][laws][layers]") {
    const auto x = random_tensor({2, 3, 4}, {"N", "CLASS", "W"}, -2.0, 2.0, 61);
    require_gradient_law([](const auto& t) { return nt::sum(nt::relu(t) * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::leaky_relu(t, 0.1) * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::gelu(t) * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::softmax(t, "CLASS") * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::log_softmax(t, "W") * t); }, x);
    require_gradient_law([](const auto& t) { return nt::sum(nt::logsumexp(t, {"N", "W"}) * 2.0); }, x);
    require_float_gradient([](const auto& t) { return nt::sum(nt::softmax(t, "CLASS") * nt::gelu(t)); }, x);
}

TEST_CASE("losses: gradients agree with central differences", "[autograd][laws][layers]") {
    const auto logits = random_tensor({2, 3, 4}, {"N", "CLASS", "W"}, -2.0, 2.0, 67);
    auto labels = nt::zeros<std::int64_t>({4, 2}, {"W", "N"});  // matched to the logits by names
    for (std::int64_t i = 0; i < 8; ++i) labels(i % 4, i / 4) = i % 3;
    const auto weights = nt::from_vector(std::vector<double>{0.5, 1.0, 2.0});
    require_gradient_law([&](const auto& t) { return nt::cross_entropy(t, labels, "CLASS"); }, logits);
    require_gradient_law([&](const auto& t, const auto& w) { return nt::cross_entropy(t, labels, "CLASS", w, 1); },
                         logits, weights);
    require_gradient_law([&](const auto& t) { return nt::dice_loss(nt::softmax(t, "CLASS"), labels, "CLASS"); },
                         logits);
    const auto target = random_tensor({4, 3}, {"W", "CLASS"}, 0.0, 1.0, 71);
    require_gradient_law([&](const auto& t) { return nt::mse_loss(t, target) + nt::l1_loss(t, target); }, logits);
    require_float_gradient([&](const auto& t) { return nt::cross_entropy(t, labels, "CLASS"); }, logits);
}
