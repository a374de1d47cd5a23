// Sliding-window 3-D segmentation in bounded memory. nt::sliding_window runs a
// stand-in "model" on overlapping 32^3 windows of a (C, D, H, W) volume, four windows
// at a time, and blends the predictions into one (D, H, W, CLASS) result: its memory
// is the result plus one batch. The same with unfold + fold holds every window's
// prediction at once. The program prints both peaks, and checks the blended result
// against the model applied to the whole volume (for a voxel-wise model the two
// agree) and that sliding_window's peak is the smaller. Its exit status is the test
// (the peaks vary by platform: no .expected file).
#include <nt/nt.hpp>
#include <nt/sliding_window.hpp>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

// A field of /proc/self/status in MiB (VmRSS: resident now, VmHWM: the peak), -1
// where there is none.
double status_mib(const std::string& field) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field + ":", 0) == 0) {
            std::istringstream words(line.substr(field.size() + 1));
            double kib = 0;
            words >> kib;
            return kib / 1024.0;
        }
    return -1;
}

// The peak resident size grown while `work` runs, or -1 when Linux cannot reset it
// (/proc/self/clear_refs, value 5, sets the peak back to the current size).
template <class F>
double peak_growth(F&& work) {
    // Blocks ntensor's allocator keeps for reuse are resident: give them back first,
    // or a cached block would hold the result without growing the resident size.
    nt::release_allocator_cache();
    std::ofstream reset("/proc/self/clear_refs");
    reset << "5";
    reset.flush();
    if (!reset || status_mib("VmHWM") < 0) {
        work();
        return -1;
    }
    const double before = status_mib("VmRSS");
    work();
    return status_mib("VmHWM") - before;
}

}  // namespace

int main() {
    // One channel of 64 x 256 x 256 voxels (16 MiB of float).
    const auto volume =
        nt::sin(nt::arange<float>(64 * 256 * 256) * 0.001f).reshape({1, 64, 256, 256}, {"C", "D", "H", "W"});

    // The stand-in model: two class scores per voxel from the channel (a real model
    // would be a network; it sees a batch of windows (4, C, 32, 32, 32)).
    const auto classes = nt::tensor<float>({{1.0f, -1.0f}}, {"C", "CLASS"});
    auto model = [&](const nt::Tensor<float>& windows) { return nt::dot(windows, classes, {"C"}); };

    // Windows of 32^3 starting every 16 voxels (overlap 0.5), four per call.
    nt::Tensor<float> blended;
    const double sliding_peak = peak_growth([&] {
        blended = nt::sliding_window(volume, {"D", "H", "W"}, {32, 32, 32}, model, {.overlap = 0.5, .batch = 4});
    });
    std::cout << "sliding_window: " << blended.spec() << "\n";

    // The same windows with unfold (a view) and fold: the model's output for every
    // window exists at once before fold averages the overlaps.
    nt::Tensor<float> stitched;
    const double fold_peak = peak_growth([&] {
        const auto patches = volume.unfold({"D", "H", "W"}, {32, 32, 32}, {16, 16, 16}, {"d", "h", "w"});
        const auto predictions = model(patches).align_to({"CLASS", "D", "H", "W", "d", "h", "w"});
        std::cout << "unfold + fold:  " << predictions.spec() << " predictions at once\n";
        stitched = nt::fold(predictions, {"D", "H", "W"}, {64, 256, 256}, {16, 16, 16}, nt::fold_norm::average);
    });

    const auto direct = model(volume);
    const float error = nt::max(nt::abs(blended - direct)).at();
    const float fold_error = nt::max(nt::abs(stitched.align_as(direct) - direct)).at();
    std::cout << "largest difference from the whole-volume model: " << error << " (unfold + fold: " << fold_error
              << ")\n";
    if (sliding_peak >= 0)
        std::cout << "peak memory: sliding_window +" << sliding_peak << " MiB, unfold + fold +" << fold_peak
                  << " MiB (the result is " << blended.size() * 4 / (1 << 20) << " MiB)\n";
    else
        std::cout << "peak memory: not measurable here (/proc/self/clear_refs)\n";

    const bool ok = error < 1e-5f && fold_error < 1e-5f && (sliding_peak < 0 || sliding_peak < fold_peak);
    return ok ? 0 : 1;
}
