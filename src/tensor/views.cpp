// tensor_base: views that select, drop, insert and reorder axes, and name edits.
#include <algorithm>
#include <numeric>

#include <range/v3/algorithm/find.hpp>
#include <range/v3/algorithm/sort.hpp>

#include "core_errors.hpp"
#include "nt/detail/tensor_base.hpp"

namespace nt::detail {

namespace {

void check_rank(std::size_t rank, std::string_view op) {
    if (rank > max_rank)
        fail(errc::invalid_spec, op,
             "the result would have rank " + std::to_string(rank) + ", over the limit of " +
                 std::to_string(max_rank) + " axes");
}

// Throws invalid_argument unless `order` holds each of 0..rank-1 once.
void check_permutation(std::span<const std::int64_t> order, const tensor_base& t, std::string_view op) {
    const std::size_t rank = t.rank();
    auto what = [&] { return "tensor " + t.describe(); };
    if (order.size() != rank)
        fail(errc::invalid_argument, op,
             std::to_string(order.size()) + " axes given for " + what() + " of rank " + std::to_string(rank) +
                 "; list every axis exactly once");
    small_vector<std::uint8_t, 8> seen(rank, 0);
    for (std::int64_t a : order) {
        if (a < 0 || a >= static_cast<std::int64_t>(rank) || seen[static_cast<std::size_t>(a)])
            fail(errc::invalid_argument, op,
                 list_text(order) + " is not a permutation of the axes of " + what() +
                     "; list every axis exactly once");
        seen[static_cast<std::size_t>(a)] = 1;
    }
}

name_list permuted_names(std::span<const name> names, std::span<const std::int64_t> order) {
    name_list out;
    for (std::int64_t k : order) out.push_back(names[static_cast<std::size_t>(k)]);
    return out;
}

}  // namespace

tensor_base tensor_base::index(std::span<const index_item> items) const {
    if (items.size() > rank())
        fail(errc::invalid_argument, "index",
             std::to_string(items.size()) + " indices given for tensor " + describe() + " of rank " +
                 std::to_string(rank()) + "; give at most one per axis");
    nt::layout l = layout_;
    name_list n;
    std::size_t axis = 0;  // position in l
    for (std::size_t k = 0; k < items.size(); ++k) {
        const index_item& it = items[k];
        const std::int64_t size = layout_.size(k);
        switch (it.k) {
            case index_item::kind::integer: {
                std::int64_t i = it.i;
                if (i < -size || i >= size) {
                    std::string axis_name = "axis " + std::to_string(k);
                    if (names_[k]) axis_name += " '" + std::string(names_[k].str()) + "'";
                    fail(errc::index_out_of_range, "index",
                         "index " + std::to_string(i) + " is out of range for " + axis_name + " (size " +
                             std::to_string(size) + ") of tensor " + describe() +
                             (size == 0 ? std::string("; the axis is empty")
                                        : "; valid indices are " + std::to_string(-size) + ".." +
                                              std::to_string(size - 1)));
                }
                if (i < 0) i += size;
                l = l.indexed(axis, i);
                break;
            }
            case index_item::kind::all:
                n.push_back(names_[k]);
                ++axis;
                break;
            case index_item::kind::range: {
                const resolved_range r = resolve_range(it.r, size, "index");
                l = l.sliced(axis, r.start, r.count, r.step);
                n.push_back(names_[k]);
                ++axis;
                break;
            }
        }
    }
    for (std::size_t k = items.size(); k < rank(); ++k) n.push_back(names_[k]);
    return with(std::move(l), std::move(n), read_only_);
}

tensor_base tensor_base::squeeze(const Axis& axis) const {
    const std::size_t a = resolve_axis(axis, names(), "squeeze", shape());
    if (layout_.size(a) != 1)
        fail(errc::invalid_argument, "squeeze",
             "axis " + std::to_string(a) + (names_[a] ? " '" + std::string(names_[a].str()) + "'" : std::string()) +
                 " of tensor " + describe() + " has size " + std::to_string(layout_.size(a)) +
                 ", not 1; only size-1 axes can be squeezed (use index() to pick one entry)");
    name_list n = names_;
    n.erase(n.begin() + a);
    return with(layout_.removed(a), std::move(n), read_only_);
}

tensor_base tensor_base::squeeze_all() const {
    nt::layout l = layout_;
    name_list n = names_;
    for (std::size_t a = rank(); a-- > 0;)
        if (layout_.size(a) == 1) {
            l = l.removed(a);
            n.erase(n.begin() + a);
        }
    return with(std::move(l), std::move(n), read_only_);
}

tensor_base tensor_base::unsqueeze(std::int64_t pos, name nm) const {
    check_rank(rank() + 1, "unsqueeze");
    const std::size_t p = resolve_insert_position(pos, rank() + 1, "unsqueeze");
    name_list n = names_;
    n.insert(n.begin() + p, nm);
    check_unique_names(n.span(), "unsqueeze");
    // The new axis's stride: what a C-contiguous layout would give (irrelevant for size 1).
    const std::int64_t stride = p < rank() ? layout_.stride(p) * layout_.size(p) : 1;
    return with(layout_.inserted(p, 1, stride), std::move(n), read_only_);
}

tensor_base tensor_base::expand_dims(std::span<const std::int64_t> positions) const {
    const std::size_t out_rank = rank() + positions.size();
    check_rank(out_rank, "expand_dims");
    small_vector<std::uint8_t, 8> inserted(out_rank, 0);
    for (std::int64_t pos : positions) {
        const std::size_t p = resolve_insert_position(pos, out_rank, "expand_dims");
        if (inserted[p])
            fail(errc::invalid_argument, "expand_dims",
                 "position " + std::to_string(pos) + " repeats an insert position in " + list_text(positions) +
                     " (result rank " + std::to_string(out_rank) + "); give each position once");
        inserted[p] = 1;
    }
    nt::layout l = layout_;
    name_list n = names_;
    for (std::size_t p = 0; p < out_rank; ++p)
        if (inserted[p]) {
            l = l.inserted(p, 1, p < l.rank() ? l.stride(p) * l.size(p) : 1);
            n.insert(n.begin() + p, name{});
        }
    return with(std::move(l), std::move(n), read_only_);
}

tensor_base tensor_base::transpose() const {
    if (rank() < 2)
        fail(errc::invalid_argument, "transpose",
             "transpose() swaps the last two axes and needs rank >= 2, but tensor " + describe() + " has rank " +
                 std::to_string(rank()) + "; use unsqueeze first or transpose(a, b)");
    return swap_axes(-2, -1, "transpose");
}

tensor_base tensor_base::swap_axes(const Axis& a, const Axis& b, const char* op) const {
    const std::size_t i = resolve_axis(a, names(), op, shape());
    const std::size_t j = resolve_axis(b, names(), op, shape());
    dims order(rank(), 0);
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::swap(order[i], order[j]);
    return with(layout_.permuted(order.span()), permuted_names(names(), order.span()), read_only_);
}

tensor_base tensor_base::permute(std::span<const Axis> axes) const {
    dims order;
    for (const Axis& a : axes) order.push_back(static_cast<std::int64_t>(resolve_axis(a, names(), "permute", shape())));
    check_permutation(order.span(), *this, "permute");
    return with(layout_.permuted(order.span()), permuted_names(names(), order.span()), read_only_);
}

tensor_base tensor_base::move_axis(const Axis& from, std::int64_t to) const {
    const Axis f[1] = {from};
    const std::int64_t t[1] = {to};
    return move_axes(f, t, "move_axis");
}

tensor_base tensor_base::move_axes(std::span<const Axis> from, std::span<const std::int64_t> to,
                                   std::string_view op) const {
    if (from.size() != to.size())
        fail(errc::invalid_argument, op,
             std::to_string(from.size()) + " source axes but " + std::to_string(to.size()) +
                 " destinations; give one destination per moved axis");
    struct move {
        std::int64_t destination;
        std::int64_t source;
    };
    small_vector<move, 8> moves;
    small_vector<std::uint8_t, 8> src_seen(rank(), 0), dst_seen(rank(), 0);
    for (std::size_t k = 0; k < from.size(); ++k) {
        const std::size_t s = resolve_axis(from[k], names(), op, shape());
        const std::size_t d = resolve_insert_position(to[k], rank(), op);
        if (src_seen[s] || dst_seen[d])
            fail(errc::invalid_argument, op,
                 std::string(src_seen[s] ? "source axis " + from[k].str() : "destination " + std::to_string(to[k])) +
                     " is given twice for tensor " + describe() + "; each axis and position may appear once");
        src_seen[s] = dst_seen[d] = 1;
        moves.push_back({static_cast<std::int64_t>(d), static_cast<std::int64_t>(s)});
    }
    dims order;
    for (std::size_t a = 0; a < rank(); ++a)
        if (!src_seen[a]) order.push_back(static_cast<std::int64_t>(a));
    ranges::sort(moves, {}, &move::destination);
    for (const move& m : moves) order.insert(order.begin() + m.destination, m.source);
    return with(layout_.permuted(order.span()), permuted_names(names(), order.span()), read_only_);
}

tensor_base tensor_base::move_axes(std::span<const std::int64_t> new_positions) const {
    dims dest;
    for (std::int64_t p : new_positions) {
        const auto r = static_cast<std::int64_t>(rank());
        if (p < -r || p >= r)
            fail(errc::axis_out_of_range, "move_axes",
                 "position " + std::to_string(p) + " is out of range for tensor " + describe() +
                     "; valid positions are " + std::to_string(-r) + ".." + std::to_string(r - 1));
        dest.push_back(p < 0 ? p + r : p);
    }
    check_permutation(dest.span(), *this, "move_axes");
    dims order(rank(), 0);
    for (std::size_t a = 0; a < rank(); ++a) order[static_cast<std::size_t>(dest[a])] = static_cast<std::int64_t>(a);
    return with(layout_.permuted(order.span()), permuted_names(names(), order.span()), read_only_);
}

tensor_base tensor_base::slice(const Axis& axis, const range& r) const {
    const std::size_t a = resolve_axis(axis, names(), "slice", shape());
    const resolved_range rr = resolve_range(r, layout_.size(a), "slice");
    return with(layout_.sliced(a, rr.start, rr.count, rr.step), names_, read_only_);
}

tensor_base tensor_base::unfold(const Axis& axis, std::int64_t size, std::int64_t step, name nm) const {
    const std::size_t a = resolve_axis(axis, names(), "unfold", shape());
    check_rank(rank() + 1, "unfold");
    const std::int64_t n = layout_.size(a);
    if (step < 1)
        fail(errc::invalid_argument, "unfold", "step " + std::to_string(step) + " must be >= 1");
    if (size < 0 || size > n)
        fail(errc::invalid_argument, "unfold",
             "window size " + std::to_string(size) + " does not fit axis " + std::to_string(a) +
                 (names_[a] ? " '" + std::string(names_[a].str()) + "'" : std::string()) + " (size " +
                 std::to_string(n) + ") of tensor " + describe() + "; use a size between 0 and " + std::to_string(n));
    const std::int64_t windows = (n - size) / step + 1;
    const std::int64_t stride = layout_.stride(a);
    nt::layout l = layout_.sliced(a, 0, windows, step);
    l = l.inserted(rank(), size, stride);
    name_list out_names = names_;
    out_names.push_back(nm);
    check_unique_names(out_names.span(), "unfold");
    const bool overlap = step < size && windows > 1;
    return with(std::move(l), std::move(out_names), read_only_ || overlap);
}

tensor_base tensor_base::rename(std::span<const name> new_names) const {
    return with(layout_, names_for_rank(new_names, rank(), "rename"), read_only_);
}

tensor_base tensor_base::rename(const Axis& axis, name n) const {
    const std::size_t a = resolve_axis(axis, names(), "rename", shape());
    name_list out = names_;
    out[a] = n;
    check_unique_names(out.span(), "rename");
    return with(layout_, std::move(out), read_only_);
}

tensor_base tensor_base::refine_names(std::span<const std::string_view> given) const {
    // Expand "..." to keep the names of the axes it covers.
    const auto ellipsis = ranges::find(given, std::string_view("..."));
    const bool has_ellipsis = ellipsis != given.end();
    if (has_ellipsis && std::find(ellipsis + 1, given.end(), std::string_view("...")) != given.end())
        fail(errc::invalid_argument, "refine_names", "\"...\" may appear at most once");
    const std::size_t listed = given.size() - (has_ellipsis ? 1 : 0);
    if (has_ellipsis ? listed > rank() : listed != rank())
        fail(errc::invalid_argument, "refine_names",
             std::to_string(listed) + " names given for tensor " + describe() + " of rank " + std::to_string(rank()) +
                 "; give one name per axis (\"?\" to leave one unnamed, \"...\" for the rest)");
    name_list out;
    const auto before = static_cast<std::size_t>(ellipsis - given.begin());
    for (std::size_t k = 0; k < rank(); ++k) {
        name wanted = names_[k];
        if (!has_ellipsis || k < before) wanted = name(given[k]);
        else if (k >= before + (rank() - listed)) wanted = name(given[k - (rank() - listed) + 1]);
        if (names_[k] && wanted != names_[k])
            fail(errc::name_mismatch, "refine_names",
                 "axis " + std::to_string(k) + " of tensor " + describe() + " is already named '" +
                     std::string(names_[k].str()) + "' and cannot be refined to '" + std::string(wanted.str()) +
                     "'; refine_names only names unnamed axes, use rename to change a name");
        out.push_back(wanted);
    }
    check_unique_names(out.span(), "refine_names");
    return with(layout_, std::move(out), read_only_);
}

}  // namespace nt::detail
