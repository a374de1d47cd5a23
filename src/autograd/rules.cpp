// The backward rules of the element-wise operations, reductions, casts and views,
// written with ntensor's own operations so that they record when the backward pass
// does (create_graph). Ties and kinks follow PyTorch 1.13 (its derivatives.yaml).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <numbers>
#include <type_traits>
#include <utility>

#include "core_errors.hpp"
#include "graph.hpp"
#include "nt/autograd.hpp"
#include "nt/elementwise.hpp"
#include "nt/reduce.hpp"

namespace nt::detail {

namespace {

using opt = std::optional<any_tensor>;

// g (shaped as an operation's result) summed to an operand of spec `target`.
any_tensor reduce_to(const any_tensor& g, const spec& target) { return nt::sum_to(g, target); }

// --- binary operations ------------------------------------------------------------------

bool differentiable(binary_op op) noexcept {
    switch (op) {
        case binary_op::add:
        case binary_op::sub:
        case binary_op::mul:
        case binary_op::div:
        case binary_op::mod:
        case binary_op::min:
        case binary_op::max:
        case binary_op::pow:
        case binary_op::atan2:
        case binary_op::hypot:
        case binary_op::floor_div: return true;
        default: return false;  // comparisons, logical and bitwise operations: no floating result
    }
}
bool reads_operands(binary_op op) noexcept {
    return op != binary_op::add && op != binary_op::sub && op != binary_op::floor_div;
}
bool reads_output(binary_op op) noexcept { return op == binary_op::pow || op == binary_op::hypot; }

// The gradients of a op b for the result gradient g, before sum_to.
std::pair<opt, opt> binary_gradients(binary_op op, const any_tensor& g, const any_tensor& a, const any_tensor& b,
                                     const any_tensor& out, bool need_a, bool need_b) {
    opt ga, gb;
    switch (op) {
        case binary_op::add:
            if (need_a) ga = g;
            if (need_b) gb = g;
            break;
        case binary_op::sub:
            if (need_a) ga = g;
            if (need_b) gb = -g;
            break;
        case binary_op::mul:
            if (need_a) ga = g * b;
            if (need_b) gb = g * a;
            break;
        case binary_op::div:
            if (need_a) ga = g / b;
            if (need_b) gb = -g * a / (b * b);
            break;
        case binary_op::mod:  // NumPy's mod is a - floor(a / b) * b
            if (need_a) ga = g;
            if (need_b) gb = -g * nt::floor_divide(a, b);
            break;
        case binary_op::min:
        case binary_op::max: {
            // PyTorch 1.13: the larger (smaller) operand takes the gradient, ties share it.
            const bool is_max = op == binary_op::max;
            const any_tensor shared = nt::where(a == b, g * 0.5, 0.0);
            if (need_a) ga = nt::where(is_max ? a > b : a < b, g, shared);
            if (need_b) gb = nt::where(is_max ? b > a : b < a, g, shared);
            break;
        }
        case binary_op::pow:
            // PyTorch 1.13: 0 where the exponent is 0; for the exponent, 0 where a == 0 and b >= 0.
            if (need_a) ga = nt::where(b == 0.0, 0.0, g * b * nt::pow(a, b - 1.0));
            if (need_b) gb = nt::where((a == 0.0) & (b >= 0.0), 0.0, g * out * nt::log(a));
            break;
        case binary_op::atan2: {
            const any_tensor denominator = a * a + b * b;
            if (need_a) ga = g * b / denominator;
            if (need_b) gb = -g * a / denominator;
            break;
        }
        case binary_op::hypot:
            if (need_a) ga = g * a / out;
            if (need_b) gb = g * b / out;
            break;
        case binary_op::floor_div:  // piecewise constant
            if (need_a) ga = zeros_of(a.dtype(), a.shape(), a.names());
            if (need_b) gb = zeros_of(b.dtype(), b.shape(), b.names());
            break;
        default: break;
    }
    return {ga, gb};
}

}  // namespace

namespace {

// The rule of a binary operation. Recording writes one per operation: it fits in
// the node (backward_rule::inline_bytes). The scalar of a tensor-scalar operation is
// made again when the rule runs (recording `y * 0.5` allocates nothing for the 0.5).
struct binary_rule {
    // The specs the operands' gradients are summed to, when one is not the result's
    // (most operands of a chain have the result's: none is kept, no sum_to runs).
    struct broadcast_specs {
        std::optional<spec> a, b;
    };
    tape_unique<const broadcast_specs> specs;
    saved_tensor va, vb, vo;
    double scalar = 0;
    binary_op op;
    dtype type;
    bool need_a, need_b, operands, scalar_a, scalar_b;

    [[nodiscard]] any_tensor operand(const saved_tensor& v, bool is_scalar) const {
        return is_scalar ? scalar_of(type, scalar) : v.get();
    }
    input_gradients operator()(const any_tensor& g) const {
        const any_tensor empty;
        auto [ga, gb] = binary_gradients(op, g, operands ? operand(va, scalar_a) : empty,
                                         operands ? operand(vb, scalar_b) : empty, reads_output(op) ? vo.get() : empty,
                                         need_a, need_b);
        // An operand of the result's spec: its gradient needs no sum, but a rule may
        // have computed it in another axis order (where's order is its condition's).
        auto fit = [&](any_tensor&& x, const std::optional<spec>* target) {
            if (target != nullptr && *target) return reduce_to(x, **target);
            if (std::ranges::equal(x.shape(), g.shape()) && std::ranges::equal(x.names(), g.names())) return std::move(x);
            return reduce_to(x, g.spec());
        };
        input_gradients r(2);
        if (ga) r[0] = fit(std::move(*ga), specs ? &specs->a : nullptr);
        if (gb) r[1] = fit(std::move(*gb), specs ? &specs->b : nullptr);
        return r;
    }
};

static_assert(sizeof(binary_rule) <= backward_rule::inline_bytes, "the rule of every binary operation lives in its node");

// The one recorder of binary operations; a null operand is the scalar `scalar`.
void record_binary_operands(binary_op op, std::string_view name, const tensor_base* a, const tensor_base* b,
                            double scalar, tensor_base& out) {
    if (!differentiable(op)) return;
    attach_node(name, out, {a, b}, nullptr);
    if (!out.grad_node()) return;
    const bool need_a = a != nullptr && a->grad_node() != nullptr, need_b = b != nullptr && b->grad_node() != nullptr;
    auto broadcast = [&](const tensor_base* t, bool needed) {
        return needed && !same_spec(*t, out);
    };
    tape_unique<const binary_rule::broadcast_specs> specs;
    if (const bool ba = broadcast(a, need_a), bb = broadcast(b, need_b); ba || bb) {
        binary_rule::broadcast_specs s;
        if (ba) s.a = a->spec();
        if (bb) s.b = b->spec();
        specs = make_tape_unique<const binary_rule::broadcast_specs>(std::move(s));
    }
    const bool operands = reads_operands(op);
    // A product's gradient for one operand reads only the other, a quotient's for the
    // numerator only the denominator: y * 0.5 saves nothing, y * w with both in the
    // graph saves both (rules save only what they read).
    const bool read_a = operands && a != nullptr && (!(op == binary_op::mul || op == binary_op::div) || need_b);
    const bool read_b = operands && b != nullptr && (op != binary_op::mul || need_a);
    out.grad_node()->rule.emplace<binary_rule>(std::move(specs),
                                        read_a ? saved_tensor::input(*a) : saved_tensor(),
                                        read_b ? saved_tensor::input(*b) : saved_tensor(),
                                        reads_output(op) ? saved_tensor::output(out) : saved_tensor(),
                                        scalar,
                                        op,
                                        out.type(),
                                        need_a,
                                        need_b,
                                        operands,
                                        a == nullptr,
                                        b == nullptr);
}

}  // namespace

void record_binary(binary_op op, std::string_view name, const tensor_base& a, const tensor_base& b,
                   tensor_base& out) {
    record_binary_operands(op, name, &a, &b, 0.0, out);
}

void record_binary_scalar(binary_op op, std::string_view name, const tensor_base& a, double value,
                          bool scalar_first, tensor_base& out) {
    if (scalar_first) record_binary_operands(op, name, nullptr, &a, value, out);
    else record_binary_operands(op, name, &a, nullptr, value, out);
}

// --- unary operations -------------------------------------------------------------------

namespace {
std::string_view unary_name(unary_op op) noexcept {
    switch (op) {
#define NT_UNARY_NAME(fn, o) \
    case unary_op::o: return #fn;
        NT_FOR_EACH_UNARY_FUNCTION(NT_UNARY_NAME)
#undef NT_UNARY_NAME
    }
    return "unary operation";
}
}  // namespace

void record_unary(unary_op op, const tensor_base& a, tensor_base& out) {
    constexpr double ln2 = std::numbers::ln2, ln10 = std::numbers::ln10;
    bool reads_result = false;
    switch (op) {
        case unary_op::exp:
        case unary_op::sqrt:
        case unary_op::tanh:
        case unary_op::sigmoid:
        case unary_op::reciprocal:
        case unary_op::expm1:
        case unary_op::exp2: reads_result = true; break;
        case unary_op::logical_not:
        case unary_op::isnan:
        case unary_op::isinf:
        case unary_op::isfinite:
        case unary_op::bit_not: return;
        default: break;
    }
    const std::string_view name = unary_name(op);
    attach_node(name, out, {&a}, nullptr);
    if (!out.grad_node()) return;
    out.grad_node()->rule.emplace([op, x = reads_result ? saved_tensor() : saved_tensor::input(a),
                             y = reads_result ? saved_tensor::output(out) : saved_tensor()](
                                const any_tensor& g) -> input_gradients {
        any_tensor r;
        switch (op) {
            case unary_op::abs: r = g * nt::sign(x.get()); break;
            case unary_op::neg: r = -g; break;
            case unary_op::exp: r = g * y.get(); break;
            case unary_op::log: r = g / x.get(); break;
            case unary_op::sqrt: r = g / (2.0 * y.get()); break;
            case unary_op::sin: r = g * nt::cos(x.get()); break;
            case unary_op::cos: r = -g * nt::sin(x.get()); break;
            case unary_op::tanh: {
                const any_tensor t = y.get();
                r = g * (1.0 - t * t);
                break;
            }
            case unary_op::sigmoid: {
                const any_tensor s = y.get();
                r = g * s * (1.0 - s);
                break;
            }
            case unary_op::square: r = 2.0 * g * x.get(); break;
            case unary_op::reciprocal: {
                const any_tensor v = y.get();
                r = -g * v * v;
                break;
            }
            case unary_op::log1p: r = g / (1.0 + x.get()); break;
            case unary_op::expm1: r = g * (y.get() + 1.0); break;
            case unary_op::exp2: r = g * y.get() * ln2; break;
            case unary_op::log2: r = g / (x.get() * ln2); break;
            case unary_op::log10: r = g / (x.get() * ln10); break;
            case unary_op::erf: {
                const any_tensor v = x.get();
                r = g * (2.0 / std::sqrt(std::numbers::pi)) * nt::exp(-(v * v));
                break;
            }
            default: r = zeros_of(g.dtype(), g.shape(), g.names()); break;  // floor, ceil, round, trunc, sign: piecewise constant
        }
        return {r};
    });
}

// --- reductions ---------------------------------------------------------------------------

namespace {

// g of a reduction's result, with the reduced axes back (size 1) when they were dropped.
any_tensor with_reduced_axes(const any_tensor& g, const spec& input, std::span<const bool> reduced, bool keepdims) {
    if (keepdims) return g;
    dims sizes;
    name_list names;
    for (std::size_t k = 0; k < input.rank(); ++k) {
        sizes.push_back(reduced[k] ? 1 : input.size(k));
        names.push_back(input.name(k));
    }
    return g.reshape(sizes.span(), names.span());
}

}  // namespace

void record_reduce(reduce_op op, std::string_view name, const tensor_base& a, std::span<const bool> reduced_axes,
                   bool every_axis, bool keepdims, tensor_base& out) {
    if (op != reduce_op::sum && op != reduce_op::mean && op != reduce_op::max && op != reduce_op::min &&
        op != reduce_op::prod)
        return;
    const spec input = a.spec();
    const small_vector<bool, 8> reduced(reduced_axes);
    std::int64_t count = 1;
    std::vector<Axis> axes;
    for (std::size_t k = 0; k < reduced.size(); ++k)
        if (reduced[k]) {
            count *= input.size(k);
            axes.emplace_back(static_cast<std::int64_t>(k));
        }
    attach_node(name, out, {&a}, nullptr);
    if (!out.grad_node()) return;
    const bool reads = op == reduce_op::max || op == reduce_op::min || op == reduce_op::prod;
    const saved_tensor x = reads ? saved_tensor::input(a) : saved_tensor();
    const saved_tensor y = reads ? saved_tensor::output(out) : saved_tensor();
    out.grad_node()->rule = [=](const any_tensor& g) -> input_gradients {
        const std::span<const bool> red = reduced.span();
        const any_tensor ge = with_reduced_axes(g, input, red, keepdims);
        switch (op) {
            case reduce_op::sum: return {ge.broadcast_to(input)};
            case reduce_op::mean: return {(ge / static_cast<double>(count)).broadcast_to(input)};
            case reduce_op::prod: {
                // PyTorch's rule, zeros included: out / x where x != 0; where x is the one
                // zero of its slice, the product of the others; 0 beside two zeros.
                const any_tensor xv = x.get();
                const any_tensor ye = with_reduced_axes(y.get(), input, red, keepdims);
                const any_tensor is_zero = xv == 0.0;
                const any_tensor zeros_in_slice = nt::sum(is_zero.astype(xv.dtype()), axes_arg(axes), true);
                const any_tensor others = nt::prod(nt::where(is_zero, 1.0, xv), axes_arg(axes), true);
                const any_tensor at_zero = nt::where(zeros_in_slice == 1.0, ge * others, 0.0);
                return {nt::where(is_zero, at_zero, ge * ye / nt::where(is_zero, 1.0, xv))};
            }
            default: {
                // max, min: over one axis the element argmax (argmin) picks takes the gradient;
                // over several or every axis, the ties share it evenly (PyTorch 1.13: max(dim),
                // amax and max()).
                const any_tensor xv = x.get();
                const any_tensor ye = with_reduced_axes(y.get(), input, red, keepdims);
                if (axes.size() == 1 && !every_axis) {
                    const Axis axis = axes[0];
                    const any_tensor index = op == reduce_op::max ? nt::argmax(xv, axis, true) : nt::argmin(xv, axis, true);
                    dims iota_shape(input.rank(), 1);
                    const auto k = static_cast<std::size_t>(axis.index());
                    iota_shape[k] = input.size(k);
                    name_list iota_names;
                    for (std::size_t j = 0; j < input.rank(); ++j) iota_names.push_back(input.name(j));
                    const any_tensor iota =
                        any_tensor(nt::arange<std::int64_t>(input.size(k))).reshape(iota_shape.span(), iota_names.span());
                    const any_tensor picked = index.rename(iota_names.span()) == iota;
                    return {nt::where(picked, ge.broadcast_to(input), 0.0)};
                }
                const any_tensor ties = (xv == ye) | (nt::isnan(xv) & nt::isnan(ye));
                const any_tensor share = nt::sum(ties.astype(xv.dtype()), axes_arg(axes), true);
                return {nt::where(ties, ge / share, 0.0)};
            }
        }
    };
}

// --- casts, where, clip, identity ---------------------------------------------------------

void record_cast(const tensor_base& a, tensor_base& out) {
    const dtype from = a.type();
    if (from != dtype::f16 && from != dtype::f32 && from != dtype::f64) return;
    attach_node("astype", out, {&a}, [from](const any_tensor& g) -> input_gradients { return {g.astype(from)}; });
}

void record_where(const tensor_base& cond, const tensor_base& a, const tensor_base& b, tensor_base& out) {
    const spec sa = a.spec(), sb = b.spec();
    const bool need_a = a.grad_node() != nullptr, need_b = b.grad_node() != nullptr;
    const saved_tensor c(cond);
    attach_node("where", out, {&a, &b}, [=](const any_tensor& g) -> input_gradients {
        const any_tensor m = c.get();
        input_gradients r(2);
        if (need_a) r[0] = reduce_to(nt::where(m, g, 0.0), sa);
        if (need_b) r[1] = reduce_to(nt::where(m, 0.0, g), sb);
        return r;
    });
}

void record_clip(const tensor_base& x, const tensor_base& lo, const tensor_base& hi, tensor_base& out) {
    const spec sx = x.spec(), sl = lo.spec(), sh = hi.spec();
    const bool need[3] = {x.grad_node() != nullptr, lo.grad_node() != nullptr, hi.grad_node() != nullptr};
    const saved_tensor vx = saved_tensor::input(x), vl = saved_tensor::input(lo), vh = saved_tensor::input(hi);
    attach_node("clip", out, {&x, &lo, &hi}, [=](const any_tensor& g) -> input_gradients {
        const any_tensor xv = vx.get(), l = vl.get(), h = vh.get();
        input_gradients r(3);
        // PyTorch's clamp: x takes the gradient where lo <= x <= hi; lo where x < lo <= hi;
        // hi where x > hi, and where lo > hi (the result is hi there).
        if (need[0]) r[0] = reduce_to(nt::where((xv >= l) & (xv <= h), g, 0.0), sx);
        if (need[1]) r[1] = reduce_to(nt::where((xv < l) & (l <= h), g, 0.0), sl);
        if (need[2]) r[2] = reduce_to(nt::where((xv > h) | (l > h), g, 0.0), sh);
        return r;
    });
}

void record_identity(std::string_view name, const tensor_base& a, tensor_base& out) {
    attach_node(name, out, {&a}, [](const any_tensor& g) -> input_gradients { return {g}; });
}

// --- views --------------------------------------------------------------------------------
// Every view's backward is one rule: the view, re-applied to a contiguous probe shaped
// like its input, gives the layout that maps the input's elements to the view's
// (offsets from the input's first element). The gradient of the input is a zero
// tensor into which the view's gradient is added through that layout (a sum where
// the view reaches one element several times: broadcasts, overlapping windows), and
// the backward of that is the layout read again: a view.

namespace {

struct view_map {
    dtype type;
    dims input_shape;
    name_list input_names;
    nt::layout layout;  // the view's sizes and strides over a C-ordered input at offset 0
    name_list view_names;
};

any_tensor gather(const any_tensor& x, const std::shared_ptr<const view_map>& m);
void scatter_into(tensor_base dst, const any_tensor& gt, const std::shared_ptr<const view_map>& m);

// Adds `g` into the contiguous `dst` through the layout `l` (a view that reaches one
// element several times cannot be written by assign). The loop runs the axes in the
// order of decreasing destination stride, the longest of the smallest strides
// innermost: for the windows of unfold, (... W KD KH KW), the inner loop is then W
// (long, stride 1) rather than KW (a window's width), which is most of the backward
// pass of a convolution written with unfold.
template <class T>
void add_through(T* dst, const nt::layout& l, const tensor_base& g) {
    const std::size_t rank = l.rank();
    if (l.element_count() == 0) return;
    const T* src = reinterpret_cast<const T*>(g.data());
    small_vector<std::size_t, 8> order;
    for (std::size_t k = 0; k < rank; ++k)
        if (l.size(k) != 1) order.push_back(k);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const std::int64_t sa = std::abs(l.stride(a)), sb = std::abs(l.stride(b));
        return sa != sb ? sa > sb : l.size(a) < l.size(b);
    });
    const std::size_t loops = order.size();
    const std::int64_t inner = loops ? l.size(order[loops - 1]) : 1;
    const std::int64_t dstride = loops ? l.stride(order[loops - 1]) : 0;
    const std::int64_t sstride = loops ? g.strides()[order[loops - 1]] : 0;
    dims index(loops, 0);
    using C = std::conditional_t<std::is_same_v<T, half>, float, T>;
    for (std::int64_t done = 0, count = l.element_count(); done < count; done += inner) {
        std::int64_t d = l.offset(), s = 0;
        for (std::size_t j = 0; j + 1 < loops; ++j) {
            d += index[j] * l.stride(order[j]);
            s += index[j] * g.strides()[order[j]];
        }
        T* out = dst + d;
        const T* in = src + s;
        for (std::int64_t i = 0; i < inner; ++i)
            out[i * dstride] = static_cast<T>(static_cast<C>(out[i * dstride]) + static_cast<C>(in[i * sstride]));
        for (std::size_t j = loops - 1; j-- > 0;) {
            if (++index[j] < l.size(order[j])) break;
            index[j] = 0;
        }
    }
}

any_tensor scatter(const any_tensor& g, const std::shared_ptr<const view_map>& m) {
    const any_tensor gt = g.dtype() == m->type ? g : g.astype(m->type);
    const nt::layout& l = m->layout;
    const std::int64_t input_size = std::accumulate(m->input_shape.begin(), m->input_shape.end(), std::int64_t{1},
                                                    std::multiplies<>());
    // A view that reaches each element of its input once (a rename, a permutation, a
    // reshape) has a gradient that covers the input whole: no zeros to write first,
    // and none of it to copy when the view is the input itself under other names.
    const bool whole = !l.has_self_overlap() && l.element_count() == input_size;
    any_tensor out;
    if (whole && l.offset() == 0 && l.is_contiguous() && std::ranges::equal(l.sizes(), m->input_shape.span())) {
        out = any_tensor(gt.base().without_grad_node().with(gt.base().layout(), m->input_names, gt.base().is_read_only()));
    } else {
        out = whole ? any_tensor(tensor_base::allocate(m->type, m->input_shape.span(), m->input_names.span(), "view backward"))
                    : zeros_of(m->type, m->input_shape.span(), m->input_names.span());
        scatter_into(out.base(), gt, m);
    }
    if (records(g.base())) {
        attach_node("view backward", out.mutable_base(), {&g.base()},
                    [m](const any_tensor& gg) -> input_gradients { return {gather(gg, m)}; });
    }
    return out;
}

void scatter_into(tensor_base dst, const any_tensor& gt, const std::shared_ptr<const view_map>& m) {
    if (!m->layout.has_self_overlap()) {
        const no_grad quiet;  // the zero tensor is fresh: writing it is not an operation of the graph
        dst.with(m->layout, m->view_names, false).assign(gt.base().without_grad_node());
    } else {
        visit_dtype(m->type, [&](auto type) {
            using T = typename decltype(type)::type;
            if constexpr (is_floating_element_v<T>)
                add_through<T>(reinterpret_cast<T*>(dst.data()), m->layout, gt.base());
        });
    }
}

any_tensor gather(const any_tensor& x, const std::shared_ptr<const view_map>& m) {
    const any_tensor c = x.is_contiguous() ? x : x.clone();
    const nt::layout l(m->layout.sizes(), m->layout.strides(), c.layout().offset() + m->layout.offset());
    any_tensor v(c.base().without_grad_node().with(l, m->view_names, m->layout.has_self_overlap()));
    if (records(c.base())) {
        attach_node("view", v.mutable_base(), {&c.base()}, [m](const any_tensor& g) -> input_gradients { return {scatter(g, m)}; });
    }
    return v;
}

}  // namespace

tensor_base record_view(std::string_view name, const tensor_base& in, view_function f) {
    tensor_base out = f(in);
    if (out.type() != dtype::f16 && out.type() != dtype::f32 && out.type() != dtype::f64) return out;
    alignas(64) static std::byte probe_storage[64];
    const tensor_base probe = tensor_base::wrap(in.type(), probe_storage, in.shape(), {}, nullptr, in.names());
    const tensor_base mapped = f(probe);
    if (mapped.storage() != probe.storage())
        fail(errc::invalid_argument, name, "the view's backward needs a view of its input (an ntensor defect)");
    auto m = std::make_shared<view_map>(
        view_map{in.type(), dims(in.shape()), name_list(in.names()), mapped.layout(), name_list(mapped.names())});
    out.set_grad_node(nullptr);
    attach_node(name, out, {&in}, [m](const any_tensor& g) -> input_gradients { return {scatter(g, m)}; });
    return out;
}

// --- sum_to -------------------------------------------------------------------------------

}  // namespace nt::detail

namespace nt {

any_tensor sum_to(const any_tensor& g, const spec& target) {
    if (g.spec() == target) return g;
    // Where each axis of g comes from in `target` (-1: inserted), by the matcher's
    // broadcast plan: the one that broadcast the operand forward.
    const small_vector<std::int32_t, 8> source = detail::broadcast_source_axes(target, g.spec(), "sum_to");
    std::vector<Axis> summed;
    std::vector<std::int64_t> order(target.rank(), -1);
    std::vector<std::int64_t> inserted;
    for (std::size_t k = 0; k < source.size(); ++k) {
        const std::int32_t s = source[k];
        if (s < 0) {
            summed.emplace_back(static_cast<std::int64_t>(k));
            inserted.push_back(static_cast<std::int64_t>(k));
        } else {
            order[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(k);
            if (target.size(static_cast<std::size_t>(s)) == 1 && g.shape()[k] != 1)
                summed.emplace_back(static_cast<std::int64_t>(k));
        }
    }
    any_tensor r = summed.empty() ? g : nt::sum(g, axes_arg(summed), true);
    // Target's axes in its order, then the inserted ones (size 1 now), dropped by reshape.
    std::vector<std::int64_t> permutation = order;
    permutation.insert(permutation.end(), inserted.begin(), inserted.end());
    bool identity = true;
    for (std::size_t k = 0; k < permutation.size(); ++k) identity = identity && permutation[k] == static_cast<std::int64_t>(k);
    if (!identity) r = r.permute(permutation);
    const dims sizes = target.sizes();
    name_list names;
    for (std::size_t k = 0; k < target.rank(); ++k) names.push_back(target.name(k));
    return r.reshape(sizes.span(), names.span());
}

}  // namespace nt
