// The names layer: resolving axes, checking and propagating names.
#include "nt/names.hpp"

#include <algorithm>
#include <limits>

#include "core_errors.hpp"
#include "nt/index.hpp"
#include "nt/spec.hpp"

namespace nt {

std::string Axis::str() const {
    if (by_name_) return "'" + std::string(name_.str()) + "'";
    return std::to_string(index_);
}

std::int64_t find_name(std::span<const name> names, name n) noexcept {
    if (!n) return -1;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == n) return static_cast<std::int64_t>(i);
    return -1;
}

std::string names_text(std::span<const name> names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += ", ";
        out += names[i].str();
    }
    return out;
}

namespace {
std::string tensor_text(std::span<const name> names, std::span<const std::int64_t> sizes) {
    if (sizes.size() == names.size()) return "tensor " + detail::spec_text(sizes, names);
    return "a rank-" + std::to_string(names.size()) + " tensor";
}
}  // namespace

std::size_t resolve_axis(const Axis& axis, std::span<const name> names, std::string_view op,
                         std::span<const std::int64_t> sizes) {
    const auto rank = static_cast<std::int64_t>(names.size());
    if (axis.is_name()) {
        const std::int64_t at = find_name(names, axis.name());
        if (at >= 0) return static_cast<std::size_t>(at);
        std::string available;
        for (name n : names)
            if (n) available += (available.empty() ? "" : ", ") + std::string(n.str());
        if (!axis.name())
            detail::fail(errc::axis_out_of_range, op,
                         "'?' (unnamed) does not select an axis of " + tensor_text(names, sizes) +
                             "; give the axis by index");
        detail::fail(errc::axis_out_of_range, op,
                     "no axis named '" + std::string(axis.name().str()) + "' in " + tensor_text(names, sizes) +
                         (available.empty() ? std::string("; it has no named axes, give the axis by index")
                                            : "; its named axes are " + available + ", or give the axis by index"));
    }
    const std::int64_t i = axis.index();
    if (i >= -rank && i < rank) return static_cast<std::size_t>(i < 0 ? i + rank : i);
    if (rank == 0)
        detail::fail(errc::axis_out_of_range, op,
                     "axis " + std::to_string(i) + " does not exist: " + tensor_text(names, sizes) +
                         " is a scalar (rank 0) and has no axes");
    detail::fail(errc::axis_out_of_range, op,
                 "axis " + std::to_string(i) + " is out of range for " + tensor_text(names, sizes) +
                     " of rank " + std::to_string(rank) + "; valid axes are " + std::to_string(-rank) + ".." +
                     std::to_string(rank - 1) + " or a name");
}

std::size_t resolve_insert_position(std::int64_t pos, std::size_t result_rank, std::string_view op) {
    const auto r = static_cast<std::int64_t>(result_rank);
    if (pos >= -r && pos < r) return static_cast<std::size_t>(pos < 0 ? pos + r : pos);
    detail::fail(errc::axis_out_of_range, op,
                 "insert position " + std::to_string(pos) + " is out of range for a result of rank " +
                     std::to_string(r) + "; valid positions are " + std::to_string(-r) + ".." + std::to_string(r - 1) +
                     " (they refer to the result, so -1 appends)");
}

void check_unique_names(std::span<const name> names, std::string_view op) {
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!names[i]) continue;
        for (std::size_t j = i + 1; j < names.size(); ++j)
            if (names[i] == names[j])
                detail::fail(errc::duplicate_name, op,
                             "the name '" + std::string(names[i].str()) + "' would be used by axes " +
                                 std::to_string(i) + " and " + std::to_string(j) + " (names " + names_text(names) +
                                 "); names must be unique within a tensor, rename one of them");
    }
}

name_list names_for_rank(std::span<const name> names, std::size_t rank, std::string_view op) {
    if (names.empty()) return name_list(rank, name{});
    if (names.size() != rank)
        detail::fail(errc::invalid_spec, op,
                     std::to_string(names.size()) + " names (" + names_text(names) + ") given for " +
                         std::to_string(rank) + " axes; give one name per axis (\"?\" for unnamed) or none");
    check_unique_names(names, op);
    return name_list(names);
}

name_list reshape_names(std::span<const std::int64_t> old_sizes, std::span<const name> old_names,
                        std::span<const std::int64_t> new_sizes) {
    name_list out(new_sizes.size(), name{});
    const std::size_t common = std::min(old_sizes.size(), new_sizes.size());
    std::size_t prefix = 0;
    while (prefix < common && old_sizes[prefix] == new_sizes[prefix]) {
        out[prefix] = old_names[prefix];
        ++prefix;
    }
    std::size_t suffix = 0;
    while (prefix + suffix < common &&
           old_sizes[old_sizes.size() - 1 - suffix] == new_sizes[new_sizes.size() - 1 - suffix]) {
        out[new_sizes.size() - 1 - suffix] = old_names[old_sizes.size() - 1 - suffix];
        ++suffix;
    }
    return out;
}

resolved_range resolve_range(const range& r, std::int64_t size, const char* op) {
    if (r.step == 0)
        detail::fail(errc::invalid_argument, op, "slice step is 0; use a step >= 1, or a negative step to reverse");
    if (r.step == std::numeric_limits<std::int64_t>::min())
        detail::fail(errc::invalid_argument, op,
                     "slice step " + std::to_string(r.step) +
                         " (INT64_MIN) has no positive counterpart, so it cannot reverse an axis; use a step of at "
                         "least -9223372036854775807 (any step beyond the axis size selects one element)");
    const std::int64_t step = r.step;
    auto adjust = [&](std::optional<std::int64_t> bound, bool is_start) {
        if (!bound) {
            if (is_start) return step < 0 ? size - 1 : std::int64_t{0};
            return step < 0 ? std::int64_t{-1} : size;
        }
        std::int64_t v = *bound;
        if (v < 0) {
            v = v < -size ? -1 : v + size;  // avoid overflow for very negative values
            if (v < 0) v = step < 0 ? -1 : 0;
        } else if (v >= size) {
            v = step < 0 ? size - 1 : size;
        }
        return v;
    };
    const std::int64_t start = adjust(r.start, true);
    const std::int64_t stop = adjust(r.stop, false);
    resolved_range out;
    out.start = start;
    out.step = step;
    if (step < 0)
        out.count = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
    else
        out.count = start < stop ? (stop - start - 1) / step + 1 : 0;
    return out;
}

}  // namespace nt
