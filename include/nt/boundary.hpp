// nt/boundary.hpp: how the imaging operations read past the edge of an axis, with
// scipy.ndimage's names (which differ from nt::pad's NumPy names).
//
//     nt::gaussian_filter(ct, 2.0, {"D", "H", "W"}, {.mode = nt::boundary::mirror});
//
// | nt::boundary | input  a b c d, extended to the left | nt::pad_mode |
// |---|---|---|
// | reflect  | d c b a, a b c d (the edge repeated) | symmetric |
// | mirror   | d c b, a b c d (no edge repeat)       | reflect |
// | nearest  | a a a, a b c d                        | edge |
// | wrap     | b c d, a b c d (periodic)             | wrap |
// | constant | v v v, a b c d (a value, default 0)   | constant |
#pragma once

#include <cstdint>

namespace nt {

/// scipy.ndimage's boundary modes (`mode=`), for filters, correlate/convolve and zoom.
enum class boundary : std::uint8_t {
    reflect,   ///< (d c b a | a b c d | d c b a): scipy's default
    constant,  ///< (k k k k | a b c d | k k k k): a value, 0 unless given
    nearest,   ///< (a a a a | a b c d | d d d d)
    mirror,    ///< (d c b | a b c d | c b a)
    wrap,      ///< (a b c d | a b c d | a b c d)
};

/// "reflect", "constant", ... (for messages and configs).
[[nodiscard]] const char* to_string(boundary mode) noexcept;

}  // namespace nt
