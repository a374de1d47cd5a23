// nt::sliding_window's peak memory: the result plus one batch, whatever the volume's
// size. Its own file, so that CTest runs it in its own process (one process per
// file): the peak resident size it reads is then this case's.
#include <fstream>
#include <sstream>
#include <string>

#include "nt/sliding_window.hpp"
#include "nt_test_support.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NT_SLIDING_ASAN 1
#endif
#endif
#ifndef NT_SLIDING_ASAN
#define NT_SLIDING_ASAN 0
#endif

namespace {

// A field of /proc/self/status in bytes (VmRSS, VmHWM), -1 where there is none.
std::int64_t status_bytes(const std::string& field) {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field + ":", 0) == 0) {
            std::istringstream words(line.substr(field.size() + 1));
            std::int64_t kib = 0;
            words >> kib;
            return kib * 1024;
        }
    return -1;
}

// Resets VmHWM to the current resident size (Linux's clear_refs, value 5).
bool reset_peak() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

}  // namespace

TEST_CASE("sliding_window: peak memory is the result plus one batch", "[imaging][sliding_memory]") {
    if (status_bytes("VmHWM") < 0) {
        WARN("no /proc/self/status here: peak memory not measured");
        return;
    }
    constexpr std::int64_t D = 192, H = 512, W = 512;
    constexpr std::int64_t rd = 64, rh = 128, rw = 128, batch = 4;
    // A u8 volume (48 MiB), touched so that it is resident before the measure.
    auto x = nt::full<std::uint8_t>({1, D, H, W}, std::uint8_t{3}, {"C", "D", "H", "W"});

    // Blocks ntensor's allocator caches for reuse are resident: give them back, or a
    // cached block could hold the result without growing the resident size.
    nt::release_allocator_cache();
    const bool reset = reset_peak();
    const std::int64_t before = reset ? status_bytes("VmRSS") : status_bytes("VmHWM");
    auto model = [](const nt::Tensor<std::uint8_t>& w) { return w.astype<float>() * 2.0f; };
    const auto y = nt::sliding_window(x, {"D", "H", "W"}, {rd, rh, rw}, model, {.overlap = 0.25, .batch = batch});
    const std::int64_t growth = status_bytes("VmHWM") - before;

    const std::int64_t result = D * H * W * 4;
    const std::int64_t windows = batch * rd * rh * rw;  // u8
    // The predictor's own float32 temporaries (astype, then the product) and the
    // prediction it returns: at most three float32 batches alive at once.
    const std::int64_t predictions = 3 * batch * rd * rh * rw * 4;
    const std::int64_t margin = 24 << 20;
    INFO("peak growth " << growth / (1 << 20) << " MiB; result " << result / (1 << 20) << " MiB, bound "
                        << (result + windows + predictions + margin) / (1 << 20) << " MiB (reset " << reset << ")");
    CHECK(y.at(0, 100, 200, 300) == 6.0f);
#if defined(__SANITIZE_ADDRESS__) || NT_SLIDING_ASAN
    // AddressSanitizer's shadow memory and quarantine grow the resident size by
    // amounts of their own: only the values are checked there.
    (void)growth;
#else
    CHECK(growth <= result + windows + predictions + margin);
    // Every window's prediction at once (unfold + fold) would be 2.6x the result here.
    CHECK(growth < result * 3 / 2);
#endif
}
