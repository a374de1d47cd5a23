// nt/learning.hpp: names, types and errors of the layers (their values are checked
// against NumPy in numpy_learning.cpp).
#include <nt_test_support.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "nt/nt.hpp"

using nt::test::require_error;

namespace {
nt::Tensor<float> logits_nchw() {
    // (2,3,2,2 | N,CLASS,H,W): values 0..23 scaled, so rows differ.
    return (nt::arange<float>(24) * 0.25f).reshape({2, 3, 2, 2}).rename({"N", "CLASS", "H", "W"});
}
}  // namespace

TEST_CASE("layers keep names and compute in exp's type", "[ops][learning]") {
    const auto x = logits_nchw();
    CHECK(nt::to_string(nt::relu(x).spec()) == "(2,3,2,2 | N,CLASS,H,W)");
    CHECK(nt::to_string(nt::gelu(x).spec()) == "(2,3,2,2 | N,CLASS,H,W)");
    CHECK(nt::to_string(nt::softmax(x, "CLASS").spec()) == "(2,3,2,2 | N,CLASS,H,W)");
    CHECK(nt::to_string(nt::log_softmax(x, 1).spec()) == "(2,3,2,2 | N,CLASS,H,W)");
    CHECK(nt::to_string(nt::logsumexp(x, "CLASS").spec()) == "(2,2,2 | N,H,W)");
    CHECK(nt::to_string(nt::logsumexp(x, {"H", -1}, true).spec()) == "(2,3,1,1 | N,CLASS,H,W)");
    CHECK(nt::logsumexp(x).rank() == 0);
    // Integer and bool inputs compute in nt::exp's type: f16 for 8 bits, f64 for 32.
    static_assert(std::is_same_v<decltype(nt::relu(nt::zeros<std::uint8_t>({2}))), nt::Tensor<nt::half>>);
    static_assert(std::is_same_v<decltype(nt::softmax(nt::zeros<std::int32_t>({2}), 0)), nt::Tensor<double>>);
    static_assert(std::is_same_v<decltype(nt::exp(nt::zeros<std::int16_t>({2}))),
                                 decltype(nt::gelu(nt::zeros<std::int16_t>({2})))>);
    static_assert(std::is_same_v<decltype(nt::mse_loss(nt::zeros<std::int8_t>({2}), nt::zeros<float>({2}))),
                                 nt::Tensor<float>>);
    CHECK(nt::relu(nt::arange<std::int32_t>(3) - 1).to_vector() == std::vector<double>{0, 0, 1});
}

TEST_CASE("softmax rows sum to one, also for large values", "[ops][learning]") {
    auto x = nt::from_vector(std::vector<float>{1000.0f, 999.0f, -1000.0f, 0.0f, 0.0f, 0.0f}, {2, 3}).rename({"N", "C"});
    const auto p = nt::softmax(x, "C");
    const auto rows = nt::sum(p, "C").to_vector();
    CHECK(rows[0] == Approx(1.0f));
    CHECK(rows[1] == Approx(1.0f));
    CHECK(p.at(1, 0) == Approx(1.0f / 3));
    CHECK(nt::log_softmax(x, "C").at(0, 0) == Approx(-std::log1p(std::exp(-1.0))));
    // logsumexp of a -inf row is -inf; of an empty axis -inf too.
    const float inf = std::numeric_limits<float>::infinity();
    auto y = nt::from_vector(std::vector<float>{-inf, -inf}, {1, 2});
    CHECK(nt::logsumexp(y, 1).at(0) == -inf);
    CHECK(nt::logsumexp(nt::zeros<float>({2, 0}), 1).to_vector() == std::vector<float>{-inf, -inf});
}

TEST_CASE("cross_entropy matches labels by names", "[ops][learning]") {
    const auto x = logits_nchw();
    auto labels = nt::zeros<std::int64_t>({2, 2, 2}, {"N", "H", "W"});
    labels(1, 0, 1) = 2;
    // The same labels with their axes in another order give the same loss.
    const auto swapped = labels.permute({"W", "N", "H"}).clone();
    CHECK(nt::cross_entropy(x, labels, "CLASS").at() == Approx(nt::cross_entropy(x, swapped, "CLASS").at()));
    // Weights of 1 change nothing; ignoring every label gives NaN (0 / 0), as torch.
    const auto ones = nt::ones<double>({3});
    CHECK(nt::cross_entropy(x, labels, 1, ones).at() == Approx(nt::cross_entropy(x, labels, 1).at()));
    // An ignore_index that no label holds changes nothing.
    CHECK(nt::cross_entropy(x, labels, "CLASS", std::nullopt, 7).at() ==
          Approx(nt::cross_entropy(x, labels, "CLASS").at()));
    const auto none = nt::zeros<std::int64_t>({2, 2, 2}, {"N", "H", "W"});
    CHECK(std::isnan(nt::cross_entropy(x, none, "CLASS", {}, 0).at()));
}

TEST_CASE("dice_loss takes one-hot targets or labels", "[ops][learning]") {
    auto probs = nt::from_vector(std::vector<float>{1, 0, 0, 1}, {2, 2}).rename({"N", "C"});
    auto labels = nt::from_vector(std::vector<std::int32_t>{0, 1}, {2}).rename({"N"});
    CHECK(nt::dice_loss(probs, labels, "C").at() == Approx(0.0f));
    const auto hot = nt::one_hot(labels, 2, 1, "C");
    CHECK(nt::dice_loss(probs, hot, "C").at() == Approx(0.0f));
    CHECK(nt::dice_loss(probs, hot.permute({"C", "N"}).astype<bool>(), "C", 0.0).at() == Approx(0.0f));
    // All wrong: dice = eps / (2 + eps) per class.
    auto wrong = nt::from_vector(std::vector<std::int32_t>{1, 0}, {2}).rename({"N"});
    CHECK(nt::dice_loss(probs, wrong, "C").at() == Approx(1.0 - 1.0 / 3.0));
}

TEST_CASE("learning layers' errors name shapes, axes and the fix", "[ops][learning][errors]") {
    const auto x = logits_nchw();
    const auto labels = nt::zeros<std::int64_t>({2, 2, 2}, {"N", "H", "W"});
    // A class axis the logits do not have.
    require_error([&] { (void)nt::cross_entropy(x, labels, "C"); }, nt::errc::axis_out_of_range,
                  {"cross_entropy", "'C'", "(2,3,2,2 | N,CLASS,H,W)", "Fix"});
    require_error([&] { (void)nt::cross_entropy(x, labels, 7); }, nt::errc::axis_out_of_range, {"cross_entropy"});
    // Labels that are not integers.
    require_error([&] { (void)nt::cross_entropy(x, labels.astype<float>(), "CLASS"); }, nt::errc::type_mismatch,
                  {"cross_entropy", "f32", "integers", "Fix"});
    require_error([&] { (void)nt::cross_entropy(x, labels.astype<bool>(), "CLASS"); }, nt::errc::type_mismatch,
                  {"labels"});
    // Labels with the class axis, or missing one.
    require_error([&] { (void)nt::cross_entropy(x, nt::zeros<std::int64_t>({2, 3, 2, 2}), "CLASS"); },
                  nt::errc::invalid_argument, {"rank 4", "rank 3", "Fix"});
    // Labels whose names do not match the logits'.
    require_error([&] { (void)nt::cross_entropy(x, labels.rename({"N", "H", "Z"}), "CLASS"); },
                  nt::errc::no_counterpart, {});
    // Unnamed labels do not pair with named logits (the names rule of a - b): the
    // message names the operation and the names to give them.
    require_error([&] { (void)nt::cross_entropy(x, nt::zeros<std::int64_t>({2, 2, 2}), "CLASS"); },
                  nt::errc::no_counterpart, {"cross_entropy", "the labels (2,2,2)", "(N, H, W)", "refine_names"});
    // Broadcasting labels is refused.
    require_error([&] { (void)nt::cross_entropy(x, nt::zeros<std::int64_t>({1, 2, 2}, {"N", "H", "W"}), "CLASS"); },
                  nt::errc::incompatible_sizes, {"exactly"});
    // A label out of range names the label and the class count.
    auto bad = labels.clone();
    bad(0, 1, 0) = 3;
    require_error([&] { (void)nt::cross_entropy(x, bad, "CLASS"); }, nt::errc::index_out_of_range,
                  {"label 3", "3 classes", "0..2", "ignore_index"});
    bad(0, 1, 0) = -100;
    require_error([&] { (void)nt::cross_entropy(x, bad, "CLASS"); }, nt::errc::index_out_of_range, {"-100"});
    CHECK(std::isfinite(nt::cross_entropy(x, bad, "CLASS", {}, -100).at()));
    // An empty class axis.
    require_error([&] { (void)nt::cross_entropy(nt::zeros<float>({2, 0}, {"N", "C"}), nt::zeros<std::int64_t>({2}, {"N"}), "C"); },
                  nt::errc::invalid_argument, {"empty", "'C'"});
    // Weights: floating, one per class.
    require_error([&] { (void)nt::cross_entropy(x, labels, "CLASS", nt::ones<std::int32_t>({3})); },
                  nt::errc::type_mismatch, {"weights", "floating"});
    require_error([&] { (void)nt::cross_entropy(x, labels, "CLASS", nt::ones<float>({4})); },
                  nt::errc::invalid_argument, {"weights", "(4)", "3"});
    // Rank 0 scores have no class axis.
    require_error([&] { (void)nt::dice_loss(nt::scalar(0.0f), nt::scalar(0.0f), 0); },
                  nt::errc::invalid_argument, {"dice_loss", "class axis"});
    require_error([&] { (void)nt::dice_loss(x, nt::zeros<float>({2, 3}), "CLASS"); }, nt::errc::invalid_argument,
                  {"dice_loss", "rank"});
    require_error([&] { (void)nt::dice_loss(x, labels.astype<double>(), "CLASS"); }, nt::errc::type_mismatch,
                  {"dice_loss", "integers"});
    // softmax / logsumexp axes.
    require_error([&] { (void)nt::softmax(x, "K"); }, nt::errc::axis_out_of_range, {"softmax", "'K'"});
    require_error([&] { (void)nt::logsumexp(x, {"N", 0}); }, nt::errc::invalid_argument, {"logsumexp"});
    require_error([&] { (void)nt::logsumexp(x, "K"); }, nt::errc::axis_out_of_range, {"logsumexp"});
    // mse_loss matches by names as a - b does.
    require_error([&] { (void)nt::mse_loss(x, nt::zeros<float>({2}, {"Q"})); }, nt::errc::no_counterpart, {});
    // ... and its message says so, with both operands and the matcher's fix.
    require_error([&] { (void)nt::l1_loss(x, nt::zeros<float>({2}, {"Q"})); }, nt::errc::no_counterpart,
                  {"l1_loss of a", "(2 | Q)", "matched as a - b", "Fix:"});
}
