// Out-of-line error helpers of the tensor core.
#include "core_errors.hpp"

#include "nt/spec.hpp"

namespace nt::detail {

std::string shape_text(std::span<const std::int64_t> sizes) { return shape_string(sizes); }

std::string spec_text(std::span<const std::int64_t> sizes, std::span<const name> names) {
    return spec_string(sizes, names);
}

std::string list_text(std::span<const std::int64_t> values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
    return out + "]";
}

void fail(errc code, std::string_view op, const std::string& message) {
    throw_error(code, std::string(op) + ": " + message);
}

void check_sizes(std::span<const std::int64_t> shape, std::string_view op) {
    if (shape.size() > max_rank)
        fail(errc::invalid_spec, op,
             "rank " + std::to_string(shape.size()) + " is over the limit of " + std::to_string(max_rank) + " axes");
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (shape[i] < 0)
            fail(errc::invalid_spec, op,
                 "size " + std::to_string(shape[i]) + " of axis " + std::to_string(i) + " in shape " +
                     shape_text(shape) + " is negative; sizes must be >= 0");
}

}  // namespace nt::detail
