// Sliding-window 3-D segmentation, end to end: pad a volume, cut it into
// overlapping 8^3 patches with one unfold call, run a stand-in "model" on every
// patch at once, put the predictions back with fold (averaging the overlaps),
// crop the padding off, and check the result against the model applied to the
// whole volume (for an element-wise model the two must agree exactly).
#include <nt/nt.hpp>

#include <iostream>

int main() {
    // A (D, H, W) volume of 20^3 voxels.
    const auto volume = (nt::arange<float>(20 * 20 * 20) / 1000.0f).reshape({20, 20, 20}, {"D", "H", "W"});

    // Pad 3 voxels on every side (mirror): the windows see context at the borders,
    // and 26 = 8 + 3 * 6, so the windows cover every voxel.
    const auto padded = nt::pad(volume, {{"D", {3, 3}}, {"H", {3, 3}}, {"W", {3, 3}}}, nt::pad_mode::reflect);
    std::cout << "padded:  " << padded.spec() << "\n";

    // 8^3 windows every 6 voxels on the three axes: a view, no copy. D, H and W now
    // count windows; the window axes d, h, w are appended.
    const auto patches = padded.unfold({"D", "H", "W"}, {8, 8, 8}, {6, 6, 6}, {"d", "h", "w"});
    std::cout << "patches: " << patches.spec() << " (a view: " << std::boolalpha << patches.shares_storage(padded)
              << ", read-only: " << patches.is_read_only() << ")\n";

    // The model stand-in: an element-wise function of the patch (a real model would
    // see a batch of patches, e.g. patches.flatten("D", "W", "N")).
    const auto predictions = nt::sqrt(patches) * 2.0f;

    // Back to a volume: overlapping windows are averaged.
    const auto counts = nt::fold_counts(predictions, {"D", "H", "W"}, {26, 26, 26}, {6, 6, 6});
    std::cout << "counts:  " << counts.spec() << ", windows per voxel from " << nt::min(counts).at() << " to "
              << nt::max(counts).at() << "\n";
    const auto stitched =
        nt::fold(predictions, {"D", "H", "W"}, {26, 26, 26}, {6, 6, 6}, nt::fold_norm::average);

    // Crop the padding off.
    const auto result = stitched.slice("D", 3, 23).slice("H", 3, 23).slice("W", 3, 23);
    std::cout << "result:  " << result.spec() << "\n";

    const auto direct = nt::sqrt(volume) * 2.0f;
    const auto error = nt::max(nt::abs(result - direct)).at();
    std::cout << "largest difference from the whole-volume model: " << (error < 1e-5f ? "< 1e-5" : "too large")
              << "\n";
    std::cout << "voxel (10,10,10): " << result.at(10, 10, 10) << "\n";
    return error < 1e-5f ? 0 : 1;
}
