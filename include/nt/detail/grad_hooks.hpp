// nt/detail/grad_hooks.hpp: where the operations meet the gradient tape.
//
// An operation whose floating result depends on an input that takes part in a graph
// (tensor_base::grad_node() not null) records a node on its result through one of the
// record_* functions below (src/autograd/). The test is inline and costs a pointer
// comparison per operand, so operations on tensors outside any graph pay nothing
// else (the tiny add of docs/performance.md). Writes in place go through
// before_write, which refuses writes into a graph while recording and advances the
// storage's version when some rule has saved a tensor (PyTorch's version counter).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "nt/detail/ops_kernels.hpp"
#include "nt/detail/tensor_base.hpp"

namespace nt {

/// Options of Tensor::backward (nt/autograd.hpp).
struct backward_options {
    /// Keep the graph (its rules and saved tensors) for another backward pass.
    bool retain_graph = false;
    /// Record the backward pass itself, so that the gradients it produces can be
    /// differentiated again (implies retain_graph).
    bool create_graph = false;
};

}  // namespace nt

namespace nt::detail {

/// True unless an nt::no_grad guard lives on this thread.
[[nodiscard]] bool grad_mode_enabled() noexcept;

/// Sets this thread's recording mode for its lifetime (nt::no_grad switches it off;
/// the function transforms switch it on while they call f).
class grad_mode_guard {
public:
    explicit grad_mode_guard(bool enabled) noexcept;
    ~grad_mode_guard();
    grad_mode_guard(const grad_mode_guard&) = delete;
    grad_mode_guard& operator=(const grad_mode_guard&) = delete;

private:
    bool previous_;
};

/// True when an operation on `t` must record (it is in a graph and recording is on).
[[nodiscard]] inline bool records(const tensor_base& t) noexcept {
    return t.grad_node() != nullptr && grad_mode_enabled();
}
[[nodiscard]] inline bool records(const tensor_base& a, const tensor_base& b) noexcept {
    return (a.grad_node() != nullptr || b.grad_node() != nullptr) && grad_mode_enabled();
}

/// Re-applies a view operation to another tensor of the input's shape: a non-owning
/// callable reference (the operation's arguments live on the caller's stack).
class view_function {
public:
    template <class F>
        requires(!std::is_same_v<F, view_function>)
    view_function(const F& f) noexcept  // NOLINT(google-explicit-constructor)
        : object_(&f), call_([](const void* o, const tensor_base& t) { return (*static_cast<const F*>(o))(t); }) {}
    tensor_base operator()(const tensor_base& t) const { return call_(object_, t); }

private:
    const void* object_;
    tensor_base (*call_)(const void*, const tensor_base&);
};

// Each records the node of one operation on `out` (called only when records(...)).
void record_binary(binary_op op, std::string_view name, const tensor_base& a, const tensor_base& b,
                   tensor_base& out);
/// `value` is the scalar operand in the computation type (exact as a double for the
/// floating types, the only ones that record).
void record_binary_scalar(binary_op op, std::string_view name, const tensor_base& a, double value,
                          bool scalar_first, tensor_base& out);
void record_unary(unary_op op, const tensor_base& a, tensor_base& out);
/// `reduced` flags the input's reduced axes.
/// `every_axis`: the reduction of every axis (nt::max(t)), whose ties share the gradient.
void record_reduce(reduce_op op, std::string_view name, const tensor_base& a, std::span<const bool> reduced,
                   bool every_axis, bool keepdims, tensor_base& out);
void record_cast(const tensor_base& a, tensor_base& out);
void record_where(const tensor_base& cond, const tensor_base& a, const tensor_base& b, tensor_base& out);
void record_clip(const tensor_base& x, const tensor_base& lo, const tensor_base& hi, tensor_base& out);
/// The identity (clone, contiguous copies): the gradient passes unchanged.
void record_identity(std::string_view name, const tensor_base& a, tensor_base& out);
/// A view of `in` made by `f`: returns f(in) with its node. The backward pass adds the
/// gradient through the same view of a zero tensor shaped like `in`.
[[nodiscard]] tensor_base record_view(std::string_view name, const tensor_base& in, view_function f);

/// A view operation: f(t), recorded when t is in a graph.
template <class F>
[[nodiscard]] tensor_base viewed(std::string_view name, const tensor_base& t, const F& f) {
    if (records(t)) [[unlikely]]
        return record_view(name, t, view_function(f));
    return f(t);
}

// The gradient members of the handles (nt/detail/handle_ops.hpp), in src/autograd/.
[[nodiscard]] tensor_base mark_with_grad(const tensor_base& t);
void backward_from(const tensor_base& y, const tensor_base* seed, const backward_options& options);
[[nodiscard]] tensor_base grad_of(const tensor_base& t);
[[nodiscard]] bool has_grad_of(const tensor_base& t) noexcept;
void zero_grad_of(const tensor_base& t);

/// Nonzero once some rule has saved a tensor: writes in place count versions from then on.
extern std::atomic<std::int64_t> watched_storages;
void refuse_write_in_graph(const tensor_base& t, std::string_view op);
/// out= forms compute into an existing tensor and record nothing: with an operand
/// in a recording graph they throw (PyTorch's "out= ... don't support automatic
/// differentiation").
[[noreturn]] void refuse_out_in_graph(std::string_view op, const tensor_base& out);
void advance_version(const tensor_base& t, std::string_view op);

/// Called by every write in place into `t` (fill, assign, in-place arithmetic, out=,
/// masked_fill, assign_where).
inline void before_write(const tensor_base& t, std::string_view op) {
    if (t.grad_node() != nullptr) [[unlikely]]
        refuse_write_in_graph(t, op);
    if (watched_storages.load(std::memory_order_relaxed) != 0) [[unlikely]]
        advance_version(t, op);
}

}  // namespace nt::detail
