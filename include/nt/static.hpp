// nt/static.hpp: axis names in the type (docs/static_names.md). Opt-in: not part of
// <nt/nt.hpp>, so programs that do not use it do not parse Boost.Hana.
//
// nt::tensor_of<T, "?", "CHANNEL", "H", "W"> is a Tensor<T> whose rank and names are
// part of its type (sizes stay run-time values). Element-wise operations on such
// operands are matched while compiling, by the rule of docs/matching.md (policy
// `names`), solved with Hana: the result type is the solved tensor_of, a pairing the
// rule refuses does not compile, and no matcher runs at run time.
//
//     using img_t  = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
//     using mask_t = nt::tensor_of<float, "?", "H", "W">;
//     img_t img = img_t::zeros({2, 3, 4, 5});
//     auto out = img * mask_t::ones({2, 4, 5});        // img_t
//     auto per_channel = nt::mean<"H", "W">(out);       // tensor_of<float, "?", "CHANNEL">
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/hana/basic_tuple.hpp>
#include <boost/hana/fold_left.hpp>
#include <boost/hana/type.hpp>

#include "nt/creation.hpp"
#include "nt/detail/static_core.hpp"
#include "nt/elementwise.hpp"
#include "nt/match.hpp"
#include "nt/reduce.hpp"
#include "nt/statistics.hpp"
#include "nt/tensor.hpp"

namespace nt {

/// An axis name as a template argument: `"CHANNEL"`; `"?"` (or `""`) is unnamed.
template <std::size_t N>
struct fixed_name {
    char text[N]{};
    constexpr fixed_name(const char (&s)[N]) noexcept {  // NOLINT: names read as string literals
        for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
    }
    [[nodiscard]] constexpr std::string_view view() const noexcept { return {text, N - 1}; }
    [[nodiscard]] constexpr bool unnamed() const noexcept { return N == 1 || (N == 2 && text[0] == '?'); }
};

/// A spec's names as a type: nt::axes<"?", "CHANNEL", "H", "W">.
template <fixed_name... Names>
struct axes {
    static constexpr std::size_t rank = sizeof...(Names);
};

namespace static_detail {
template <auto...>
inline constexpr bool always_false = false;
}  // namespace static_detail

/// The refusals of the compile-time solver. Each is a type whose instantiation fails
/// with a static_assert, so the compiler's first diagnostic line shows the reason and
/// the axis: "In instantiation of 'struct nt::static_error::no_counterpart<...{"CLASS"}>'".
namespace static_error {
template <fixed_name Axis>
struct no_counterpart {
    static_assert(static_detail::always_false<Axis>,
                  "nt::static_error::no_counterpart: this axis (see the template argument above) has no axis to "
                  "pair with in the operand of highest rank (the host; a broadcast never adds axes). Fix: add the "
                  "axis to the host (align_to, a run-time unsqueeze), reduce it away, or go through run-time "
                  "tensors with nt::with_union");
};
template <fixed_name Axis>
struct duplicate_name {
    static_assert(static_detail::always_false<Axis>,
                  "nt::static_error::duplicate_name: a name is used twice within one spec. Fix: rename one axis");
};
template <fixed_name First, fixed_name Second>
struct name_mismatch {
    static_assert(static_detail::always_false<First, Second>,
                  "nt::static_error::name_mismatch: policy positional pairs these two names on one output axis (or "
                  "gives one name to two output axes). Fix: rename, or use policy names");
};
template <fixed_name Axis>
struct missing_axis {
    static_assert(static_detail::always_false<Axis>,
                  "nt::static_error::missing_axis: the tensor_of type has no axis of this name. Fix: name an "
                  "axis of the type (reductions, index, slice, align_to take only names the type carries)");
};
template <std::size_t LeftRank, std::size_t RightRank>
struct in_place_grows {
    static_assert(LeftRank != LeftRank,
                  "nt::static_error::in_place_grows: a op= b writes into a, whose type cannot change, and b has a "
                  "higher rank than a (a op b would have b's type). Fix: write a2 = a op b, or reduce / index b "
                  "first");
};
template <fixed_name Axis>
struct invalid_name {
    static_assert(static_detail::always_false<Axis>,
                  "nt::static_error::invalid_name: an axis name is 1 to 64 characters of [A-Za-z_][A-Za-z0-9_]*, "
                  "or \"?\" for an unnamed axis");
};
}  // namespace static_error

namespace static_detail {

namespace hana = boost::hana;

// --- names ------------------------------------------------------------------------

// A name's text, "" for an unnamed axis (the template parameter object outlives all).
template <fixed_name N>
inline constexpr std::string_view text_of = N.unnamed() ? std::string_view{} : N.view();

// The K-th of a pack of names (not through std::tuple{N...}: a std::tuple type per
// pack costs each new tensor_of type of a reduction or view its instantiation).
template <std::size_t K, fixed_name First, fixed_name... Rest>
constexpr auto name_at_impl() {
    if constexpr (K == 0) return First;
    else return name_at_impl<K - 1, Rest...>();
}
template <std::size_t K, fixed_name... N>
inline constexpr auto name_at = name_at_impl<K, N...>();

template <fixed_name N>
constexpr bool valid_name() {
    if (N.unnamed()) return true;
    const std::string_view s = N.view();
    if (s.size() > 64) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

template <class Axes>
struct names_array;
template <fixed_name... N>
struct names_array<axes<N...>> {
    static constexpr std::array<std::string_view, sizeof...(N)> value{text_of<N>...};
};

// The fixed_name of axis A of input I ("?" when unnamed), for an error type.
template <std::size_t I, std::size_t A, class... Axes>
struct name_of_axis {
    template <class S>
    struct pick;
    template <fixed_name... N>
    struct pick<axes<N...>> {
        static constexpr auto value = name_at<A, N...>;
    };
    static constexpr auto picked = pick<std::tuple_element_t<I, std::tuple<Axes...>>>::value;
    static constexpr auto value = [] {
        if constexpr (picked.unnamed()) return fixed_name<2>{"?"};
        else return picked;
    }();
};

// --- the solver of docs/matching.md, policy names ------------------------------------
//
// The inputs are a Hana sequence of types: one hana::fold_left walks the specs into
// name tables and finds the host on the way (rule 3), and the outcome is a
// hana::type; the per-axis pairing is constexpr loops over those tables. Which Hana
// costs what (docs/performance.md, "Compile cost of <nt/static.hpp>"): a basic_tuple
// and one fold cost next to nothing per pairing; hana::tuple with maximum, index_if
// and for_each cost a third of a pairing and of the header's parse more; the whole
// rule on Hana sequences of hana::type keys (filter, count, index_if per axis) cost
// three times the compile time per pairing. The rule test checks thousands of pairings.
// Each axis has a key: its name, or, unnamed, its place counted from the right among
// the spec's unnamed axes (rule 2, right alignment). Equal keys form one group; the
// host's keys are the output (rules 3-5).

template <class... Axes>
struct names_solver {
    static constexpr std::size_t k = sizeof...(Axes);
    static constexpr std::size_t width = (std::max)({std::size_t{0}, Axes::rank...}) + 1;  // room for rank 0

    // The specs' names, and rule 3's host (the first input of the highest rank).
    struct table {
        std::array<std::array<std::string_view, width>, k> names{};
        std::array<std::size_t, k> ranks{};
        std::size_t count = 0, host = 0;
    };
    static constexpr table make_table() {
        return hana::fold_left(hana::make_basic_tuple(hana::type_c<Axes>...), table{}, [](table t, auto type) {
            const auto& list = names_array<typename decltype(type)::type>::value;
            const std::size_t i = t.count++;
            t.ranks[i] = list.size();
            for (std::size_t a = 0; a < list.size(); ++a) t.names[i][a] = list[a];
            if (t.ranks[i] > t.ranks[t.host]) t.host = i;
            return t;
        });
    }
    static constexpr std::size_t host = make_table().host;
    static constexpr std::size_t rank = width - 1;
    // The unnamed axes after axis a of input i (its key when unnamed).
    static constexpr std::size_t from_right(const table& t, std::size_t i, std::size_t a) {
        std::size_t n = 0;
        for (std::size_t b = a + 1; b < t.ranks[i]; ++b) n += t.names[i][b].empty() ? 1 : 0;
        return n;
    }
    // The axis of input j with the key of axis a of input i, or -1.
    static constexpr std::int32_t find(const table& t, std::size_t i, std::size_t a, std::size_t j) {
        const std::string_view n = t.names[i][a];
        const std::size_t r = n.empty() ? from_right(t, i, a) : 0;
        for (std::size_t b = 0; b < t.ranks[j]; ++b) {
            const std::string_view m = t.names[j][b];
            if (n.empty() ? (m.empty() && from_right(t, j, b) == r) : m == n) return static_cast<std::int32_t>(b);
        }
        return inserted_axis;
    }
    // The first refusal, as at run time: a duplicate name in any spec (rule 1 needs
    // unique names), then an axis without a group in the host (rule 4), in input order
    // and axis order. kind 0: none, 1: duplicate_name, 2: no_counterpart.
    struct refusal {
        int kind = 0;
        std::size_t input = 0, axis = 0;
    };
    static constexpr refusal why = [] {
        const table t = make_table();
        for (std::size_t i = 0; i < k; ++i)
            for (std::size_t a = 0; a < t.ranks[i]; ++a)
                for (std::size_t b = 0; b < t.ranks[i]; ++b)
                    if (a != b && !t.names[i][a].empty() && t.names[i][a] == t.names[i][b]) return refusal{1, i, a};
        for (std::size_t i = 0; i < k; ++i)
            for (std::size_t a = 0; a < t.ranks[i]; ++a)
                if (find(t, i, a, host) == inserted_axis) return refusal{2, i, a};
        return refusal{};
    }();
    static constexpr auto source_axes = [] {
        const table t = make_table();
        std::array<std::array<std::int32_t, rank>, k> out{};
        for (std::size_t i = 0; i < k; ++i)
            for (std::size_t o = 0; o < rank; ++o) out[i][o] = find(t, host, o, i);
        return out;
    }();
    static constexpr auto output_names = names_array<std::tuple_element_t<host, std::tuple<Axes...>>>::value;
};

struct no_error {};

template <class... Axes>
constexpr auto names_outcome() {
    using s = names_solver<Axes...>;
    constexpr auto why = s::why;
    if constexpr (why.kind == 0) return hana::type_c<no_error>;
    else if constexpr (why.kind == 1)
        return hana::type_c<static_error::duplicate_name<name_of_axis<why.input, why.axis, Axes...>::value>>;
    else return hana::type_c<static_error::no_counterpart<name_of_axis<why.input, why.axis, Axes...>::value>>;
}

// --- policy positional: every axis right-aligned, names must agree ------------------
// (plain constexpr code: the rule has no groups to find)

template <class... Axes>
struct positional {
    static constexpr std::size_t k = sizeof...(Axes);
    static constexpr std::array<std::size_t, k> ranks{Axes::rank...};
    static constexpr std::size_t host = [] {
        std::size_t h = 0;
        for (std::size_t i = 1; i < k; ++i)
            if (ranks[i] > ranks[h]) h = i;
        return h;
    }();
    static constexpr std::size_t rank = ranks[host];
    template <std::size_t I, class S>
    static constexpr void place(std::array<std::array<std::string_view, rank>, k>& out) {
        constexpr auto& list = names_array<S>::value;
        for (std::size_t a = 0; a < list.size(); ++a) out[I][rank - list.size() + a] = list[a];
    }
    template <std::size_t... I>
    static constexpr auto names_of(std::index_sequence<I...>) {
        // Through a member: GCC 12 elides a named local into the static being
        // initialised and then refuses the writes through a reference to it.
        struct box {
            std::array<std::array<std::string_view, rank>, k> value{};
        } b;
        (place<I, Axes>(b.value), ...);
        return b.value;
    }
    // A function, not a static member read by the others: GCC 12 refuses a constant
    // initialiser that reads another static member of the same class template here.
    static constexpr std::array<std::array<std::string_view, rank>, k> names() {
        return names_of(std::index_sequence_for<Axes...>{});
    }
    static constexpr std::array<std::array<std::int32_t, rank>, k> source_axes = [] {
        std::array<std::array<std::int32_t, rank>, k> out{};
        for (std::size_t i = 0; i < k; ++i)
            for (std::size_t o = 0; o < rank; ++o) {
                const std::size_t shift = rank - ranks[i];
                out[i][o] = o < shift ? inserted_axis : static_cast<std::int32_t>(o - shift);
            }
        return out;
    }();
    // The first refusal: (0) none; (1) two names on output axis o: input i1's and i2's;
    // (2) output axes e and o would share a name.
    struct refusal {
        int kind = 0;
        std::size_t i1 = 0, o1 = 0, i2 = 0, o2 = 0;
    };
    static constexpr refusal why = [] {
        const auto names = positional::names();
        std::array<std::string_view, rank> common{};
        std::array<std::size_t, rank> common_from{};
        for (std::size_t o = 0; o < rank; ++o) {
            for (std::size_t i = 0; i < k; ++i) {
                const std::string_view n = names[i][o];
                if (n.empty()) continue;
                if (common[o].empty()) {
                    common[o] = n;
                    common_from[o] = i;
                } else if (n != common[o]) {
                    return refusal{1, common_from[o], o, i, o};
                }
            }
            for (std::size_t e = 0; e < o; ++e)
                if (!common[o].empty() && common[e] == common[o]) return refusal{2, common_from[e], e, common_from[o], o};
        }
        return refusal{};
    }();
    static constexpr std::array<std::string_view, rank> output_names = [] {
        const auto names = positional::names();
        std::array<std::string_view, rank> out{};
        for (std::size_t o = 0; o < rank; ++o)
            for (std::size_t i = 0; i < k && out[o].empty(); ++i) out[o] = names[i][o];
        return out;
    }();
};

// The name (as a fixed_name) at output position o of input i under positional.
template <std::size_t I, std::size_t O, class... Axes>
struct positional_name {
    using spec = std::tuple_element_t<I, std::tuple<Axes...>>;
    template <class S>
    struct pick;
    template <fixed_name... N>
    struct pick<axes<N...>> {
        static constexpr auto value = name_at<O - (positional<Axes...>::rank - sizeof...(N)), N...>;
    };
    static constexpr auto value = pick<spec>::value;
};

template <class... Axes>
constexpr auto positional_outcome() {
    using p = positional<Axes...>;
    // Duplicate names within one spec are refused first, as at run time.
    constexpr auto dup = names_solver<Axes...>::why;
    if constexpr (dup.kind == 1) {
        return hana::type_c<static_error::duplicate_name<name_of_axis<dup.input, dup.axis, Axes...>::value>>;
    } else if constexpr (p::why.kind == 0) {
        return hana::type_c<no_error>;
    } else {
        return hana::type_c<static_error::name_mismatch<positional_name<p::why.i1, p::why.o1, Axes...>::value,
                                                        positional_name<p::why.i2, p::why.o2, Axes...>::value>>;
    }
}

}  // namespace static_detail

/// The compile-time match of specs given as nt::axes<...>, without refusing: `error`
/// is the static_error type of a refusal (a name only: naming it does not fail) or
/// void; when there is none, `output_names` and `source_axes` are the plan.
template <policy P, class... Axes>
struct static_match_for {
    static_assert(sizeof...(Axes) >= 1, "nt::static_match: at least one spec");
    static_assert(P != policy::search, "nt::static_match: the compile-time solver takes policy names or positional");

private:
    static constexpr auto outcome() {
        if constexpr (P == policy::names) return static_detail::names_outcome<Axes...>();
        else return static_detail::positional_outcome<Axes...>();
    }
    using outcome_type = typename decltype(+outcome())::type;

public:
    static constexpr bool ok = std::is_same_v<outcome_type, static_detail::no_error>;
    using error = std::conditional_t<ok, void, outcome_type>;
};
template <class... Axes>
using static_match = static_match_for<policy::names, Axes...>;

namespace static_detail {

template <policy P, class... Axes>
struct plan_data;
template <class... Axes>
struct plan_data<policy::names, Axes...> {
    static constexpr auto source_axes = names_solver<Axes...>::source_axes;
    static constexpr auto output_names = names_solver<Axes...>::output_names;
};
template <class... Axes>
struct plan_data<policy::positional, Axes...> {
    static constexpr auto source_axes = positional<Axes...>::source_axes;
    static constexpr auto output_names = positional<Axes...>::output_names;
};

// The plan, or (deriving from it) the error type whose instantiation fails first.
template <policy P, class... Axes>
using plan_or_error = std::conditional_t<static_match_for<P, Axes...>::ok, plan_data<P, Axes...>,
                                         typename static_match_for<P, Axes...>::error>;

}  // namespace static_detail

/// The compile-time plan of docs/matching.md for specs given as nt::axes<...>:
/// `output_names` (a std::array<std::string_view, R>, "" for an unnamed output axis)
/// and `source_axes` (one std::array<std::int32_t, R> per input, nt::inserted_axis
/// where a singleton is inserted), as nt::match gives them for any sizes that fit.
/// A pairing the rule refuses does not compile (nt::static_error).
///     using p = nt::static_plan<nt::axes<"?", "CHANNEL", "H", "W">, nt::axes<"?", "H", "W">>;
///     static_assert(p::source_axes[1][1] == nt::inserted_axis);
template <policy P, class... Axes>
struct static_plan_for : static_detail::plan_or_error<P, Axes...> {
    static constexpr std::size_t inputs = sizeof...(Axes);
};
template <class... Axes>
struct static_plan : static_plan_for<policy::names, Axes...> {};

template <class T, fixed_name... Names>
class tensor_of;

namespace static_detail {

struct unchecked_t {};
inline constexpr unchecked_t unchecked{};

// The type's names as run-time names, interned once per type.
template <fixed_name... N>
const std::array<name, sizeof...(N)>& runtime_names() {
    static const std::array<name, sizeof...(N)> names{name(text_of<N>)...};
    return names;
}

// Messages are built out of line of the templates (inline functions, once per program).

template <class Axes, class T>
struct tensor_of_axes;
template <fixed_name... N, class T>
struct tensor_of_axes<axes<N...>, T> {
    using type = tensor_of<T, N...>;
};


// Whether input `in`'s axes are the output's last ones, in order: then the unnamed
// operation's row plan applies (a check of strides only, no matching).
template <class Plan>
constexpr bool trailing_in_order(std::size_t in) {
    const auto& map = Plan::source_axes[in];
    std::int32_t next = 0;
    bool started = false;
    for (std::int32_t a : map) {
        if (a == inserted_axis) {
            if (started) return false;
            continue;
        }
        started = true;
        if (a != next++) return false;
    }
    return true;
}

// A binary operation on tensor_of operands: the plan's maps go to the compiled
// body (src/ops/static_names.cpp) as data, so the consumer's translation unit
// compiles no body per operation, plan or result type (docs/performance.md, "Compile
// cost of <nt/static.hpp>"). The result is built in place from the body's prvalue.
template <detail::binary_op Op, class Plan, template <class> class Result, class A, class B>
auto static_binary(std::string_view op_name, const Tensor<A>& a, const Tensor<B>& b) {
    using C = detail::binary_operand_t<Op, A, B>;
    using R = detail::binary_result_t<Op, C>;
    detail::check_binary_types<Op, C>();
    constexpr bool trailing = trailing_in_order<Plan>(0) && trailing_in_order<Plan>(1);
    const Tensor<C>& ca = detail::as_type<C>(a);
    const Tensor<C>& cb = detail::as_type<C>(b);
    return Result<R>(unchecked, detail::in_place_base, [&] {
        return binary_by_maps(Op, op_name, dtype_of<R>, ca.base(), cb.base(), Plan::source_axes[0].data(),
                              Plan::source_axes[1].data(), Plan::output_names.size(), trailing);
    });
}

// Positions of names in a type's axes (missing_axis when absent; "?" is never found).
template <class Axes, fixed_name... Wanted>
struct positions_of;
template <fixed_name... N, fixed_name... Wanted>
struct positions_of<axes<N...>, Wanted...> {
    template <fixed_name W>
    static constexpr std::int64_t find() {
        constexpr std::array<std::string_view, sizeof...(N)> names{text_of<N>...};
        for (std::size_t a = 0; a < names.size(); ++a)
            if (!W.unnamed() && names[a] == W.view()) return static_cast<std::int64_t>(a);
        return -1;
    }
    template <fixed_name W>
    static constexpr bool check() {
        if constexpr (find<W>() < 0) return sizeof(static_error::missing_axis<W>) == 0;
        else return true;
    }
    static constexpr bool checked = (check<Wanted>() && ...);
    static constexpr std::array<std::int64_t, sizeof...(Wanted)> value{find<Wanted>()...};
};

// The axes of a type without those at `drop` (sorted or not), as a tensor_of of T.
template <class T, class Axes, auto Drop>
struct without;
template <class T, fixed_name... N, auto Drop>
struct without<T, axes<N...>, Drop> {
    static constexpr auto kept = [] {
        std::array<std::size_t, sizeof...(N) + 1> out{};
        std::size_t n = 0;
        for (std::size_t a = 0; a < sizeof...(N); ++a) {
            bool dropped = false;
            for (auto d : Drop) dropped = dropped || d == static_cast<std::int64_t>(a);
            if (!dropped) out[n++] = a;
        }
        out[sizeof...(N)] = n;
        return out;
    }();
    template <std::size_t... I>
    static auto make(std::index_sequence<I...>) -> tensor_of<T, name_at<kept[I], N...>...>;
    using type = decltype(make(std::make_index_sequence<kept[sizeof...(N)]>{}));
};

template <class T, fixed_name... N>
constexpr bool check_type_names() {
    constexpr bool valid = (valid_name<N>() && ...);
    if constexpr (!valid) {
        constexpr std::size_t bad = [] {
            constexpr std::array<bool, sizeof...(N)> ok{valid_name<N>()...};
            for (std::size_t a = 0; a < ok.size(); ++a)
                if (!ok[a]) return a;
            return std::size_t{0};
        }();
        return sizeof(static_error::invalid_name<name_at<bad, N...>>) == 0;
    } else {
        // Unique names (a plain loop: every tensor_of type runs it, and the solver's
        // machinery would cost each new type of a reduction or view its compile time).
        constexpr std::size_t duplicate = [] {
            constexpr std::array<std::string_view, sizeof...(N)> names{text_of<N>...};
            for (std::size_t a = 0; a < names.size(); ++a)
                for (std::size_t b = a + 1; b < names.size(); ++b)
                    if (!names[a].empty() && names[a] == names[b]) return a;
            return names.size();
        }();
        if constexpr (duplicate < sizeof...(N))
            return sizeof(static_error::duplicate_name<name_at<duplicate, N...>>) == 0;
        return true;
    }
}

}  // namespace static_detail

/// A Tensor<T> handle whose rank and axis names are part of its type; `"?"` is an
/// unnamed axis. It is a Tensor<T> (derived, no extra data): every run-time function
/// accepts it, and tensor() is the handle itself, no copy. Element-wise operations
/// between tensor_of operands are matched while compiling (nt::static_plan).
///     using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;
///     img_t img(nt::zeros<float>({2, 3, 4, 5}, {"?", "CHANNEL", "H", "W"}));   // checked
///     const nt::Tensor<float>& t = img;                                        // the handle
template <class T, fixed_name... Names>
class tensor_of : public Tensor<T> {
    static_assert(static_detail::check_type_names<T, Names...>());

public:
    using value_type = T;
    using names_type = axes<Names...>;
    /// The rank the type names.
    static constexpr std::size_t static_rank = sizeof...(Names);
    /// The names, "" for an unnamed axis.
    static constexpr std::array<std::string_view, sizeof...(Names)> static_names{
        static_detail::text_of<Names>...};

    /// All sizes 0.
    tensor_of() : Tensor<T>(empty_of_rank()) {}
    /// Checks `t`'s rank and names against the type (an unnamed axis fits only "?").
    /// Throws nt::error rank_mismatch or name_mismatch naming both. No copy.
    explicit tensor_of(const Tensor<T>& t) : Tensor<T>(t) { check(); }
    explicit tensor_of(Tensor<T>&& t) : Tensor<T>(std::move(t)) { check(); }
    /// Adopts `t` without checking (the library's results, known to fit).
    tensor_of(static_detail::unchecked_t, Tensor<T> t) : Tensor<T>(std::move(t)) {}
    /// Builds the handle `make()` returns in place, unchecked (the library's results).
    template <class Make>
    tensor_of(static_detail::unchecked_t, detail::in_place_base_t, Make&& make)
        : Tensor<T>(detail::in_place_base, std::forward<Make>(make)) {}

    /// Creation with the type's names: zeros(shape), ones, full(shape, value),
    /// from(values, shape) (row-major values). Throws as nt::zeros etc., and
    /// rank_mismatch when the shape's length is not the type's rank.
    [[nodiscard]] static tensor_of zeros(shape_arg shape) { return tensor_of(nt::zeros<T>(fit(shape), type_names())); }
    [[nodiscard]] static tensor_of ones(shape_arg shape) { return tensor_of(nt::ones<T>(fit(shape), type_names())); }
    [[nodiscard]] static tensor_of full(shape_arg shape, T value) {
        return tensor_of(nt::full<T>(fit(shape), value, type_names()));
    }
    [[nodiscard]] static tensor_of from(const std::vector<T>& values, shape_arg shape) {
        return tensor_of(nt::from_vector<T>(values, fit(shape), type_names()));
    }

    /// The run-time handle (this object itself).
    [[nodiscard]] const Tensor<T>& tensor() const noexcept { return *this; }
    [[nodiscard]] Tensor<T>& tensor() noexcept { return *this; }

    // The run-time forms stay reachable (they return run-time Tensors).
    using Tensor<T>::index;
    using Tensor<T>::slice;
    using Tensor<T>::rename;
    using Tensor<T>::align_to;

    /// A view with the names `New...` (one per axis).
    template <fixed_name... New>
    [[nodiscard]] tensor_of<T, New...> rename() const {
        static_assert(sizeof...(New) == sizeof...(Names), "tensor_of::rename<...>: give one name per axis");
        const auto& n = static_detail::runtime_names<New...>();
        return {static_detail::unchecked, Tensor<T>::rename(std::span<const name>(n.data(), n.size()))};
    }
    /// A view with the axes in the order `Order...`: every named axis of the type once,
    /// and "?" for its unnamed axes, in their order. A name the type lacks is
    /// static_error::missing_axis, an axis left out static_error::no_counterpart.
    template <fixed_name... Order>
    [[nodiscard]] auto align_to() const {
        constexpr auto order = align_order<Order...>();
        small_vector<Axis, 8> perm;
        for (std::int64_t a : order) perm.push_back(Axis(a));
        return tensor_of<T, Order...>(static_detail::unchecked, this->permute(perm));
    }
    /// The view at index `i` of axis `Axis` (the axis is dropped).
    template <fixed_name A>
    [[nodiscard]] auto index(std::int64_t i) const {
        using pos = static_detail::positions_of<names_type, A>;
        static_assert(pos::checked);
        constexpr std::array<std::int64_t, 1> drop{pos::value[0]};
        std::array<index_item, sizeof...(Names)> items{};
        items[static_cast<std::size_t>(drop[0])] = index_item(i);
        using result = typename static_detail::without<T, names_type, drop>::type;
        return result(static_detail::unchecked, Tensor<T>::index(std::span<const index_item>(items)));
    }
    /// The view start:end:step of axis `Axis` (Python slice rules), same type.
    template <fixed_name A>
    [[nodiscard]] tensor_of slice(std::optional<std::int64_t> start, std::optional<std::int64_t> end = std::nullopt,
                                  std::int64_t step = 1) const {
        using pos = static_detail::positions_of<names_type, A>;
        static_assert(pos::checked);
        return {static_detail::unchecked, Tensor<T>::slice(nt::Axis(pos::value[0]), start, end, step)};
    }

private:
    static Tensor<T> empty_of_rank() {
        const std::array<std::int64_t, sizeof...(Names)> sizes{};
        return nt::zeros<T>(std::span<const std::int64_t>(sizes.data(), sizes.size()), type_names());
    }
    static names_arg type_names() {
        const auto& n = static_detail::runtime_names<Names...>();
        return std::span<const name>(n.data(), n.size());
    }
    static shape_arg fit(shape_arg shape) {
        if (shape.size() != sizeof...(Names)) {
            std::string s = "(";
            for (std::size_t a = 0; a < shape.size(); ++a) s += (a ? "," : "") + std::to_string(shape[a]);
            static_detail::throw_type_spec(errc::rank_mismatch, static_names, "of shape " + s + ")");
        }
        return shape;
    }
    void check() const {
        const auto& want = static_detail::runtime_names<Names...>();
        if (this->rank() != sizeof...(Names))
            static_detail::throw_type_spec(errc::rank_mismatch, static_names, to_string(this->spec()));
        const std::span<const name> have = Tensor<T>::names();
        for (std::size_t a = 0; a < sizeof...(Names); ++a) {
            const name n = have.empty() ? name{} : have[a];
            if (!(n == want[a])) static_detail::throw_type_spec(errc::name_mismatch, static_names, to_string(this->spec()));
        }
    }
    template <fixed_name... Order>
    static constexpr std::array<std::int64_t, sizeof...(Order)> align_order() {
        static_assert(sizeof...(Order) >= 0);
        constexpr std::array<std::string_view, sizeof...(Order)> wanted{static_detail::text_of<Order>...};
        constexpr auto result = [&] {
            std::array<std::int64_t, sizeof...(Order)> out{};
            std::size_t next_unnamed = 0;
            for (std::size_t o = 0; o < wanted.size(); ++o) {
                std::int64_t at = -1;
                if (wanted[o].empty()) {
                    while (next_unnamed < static_names.size() && !static_names[next_unnamed].empty()) ++next_unnamed;
                    if (next_unnamed < static_names.size()) at = static_cast<std::int64_t>(next_unnamed++);
                } else {
                    for (std::size_t a = 0; a < static_names.size(); ++a)
                        if (static_names[a] == wanted[o]) at = static_cast<std::int64_t>(a);
                }
                out[o] = at;
            }
            return out;
        }();
        // A name the type lacks (or one "?" too many).
        constexpr std::size_t missing = [&] {
            for (std::size_t o = 0; o < result.size(); ++o)
                if (result[o] < 0) return o;
            return result.size();
        }();
        if constexpr (missing < sizeof...(Order)) {
            static_assert(sizeof(static_error::missing_axis<static_detail::name_at<missing, Order...>>) == 0);
        } else {
            // An axis of the type that the order leaves out.
            constexpr std::size_t left_out = [&] {
                for (std::size_t a = 0; a < static_names.size(); ++a) {
                    bool placed = false;
                    for (std::int64_t r : result) placed = placed || r == static_cast<std::int64_t>(a);
                    if (!placed) return a;
                }
                return static_names.size();
            }();
            if constexpr (left_out < sizeof...(Names))
                static_assert(sizeof(static_error::no_counterpart<static_detail::name_at<left_out, Names...>>) == 0);
        }
        return result;
    }
};

// ---------------------------------------------------------------------------------
// Element-wise operations on tensor_of operands: the plan is solved while compiling.

namespace static_detail {
// The plan of K operands of one type: every map the identity (the rule pairs each
// axis with itself; a tensor_of type's names are unique already). Operations between
// operands of one type skip the solver (a third of the pairings of a typical unit).
template <std::size_t K, class Axes>
struct same_plan {
    static constexpr auto output_names = names_array<Axes>::value;
    static constexpr auto source_axes = [] {
        std::array<std::array<std::int32_t, Axes::rank>, K> out{};
        for (auto& map : out)
            for (std::size_t o = 0; o < Axes::rank; ++o) map[o] = static_cast<std::int32_t>(o);
        return out;
    }();
};
template <class... Axes>
using operator_plan = std::conditional_t<(std::is_same_v<Axes, std::tuple_element_t<0, std::tuple<Axes...>>> && ...),
                                         same_plan<sizeof...(Axes), std::tuple_element_t<0, std::tuple<Axes...>>>,
                                         static_plan<Axes...>>;

template <class A, class B>
struct binary_static;
template <class A, fixed_name... Na, class B, fixed_name... Nb>
struct binary_static<tensor_of<A, Na...>, tensor_of<B, Nb...>> {
    using plan = operator_plan<axes<Na...>, axes<Nb...>>;
    using host_axes = std::conditional_t<(sizeof...(Nb) > sizeof...(Na)), axes<Nb...>, axes<Na...>>;
    template <class R>
    using result = typename tensor_of_axes<host_axes, R>::type;
};
}  // namespace static_detail

#define NT_STATIC_BINARY(fn, op, text)                                                                        \
    template <class A, fixed_name... Na, class B, fixed_name... Nb>                                          \
    auto fn(const tensor_of<A, Na...>& a, const tensor_of<B, Nb...>& b) {                                    \
        using info = static_detail::binary_static<tensor_of<A, Na...>, tensor_of<B, Nb...>>;                 \
        return static_detail::static_binary<detail::binary_op::op, typename info::plan,                      \
                                            info::template result>(text, a.tensor(), b.tensor());            \
    }                                                                                                         \
    template <class T, fixed_name... N, class S, std::enable_if_t<detail::is_scalar_v<S>, int> = 0>          \
    auto fn(const tensor_of<T, N...>& a, S b) {                                                               \
        auto r = detail::binary_scalar<detail::binary_op::op>(text, a.tensor(), b, false);                   \
        return tensor_of<typename decltype(r)::value_type, N...>(static_detail::unchecked, std::move(r));     \
    }                                                                                                         \
    template <class T, fixed_name... N, class S, std::enable_if_t<detail::is_scalar_v<S>, int> = 0>          \
    auto fn(S a, const tensor_of<T, N...>& b) {                                                               \
        auto r = detail::binary_scalar<detail::binary_op::op>(text, b.tensor(), a, true);                    \
        return tensor_of<typename decltype(r)::value_type, N...>(static_detail::unchecked, std::move(r));     \
    }

NT_FOR_EACH_BINARY_FUNCTION(NT_STATIC_BINARY)
#undef NT_STATIC_BINARY

#define NT_STATIC_UNARY(fn, op)                                                                   \
    template <class T, fixed_name... N>                                                           \
    auto fn(const tensor_of<T, N...>& a) {                                                        \
        auto r = detail::unary<detail::unary_op::op>(a.tensor());                                 \
        return tensor_of<typename decltype(r)::value_type, N...>(static_detail::unchecked, std::move(r)); \
    }
NT_FOR_EACH_UNARY_FUNCTION(NT_STATIC_UNARY)
#undef NT_STATIC_UNARY

template <class T, fixed_name... N>
auto operator-(const tensor_of<T, N...>& a) {
    auto r = -a.tensor();
    return tensor_of<typename decltype(r)::value_type, N...>(static_detail::unchecked, std::move(r));
}
template <class T, fixed_name... N>
auto operator!(const tensor_of<T, N...>& a) {
    return tensor_of<bool, N...>(static_detail::unchecked, !a.tensor());
}

// In-place forms: a op= b keeps a's type, so the solved result must be a's: b's
// names must all be a's (no_counterpart otherwise) and b's rank at most a's
// (in_place_grows). The writing itself is the run-time in-place operation's (its
// aliasing rules and conversions), which checks the sizes with the matcher's
// broadcast_to.
#define NT_STATIC_IN_PLACE(fn, op, text)                                                                  \
    template <class T, fixed_name... Na, class U, fixed_name... Nb>                                        \
    tensor_of<T, Na...>& fn(tensor_of<T, Na...>& a, const tensor_of<U, Nb...>& b) {                      \
        if constexpr (sizeof...(Nb) > sizeof...(Na))                                                      \
            static_assert(sizeof(static_error::in_place_grows<sizeof...(Na), sizeof...(Nb)>) == 0);      \
        else                                                                                              \
            static_assert(static_plan<axes<Na...>, axes<Nb...>>::inputs == 2);                            \
        detail::in_place<detail::binary_op::op>(text, static_cast<Tensor<T>&>(a), b.tensor());            \
        return a;                                                                                         \
    }                                                                                                     \
    template <class T, fixed_name... Na, class S, std::enable_if_t<detail::is_scalar_v<S>, int> = 0>      \
    tensor_of<T, Na...>& fn(tensor_of<T, Na...>& a, S b) {                                                \
        detail::in_place_scalar<detail::binary_op::op>(text, static_cast<Tensor<T>&>(a), b);              \
        return a;                                                                                         \
    }
NT_FOR_EACH_IN_PLACE(NT_STATIC_IN_PLACE)
#undef NT_STATIC_IN_PLACE

/// clip with scalar bounds keeps the names (the type as nt::clip gives it).
template <class T, fixed_name... N, class L, class H>
    requires(detail::is_scalar_v<L> && detail::is_scalar_v<H>)
auto clip(const tensor_of<T, N...>& t, L lo, H hi) {
    auto r = nt::clip(t.tensor(), lo, hi);
    return tensor_of<typename decltype(r)::value_type, N...>(static_detail::unchecked, std::move(r));
}
/// clip with tensor_of bounds: the result type is solved as for where (the plan of
/// t, lo, hi); the values are nt::clip's.
template <class T, fixed_name... N, class L, fixed_name... Nl, class H, fixed_name... Nh>
auto clip(const tensor_of<T, N...>& t, const tensor_of<L, Nl...>& lo, const tensor_of<H, Nh...>& hi) {
    using plan_t = static_detail::operator_plan<axes<N...>, axes<Nl...>, axes<Nh...>>;
    constexpr std::size_t rank = plan_t::output_names.size();
    using host = std::conditional_t<rank == sizeof...(N), axes<N...>,
                                    std::conditional_t<rank == sizeof...(Nl), axes<Nl...>, axes<Nh...>>>;
    auto r = nt::clip(t.tensor(), lo.tensor(), hi.tensor());
    return typename static_detail::tensor_of_axes<host, typename decltype(r)::value_type>::type(
        static_detail::unchecked, std::move(r));
}

/// where(cond, a, b) with three tensor_of operands: matched while compiling.
template <fixed_name... Nc, class A, fixed_name... Na, class B, fixed_name... Nb>
auto where(const tensor_of<bool, Nc...>& cond, const tensor_of<A, Na...>& a, const tensor_of<B, Nb...>& b) {
    using plan_t = static_detail::operator_plan<axes<Nc...>, axes<Na...>, axes<Nb...>>;
    using C = promote_t<A, B>;
    const Tensor<C>& ca = detail::as_type<C>(a.tensor());
    const Tensor<C>& cb = detail::as_type<C>(b.tensor());
    constexpr std::size_t rank = plan_t::output_names.size();
    using host = std::conditional_t<rank == sizeof...(Nc), axes<Nc...>,
                                    std::conditional_t<rank == sizeof...(Na), axes<Na...>, axes<Nb...>>>;
    return typename static_detail::tensor_of_axes<host, C>::type(static_detail::unchecked, detail::in_place_base, [&] {
        return static_detail::where_by_maps(cond.base(), ca.base(), cb.base(), plan_t::source_axes[0].data(),
                                            plan_t::source_axes[1].data(), plan_t::source_axes[2].data(), rank);
    });
}

// ---------------------------------------------------------------------------------
// Reductions by name in the type: nt::sum<"H", "W">(s) drops H and W (no names:
// every axis, a rank-0 tensor_of).

namespace static_detail {
template <fixed_name... Reduced, class T, fixed_name... N, class F>
auto reduce_static(const tensor_of<T, N...>& s, F&& run) {
    if constexpr (sizeof...(Reduced) == 0) {
        auto r = run(s.tensor(), axes_arg{}, std::true_type{});
        return tensor_of<typename decltype(r)::value_type>(unchecked, std::move(r));
    } else {
        using pos = positions_of<axes<N...>, Reduced...>;
        static_assert(pos::checked);
        small_vector<Axis, 8> list;
        for (std::int64_t a : pos::value) list.push_back(Axis(a));
        auto r = run(s.tensor(), axes_arg(list), std::false_type{});
        using result = typename without<typename decltype(r)::value_type, axes<N...>, pos::value>::type;
        return result(unchecked, std::move(r));
    }
}
}  // namespace static_detail

#define NT_STATIC_REDUCTION(fn)                                                                               \
    template <fixed_name... Reduced, class T, fixed_name... N>                                                \
    auto fn(const tensor_of<T, N...>& s) {                                                                    \
        return static_detail::reduce_static<Reduced...>(s, [](const Tensor<T>& t, axes_arg list, auto every) { \
            if constexpr (decltype(every)::value) return nt::fn(t);                                           \
            else return nt::fn(t, list);                                                                      \
        });                                                                                                   \
    }
NT_STATIC_REDUCTION(sum)
NT_STATIC_REDUCTION(mean)
NT_STATIC_REDUCTION(max)
NT_STATIC_REDUCTION(min)
NT_STATIC_REDUCTION(prod)
#undef NT_STATIC_REDUCTION

/// Variance over the named axes (every axis without names), ddof as nt::var.
template <fixed_name... Reduced, class T, fixed_name... N>
auto var(const tensor_of<T, N...>& s, std::int64_t ddof = 0) {
    return static_detail::reduce_static<Reduced...>(s, [ddof](const Tensor<T>& t, axes_arg list, auto every) {
        if constexpr (decltype(every)::value) return nt::var(t.flatten(), 0, ddof);
        else return nt::var(t, list, ddof);
    });
}
/// Standard deviation over the named axes (every axis without names).
template <fixed_name... Reduced, class T, fixed_name... N>
auto stddev(const tensor_of<T, N...>& s, std::int64_t ddof = 0) {
    return static_detail::reduce_static<Reduced...>(s, [ddof](const Tensor<T>& t, axes_arg list, auto every) {
        if constexpr (decltype(every)::value) return nt::stddev(t.flatten(), 0, ddof);
        else return nt::stddev(t, list, ddof);
    });
}

}  // namespace nt
