#include "spatial.hpp"

#include <string>

#include "nt/error.hpp"
#include "nt/names.hpp"

namespace nt {

const char* to_string(boundary mode) noexcept {
    switch (mode) {
        case boundary::reflect: return "reflect";
        case boundary::constant: return "constant";
        case boundary::nearest: return "nearest";
        case boundary::mirror: return "mirror";
        case boundary::wrap: return "wrap";
    }
    return "?";
}

}  // namespace nt

namespace nt::detail::imaging {

small_vector<std::size_t, 6> spatial_axes(const tensor_base& x, axes_arg axes, std::string_view op) {
    if (axes.empty())
        throw_error(errc::invalid_argument, std::string(op) + ": no spatial axes given; name the axes to work over, "
                                                              "for example {\"H\", \"W\"}");
    small_vector<std::size_t, 6> positions;
    for (const Axis& axis : axes) {
        const std::size_t a = resolve_axis(axis, x.names(), op, x.shape());
        for (std::size_t seen : positions)
            if (seen == a)
                throw_error(errc::duplicate_name,
                            std::string(op) + ": spatial axis " + axis.str() + " is given twice; list each axis once");
        positions.push_back(a);
    }
    return positions;
}

std::int64_t boundary_index(boundary mode, std::int64_t i, std::int64_t n) noexcept {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case boundary::constant: return -1;
        case boundary::nearest: return i < 0 ? 0 : n - 1;
        case boundary::wrap: {
            const std::int64_t r = i % n;
            return r < 0 ? r + n : r;
        }
        case boundary::reflect: {
            // Period 2n: a b c d d c b a.
            const std::int64_t period = 2 * n;
            std::int64_t r = i % period;
            if (r < 0) r += period;
            return r < n ? r : period - 1 - r;
        }
        case boundary::mirror: {
            // Period 2n - 2: a b c d c b; a single element mirrors onto itself.
            if (n == 1) return 0;
            const std::int64_t period = 2 * n - 2;
            std::int64_t r = i % period;
            if (r < 0) r += period;
            return r < n ? r : period - r;
        }
    }
    return -1;
}

}  // namespace nt::detail::imaging
