// nt/rearrange.hpp: einops-style patterns whose identifiers are axis names.
//
//     nt::rearrange(x, "N C (H ph) (W pw) -> N (C ph pw) H W", {{"ph", 2}, {"pw", 2}});
//     nt::rearrange(x, "N C H W -> N H W C");              // a view (a permutation)
//     nt::rearrange(x, "... C -> C ...");
//     nt::reduce(x, "N C (H 2) (W 2) -> N C H W", nt::reduce_op::mean);   // 2x2 pooling
//     nt::repeat(x, "H W -> H W C", {{"C", 3}});           // a copy
//
// A pattern is parsed once into a plan (sizes, permutation, reductions, result
// shape and names), kept in a small per-thread cache keyed by the pattern, the
// input's shape and names and the sizes: repeated calls do not parse again.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "nt/detail/list_arg.hpp"
#include "nt/detail/tensor_base.hpp"
#include "nt/reduce.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// The size of one pattern identifier: `{"ph", 2}`.
struct axis_size {
    std::string_view name;
    std::int64_t size = 0;
};

/// A list of identifier sizes as a parameter: `{{"ph", 2}, {"pw", 2}}`, a
/// std::vector<axis_size> or a span. Non-owning.
using sizes_arg = detail::list_arg<axis_size>;

/// The reduction of nt::reduce (einops reduce). Not nt::detail::reduce_op, the
/// kernels' larger list.
enum class reduce_op : std::uint8_t { sum, mean, max, min };

namespace detail {

enum class pattern_kind : std::uint8_t { rearrange, reduce, repeat };

/// A parsed pattern applied to one input spec: reshape the input to `elementary`
/// (one axis per identifier of the left side), reduce `reduced` of those, permute
/// the rest by `order` (an index of `kept_sizes`' axes, or -1 for a new repeat axis
/// of `new_sizes`), then reshape to `output` with `output_names`.
struct pattern_plan {
    dims elementary;
    dims reduced;                     // positions in `elementary`
    dims order;                       // per intermediate axis: kept axis or -1 - k for new axis k
    dims new_sizes;
    dims output;
    name_list output_names;
};

/// The plan for `pattern` on a tensor of spec (shape, names), from the per-thread
/// cache or parsed now. Throws invalid_argument (syntax, unknown or duplicated
/// identifiers, sizes that do not divide, a reduction or repetition the kind does
/// not allow), name_mismatch (a named axis the left side calls otherwise).
const pattern_plan& plan_pattern(pattern_kind kind, std::string_view pattern, std::span<const std::int64_t> shape,
                                 std::span<const name> names, std::span<const axis_size> sizes, std::string_view op);

/// Counters of the plan cache (for the benchmark and tests).
struct pattern_cache_stats {
    std::uint64_t hits = 0;
    std::uint64_t parses = 0;
};
pattern_cache_stats pattern_cache_counters() noexcept;

/// The input reshaped to the plan's elementary axes (unnamed): a view when possible.
tensor_base split_elementary(const tensor_base& t, const pattern_plan& p);
/// Permutes, inserts and merges the kept (not reduced) elementary axes of `kept`
/// into the result (a view when possible; new repeat axes are stride-0).
tensor_base apply_arrangement(const tensor_base& kept, const pattern_plan& p);

}  // namespace detail

/// einops rearrange: `"N C (H ph) (W pw) -> N (C ph pw) H W"`. Identifiers are axis
/// names; a left-side group that is one identifier must agree with the tensor's name
/// there (if named). A parenthesised group splits (left) or merges (right) axes;
/// `...` (once per side, not in a group) stands for the axes not spelled out; `1` on
/// the right inserts a size-1 axis. `sizes` gives the identifiers that cannot be
/// inferred (one unknown per left group is inferred). The result's names: a
/// one-identifier group is named by it, "..." axes keep theirs, and a merged group is
/// unnamed unless written `(C ph pw):NAME`. A view when the strides allow (as
/// reshape), else a copy.
/// Throws invalid_argument (syntax, unknown / duplicated / missing identifiers,
/// sizes that do not divide, rank differs), name_mismatch.
template <element T>
[[nodiscard]] Tensor<T> rearrange(const Tensor<T>& t, std::string_view pattern, sizes_arg sizes = {}) {
    const auto& plan =
        detail::plan_pattern(detail::pattern_kind::rearrange, pattern, t.shape(), t.names(), sizes.span(), "rearrange");
    return Tensor<T>(detail::apply_arrangement(detail::split_elementary(t.base(), plan), plan));
}

/// einops reduce: identifiers of the left side missing from the right are reduced
/// with `op`; numbers on the left (`(H 2)`) are anonymous axes, reduced too.
/// The result type is nt::mean's (the element type for floating types, double for
/// the others), whatever `op`. Errors as rearrange.
///     nt::reduce(x, "N C (H 2) (W 2) -> N C H W", nt::reduce_op::max);
template <element T>
[[nodiscard]] auto reduce(const Tensor<T>& t, std::string_view pattern, reduce_op op, sizes_arg sizes = {}) {
    const auto& plan =
        detail::plan_pattern(detail::pattern_kind::reduce, pattern, t.shape(), t.names(), sizes.span(), "reduce");
    const Tensor<T> split(detail::split_elementary(t.base(), plan));
    auto finish = [&](const auto& r) {
        using R = typename std::decay_t<decltype(r)>::value_type;
        return Tensor<R>(detail::apply_arrangement(r.base(), plan));
    };
    const std::span<const std::int64_t> red = plan.reduced;
    small_vector<Axis, 8> axes;
    for (std::int64_t a : red) axes.push_back(Axis(a));
    using M = decltype(nt::mean(split, axes_arg(axes)));
    if (op == reduce_op::mean) return finish(nt::mean(split, axes_arg(axes)));
    if (op == reduce_op::sum) return finish(nt::sum(split, axes_arg(axes)).template astype<typename M::value_type>());
    if (op == reduce_op::max) return finish(nt::max(split, axes_arg(axes)).template astype<typename M::value_type>());
    return finish(nt::min(split, axes_arg(axes)).template astype<typename M::value_type>());
}

/// einops repeat: identifiers of the right side missing from the left are new axes
/// whose sizes come from `sizes` (or a number written in the pattern). Always a copy.
/// (nt::repeat(t, n, axis) is NumPy's repeat.)
///     nt::repeat(gray, "H W -> H W C", {{"C", 3}});
template <element T>
[[nodiscard]] Tensor<T> repeat(const Tensor<T>& t, std::string_view pattern, sizes_arg sizes = {}) {
    const auto& plan =
        detail::plan_pattern(detail::pattern_kind::repeat, pattern, t.shape(), t.names(), sizes.span(), "repeat");
    return Tensor<T>(detail::apply_arrangement(detail::split_elementary(t.base(), plan), plan)).clone();
}

}  // namespace nt
