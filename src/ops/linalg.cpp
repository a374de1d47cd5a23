// Contraction (nt/linalg.hpp): dot, einsum, matmul and tensordot each describe their
// work as labels (one per distinct axis: its size, which axes of each operand carry
// it, its place in the result or "summed"), and one routine, contract(), turns
// labels into a batched matrix product: result axes split into batch | rows | columns,
// summed labels into the inner dimension, operands viewed (or, when their strides do
// not allow it, copied once) as matrices, and gemm_batched (gemm.cpp) runs it.
#include "nt/linalg.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "core_errors.hpp"
#include "element_types.hpp"
#include "gemm.hpp"
#include "graph.hpp"
#include "nt/match.hpp"
#include "nt/reduce.hpp"

namespace nt::detail {

namespace {

// ---------------------------------------------------------------------------------
// The common core.

/// One distinct axis of a contraction.
struct label {
    std::int64_t size = 1;
    std::uint64_t axes[2] = {0, 0};  // bit d: axis d of operand 0 / 1 carries this label
    std::int64_t out = -1;           // position in the result, or -1: summed
};
using label_list = small_vector<label, 16>;

std::uint64_t bit(std::size_t axis) { return std::uint64_t{1} << axis; }

/// `t` holding `d` elements: itself, or a converted copy.
tensor_base converted(const tensor_base& t, dtype d) {
    if (t.type() == d) return t;
    tensor_base out = tensor_base::allocate(d, t.shape(), t.names(), "astype");
    convert_elements(out.storage(), out.layout(), d, t.storage(), t.layout(), t.type());
    return out;
}

/// A label's stride in an operand: the sum over its axes (several on a diagonal),
/// 0 where the operand has size 1 (broadcast) or lacks it.
std::int64_t label_stride(const tensor_base& t, std::uint64_t mask) {
    std::int64_t s = 0;
    for (std::size_t d = 0; d < t.rank(); ++d)
        if ((mask >> d & 1u) != 0 && t.shape()[d] != 1) s += t.strides()[d];
    return s;
}

/// A label of size > 1 with its strides in operand 0, operand 1 and the result.
struct work_label {
    std::int64_t size = 1;
    std::int64_t stride[3] = {0, 0, 0};
    std::int64_t out = -1;
};
using index_list = small_vector<std::size_t, 16>;

/// A group of labels (in order) seen as one matrix dimension of operand `o`.
struct merged {
    bool ok = true;
    std::int64_t stride = 1;
    std::int64_t count = 1;
};
merged merge(std::span<const work_label> w, const index_list& group, int o) {
    merged m;
    for (std::size_t q = 0; q < group.size(); ++q) {
        const work_label& l = w[group[q]];
        // Saturating: a group of axes that are broadcast (stride 0) in both operands
        // may describe more elements than int64 holds; packing then refuses it
        // (invalid_argument from the allocation), instead of overflowing here.
        m.count = m.count > INT64_MAX / l.size ? INT64_MAX : m.count * l.size;
        // Positive strides only: the BLAS takes no negative or zero leading dimension.
        if (l.stride[o] <= 0) m.ok = false;
        if (q + 1 < group.size() && l.stride[o] != w[group[q + 1]].stride[o] * w[group[q + 1]].size) m.ok = false;
    }
    if (!group.empty()) m.stride = w[group.back()].stride[o];
    return m;
}

/// How operand `o` reads as the matrix [rows, cols]: row-major (element (i, j) at
/// i * ld + j) or transposed (j * ld + i), or not at all without a copy.
struct matrix_fit {
    bool ok = false;
    bool trans = false;
    std::int64_t ld = 1;
};
matrix_fit fit(std::span<const work_label> w, const index_list& rows, const index_list& cols, int o) {
    const merged r = merge(w, rows, o), c = merge(w, cols, o);
    if (!r.ok || !c.ok) return {};
    constexpr std::int64_t int_max = 2147483647;  // the BLAS's leading dimensions are int
    if ((c.count == 1 || c.stride == 1) && (r.count == 1 || (r.stride >= c.count && r.stride <= int_max)))
        return {true, false, r.count == 1 ? std::max<std::int64_t>(c.count, 1) : r.stride};
    if ((r.count == 1 || r.stride == 1) && (c.count == 1 || (c.stride >= r.count && c.stride <= int_max)))
        return {true, true, c.count == 1 ? std::max<std::int64_t>(r.count, 1) : c.stride};
    return {};
}

/// The product described by `labels` of operands `a0` and `b0` (any element types;
/// every axis of each carries exactly one label, with the label's size or 1). The
/// result (axes in `out` order, named `out_names`) has promote_types of the two.
tensor_base contract_values(std::string_view op, const tensor_base& a0, const tensor_base& b0,
                            std::span<const label> labels, std::span<const name> out_names) {
    const dtype result_type = promote_types(a0.type(), b0.type());
    // half is computed in float (as NumPy's float16 loops do) and rounded once: the
    // products of two halves are exact in float, and sgemm does the work.
    const dtype work = result_type == dtype::f16 ? dtype::f32 : result_type;
    tensor_base ops[2] = {converted(a0, work), converted(b0, work)};

    dims out_sizes(out_names.size(), 1);
    for (const label& l : labels)
        if (l.out >= 0) out_sizes[static_cast<std::size_t>(l.out)] = l.size;
    tensor_base out = tensor_base::allocate(work, out_sizes.span(), out_names, op);
    auto finish = [&](const tensor_base& t) { return work == result_type ? t : converted(t, result_type); };
    if (out.size() == 0) return finish(out);
    for (const label& l : labels)
        if (l.out < 0 && l.size == 0) {  // a sum over nothing: zeros
            const std::uint64_t zero = 0;
            out.fill(&zero);
            return finish(out);
        }

    // Size-1 labels change no index: only the others are planned.
    small_vector<work_label, 16> w;
    for (const label& l : labels) {
        if (l.size == 1) continue;
        work_label x;
        x.size = l.size;
        x.stride[0] = label_stride(ops[0], l.axes[0]);
        x.stride[1] = label_stride(ops[1], l.axes[1]);
        x.stride[2] = l.out >= 0 ? out.strides()[static_cast<std::size_t>(l.out)] : 0;
        x.out = l.out;
        w.push_back(x);
    }
    // Who reads a label: 0 or 1 (only that operand varies along it), or 2 (both, or
    // neither: an axis both operands broadcast).
    auto owner = [&](std::size_t i) {
        const bool in0 = w[i].stride[0] != 0, in1 = w[i].stride[1] != 0;
        return in0 && !in1 ? 0 : in1 && !in0 ? 1 : 2;
    };

    // The result's axes, in order, split as batch | rows | columns: the columns are
    // the longest tail read by one operand alone, the rows the run before it read by
    // the other alone. So the product writes straight into the result (C order),
    // whatever order the caller asked for. Batch labels are looped over.
    index_list kept, batch, rows, cols, inner;
    for (std::size_t i = 0; i < w.size(); ++i)
        if (w[i].out >= 0) kept.push_back(i);
        else inner.push_back(i);
    std::sort(kept.begin(), kept.end(), [&](std::size_t x, std::size_t y) { return w[x].out < w[y].out; });
    std::size_t y0 = kept.size(), x0 = kept.size();
    const int col_owner = kept.empty() ? 2 : owner(kept.back());
    if (col_owner != 2) {
        while (y0 > 0 && owner(kept[y0 - 1]) == col_owner) --y0;
        x0 = y0;
        while (x0 > 0 && owner(kept[x0 - 1]) == 1 - col_owner) --x0;
    }
    for (std::size_t q = 0; q < kept.size(); ++q) (q < x0 ? batch : q < y0 ? rows : cols).push_back(kept[q]);
    const int r_op = col_owner == 2 ? 1 : col_owner;  // the right matrix holds the columns
    const int l_op = 1 - r_op;

    // The inner (summed) labels in one order for both operands: the larger operand's
    // memory order, so that it is the one read in place.
    const int big = ops[0].size() >= ops[1].size() ? 0 : 1;
    std::stable_sort(inner.begin(), inner.end(), [&](std::size_t x, std::size_t y) {
        const std::int64_t sx = w[x].stride[big] < 0 ? -w[x].stride[big] : w[x].stride[big];
        const std::int64_t sy = w[y].stride[big] < 0 ? -w[y].stride[big] : w[y].stride[big];
        return sx > sy;
    });

    // An operand whose strides do not make a BLAS matrix is copied once, in the
    // order batch (its own) | matrix rows | matrix columns.
    auto pack = [&](int o, const index_list& mrows, const index_list& mcols) {
        index_list which;
        for (std::size_t i : batch)
            if (w[i].stride[o] != 0) which.push_back(i);
        for (std::size_t i : mrows) which.push_back(i);
        for (std::size_t i : mcols) which.push_back(i);
        dims sizes, strides;
        for (std::size_t i : which) {
            sizes.push_back(w[i].size);
            strides.push_back(w[i].stride[o]);
        }
        const tensor_base& t = ops[o];
        const tensor_base view =
            t.with(nt::layout(sizes.span(), strides.span(), t.layout().offset()), name_list(sizes.size(), name{}), true);
        ops[o] = view.clone();
        for (std::size_t q = 0; q < which.size(); ++q) w[which[q]].stride[o] = ops[o].strides()[q];
    };
    matrix_fit fl = fit(w.span(), rows, inner, l_op);
    if (!fl.ok) {
        pack(l_op, rows, inner);
        fl = fit(w.span(), rows, inner, l_op);
    }
    matrix_fit fr = fit(w.span(), inner, cols, r_op);
    if (!fr.ok) {
        pack(r_op, inner, cols);
        fr = fit(w.span(), inner, cols, r_op);
    }

    gemm_problem g;
    g.m = merge(w.span(), rows, l_op).count;
    g.n = merge(w.span(), cols, r_op).count;
    g.k = merge(w.span(), inner, l_op).count;
    g.trans_l = fl.trans;
    g.ldl = fl.ld;
    g.trans_r = fr.trans;
    g.ldr = fr.ld;
    g.ldc = std::max<std::int64_t>(g.n, 1);
    dims batch_sizes, l_batch, r_batch, c_batch;
    for (std::size_t i : batch) {
        batch_sizes.push_back(w[i].size);
        l_batch.push_back(w[i].stride[l_op]);
        r_batch.push_back(w[i].stride[r_op]);
        c_batch.push_back(w[i].stride[2]);
    }
    g.batch_sizes = batch_sizes.span();
    g.l_batch = l_batch.span();
    g.r_batch = r_batch.span();
    g.c_batch = c_batch.span();
    gemm_batched(work, g, ops[l_op].data(), ops[r_op].data(), out.data());
    return finish(out);
}

// ---------------------------------------------------------------------------------
// The backward rule of a contraction, itself a contraction (so that it records when
// the backward pass does, and second derivatives follow): the gradient of one
// operand is the result's gradient contracted with the other operand over every
// label that operand lacks. Then each axis of a diagonal gets its own copy of the
// label (a product with the identity), and axes that broadcast (size 1 under a
// larger label) are summed back.

tensor_base contract(std::string_view op, const tensor_base& a0, const tensor_base& b0, std::span<const label> labels,
                     std::span<const name> out_names);

/// The n x n identity of `d`: the constant factor that spreads a label over a diagonal.
tensor_base identity_of(dtype d, std::int64_t n) {
    const std::int64_t sizes[2] = {n, n};
    tensor_base t = tensor_base::allocate(d, sizes, {}, "einsum backward");
    const std::uint64_t zero = 0;
    t.fill(&zero);
    visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        T* p = reinterpret_cast<T*>(t.data());
        for (std::int64_t i = 0; i < n; ++i) p[i * (n + 1)] = T(1);
    });
    return t;
}

/// The label that axis `d` of operand `o` carries.
std::size_t label_of_axis(std::span<const label> labels, int o, std::size_t d) {
    for (std::size_t i = 0; i < labels.size(); ++i)
        if ((labels[i].axes[o] >> d & 1u) != 0) return i;
    return labels.size();  // every axis carries one label: not reached
}

/// The gradient of operand `o` (of spec `target`, element type `target_type`) from the
/// result's gradient `g` and the other operand.
any_tensor contraction_gradient(std::string_view op, int o, const tensor_base& g, const tensor_base& other,
                                std::span<const label> labels, const spec& target, dtype target_type) {
    const int p = 1 - o;
    const std::size_t rank = target.rank();
    // The gradient contraction: g (the result's labels) with the other operand, keeping
    // the labels of operand o, one axis each, in the order of their first axis there.
    label_list step(labels.size());
    small_vector<std::size_t, 16> axis_labels;  // the label of each axis of the running gradient
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const label& l = labels[i];
        step[i].size = l.size;
        step[i].axes[0] = l.out >= 0 ? bit(static_cast<std::size_t>(l.out)) : 0;
        step[i].axes[1] = l.axes[p];
        step[i].out = -1;
    }
    for (std::size_t d = 0; d < rank; ++d) {
        const std::size_t i = label_of_axis(labels, o, d);
        if (step[i].out >= 0) continue;
        step[i].out = static_cast<std::int64_t>(axis_labels.size());
        axis_labels.push_back(i);
    }
    // A label in neither g nor the other operand, and not kept, sums nothing: left out.
    label_list used;
    for (const label& l : step)
        if (l.out >= 0 || l.axes[0] != 0 || l.axes[1] != 0) used.push_back(l);
    const name_list unnamed(axis_labels.size(), name{});
    any_tensor r(contract(op, g, other, used.span(), unnamed.span()));
    // Diagonals: the gradient lives on the diagonal of the repeated axes.
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const int copies = std::popcount(labels[i].axes[o]);
        for (int c = 1; c < copies; ++c) {
            const std::size_t at =
                static_cast<std::size_t>(std::find(axis_labels.begin(), axis_labels.end(), i) - axis_labels.begin());
            label_list spread;
            const std::size_t r_rank = r.rank();
            for (std::size_t q = 0; q < r_rank; ++q) {
                label l;
                l.size = r.shape()[q];
                l.axes[0] = bit(q);
                l.axes[1] = q == at ? bit(0) : 0;
                l.out = static_cast<std::int64_t>(q);
                spread.push_back(l);
            }
            label fresh;
            fresh.size = labels[i].size;
            fresh.axes[1] = bit(1);
            fresh.out = static_cast<std::int64_t>(r_rank);
            spread.push_back(fresh);
            const name_list names(r_rank + 1, name{});
            r = any_tensor(contract(op, r.base(), identity_of(r.dtype(), labels[i].size), spread.span(), names.span()));
            axis_labels.push_back(i);
        }
    }
    // Axis d of operand o is the k-th axis of its label in the running gradient.
    std::vector<std::int64_t> order(rank);
    bool in_order = true;
    for (std::size_t d = 0; d < rank; ++d) {
        const std::size_t i = label_of_axis(labels, o, d);
        std::size_t k = 0;
        for (std::size_t e = 0; e < d; ++e) k += label_of_axis(labels, o, e) == i ? 1 : 0;
        for (std::size_t q = 0; q < axis_labels.size(); ++q)
            if (axis_labels[q] == i && k-- == 0) {
                order[d] = static_cast<std::int64_t>(q);
                break;
            }
        in_order = in_order && order[d] == static_cast<std::int64_t>(d);
    }
    if (!in_order) r = r.permute(order);
    std::vector<Axis> broadcast;
    for (std::size_t d = 0; d < rank; ++d)
        if (target.size(d) == 1 && r.shape()[d] != 1) broadcast.emplace_back(static_cast<std::int64_t>(d));
    if (!broadcast.empty()) r = nt::sum(r, axes_arg(broadcast), true);
    const dims sizes = target.sizes();
    name_list names;
    for (std::size_t d = 0; d < rank; ++d) names.push_back(target.name(d));
    r = r.reshape(sizes.span(), names.span());
    return r.dtype() == target_type ? r : r.astype(target_type);
}

tensor_base contract(std::string_view op, const tensor_base& a0, const tensor_base& b0, std::span<const label> labels,
                     std::span<const name> out_names) {
    if (!records(a0, b0)) [[likely]]
        return contract_values(op, a0, b0, labels, out_names);
    tensor_base out = contract_values(op, a0.without_grad_node(), b0.without_grad_node(), labels, out_names);
    const bool need_a = a0.grad_node() != nullptr, need_b = b0.grad_node() != nullptr;
    // The gradient of each operand reads the other one only.
    const saved_tensor va = need_b ? saved_tensor::input(a0) : saved_tensor();
    const saved_tensor vb = need_a ? saved_tensor::input(b0) : saved_tensor();
    const spec sa = a0.spec(), sb = b0.spec();
    const dtype ta = a0.type(), tb = b0.type();
    const std::string name(op);
    attach_node(op, out, {&a0, &b0},
                [=, kept = label_list(labels)](const any_tensor& g) -> input_gradients {
                    input_gradients r(2);
                    if (need_a) r[0] = contraction_gradient(name, 0, g.base(), vb.get().base(), kept.span(), sa, ta);
                    if (need_b) r[1] = contraction_gradient(name, 1, g.base(), va.get().base(), kept.span(), sb, tb);
                    return r;
                });
    return out;
}

[[noreturn]] void raise_mismatch(std::string_view op, const mismatch& why) {
    throw_error(why.code, std::string(op) + ": " + why.message);
}

spec spec_without(const tensor_base& t, std::uint64_t dropped, small_vector<std::int32_t, 8>& kept_axes) {
    spec s;
    kept_axes.clear();
    for (std::size_t d = 0; d < t.rank(); ++d) {
        if ((dropped >> d & 1u) != 0) continue;
        s.push_back({t.shape()[d], t.names()[d]});
        kept_axes.push_back(static_cast<std::int32_t>(d));
    }
    return s;
}

/// The matched kept axes as labels (one per output axis of `p`).
void labels_from_plan(const plan& p, const small_vector<std::int32_t, 8> (&kept)[2], std::int64_t first_out,
                      label_list& labels) {
    for (std::size_t q = 0; q < p.output.rank(); ++q) {
        label l;
        l.size = p.output.size(q);
        l.out = first_out + static_cast<std::int64_t>(q);
        for (int o = 0; o < 2; ++o) {
            const std::int32_t src = p.inputs[static_cast<std::size_t>(o)].source_axes[q];
            if (src != inserted_axis) l.axes[o] = bit(static_cast<std::size_t>(kept[o][static_cast<std::size_t>(src)]));
        }
        labels.push_back(l);
    }
}

[[noreturn]] void contracted_sizes_differ(std::string_view op, const std::string& axis_text, const tensor_base& a,
                                          std::size_t ax, const tensor_base& b, std::size_t bx, const std::string& fix) {
    fail(errc::incompatible_sizes, op,
         "the contracted axis " + axis_text + " has size " + std::to_string(a.shape()[ax]) + " (axis " +
             std::to_string(ax) + ") in operand a " + a.describe() + " but size " + std::to_string(b.shape()[bx]) +
             " (axis " + std::to_string(bx) + ") in operand b " + b.describe() +
             "; the sizes of a contracted axis must be equal. Fix: " + fix);
}

// ---------------------------------------------------------------------------------
// einsum subscripts.

/// One word of the subscripts: an axis name, "?" (one unnamed axis) or "..." (any
/// number of unnamed axes).
struct term {
    enum class kind : std::uint8_t { named, one, rest };
    kind what = kind::named;
    name n{};
};
using term_list = small_vector<term, 8>;

struct subscripts {
    std::vector<term_list> inputs;
    term_list output;
};

[[noreturn]] void syntax(std::string_view text, const std::string& what) {
    fail(errc::invalid_argument, "einsum",
         "subscripts \"" + std::string(text) + "\": " + what +
             "; write one axis name per axis of each operand ('?' for one unnamed axis, '...' for the unnamed axes "
             "NumPy's ellipsis covers), operands separated by ',', then '->' and the result's axes, e.g. \"N C H W, "
             "C K -> N K H W\" or \"... C, C K -> ... K\"");
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

term_list parse_terms(std::string_view part, std::string_view text) {
    term_list out;
    bool rest = false;
    std::size_t i = 0;
    while (i < part.size()) {
        const char c = part[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        if (part.substr(i, 3) == "...") {
            if (rest) syntax(text, "'...' appears twice in one part; it stands for all the unnamed axes it covers");
            rest = true;
            out.push_back({term::kind::rest, {}});
            i += 3;
            continue;
        }
        if (c == '?') {
            out.push_back({term::kind::one, {}});
            ++i;
            continue;
        }
        if (!ident_char(c)) syntax(text, std::string("unexpected character '") + c + "'");
        std::size_t j = i;
        while (j < part.size() && ident_char(part[j])) ++j;
        const std::string_view word = part.substr(i, j - i);
        // The axis-name rule has one home: nt::name.
        if (!name::is_valid(word))
            syntax(text, "'" + std::string(word) + "' is not an axis name (1 to 64 letters, digits or '_', not "
                                                   "starting with a digit)");
        out.push_back({term::kind::named, name(word)});
        i = j;
    }
    return out;
}

subscripts parse_subscripts(std::string_view text) {
    const auto arrow = text.find("->");
    if (arrow == std::string_view::npos)
        syntax(text, "'->' is missing (the result's axes are always written out)");
    if (text.find("->", arrow + 2) != std::string_view::npos) syntax(text, "'->' appears twice");
    subscripts s;
    const std::string_view left = text.substr(0, arrow), right = text.substr(arrow + 2);
    std::size_t start = 0;
    for (;;) {
        const auto comma = left.find(',', start);
        s.inputs.push_back(parse_terms(left.substr(start, comma == std::string_view::npos ? left.npos : comma - start), text));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (right.find(',') != std::string_view::npos) syntax(text, "the right side has a ','; the result is one tensor");
    s.output = parse_terms(right, text);
    return s;
}

/// Parsed subscripts from a small per-thread cache (rearrange's idea): a loop that
/// calls einsum with the same text parses it once.
const subscripts& cached_subscripts(std::string_view text) {
    struct entry {
        std::string text;
        subscripts parsed;
    };
    thread_local std::vector<entry> cache;
    thread_local std::size_t next = 0;
    for (const entry& e : cache)
        if (e.text == text) return e.parsed;
    entry e{std::string(text), parse_subscripts(text)};
    constexpr std::size_t capacity = 16;
    // Reserved once, so that an entry never moves while a caller holds it.
    if (cache.capacity() < capacity) cache.reserve(capacity);
    if (cache.size() < capacity) {
        cache.push_back(std::move(e));
        return cache.back().parsed;
    }
    entry& slot = cache[next];
    next = (next + 1) % capacity;
    slot = std::move(e);
    return slot.parsed;
}

/// The identity of one axis of an einsum once the subscripts meet the operands: a
/// name, the k-th '?' (k counted from the left in each part) or the k-th axis that
/// '...' covers (counted over the widest ellipsis, right-aligned as NumPy does).
struct ident {
    term::kind what = term::kind::named;
    name n{};
    std::size_t k = 0;
    friend bool operator==(const ident&, const ident&) = default;
    /// The result's name for this axis: the unnamed axes stay unnamed.
    [[nodiscard]] name result_name() const { return what == term::kind::named ? n : name{}; }
};
using ident_list = small_vector<ident, 8>;

std::int64_t find_ident(const ident_list& l, const ident& x) {
    for (std::size_t i = 0; i < l.size(); ++i)
        if (l[i] == x) return static_cast<std::int64_t>(i);
    return -1;
}

/// "'N'", "the 2nd '?'" or "the axis 1 of '...'", for messages.
std::string ident_text(const ident& x) {
    switch (x.what) {
        case term::kind::named: return "'" + std::string(x.n.str()) + "'";
        case term::kind::one: return "'?' number " + std::to_string(x.k + 1) + " (counted from the left)";
        case term::kind::rest: break;
    }
    return "axis " + std::to_string(x.k) + " of '...'";
}

std::string terms_joined(const term_list& terms) {
    std::string out;
    for (const term& t : terms)
        out += (out.empty() ? "" : " ") +
               std::string(t.what == term::kind::rest ? "..." : t.what == term::kind::one ? "?" : t.n.str());
    return out;
}

/// The explicit terms of a part (all but "...") and whether it has "...".
std::size_t explicit_terms(const term_list& terms) {
    return static_cast<std::size_t>(
        std::count_if(terms.begin(), terms.end(), [](const term& t) { return t.what != term::kind::rest; }));
}

/// `terms` expanded over `rank` axes, "..." covering rank - explicit ones, whose
/// last lines up with the last of the widest ellipsis (`widest` axes).
ident_list expand(const term_list& terms, std::size_t rank, std::size_t widest) {
    ident_list out;
    const std::size_t covered = rank - explicit_terms(terms);
    std::size_t ones = 0;
    for (const term& t : terms) {
        if (t.what == term::kind::named) out.push_back({t.what, t.n, 0});
        else if (t.what == term::kind::one) out.push_back({t.what, {}, ones++});
        else
            for (std::size_t j = 0; j < covered; ++j) out.push_back({t.what, {}, widest - covered + j});
    }
    return out;
}

name_list result_names(const ident_list& ids) {
    name_list out;
    for (const ident& x : ids) out.push_back(x.result_name());
    return out;
}

/// One step of an einsum: a (axes labelled la) with b (lb) into the labels `lout`.
tensor_base einsum_step(const tensor_base& a, const ident_list& la, const tensor_base& b, const ident_list& lb,
                        const ident_list& lout) {
    label_list labels;
    ident_list ids;
    auto label_of = [&](const ident& n) -> label& {
        const std::int64_t at = find_ident(ids, n);
        if (at >= 0) return labels[static_cast<std::size_t>(at)];
        ids.push_back(n);
        labels.push_back({});
        labels.back().size = -1;
        labels.back().out = find_ident(lout, n);
        return labels.back();
    };
    const tensor_base* ts[2] = {&a, &b};
    const ident_list* ls[2] = {&la, &lb};
    for (int o = 0; o < 2; ++o)
        for (std::size_t d = 0; d < ls[o]->size(); ++d) {
            label& l = label_of((*ls[o])[d]);
            l.axes[o] |= bit(d);
            const std::int64_t n = ts[o]->shape()[d];
            if (l.size < 0 || l.size == 1) l.size = n;  // sizes were checked by einsum()
        }
    const name_list names = result_names(lout);
    return contract("einsum", a, b, labels, names.span());
}

/// A rank-0 tensor of `d` holding 1: the second operand of a one-operand einsum.
tensor_base one_of(dtype d) {
    tensor_base t = tensor_base::allocate(d, {}, {}, "einsum");
    visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        const T v = T(1);
        t.fill(&v);
    });
    return t;
}

}  // namespace

// ---------------------------------------------------------------------------------
// dot

tensor_base dot(const tensor_base& a, const tensor_base& b, std::span<const Axis> axes) {
    constexpr const char* op = "dot";
    std::uint64_t drop[2] = {0, 0};
    label_list labels;
    const tensor_base* ts[2] = {&a, &b};
    const char* which[2] = {"a", "b"};
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const Axis& ax = axes[i];
        if (!ax.is_name() || !ax.name())
            fail(errc::invalid_argument, op,
                 "the contracted axis " + ax.str() +
                     " is not a name; dot contracts axes by name, since an index may mean different axes in the two "
                     "operands. Fix: name the axes (rename / refine_names), or use nt::tensordot(a, b, a_axes, "
                     "b_axes) for positions");
        for (std::size_t j = 0; j < i; ++j)
            if (axes[j].is_name() && axes[j].name() == ax.name())
                fail(errc::invalid_argument, op,
                     "the axis " + ax.str() + " is listed twice in the contracted axes; list each axis once");
        std::size_t at[2] = {0, 0};
        for (int o = 0; o < 2; ++o) {
            const std::int64_t found = find_name(ts[o]->names(), ax.name());
            if (found < 0) {
                const std::string other = find_name(ts[1 - o]->names(), ax.name()) >= 0
                                              ? std::string(" (operand ") + which[1 - o] + " has it)"
                                              : std::string(" (operand ") + which[1 - o] + " lacks it too)";
                fail(errc::axis_out_of_range, op,
                     "the contracted axis " + ax.str() + " is not an axis of operand " + which[o] + " " +
                         ts[o]->describe() + other + "; dot sums over axes that both operands have. Fix: name "
                         "that operand's axis " + ax.str() + " (rename / refine_names), or leave " + ax.str() +
                         " out of the contracted axes");
            }
            at[o] = static_cast<std::size_t>(found);
            drop[o] |= bit(at[o]);
        }
        if (a.shape()[at[0]] != b.shape()[at[1]])
            contracted_sizes_differ(op, ax.str(), a, at[0], b, at[1],
                                    "slice or pad one operand along " + ax.str() + " to the other's size");
        label l;
        l.size = a.shape()[at[0]];
        l.axes[0] = bit(at[0]);
        l.axes[1] = bit(at[1]);
        labels.push_back(l);
    }
    // The kept axes are matched as element-wise operands are, with `union`: an axis
    // of either operand is kept (xarray's dot keeps every non-summed axis).
    small_vector<std::int32_t, 8> kept[2];
    const spec specs[2] = {spec_without(a, drop[0], kept[0]), spec_without(b, drop[1], kept[1])};
    const std::string_view names[2] = {"a", "b"};
    match_options options;
    options.union_axes = true;
    options.labels = names;
    plan p;
    mismatch why;
    if (!try_match_into(specs, options, p, &why)) raise_mismatch(op, why);
    labels_from_plan(p, kept, 0, labels);
    name_list out_names;
    for (const axis_spec& s : p.output) out_names.push_back(s.name);
    return contract(op, a, b, labels, out_names.span());
}

// ---------------------------------------------------------------------------------
// einsum

tensor_base einsum(std::string_view text, std::span<const tensor_base* const> operands) {
    constexpr const char* op = "einsum";
    const subscripts& s = cached_subscripts(text);
    if (s.inputs.size() != operands.size())
        syntax(text, "it has " + std::to_string(s.inputs.size()) + " operand part(s) but " +
                         std::to_string(operands.size()) + " operand(s) were given");
    auto has_rest = [](const term_list& terms) {
        return std::any_of(terms.begin(), terms.end(), [](const term& t) { return t.what == term::kind::rest; });
    };
    // The ranks decide how many axes each "..." covers; the widest sets the result's.
    std::size_t widest = 0;
    for (std::size_t i = 0; i < operands.size(); ++i) {
        const tensor_base& t = *operands[i];
        const term_list& terms = s.inputs[i];
        const std::size_t named = explicit_terms(terms);
        const bool rest = has_rest(terms);
        if (rest ? named > t.rank() : named != t.rank())
            fail(errc::invalid_argument, op,
                 "operand " + std::to_string(i) + " " + t.describe() + " has rank " + std::to_string(t.rank()) +
                     " but its subscripts \"" + terms_joined(terms) + "\" name " + std::to_string(named) +
                     " axes" + (rest ? std::string(" besides '...'") : std::string()) +
                     "; write one name per axis, or '...' for the unnamed axes you do not name");
        if (rest) widest = std::max(widest, t.rank() - named);
    }
    if (widest > 0 && !has_rest(s.output))
        syntax(text, "'...' covers " + std::to_string(widest) +
                         " axes but the right side has no '...' (NumPy refuses this too); write '...' on the right "
                         "to keep those axes (unnamed), or give them identifiers in place of '...' and leave those "
                         "off the right side to sum over them");
    std::vector<ident_list> inputs(operands.size());
    for (std::size_t i = 0; i < operands.size(); ++i) inputs[i] = expand(s.inputs[i], operands[i]->rank(), widest);
    const ident_list output = expand(s.output, explicit_terms(s.output) + (has_rest(s.output) ? widest : 0), widest);

    // Checks over all operands first, so that messages name the caller's operands.
    struct seen {
        ident id;
        std::int64_t size;
        std::size_t operand, axis;
    };
    small_vector<seen, 16> sizes;
    for (std::size_t i = 0; i < operands.size(); ++i) {
        const tensor_base& t = *operands[i];
        const ident_list& ids = inputs[i];
        const std::string what = "operand " + std::to_string(i) + " " + t.describe();
        for (std::size_t d = 0; d < ids.size(); ++d) {
            const name n = t.names()[d];
            if (n && ids[d].what != term::kind::named)
                fail(errc::name_mismatch, op,
                     "axis " + std::to_string(d) + " of " + what + " is named '" + std::string(n.str()) +
                         "' but the subscripts \"" + std::string(text) + "\" cover it with '" +
                         (ids[d].what == term::kind::one ? "?" : "...") +
                         "', which stands for unnamed axes. Fix: write '" + std::string(n.str()) +
                         "' for that axis in the subscripts, or drop the name first (rename)");
            if (n && n != ids[d].n)
                fail(errc::name_mismatch, op,
                     "axis " + std::to_string(d) + " of " + what + " is named '" + std::string(n.str()) +
                         "' but the subscripts \"" + std::string(text) + "\" call it " + ident_text(ids[d]) +
                         ". Fix: use the operand's names in the subscripts (names " + names_text(t.names()) +
                         "), or rename the operand");
            const std::int64_t size = t.shape()[d];
            for (const seen& x : sizes) {
                if (x.id != ids[d]) continue;
                const bool same_operand = x.operand == i;
                // A diagonal needs equal sizes; across operands 1 broadcasts.
                if (x.size == size || (!same_operand && (x.size == 1 || size == 1))) continue;
                fail(errc::incompatible_sizes, op,
                     ident_text(ids[d]) + " has size " + std::to_string(x.size) + " at axis " +
                         std::to_string(x.axis) + " of operand " + std::to_string(x.operand) + " " +
                         operands[x.operand]->describe() + " but size " + std::to_string(size) + " at axis " +
                         std::to_string(d) + " of " + what +
                         (same_operand ? "; a name repeated within an operand takes the diagonal, which needs equal "
                                         "sizes"
                                       : "; the sizes of one name must be equal (or 1, which broadcasts)") +
                         ". Fix: check the subscripts, or slice the operands to agree");
            }
            sizes.push_back({ids[d], size, i, d});
        }
    }
    for (std::size_t q = 0; q < output.size(); ++q) {
        const ident& n = output[q];
        if (n.what == term::kind::rest) continue;  // "..." on the right keeps what the left covers, even nothing
        if (n.what == term::kind::named && std::find(output.begin(), output.begin() + q, n) != output.begin() + q)
            syntax(text, ident_text(n) + " appears twice on the right side; each result axis once");
        if (std::none_of(sizes.begin(), sizes.end(), [&](const seen& x) { return x.id == n; }))
            syntax(text, ident_text(n) + " on the right side is not on the left side" +
                             (n.what == term::kind::one ? std::string(" (no operand has that many '?')") : ""));
    }
    if (operands.size() == 1) return einsum_step(*operands[0], inputs[0], one_of(operands[0]->type()), {}, output);

    // Left to right: each step keeps the labels the result or a later operand needs.
    tensor_base acc = *operands[0];
    ident_list acc_ids = inputs[0];
    for (std::size_t i = 1; i < operands.size(); ++i) {
        const ident_list& ids = inputs[i];
        ident_list keep;
        if (i + 1 == operands.size()) {
            keep = output;
        } else {
            auto needed = [&](const ident& n) {
                if (find_ident(output, n) >= 0) return true;
                for (std::size_t j = i + 1; j < operands.size(); ++j)
                    if (find_ident(inputs[j], n) >= 0) return true;
                return false;
            };
            for (const ident_list* l : std::initializer_list<const ident_list*>{&acc_ids, &ids})
                for (const ident& n : *l)
                    if (needed(n) && find_ident(keep, n) < 0) keep.push_back(n);
        }
        acc = einsum_step(acc, acc_ids, *operands[i], ids, keep);
        acc_ids = keep;
    }
    return acc;
}

// ---------------------------------------------------------------------------------
// matmul

tensor_base matmul(const tensor_base& a, const tensor_base& b) {
    constexpr const char* op = "matmul";
    const tensor_base* ts[2] = {&a, &b};
    for (int o = 0; o < 2; ++o)
        if (ts[o]->rank() == 0)
            fail(errc::invalid_argument, op,
                 std::string("operand ") + (o == 0 ? "a" : "b") + " " + ts[o]->describe() +
                     " is a scalar (rank 0); matmul needs at least one axis in each operand. Fix: multiply by a "
                     "scalar with operator*");
    const std::size_t ra = a.rank(), rb = b.rank();
    const std::size_t ak = ra - 1;                // a's contracted axis: its last
    const std::size_t bk = rb == 1 ? 0 : rb - 2;  // b's: its second-to-last (a vector's only)
    if (a.shape()[ak] != b.shape()[bk])
        fail(errc::incompatible_sizes, op,
             "the inner sizes differ: operand a " + a.describe() + " has " + std::to_string(a.shape()[ak]) +
                 " in its last axis, operand b " + b.describe() + " has " + std::to_string(b.shape()[bk]) +
                 (rb == 1 ? " in its only axis" : " in its second-to-last axis") +
                 "; a (..., n, k) @ b (..., k, m) needs the same k. Fix: transpose an operand (transpose()) or "
                 "check which axes should be contracted (nt::dot and nt::einsum take names)");
    const name na = a.names()[ak], nb = b.names()[bk];
    if (na && nb && na != nb)
        fail(errc::name_mismatch, op,
             "the contracted axes are named differently: '" + std::string(na.str()) + "' (last axis of operand a " +
                 a.describe() + ") and '" + std::string(nb.str()) + "' (" +
                 (rb == 1 ? std::string("only") : std::string("second-to-last")) + " axis of operand b " +
                 b.describe() + "). Fix: rename one of them (b.rename(" + std::to_string(bk) + ", \"" +
                 std::string(na.str()) + "\")), or contract by name with nt::dot(a, b.rename(" + std::to_string(bk) +
                 ", \"" + std::string(na.str()) + "\"), {\"" + std::string(na.str()) + "\"})");
    // Batch axes: every axis before the matrix ones, matched as element-wise operands.
    const std::uint64_t a_matrix = ra >= 2 ? bit(ra - 1) | bit(ra - 2) : bit(0);
    const std::uint64_t b_matrix = rb >= 2 ? bit(rb - 1) | bit(rb - 2) : bit(0);
    small_vector<std::int32_t, 8> kept[2];
    const spec specs[2] = {spec_without(a, a_matrix, kept[0]), spec_without(b, b_matrix, kept[1])};
    const std::string_view labels_text[2] = {"a", "b"};
    match_options options;
    options.labels = labels_text;
    options.union_settable = false;  // matmul takes no options: suggest what the caller can do
    plan p;
    mismatch why;
    if (!try_match_into(specs, options, p, &why))
        throw_error(why.code, std::string(op) + ": the batch axes (all but the last two of each operand; 'a' "
                                                "and 'b' below are their batch parts) do not match: " + why.message);
    label_list labels;
    labels_from_plan(p, kept, 0, labels);
    name_list out_names;
    for (const axis_spec& s : p.output) out_names.push_back(s.name);
    std::int64_t next = static_cast<std::int64_t>(p.output.rank());
    // One operand's own axis kept in the output: a's rows, then b's columns.
    auto keep_own_axis = [&](const tensor_base& t, int operand, std::size_t axis) {
        label l;
        l.size = t.shape()[axis];
        l.axes[operand] = bit(axis);
        l.out = next++;
        labels.push_back(l);
        out_names.push_back(t.names()[axis]);
    };
    if (ra >= 2) keep_own_axis(a, 0, ra - 2);
    if (rb >= 2) keep_own_axis(b, 1, rb - 1);
    label inner;
    inner.size = a.shape()[ak];
    inner.axes[0] = bit(ak);
    inner.axes[1] = bit(bk);
    labels.push_back(inner);
    check_unique_names(out_names.span(), op);
    return contract(op, a, b, labels, out_names.span());
}

// ---------------------------------------------------------------------------------
// tensordot

namespace {
tensor_base tensordot_axes(const tensor_base& a, const tensor_base& b, std::span<const std::size_t> aa,
                           std::span<const std::size_t> bb) {
    constexpr const char* op = "tensordot";
    label_list labels;
    std::uint64_t used[2] = {0, 0};
    for (std::size_t i = 0; i < aa.size(); ++i) {
        for (int o = 0; o < 2; ++o) {
            const std::size_t ax = o == 0 ? aa[i] : bb[i];
            if ((used[o] >> ax & 1u) != 0)
                fail(errc::invalid_argument, op,
                     "axis " + std::to_string(ax) + " of operand " + (o == 0 ? "a " + a.describe() : "b " + b.describe()) +
                         " is contracted twice; list each axis once");
            used[o] |= bit(ax);
        }
        if (a.shape()[aa[i]] != b.shape()[bb[i]])
            contracted_sizes_differ(op, "pair " + std::to_string(i), a, aa[i], b, bb[i],
                                    "pair axes of equal sizes (tensordot does not broadcast)");
        label l;
        l.size = a.shape()[aa[i]];
        l.axes[0] = bit(aa[i]);
        l.axes[1] = bit(bb[i]);
        labels.push_back(l);
    }
    // The result: a's other axes, then b's, with their names (NumPy's order).
    name_list out_names;
    std::int64_t next = 0;
    const tensor_base* ts[2] = {&a, &b};
    for (int o = 0; o < 2; ++o)
        for (std::size_t d = 0; d < ts[o]->rank(); ++d) {
            if ((used[o] >> d & 1u) != 0) continue;
            label l;
            l.size = ts[o]->shape()[d];
            l.axes[o] = bit(d);
            l.out = next++;
            labels.push_back(l);
            out_names.push_back(ts[o]->names()[d]);
        }
    check_unique_names(out_names.span(), op);
    return contract(op, a, b, labels, out_names.span());
}
}  // namespace

tensor_base tensordot(const tensor_base& a, const tensor_base& b, std::int64_t n) {
    const auto ra = static_cast<std::int64_t>(a.rank()), rb = static_cast<std::int64_t>(b.rank());
    if (n < 0 || n > ra || n > rb)
        fail(errc::invalid_argument, "tensordot",
             "cannot contract " + std::to_string(n) + " axes of operand a " + a.describe() + " (rank " +
                 std::to_string(ra) + ") with operand b " + b.describe() + " (rank " + std::to_string(rb) +
                 "); the count must be 0.." + std::to_string(std::min(ra, rb)) +
                 " (the last n axes of a pair with the first n of b)");
    small_vector<std::size_t, 8> aa, bb;
    for (std::int64_t i = 0; i < n; ++i) {
        aa.push_back(static_cast<std::size_t>(ra - n + i));
        bb.push_back(static_cast<std::size_t>(i));
    }
    return tensordot_axes(a, b, aa.span(), bb.span());
}

tensor_base tensordot(const tensor_base& a, const tensor_base& b, std::span<const Axis> a_axes,
                      std::span<const Axis> b_axes) {
    if (a_axes.size() != b_axes.size())
        fail(errc::invalid_argument, "tensordot",
             "the axis lists differ in length (" + std::to_string(a_axes.size()) + " axes of a, " +
                 std::to_string(b_axes.size()) + " of b); give one axis of b per axis of a");
    small_vector<std::size_t, 8> aa, bb;
    for (const Axis& x : a_axes) aa.push_back(resolve_axis(x, a.names(), "tensordot (operand a)", a.shape()));
    for (const Axis& x : b_axes) bb.push_back(resolve_axis(x, b.names(), "tensordot (operand b)", b.shape()));
    return tensordot_axes(a, b, aa.span(), bb.span());
}

tensor_base tensordot(const tensor_base& a, const tensor_base& b, std::span<const axis_pair> pairs) {
    small_vector<Axis, 8> aa, bb;
    for (const axis_pair& p : pairs) {
        aa.push_back(p.a);
        bb.push_back(p.b);
    }
    return tensordot(a, b, std::span<const Axis>(aa.data(), aa.size()), std::span<const Axis>(bb.data(), bb.size()));
}

}  // namespace nt::detail
