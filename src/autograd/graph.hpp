// The gradient tape: the nodes operations record on their results, the tensors their
// rules save, and the reverse pass over them.
//
// A node belongs to one result (or is a leaf marked with_grad). It holds the nodes of
// its inputs and a rule that turns the gradient of its result into the gradients of
// its inputs. Rules are written with ntensor's own operations on any_tensor, so the
// backward pass records itself when asked (create_graph) and gradients of gradients
// follow. The graph lives as long as the tensors that hold its last nodes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/detail/grad_hooks.hpp"

namespace nt::detail {

/// The gradients a rule returns, one per input of its node (nullopt: none).
using input_gradients = std::vector<std::optional<any_tensor>>;
using backward_rule = std::function<input_gradients(const any_tensor& gradient)>;

struct tape_node {
    std::string op;  // the operation, for messages
    dtype type = dtype::f32;
    dims shape;
    name_list names;
    std::vector<std::shared_ptr<tape_node>> inputs;  // null where an input takes no gradient
    backward_rule rule;
    bool leaf = false;
    bool released = false;  // the rule was freed by a backward pass without retain_graph
    // Leaves only: the accumulated gradient. Two graphs on two threads may reach one leaf.
    std::mutex grad_mutex;
    std::optional<tensor_base> grad;

    [[nodiscard]] std::string describe() const;
};

/// Records `rule` as the node of `out`, with the nodes of `inputs` (a null pointer or
/// a tensor outside any graph gives a null input). Does nothing when `out` is not
/// floating.
void attach_node(std::string_view op, tensor_base& out, std::initializer_list<const tensor_base*> inputs,
                 backward_rule rule);

/// A tensor a rule keeps for the backward pass. Reading it back checks that its
/// storage was not written since (modified_in_place, naming the rule and the write).
/// A rule's own result is kept without its node (the node holds the rule: a cycle),
/// and gets it back when read.
class saved_tensor {
public:
    saved_tensor() = default;
    saved_tensor(const tensor_base& t, std::string_view rule_op);
    /// The result of the operation that saves it.
    static saved_tensor output(const tensor_base& out, std::string_view rule_op);
    saved_tensor(const saved_tensor& other);
    saved_tensor& operator=(const saved_tensor& other);
    // A move hands the registration over (rules move their saved tensors in).
    saved_tensor(saved_tensor&& other) noexcept;
    saved_tensor& operator=(saved_tensor&& other) noexcept;
    ~saved_tensor();

    [[nodiscard]] any_tensor get() const;

private:
    void watch();
    void unwatch() noexcept;
    tensor_base t_;
    std::weak_ptr<tape_node> output_node_;
    std::string rule_op_;
    std::uint64_t version_ = 0;
    bool watching_ = false;
};

/// Where a reverse pass starts: a node and the gradient of its result.
struct backward_root {
    std::shared_ptr<tape_node> node;
    any_tensor seed;
};

/// The reverse pass. Gradients reaching a node of `targets` are returned (in order;
/// nullopt for a target not reached) and go no further; when `accumulate`, those
/// reaching leaves are added to their grad(). Without `retain`, the rules of the
/// nodes passed are freed. With `create_graph` the rules record.
[[nodiscard]] std::vector<std::optional<any_tensor>> run_backward(std::span<const backward_root> roots,
                                                                  std::span<const std::shared_ptr<tape_node>> targets,
                                                                  bool accumulate, bool retain, bool create_graph);

/// Zeros of dtype `d` shaped as `shape` with `names`.
[[nodiscard]] any_tensor zeros_of(dtype d, std::span<const std::int64_t> shape, std::span<const name> names);
/// A rank-0 tensor of dtype `d` holding `value`.
[[nodiscard]] any_tensor scalar_of(dtype d, double value);

}  // namespace nt::detail
