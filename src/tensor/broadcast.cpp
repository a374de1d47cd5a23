// tensor_base: broadcasting views (through the matcher's plans) and alignment by name.
#include "core_errors.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/match.hpp"

namespace nt::detail {

namespace {

// Applies a broadcast_to plan: output axis k comes from input axis map[k] (stride kept
// when the sizes agree, 0 when broadcast) or is inserted (stride 0). The result is
// read-only when a stride-0 axis has more than one element.
tensor_base apply_map(const tensor_base& t, std::span<const std::int32_t> map, const nt::spec& target,
                      std::string_view op) {
    dims sizes, strides;
    name_list out_names;
    bool aliased = t.is_read_only();
    for (std::size_t k = 0; k < map.size(); ++k) {
        const std::int64_t size = target.size(k);
        const std::int32_t a = map[k];
        std::int64_t stride = 0;
        name n = target.name(k);
        if (a != inserted_axis) {
            const auto src = static_cast<std::size_t>(a);
            if (t.layout().size(src) == size) stride = t.layout().stride(src);
            if (!n) n = t.names()[src];
        }
        if (stride == 0 && size > 1) aliased = true;
        sizes.push_back(size);
        strides.push_back(stride);
        out_names.push_back(n);
    }
    check_unique_names(out_names.span(), op);
    if (!checked_element_count(sizes.span()))
        fail(errc::invalid_argument, op,
             "the target " + spec_text(sizes.span(), out_names.span()) + " has more elements than 64-bit sizes can count");
    return t.with(nt::layout(sizes.span(), strides.span(), t.layout().offset()), std::move(out_names), aliased);
}

tensor_base apply_plan(const tensor_base& t, const plan& p, const nt::spec& target, std::string_view op) {
    return apply_map(t, p.inputs[0].source_axes.span(), target, op);
}

bool has_names(std::span<const name> names) {
    for (name n : names)
        if (n) return true;
    return false;
}

nt::spec spec_of(std::span<const std::int64_t> sizes, std::span<const name> names = {}) {
    nt::spec s;
    for (std::size_t i = 0; i < sizes.size(); ++i) s.push_back({sizes[i], i < names.size() ? names[i] : name{}});
    return s;
}


const std::string_view tensor_label[1] = {"tensor"};

// The matcher's plan for a broadcast view, in a per-thread plan that stays warm:
// views allocate nothing on the heap.
const plan& broadcast_plan(const nt::spec& input, const nt::spec& target, const match_options& options) {
    thread_local plan reused;
    mismatch why;
    if (!try_broadcast_to_into(input, target, options, reused, &why)) why.raise();
    return reused;
}

// Appends axis k of `l` to a view being built, or a singleton (stride 0) when k < 0.
void append_axis(const nt::layout& l, std::int64_t k, dims& sizes, dims& strides) {
    sizes.push_back(k >= 0 ? l.size(static_cast<std::size_t>(k)) : 1);
    strides.push_back(k >= 0 ? l.stride(static_cast<std::size_t>(k)) : 0);
}

}  // namespace

tensor_base tensor_base::broadcast_to(std::span<const std::int64_t> shape) const {
    check_sizes(shape, "broadcast_to");
    const nt::spec target = spec_of(shape);
    small_vector<std::int32_t, 8> map;
    if (numpy_broadcast_map(this->shape(), shape, map)) return apply_map(*this, map.span(), target, "broadcast_to");
    match_options options;
    options.policy = policy::positional;
    options.labels = tensor_label;
    return apply_plan(*this, broadcast_plan(spec(), target, options), target, "broadcast_to");
}

tensor_base tensor_base::broadcast_to(const nt::spec& target) const {
    target.validate("broadcast_to target");
    // Without names, policy `names` is NumPy's rule: skip the matcher.
    small_vector<std::int32_t, 8> map;
    if (!target.has_names() && !has_names(names())) {
        const dims sizes = target.sizes();
        if (numpy_broadcast_map(this->shape(), sizes.span(), map)) return apply_map(*this, map.span(), target, "broadcast_to");
    }
    match_options options;
    options.labels = tensor_label;
    return apply_plan(*this, broadcast_plan(spec(), target, options), target, "broadcast_to");
}

small_vector<std::int32_t, 8> broadcast_source_axes(const nt::spec& input, const nt::spec& target,
                                                   std::string_view op) {
    target.validate(op);
    small_vector<std::int32_t, 8> map;
    if (!target.has_names() && !input.has_names()) {
        const dims in = input.sizes(), sizes = target.sizes();
        if (numpy_broadcast_map(in.span(), sizes.span(), map)) return map;
    }
    match_options options;
    options.labels = tensor_label;
    return small_vector<std::int32_t, 8>(broadcast_plan(input, target, options).inputs[0].source_axes.span());
}

tensor_base tensor_base::broadcast_like(const tensor_base& other) const { return broadcast_to(other.spec()); }

tensor_base tensor_base::broadcast_left(std::span<const std::int64_t> dims_) const {
    check_sizes(dims_, "broadcast_left");
    nt::spec target = spec_of(dims_);
    for (std::size_t i = 0; i < rank(); ++i) target.push_back({layout_.size(i), names_[i]});
    if (target.rank() > max_rank)
        fail(errc::invalid_spec, "broadcast_left",
             "the result would have rank " + std::to_string(target.rank()) + ", over the limit of " +
                 std::to_string(max_rank) + " axes");
    match_options options;
    options.labels = tensor_label;
    return apply_plan(*this, broadcast_plan(spec(), target, options), target, "broadcast_left");
}

tensor_base tensor_base::align_to(std::span<const std::string_view> order) const {
    // Parse the list: names, at most one "...".
    std::size_t ellipsis = order.size();
    name_list wanted;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (order[i] == "...") {
            if (ellipsis != order.size())
                fail(errc::invalid_argument, "align_to", "\"...\" may appear at most once");
            ellipsis = i;
            wanted.push_back(name{});
            continue;
        }
        const name n(order[i]);
        if (!n)
            fail(errc::invalid_argument, "align_to",
                 "\"" + std::string(order[i]) + "\" does not name an axis; list names, and \"...\" for the rest");
        wanted.push_back(n);
    }
    {
        name_list check;
        for (name n : wanted)
            if (n) check.push_back(n);
        check_unique_names(check.span(), "align_to");
    }
    // Axes not listed must be covered by "...".
    dims rest;
    for (std::size_t k = 0; k < rank(); ++k)
        if (!names_[k] || find_name(wanted.span(), names_[k]) < 0) rest.push_back(static_cast<std::int64_t>(k));
    if (ellipsis == order.size() && !rest.empty()) {
        const auto k = static_cast<std::size_t>(rest[0]);
        fail(errc::no_counterpart, "align_to",
             "axis " + std::to_string(k) + (names_[k] ? " '" + std::string(names_[k].str()) + "'" : " (unnamed)") +
                 " of tensor " + describe() + " is not in the order [" + names_text(wanted.span()) +
                 "]; list it, or add \"...\" to keep the remaining axes");
    }
    dims sizes, strides;
    name_list out_names;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        if (i == ellipsis) {
            for (std::int64_t k : rest) {
                sizes.push_back(layout_.size(static_cast<std::size_t>(k)));
                strides.push_back(layout_.stride(static_cast<std::size_t>(k)));
                out_names.push_back(names_[static_cast<std::size_t>(k)]);
            }
            continue;
        }
        append_axis(layout_, find_name(names(), wanted[i]), sizes, strides);
        out_names.push_back(wanted[i]);
    }
    if (sizes.size() > max_rank)
        fail(errc::invalid_spec, "align_to",
             "the result would have rank " + std::to_string(sizes.size()) + ", over the limit of " +
                 std::to_string(max_rank) + " axes");
    return with(nt::layout(sizes.span(), strides.span(), layout_.offset()), std::move(out_names), read_only_);
}

tensor_base tensor_base::align_as(const tensor_base& other) const {
    // Named axes go where other has the same name; unnamed axes right-align with
    // other's unnamed axes; everything else in other becomes a singleton.
    const std::size_t r = other.rank();
    std::size_t mine_unnamed = 0, theirs_unnamed = 0;
    for (name n : names_) mine_unnamed += n ? 0 : 1;
    for (name n : other.names_) theirs_unnamed += n ? 0 : 1;
    for (std::size_t k = 0; k < rank(); ++k)
        if (names_[k] && find_name(other.names(), names_[k]) < 0)
            fail(errc::no_counterpart, "align_as",
                 "axis " + std::to_string(k) + " '" + std::string(names_[k].str()) + "' of tensor " + describe() +
                     " has no counterpart in " + other.describe() +
                     "; rename it, or add an axis of that name to the target");
    if (mine_unnamed > theirs_unnamed)
        fail(errc::no_counterpart, "align_as",
             "tensor " + describe() + " has " + std::to_string(mine_unnamed) + " unnamed axes but " +
                 other.describe() + " only " + std::to_string(theirs_unnamed) +
                 "; name the extra axes, or squeeze them");
    dims unnamed_axes;
    for (std::size_t k = 0; k < rank(); ++k)
        if (!names_[k]) unnamed_axes.push_back(static_cast<std::int64_t>(k));
    dims sizes, strides;
    name_list out_names;
    std::size_t seen_unnamed = 0;
    for (std::size_t o = 0; o < r; ++o) {
        const name n = other.names_[o];
        std::int64_t k = -1;
        if (n) {
            k = find_name(names(), n);
        } else {
            const std::size_t pos = seen_unnamed++;  // position among other's unnamed axes
            const std::size_t skip = theirs_unnamed - mine_unnamed;
            if (pos >= skip) k = unnamed_axes[pos - skip];
        }
        append_axis(layout_, k, sizes, strides);
        out_names.push_back(n);
    }
    return with(nt::layout(sizes.span(), strides.span(), layout_.offset()), std::move(out_names), read_only_);
}

}  // namespace nt::detail
