// Joining, splitting, padding, flip, roll, repeat, tile, multi-axis unfold and fold
// (nt/structure.hpp), on tensor_base: every copy is one or a few calls of the
// engine's strided copy (copy_elements), never an element loop.
#include <algorithm>
#include <cstring>

#include "core_errors.hpp"
#include "copy.hpp"
#include "graph.hpp"
#include "nt/autograd.hpp"
#include "nt/detail/grad_hooks.hpp"
#include "nt/structure.hpp"

namespace nt::detail {

namespace {

// "axis 1 'H'" or "axis 1".
std::string axis_text(const tensor_base& t, std::size_t a) {
    std::string s = "axis " + std::to_string(a);
    if (t.names()[a]) s += " '" + std::string(t.names()[a].str()) + "'";
    return s;
}

std::string input_text(std::size_t i, const tensor_base& t) { return "input " + std::to_string(i) + " " + t.describe(); }

tensor_base fresh_like(const tensor_base& t, std::span<const std::int64_t> shape, std::span<const name> names,
                       std::string_view op) {
    return tensor_base::allocate(t.type(), shape, names, op);
}

void copy_into(const tensor_base& dst, const nt::layout& dst_layout, const tensor_base& src,
               const nt::layout& src_layout) {
    copy_elements(dst.storage(), dst_layout, src.storage(), src_layout, src.element_size());
}

// Views of ts[i] in ts[0]'s axis order (named axes by name, unnamed right-aligned),
// with equal sizes on every axis except `skip` (npos: none). The checks come first
// so that the messages name `op`, not align_as.
base_list align_inputs(std::span<const tensor_base> ts, std::size_t skip, std::string_view op) {
    const tensor_base& ref = ts[0];
    base_list out;
    out.push_back(ref);
    for (std::size_t i = 1; i < ts.size(); ++i) {
        const tensor_base& t = ts[i];
        if (t.type() != ref.type())
            fail(errc::type_mismatch, op, input_text(i, t) + " holds another element type than input 0");
        if (t.rank() != ref.rank())
            fail(errc::invalid_argument, op,
                 input_text(i, t) + " has rank " + std::to_string(t.rank()) + " but input 0 " + ref.describe() +
                     " has rank " + std::to_string(ref.rank()) +
                     "; every input needs the same axes (unsqueeze or align_to the smaller one first)");
        for (std::size_t k = 0; k < t.rank(); ++k)
            if (t.names()[k] && find_name(ref.names(), t.names()[k]) < 0)
                fail(errc::no_counterpart, op,
                     axis_text(t, k) + " of " + input_text(i, t) + " has no counterpart in input 0 " + ref.describe() +
                         "; rename it (rename / refine_names) so that the inputs' names agree");
        for (std::size_t k = 0; k < ref.rank(); ++k)
            if (ref.names()[k] && find_name(t.names(), ref.names()[k]) < 0)
                fail(errc::no_counterpart, op,
                     axis_text(ref, k) + " of input 0 " + ref.describe() + " has no counterpart in " +
                         input_text(i, t) + "; name that axis of input " + std::to_string(i) +
                         " (refine_names) so that the inputs' names agree");
        tensor_base v = t.align_as(ref);
        for (std::size_t k = 0; k < ref.rank(); ++k)
            if (k != skip && v.shape()[k] != ref.shape()[k])
                fail(errc::incompatible_sizes, op,
                     input_text(i, t) + " has size " + std::to_string(v.shape()[k]) + " on " + axis_text(ref, k) +
                         " of input 0 " + ref.describe() + ", which has " + std::to_string(ref.shape()[k]) +
                         (skip == static_cast<std::size_t>(-1)
                              ? std::string("; stacked inputs need equal shapes (crop or pad them first)")
                              : "; sizes must agree on every axis but the joined " + axis_text(ref, skip) +
                                    " (crop or pad input " + std::to_string(i) + ", or join along another axis)"));
        out.push_back(std::move(v));
    }
    return out;
}

// Copies the aligned inputs one after the other along axis `a` of a new tensor.
tensor_base join(std::span<const tensor_base> aligned, std::size_t a, std::string_view op) {
    const tensor_base& ref = aligned[0];
    dims shape(ref.shape());
    std::int64_t total = 0;
    for (const tensor_base& v : aligned)
        if (__builtin_add_overflow(total, v.shape()[a], &total))
            fail(errc::invalid_argument, op, "the joined axis would have more than 2^63 - 1 elements");
    shape[a] = total;
    tensor_base out = fresh_like(ref, shape.span(), ref.names(), op);
    std::int64_t at = 0;
    for (const tensor_base& v : aligned) {
        const std::int64_t n = v.shape()[a];
        copy_into(out, out.layout().sliced(a, at, n, 1), v, v.layout());
        at += n;
    }
    return out;
}

void check_not_empty(std::span<const tensor_base> ts, std::string_view op) {
    if (ts.empty()) fail(errc::invalid_argument, op, "no tensors given; pass at least one");
}

// The parts are views of t, each recorded as one (the view rule of the tape).
std::vector<tensor_base> sections(const tensor_base& t, std::size_t a, std::span<const std::int64_t> bounds,
                                  std::string_view op) {
    std::vector<tensor_base> out;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
        const range r(bounds[k], bounds[k + 1]);
        out.push_back(viewed(op, t, [&](const tensor_base& x) { return x.slice(static_cast<std::int64_t>(a), r); }));
    }
    return out;
}

std::int64_t floor_mod(std::int64_t q, std::int64_t n) {
    const std::int64_t r = q % n;
    return r < 0 ? r + n : r;
}

const char* mode_text(pad_mode m) {
    switch (m) {
        case pad_mode::constant: return "constant";
        case pad_mode::edge: return "edge";
        case pad_mode::reflect: return "reflect";
        case pad_mode::symmetric: return "symmetric";
        case pad_mode::wrap: return "wrap";
    }
    return "?";
}

// --- gradients ----------------------------------------------------------------------------
// The copying operations that move elements without arithmetic (pad in every mode,
// roll, repeat, tile) share one rule: the operation applied to the C-order positions
// of its input (an int64 "iota") gives, for each result element, the input element it
// copies (-1 for a constant). The backward adds the gradient into a zero tensor through
// that map; the backward of that is the map read again (a gather). The two record
// each other, so gradients of gradients follow.

bool is_floating(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

tensor_base iota_like(const tensor_base& t, std::string_view op) {
    tensor_base out = tensor_base::allocate(dtype::i64, t.shape(), t.names(), op);
    auto* p = reinterpret_cast<std::int64_t*>(out.data());
    for (std::int64_t i = 0; i < out.size(); ++i) p[i] = i;
    return out;
}

struct index_map {
    std::string op;
    dtype type;
    dims input_shape;
    name_list input_names;
    tensor_base index;  // int64, C-contiguous, the result's shape
    name_list output_names;
};
using index_map_ptr = std::shared_ptr<const index_map>;

// `g` as a C-contiguous tensor of `d` outside any graph, to read its elements.
tensor_base plain_contiguous(const any_tensor& g, dtype d) {
    tensor_base b = g.base().without_grad_node();
    if (b.type() != d) b = any_tensor(b).astype(d).base();
    if (!b.is_contiguous()) b = b.clone();
    return b;
}

any_tensor gather_indexed(const any_tensor& x, const index_map_ptr& m);

any_tensor scatter_indexed(const any_tensor& g, const index_map_ptr& m) {
    any_tensor out = zeros_of(m->type, m->input_shape.span(), m->input_names.span());
    const tensor_base src = plain_contiguous(g, m->type);
    const auto* idx = reinterpret_cast<const std::int64_t*>(m->index.data());
    const std::int64_t n = m->index.size();
    visit_dtype(m->type, [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (is_floating_element_v<T>) {
            T* d = reinterpret_cast<T*>(out.mutable_base().data());
            const T* s = reinterpret_cast<const T*>(src.data());
            for (std::int64_t i = 0; i < n; ++i)
                if (idx[i] >= 0) d[idx[i]] = static_cast<T>(static_cast<double>(d[idx[i]]) + static_cast<double>(s[i]));
        }
    });
    if (records(g.base()))
        attach_node(m->op + " backward", out.mutable_base(), {&g.base()},
                    [m](const any_tensor& gg) -> input_gradients { return {gather_indexed(gg, m)}; });
    return out;
}

any_tensor gather_indexed(const any_tensor& x, const index_map_ptr& m) {
    tensor_base out = tensor_base::allocate(m->type, m->index.shape(), m->output_names.span(), m->op);
    const tensor_base src = plain_contiguous(x, m->type);
    const auto* idx = reinterpret_cast<const std::int64_t*>(m->index.data());
    const std::int64_t n = m->index.size();
    visit_dtype(m->type, [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (is_floating_element_v<T>) {
            T* d = reinterpret_cast<T*>(out.data());
            const T* s = reinterpret_cast<const T*>(src.data());
            for (std::int64_t i = 0; i < n; ++i) d[i] = idx[i] >= 0 ? s[idx[i]] : T{};
        }
    });
    if (records(x.base()))
        attach_node(m->op, out, {&x.base()}, [m](const any_tensor& g) -> input_gradients { return {scatter_indexed(g, m)}; });
    return any_tensor(std::move(out));
}

// Records `out` = `in` read through `index` (op applied to iota_like(in)).
void record_indexed(std::string_view op, const tensor_base& in, tensor_base& out, tensor_base index) {
    if (!is_floating(out.type())) return;
    auto m = std::make_shared<const index_map>(index_map{std::string(op), in.type(), dims(in.shape()),
                                                         name_list(in.names()), std::move(index), name_list(out.names())});
    attach_node(op, out, {&in}, [m](const any_tensor& g) -> input_gradients { return {scatter_indexed(g, m)}; });
}

// Records the join of `ts` along axis `a` of the result (stack: a new axis, `stacked`):
// each input's gradient is its slice of the result's gradient, brought back to the
// input's axis order and names by sum_to (the inputs were aligned by names).
void record_join(std::string_view op, std::span<const tensor_base> ts, std::size_t a, bool stacked, tensor_base& out) {
    if (!is_floating(out.type())) return;
    std::vector<spec> specs;
    std::vector<std::int64_t> extents;
    std::vector<bool> need;
    for (const tensor_base& t : ts) {
        specs.push_back(t.spec());
        extents.push_back(stacked ? 1 : t.align_as(ts[0]).shape()[a]);
        need.push_back(t.grad_node() != nullptr);
    }
    attach_node(op, out, {}, [=](const any_tensor& g) -> input_gradients {
        input_gradients r(specs.size());
        std::int64_t at = 0;
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const std::int64_t n = extents[i];
            if (need[i]) {
                any_tensor part = g.slice(Axis(static_cast<std::int64_t>(a)), range(at, at + n));
                if (stacked) part = part.squeeze(Axis(static_cast<std::int64_t>(a)));
                r[i] = nt::sum_to(part, specs[i]);
            }
            at += n;
        }
        return r;
    });
    tape_node& node = *out.grad_node();
    node.inputs.reserve(ts.size());  // attach_node was given none: the list is empty
    for (const tensor_base& t : ts) node.inputs.emplace_back(t.grad_node());
}

bool any_records(std::span<const tensor_base> ts) noexcept {
    for (const tensor_base& t : ts)
        if (records(t)) return true;
    return false;
}

}  // namespace

// --- joining ------------------------------------------------------------------------------

tensor_base concatenate(std::span<const tensor_base> ts, const Axis& axis) {
    check_not_empty(ts, "concatenate");
    if (ts[0].rank() == 0)
        fail(errc::invalid_argument, "concatenate",
             "input 0 has rank 0 and no axis to join along; use stack, or unsqueeze the inputs first");
    const std::size_t a = resolve_axis(axis, ts[0].names(), "concatenate", ts[0].shape());
    const base_list aligned = align_inputs(ts, a, "concatenate");
    tensor_base out = join(std::span<const tensor_base>(aligned), a, "concatenate");
    if (any_records(ts)) [[unlikely]]
        record_join("concatenate", ts, a, false, out);
    return out;
}

tensor_base stack(std::span<const tensor_base> ts, std::int64_t pos, name n) {
    check_not_empty(ts, "stack");
    const std::size_t p = resolve_insert_position(pos, ts[0].rank() + 1, "stack");
    if (n && find_name(ts[0].names(), n) >= 0)
        fail(errc::duplicate_name, "stack",
             "the new axis name '" + std::string(n.str()) + "' is already used by input 0 " + ts[0].describe() +
                 "; choose another name");
    base_list aligned = align_inputs(ts, static_cast<std::size_t>(-1), "stack");
    for (tensor_base& v : aligned) v = v.unsqueeze(static_cast<std::int64_t>(p), n);
    tensor_base out = join(std::span<const tensor_base>(aligned), p, "stack");
    if (any_records(ts)) [[unlikely]]
        record_join("stack", ts, p, true, out);
    return out;
}

// --- splitting --------------------------------------------------------------------------------

std::vector<tensor_base> split_equal(const tensor_base& t, const Axis& axis, std::int64_t count) {
    const std::size_t a = resolve_axis(axis, t.names(), "split", t.shape());
    const std::int64_t n = t.shape()[a];
    if (count < 1)
        fail(errc::invalid_argument, "split", std::to_string(count) + " sections requested; ask for at least 1");
    if (n % count != 0)
        fail(errc::invalid_argument, "split",
             axis_text(t, a) + " of tensor " + t.describe() + " has size " + std::to_string(n) +
                 ", which does not divide into " + std::to_string(count) +
                 " equal sections; use array_split or chunk for unequal sections, or split at indices");
    dims bounds;
    for (std::int64_t k = 0; k <= count; ++k) bounds.push_back(k * (n / count));
    return sections(t, a, bounds.span(), "split");
}

std::vector<tensor_base> array_split(const tensor_base& t, const Axis& axis, std::int64_t count) {
    const std::size_t a = resolve_axis(axis, t.names(), "array_split", t.shape());
    const std::int64_t n = t.shape()[a];
    if (count < 1)
        fail(errc::invalid_argument, "array_split", std::to_string(count) + " sections requested; ask for at least 1");
    dims bounds{0};
    const std::int64_t each = n / count, extra = n % count;
    for (std::int64_t k = 0; k < count; ++k) bounds.push_back(bounds.back() + each + (k < extra ? 1 : 0));
    return sections(t, a, bounds.span(), "array_split");
}

std::vector<tensor_base> split_at(const tensor_base& t, const Axis& axis, std::span<const std::int64_t> indices) {
    const std::size_t a = resolve_axis(axis, t.names(), "split", t.shape());
    std::vector<tensor_base> out;
    std::optional<std::int64_t> start = 0;
    for (std::size_t k = 0; k <= indices.size(); ++k) {
        const std::optional<std::int64_t> stop =
            k < indices.size() ? std::optional<std::int64_t>(indices[k]) : std::nullopt;
        const range r(start, stop);
        out.push_back(viewed("split", t, [&](const tensor_base& x) { return x.slice(static_cast<std::int64_t>(a), r); }));
        start = stop;
    }
    return out;
}

std::vector<tensor_base> chunk(const tensor_base& t, std::int64_t chunks, const Axis& axis) {
    const std::size_t a = resolve_axis(axis, t.names(), "chunk", t.shape());
    if (chunks < 1)
        fail(errc::invalid_argument, "chunk", std::to_string(chunks) + " chunks requested; ask for at least 1");
    const std::int64_t n = t.shape()[a];
    const std::int64_t each = std::max<std::int64_t>(1, (n + chunks - 1) / chunks);
    dims bounds{0};
    while (bounds.back() < n) bounds.push_back(std::min(n, bounds.back() + each));
    if (n == 0) bounds.push_back(0);  // one empty view, as torch.chunk
    return sections(t, a, bounds.span(), "chunk");
}

// --- pad -------------------------------------------------------------------------------------

namespace {

tensor_base pad_values(const tensor_base& t, std::span<const pad_width> widths, pad_mode mode, const void* value) {
    const std::size_t r = t.rank();
    dims before(r, 0), after(r, 0);
    small_vector<std::uint8_t, 8> seen(r, 0);
    for (const pad_width& w : widths) {
        const std::size_t a = resolve_axis(w.axis, t.names(), "pad", t.shape());
        if (seen[a])
            fail(errc::invalid_argument, "pad",
                 axis_text(t, a) + " of tensor " + t.describe() + " is listed twice; give each axis once");
        seen[a] = 1;
        if (w.widths.before < 0 || w.widths.after < 0)
            fail(errc::invalid_argument, "pad",
                 "widths {" + std::to_string(w.widths.before) + ", " + std::to_string(w.widths.after) + "} for " +
                     axis_text(t, a) + " are negative; widths are >= 0 (use slice to crop)");
        const std::int64_t n = t.shape()[a];
        const std::int64_t widest = std::max(w.widths.before, w.widths.after);
        if (mode != pad_mode::constant && n == 0 && widest > 0)
            fail(errc::invalid_argument, "pad",
                 axis_text(t, a) + " of tensor " + t.describe() + " is empty, so " + mode_text(mode) +
                     " padding has nothing to copy; use pad_mode::constant");
        before[a] = w.widths.before;
        after[a] = w.widths.after;
    }
    dims shape(t.shape());
    for (std::size_t a = 0; a < r; ++a)
        if (__builtin_add_overflow(shape[a], before[a], &shape[a]) ||
            __builtin_add_overflow(shape[a], after[a], &shape[a]))
            fail(errc::invalid_argument, "pad",
                 axis_text(t, a) + " of tensor " + t.describe() + " has size " + std::to_string(t.shape()[a]) +
                     "; with the widths {" + std::to_string(before[a]) + ", " + std::to_string(after[a]) +
                     "} it would exceed 2^63 - 1 elements. Fix: check the widths (each is the number of elements "
                     "added on that side)");
    tensor_base out = fresh_like(t, shape.span(), t.names(), "pad");
    nt::layout interior = out.layout();
    for (std::size_t a = 0; a < r; ++a) interior = interior.sliced(a, before[a], t.shape()[a], 1);
    copy_into(out, interior, t, t.layout());
    if (out.size() == 0) return out;
    const std::size_t es = t.element_size();
    // Axis by axis, as NumPy: the pass over axis a covers the full (padded) extent of
    // the axes before it and the original extent of those after it, so corners take
    // the values the earlier passes wrote.
    for (std::size_t a = 0; a < r; ++a) {
        if (before[a] == 0 && after[a] == 0) continue;
        nt::layout roi = out.layout();
        for (std::size_t k = a + 1; k < r; ++k) roi = roi.sliced(k, before[k], t.shape()[k], 1);
        const std::int64_t n = t.shape()[a];
        if (mode == pad_mode::constant) {
            fill_elements(out.storage(), roi.sliced(a, 0, before[a], 1), value, es);
            fill_elements(out.storage(), roi.sliced(a, before[a] + n, after[a], 1), value, es);
            continue;
        }
        // Copies `len` slabs along axis a: to dst0, dst0 + 1, ... from src0, src0 + step, ...
        auto copy_run = [&](std::int64_t dst0, std::int64_t len, std::int64_t src0, std::int64_t step) {
            if (len > 0)
                copy_elements(out.storage(), roi.sliced(a, dst0, len, 1), out.storage(), roi.sliced(a, src0, len, step),
                              es);
        };
        const std::int64_t total = before[a] + n + after[a];
        std::int64_t left = before[a], right = after[a];
        // NumPy reflects a one-element axis onto itself: its edge, repeated (the
        // iterations below would make no progress there).
        if (mode == pad_mode::edge || (mode == pad_mode::reflect && n == 1)) {
            // The edge slab, repeated: a stride-0 source.
            auto repeat_slab = [&](std::int64_t dst0, std::int64_t len, std::int64_t src) {
                if (len == 0) return;
                const nt::layout one = roi.sliced(a, src, 1, 1);
                dims sizes(one.sizes()), strides(one.strides());
                sizes[a] = len;
                strides[a] = 0;
                copy_elements(out.storage(), roi.sliced(a, dst0, len, 1), out.storage(),
                              nt::layout(sizes.span(), strides.span(), one.offset()), es);
            };
            repeat_slab(0, left, left);
            repeat_slab(left + n, right, left + n - 1);
            continue;
        }
        // wrap, reflect, symmetric: NumPy's iterations (numpy/lib/arraypad.py,
        // _set_wrap_both and _set_reflect_both), so that widths wider than the axis
        // give NumPy's values: each pass copies a chunk of the filled part into the
        // pad area next to it, and the filled part grows until the pads are full.
        while (left > 0 || right > 0) {
            if (mode == pad_mode::wrap) {
                const std::int64_t period = (total - right - left) / n * n;
                std::int64_t new_left = 0, new_right = 0;
                if (left > 0) {
                    const std::int64_t chunk = std::min(period, left);
                    const std::int64_t src = left + period - chunk;
                    const std::int64_t dst = left > period ? left - period : 0;
                    if (left > period) new_left = left - period;
                    copy_run(dst, chunk, src, 1);
                }
                if (right > 0) {
                    const std::int64_t chunk = std::min(period, right);
                    copy_run(total - right, chunk, total - right - period, 1);
                    if (right > period) new_right = right - period;
                }
                left = new_left;
                right = new_right;
            } else {
                const std::int64_t edge = mode == pad_mode::symmetric ? 1 : 0;
                const std::int64_t old_length = total - right - left - (1 - edge);
                if (left > 0) {
                    const std::int64_t chunk = std::min(old_length, left);
                    copy_run(left - chunk, chunk, left - edge + chunk, -1);
                    left -= chunk;
                }
                if (right > 0) {
                    const std::int64_t chunk = std::min(old_length, right);
                    copy_run(total - right, chunk, total - right + edge - 2, -1);
                    right -= chunk;
                }
            }
        }
    }
    return out;
}

}  // namespace

tensor_base pad(const tensor_base& t, std::span<const pad_width> widths, pad_mode mode, const void* value) {
    tensor_base out = pad_values(t, widths, mode, value);
    if (records(t) && is_floating(t.type())) [[unlikely]] {
        const std::int64_t none = -1;  // the constant elements come from no input element
        record_indexed("pad", t, out, pad_values(iota_like(t, "pad"), widths, mode, &none));
    }
    return out;
}

// --- flip, roll, repeat, tile ---------------------------------------------------------------------

tensor_base flip(const tensor_base& t, std::span<const Axis> axes) {
    nt::layout l = t.layout();
    small_vector<std::uint8_t, 8> seen(t.rank(), 0);
    for (const Axis& axis : axes) {
        const std::size_t a = resolve_axis(axis, t.names(), "flip", t.shape());
        if (seen[a])
            fail(errc::invalid_argument, "flip",
                 axis_text(t, a) + " of tensor " + t.describe() + " is listed twice; give each axis once");
        seen[a] = 1;
        const std::int64_t n = l.size(a);
        if (n > 1) l = l.sliced(a, n - 1, n, -1);
    }
    return t.with(std::move(l), name_list(t.names()), t.is_read_only());
}

tensor_base flip_all(const tensor_base& t) {
    small_vector<Axis, 8> axes;
    for (std::size_t a = 0; a < t.rank(); ++a) axes.push_back(Axis(a));
    return flip(t, axes.span());
}

namespace {
tensor_base roll_values(const tensor_base& t, std::int64_t shift, const Axis& axis) {
    const std::size_t a = resolve_axis(axis, t.names(), "roll", t.shape());
    tensor_base out = fresh_like(t, t.shape(), t.names(), "roll");
    const std::int64_t n = t.shape()[a];
    if (out.size() == 0) return out;
    const std::int64_t s = floor_mod(shift, n);
    // out[s:] = t[:n-s], out[:s] = t[n-s:]
    copy_into(out, out.layout().sliced(a, s, n - s, 1), t, t.layout().sliced(a, 0, n - s, 1));
    copy_into(out, out.layout().sliced(a, 0, s, 1), t, t.layout().sliced(a, n - s, s, 1));
    return out;
}

tensor_base roll_flat_values(const tensor_base& t, std::int64_t shift) {
    const tensor_base flat = t.without_grad_node().reshape(std::array<std::int64_t, 1>{t.size()}, order::c);
    const tensor_base rolled = roll_values(flat, shift, 0);
    return rolled.reshape(t.shape(), t.names(), order::c);
}
}  // namespace

tensor_base roll(const tensor_base& t, std::int64_t shift, const Axis& axis) {
    tensor_base out = roll_values(t, shift, axis);
    if (records(t) && is_floating(t.type())) [[unlikely]]
        record_indexed("roll", t, out, roll_values(iota_like(t, "roll"), shift, axis));
    return out;
}

tensor_base roll_flat(const tensor_base& t, std::int64_t shift) {
    tensor_base out = roll_flat_values(t, shift);
    if (records(t) && is_floating(t.type())) [[unlikely]]
        record_indexed("roll", t, out, roll_flat_values(iota_like(t, "roll"), shift));
    return out;
}

tensor_base repeat(const tensor_base& t, std::int64_t n, const Axis& axis) {
    const std::size_t a = resolve_axis(axis, t.names(), "repeat", t.shape());
    if (n < 0)
        fail(errc::invalid_argument, "repeat", "repeat count " + std::to_string(n) + " is negative; give n >= 0");
    dims shape(t.shape());
    if (__builtin_mul_overflow(shape[a], n, &shape[a]))
        fail(errc::invalid_argument, "repeat", "the repeated axis would overflow 64-bit sizes");
    tensor_base out = fresh_like(t, shape.span(), t.names(), "repeat");
    // The source with a stride-0 axis of n after axis a, into the result seen as
    // (.., size, n, ..): the broadcast expand, copied.
    const nt::layout src = t.layout().inserted(a + 1, n, 0);
    copy_into(out, nt::layout::c_contiguous(src.sizes()), t, src);
    if (records(t) && is_floating(t.type())) [[unlikely]]
        record_indexed("repeat", t, out, repeat(iota_like(t, "repeat"), n, axis));
    return out;
}

tensor_base tile(const tensor_base& t, std::span<const std::int64_t> reps) {
    for (std::int64_t r : reps)
        if (r < 0)
            fail(errc::invalid_argument, "tile",
                 "repetitions " + list_text(reps) + " include a negative count; give counts >= 0");
    const std::size_t d = std::max(t.rank(), reps.size());
    if (d > max_rank)
        fail(errc::invalid_spec, "tile", "the result would have rank " + std::to_string(d) + ", over the limit");
    // Interleave (rep_k, stride 0) before each (size_k, stride_k), padding both lists
    // with leading 1s.
    dims sizes, strides, out_shape;
    name_list names;
    const std::size_t lead_t = d - t.rank(), lead_r = d - reps.size();
    for (std::size_t k = 0; k < d; ++k) {
        const std::int64_t rep = k < lead_r ? 1 : reps[k - lead_r];
        const std::int64_t size = k < lead_t ? 1 : t.shape()[k - lead_t];
        const std::int64_t stride = k < lead_t ? 0 : t.strides()[k - lead_t];
        sizes.push_back(rep);
        strides.push_back(0);
        sizes.push_back(size);
        strides.push_back(stride);
        std::int64_t total = 0;
        if (__builtin_mul_overflow(rep, size, &total))
            fail(errc::invalid_argument, "tile", "the tiled shape would overflow 64-bit sizes");
        out_shape.push_back(total);
        names.push_back(k < lead_t ? name{} : t.names()[k - lead_t]);
    }
    tensor_base out = fresh_like(t, out_shape.span(), names.span(), "tile");
    if (out.size() != 0)
        copy_into(out, nt::layout::c_contiguous(sizes.span()), t,
                  nt::layout(sizes.span(), strides.span(), t.layout().offset()));
    if (records(t) && is_floating(t.type())) [[unlikely]]
        record_indexed("tile", t, out, tile(iota_like(t, "tile"), reps));
    return out;
}

// --- windows ---------------------------------------------------------------------------------

namespace {
void check_window_args(const tensor_base& t, std::span<const Axis> axes, std::span<const std::int64_t> sizes,
                       std::span<const std::int64_t> steps, std::string_view op, const char* sizes_what) {
    if (axes.empty())
        fail(errc::invalid_argument, op, "no axes given; list the axes to " + std::string(op == "fold" ? "fold" : "unfold"));
    if (sizes.size() != axes.size() || steps.size() != axes.size())
        fail(errc::invalid_argument, op,
             std::to_string(axes.size()) + " axes, " + std::to_string(sizes.size()) + " " + sizes_what + " and " +
                 std::to_string(steps.size()) + " steps given for tensor " + t.describe() +
                 "; give one size and one step per axis");
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i] < 1)
            fail(errc::invalid_argument, op,
                 "step " + std::to_string(steps[i]) + " for axis " + axes[i].str() + " must be >= 1");
}
}  // namespace

tensor_base unfold_axes(const tensor_base& t, std::span<const Axis> axes, std::span<const std::int64_t> sizes,
                        std::span<const std::int64_t> steps, std::span<const name> window_names) {
    check_window_args(t, axes, sizes, steps, "unfold", "sizes");
    if (!window_names.empty() && window_names.size() != axes.size())
        fail(errc::invalid_argument, "unfold",
             std::to_string(window_names.size()) + " window names given for " + std::to_string(axes.size()) +
                 " axes; give one per axis, or none");
    small_vector<std::size_t, 8> pos;
    for (const Axis& ax : axes) {
        const std::size_t a = resolve_axis(ax, t.names(), "unfold", t.shape());
        if (std::find(pos.begin(), pos.end(), a) != pos.end())
            fail(errc::invalid_argument, "unfold",
                 axis_text(t, a) + " of tensor " + t.describe() + " is listed twice; give each axis once");
        pos.push_back(a);
    }
    // unfold keeps axis positions and appends, so the resolved positions stay valid.
    tensor_base v = t;
    for (std::size_t i = 0; i < pos.size(); ++i)
        v = v.unfold(static_cast<std::int64_t>(pos[i]), sizes[i], steps[i], window_names.empty() ? name{} : window_names[i]);
    return v;
}

fold_job plan_fold(const tensor_base& patches, std::span<const Axis> axes, std::span<const std::int64_t> output_sizes,
                   std::span<const std::int64_t> steps, std::string_view op) {
    check_window_args(patches, axes, output_sizes, steps, op, "output sizes");
    const std::size_t k = axes.size(), r = patches.rank();
    if (r < 2 * k)
        fail(errc::invalid_argument, op,
             "patches " + patches.describe() + " have rank " + std::to_string(r) + ", too small for " +
                 std::to_string(k) + " folded axes and " + std::to_string(k) +
                 " trailing window axes; pass the tensor unfold made");
    const std::size_t lead = r - k;  // axes of the result
    fold_job job;
    for (std::size_t i = 0; i < k; ++i) {
        // Axes refer to the result (patches' leading axes), as unfold's to its input.
        const std::size_t a =
            resolve_axis(axes[i], patches.names().subspan(0, lead), op, patches.shape().subspan(0, lead));
        if (std::find(job.axes.begin(), job.axes.end(), static_cast<std::int64_t>(a)) != job.axes.end())
            fail(errc::invalid_argument, op, axis_text(patches, a) + " is listed twice; give each axis once");
        const std::int64_t windows = patches.shape()[a], size = patches.shape()[lead + i];
        const std::int64_t n = output_sizes[i], step = steps[i];
        const std::int64_t expected = n >= size ? (n - size) / step + 1 : 0;
        if (n < 0 || expected != windows)
            fail(errc::invalid_argument, op,
                 axis_text(patches, a) + " of patches " + patches.describe() + " holds " + std::to_string(windows) +
                     " windows of size " + std::to_string(size) + ", but output size " + std::to_string(n) +
                     " with step " + std::to_string(step) + " gives " + std::to_string(expected) +
                     "; pass the output size and step that unfold was given");
        job.axes.push_back(static_cast<std::int64_t>(a));
        job.sizes.push_back(size);
        job.steps.push_back(step);
    }
    dims shape(patches.shape().subspan(0, lead));
    for (std::size_t i = 0; i < k; ++i) shape[static_cast<std::size_t>(job.axes[i])] = output_sizes[i];
    job.out = tensor_base::allocate(patches.type(), shape.span(), patches.names().subspan(0, lead), op);
    {
        const std::uint64_t zero[2] = {0, 0};  // all-zero bits: 0 in every element type
        fill_elements(job.out.storage(), job.out.layout(), zero, job.out.element_size());
    }
    if (job.out.size() == 0 || patches.size() == 0) return job;
    // The result seen as the patches are laid out; windows w and w' overlap only when
    // |w - w'| < ceil(size / step) on every folded axis, so the windows whose indices
    // agree modulo g = ceil(size / step) never overlap and are added in one go.
    nt::layout view = job.out.layout();
    for (std::size_t i = 0; i < k; ++i) {
        const auto a = static_cast<std::size_t>(job.axes[i]);
        const std::int64_t stride = view.stride(a);
        view = view.sliced(a, 0, patches.shape()[a], job.steps[i]).inserted(view.rank(), job.sizes[i], stride);
    }
    dims g, cls(k, 0);
    std::int64_t classes = 1;
    for (std::size_t i = 0; i < k; ++i) {
        g.push_back((job.sizes[i] + job.steps[i] - 1) / job.steps[i]);
        classes *= g.back();
    }
    const name_list pnames(patches.names());
    for (std::int64_t c = 0; c < classes; ++c) {
        std::int64_t rest = c;
        nt::layout dst = view, src = patches.layout();
        bool empty = false;
        for (std::size_t i = k; i-- > 0;) {
            const std::int64_t ci = rest % g[i];
            rest /= g[i];
            const auto a = static_cast<std::size_t>(job.axes[i]);
            const std::int64_t windows = patches.shape()[a];
            const std::int64_t count = ci < windows ? (windows - ci + g[i] - 1) / g[i] : 0;
            if (count == 0) empty = true;
            dst = dst.sliced(a, ci, count, g[i]);
            src = src.sliced(a, ci, count, g[i]);
        }
        if (empty) continue;
        job.parts.emplace_back(job.out.with(dst, pnames, false), patches.with(src, pnames, patches.is_read_only()));
    }
    return job;
}

std::vector<tensor_base> fold_count_factors(const fold_job& job) {
    std::vector<tensor_base> out;
    const std::size_t r = job.out.rank();
    for (std::size_t i = 0; i < job.axes.size(); ++i) {
        const auto a = static_cast<std::size_t>(job.axes[i]);
        const std::int64_t n = job.out.shape()[a], size = job.sizes[i], step = job.steps[i];
        dims shape(r, 1);
        shape[a] = n;
        tensor_base f = tensor_base::allocate(dtype::i64, shape.span(), job.out.names(), "fold_counts");
        auto* c = reinterpret_cast<std::int64_t*>(f.data());
        std::fill(c, c + n, std::int64_t{0});
        const std::int64_t windows = n >= size ? (n - size) / step + 1 : 0;
        for (std::int64_t w = 0; w < windows; ++w)
            for (std::int64_t j = 0; j < size; ++j) ++c[w * step + j];
        out.push_back(std::move(f));
    }
    return out;
}

void record_fold(const tensor_base& patches, const fold_job& job, fold_norm norm, tensor_base& out) {
    if (!is_floating(out.type())) return;
    const dims patches_shape(patches.shape());
    const name_list patches_names(patches.names());
    const bool empty = patches.size() == 0;
    const std::size_t k = job.axes.size(), lead = patches.rank() - k;
    small_vector<Axis, 8> axes;
    for (std::int64_t a : job.axes) axes.push_back(Axis(a));
    const name_list window_names(patches.names().subspan(lead));
    const dims sizes = job.sizes, steps = job.steps;
    // fold_norm::average divided each element by max(count, 1): so does its backward.
    std::optional<any_tensor> divisor;
    if (norm == fold_norm::average && out.size() != 0) {
        any_tensor counts;
        bool first = true;
        for (tensor_base& f : fold_count_factors(job)) {
            counts = first ? any_tensor(std::move(f)) : counts * any_tensor(std::move(f));
            first = false;
        }
        divisor = nt::where(counts == 0.0, 1.0, counts.astype(out.type()));
    }
    attach_node("fold", out, {&patches}, [=](const any_tensor& g) -> input_gradients {
        if (empty) return {zeros_of(g.dtype(), patches_shape.span(), patches_names.span())};
        const any_tensor ge = divisor ? g / *divisor : g;
        // The windows of g, laid out as the patches: fold's adjoint (a view).
        return {ge.unfold(axes_arg(axes), sizes.span(), steps.span(), window_names.span())};
    });
}

}  // namespace nt::detail
