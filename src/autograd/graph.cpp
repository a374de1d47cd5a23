// The tape and the reverse pass (graph.hpp), the version counter of saved tensors,
// and the gradient members of the tensor handles.
#include "graph.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core_errors.hpp"
#include "nt/autograd.hpp"

namespace nt::detail {

namespace {

thread_local bool recording = true;

bool is_floating(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

// --- the version counter ------------------------------------------------------------
// Keyed by the storage block, so that a write through any view of a saved tensor is
// seen. Only blocks that some saved tensor watches are counted: a write elsewhere
// costs the relaxed load of watched_storages in before_write.

struct storage_version {
    std::int64_t watchers = 0;
    std::uint64_t version = 0;
    std::string last_write;
};

std::mutex versions_mutex;
std::unordered_map<const void*, storage_version>& versions() {
    static std::unordered_map<const void*, storage_version> table;
    return table;
}

const void* storage_key(const tensor_base& t) noexcept { return t.storage(); }

}  // namespace

std::atomic<std::int64_t> watched_storages{0};

bool grad_mode_enabled() noexcept { return recording; }

grad_mode_guard::grad_mode_guard(bool enabled) noexcept : previous_(recording) { recording = enabled; }
grad_mode_guard::~grad_mode_guard() { recording = previous_; }

void refuse_write_in_graph(const tensor_base& t, std::string_view op) {
    if (!recording) return;
    const tape_node& n = *t.grad_node();
    fail(errc::invalid_argument, op,
         "writes in place into " + t.describe() + ", which " +
             (n.leaf ? std::string("requires a gradient (marked with_grad)")
                     : "is the result of '" + n.op + "' in a graph that records gradients") +
             ": the recorded rules would compute with the overwritten values. Write under nt::no_grad (as "
             "optimisers do), "
             "write into t.detach(), or use the out-of-place form (y = y + x instead of y += x)");
}

void refuse_out_in_graph(std::string_view op, const tensor_base& out) {
    fail(errc::invalid_argument, op,
         "the out= form writes into " + out.describe() +
             " and records no gradient, but an operand takes part in a graph that records; use the form that "
             "returns its result (c = a + b), or compute under nt::no_grad");
}

void advance_version(const tensor_base& t, std::string_view op) {
    const void* key = storage_key(t);
    if (key == nullptr) return;
    std::lock_guard lock(versions_mutex);
    auto it = versions().find(key);
    if (it == versions().end()) return;
    ++it->second.version;
    it->second.last_write = std::string(op);
}

// --- saved tensors ------------------------------------------------------------------

saved_tensor::saved_tensor(const tensor_base& t, std::string_view rule_op) : t_(t), rule_op_(rule_op) { watch(); }

saved_tensor saved_tensor::output(const tensor_base& out, std::string_view rule_op) {
    saved_tensor s;
    s.t_ = out.without_grad_node();
    s.output_node_ = out.grad_node();
    s.rule_op_ = std::string(rule_op);
    s.watch();
    return s;
}

saved_tensor::saved_tensor(const saved_tensor& other)
    : t_(other.t_), output_node_(other.output_node_), rule_op_(other.rule_op_) {
    if (other.watching_) {
        watch();
        version_ = other.version_;
    }
}

saved_tensor& saved_tensor::operator=(const saved_tensor& other) {
    if (this == &other) return *this;
    unwatch();
    t_ = other.t_;
    output_node_ = other.output_node_;
    rule_op_ = other.rule_op_;
    if (other.watching_) {
        watch();
        version_ = other.version_;
    }
    return *this;
}

saved_tensor::saved_tensor(saved_tensor&& other) noexcept
    : t_(std::move(other.t_)),
      output_node_(std::move(other.output_node_)),
      rule_op_(std::move(other.rule_op_)),
      version_(other.version_),
      watching_(std::exchange(other.watching_, false)) {}

saved_tensor& saved_tensor::operator=(saved_tensor&& other) noexcept {
    if (this == &other) return *this;
    unwatch();
    t_ = std::move(other.t_);
    output_node_ = std::move(other.output_node_);
    rule_op_ = std::move(other.rule_op_);
    version_ = other.version_;
    watching_ = std::exchange(other.watching_, false);
    return *this;
}

saved_tensor::~saved_tensor() { unwatch(); }

void saved_tensor::watch() {
    const void* key = storage_key(t_);
    if (key == nullptr) return;
    std::lock_guard lock(versions_mutex);
    auto [it, fresh] = versions().try_emplace(key);
    if (fresh) watched_storages.fetch_add(1, std::memory_order_relaxed);
    ++it->second.watchers;
    version_ = it->second.version;
    watching_ = true;
}

void saved_tensor::unwatch() noexcept {
    if (!watching_) return;
    watching_ = false;
    std::lock_guard lock(versions_mutex);
    auto it = versions().find(storage_key(t_));
    if (it == versions().end()) return;
    if (--it->second.watchers == 0) {
        versions().erase(it);
        watched_storages.fetch_sub(1, std::memory_order_relaxed);
    }
}

any_tensor saved_tensor::get() const {
    if (watching_) {
        std::string write;
        {
            std::lock_guard lock(versions_mutex);
            auto it = versions().find(storage_key(t_));
            if (it != versions().end() && it->second.version != version_) write = it->second.last_write;
        }
        if (!write.empty())
            throw error(errc::modified_in_place,
                        "backward: the rule of '" + rule_op_ + "' needs the tensor " + t_.describe() +
                            " it saved, which '" + write +
                            "' wrote in place since; compute on a copy (t.clone()) before "
                            "writing, or write after backward()");
    }
    if (auto n = output_node_.lock()) {
        tensor_base t = t_;
        t.set_grad_node(std::move(n));
        return any_tensor(std::move(t));
    }
    return any_tensor(t_);
}

// --- nodes --------------------------------------------------------------------------

std::string tape_node::describe() const { return "'" + op + "' (result " + spec_text(shape.span(), names.span()) + ")"; }

void attach_node(std::string_view op, tensor_base& out, std::initializer_list<const tensor_base*> inputs,
                 backward_rule rule) {
    if (!is_floating(out.type())) return;
    auto n = std::make_shared<tape_node>();
    n->op = std::string(op);
    n->type = out.type();
    n->shape = dims(out.shape());
    n->names = name_list(out.names());
    n->inputs.reserve(inputs.size());
    for (const tensor_base* in : inputs) n->inputs.push_back(in != nullptr ? in->grad_node() : nullptr);
    n->rule = std::move(rule);
    out.set_grad_node(std::move(n));
}

any_tensor zeros_of(dtype d, std::span<const std::int64_t> shape, std::span<const name> names) {
    tensor_base t = tensor_base::allocate(d, shape, names, "zeros");
    const std::uint64_t zero = 0;  // all-bits-zero is 0 in every element type
    t.fill(&zero);
    return any_tensor(std::move(t));
}

any_tensor scalar_of(dtype d, double value) {
    tensor_base t = tensor_base::allocate(d, {}, {}, "scalar");
    visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        const T v = static_cast<T>(value);
        t.fill(&v);
    });
    return any_tensor(std::move(t));
}

// --- the reverse pass ---------------------------------------------------------------

namespace {

// The gradient of a node, in its type, shape and names: rules compute in promoted
// types and may leave an axis unnamed.
any_tensor conform(any_tensor g, const tape_node& n) {
    if (g.dtype() != n.type) g = g.astype(n.type);
    if (!std::ranges::equal(g.shape(), n.shape.span()))
        throw error(errc::invalid_argument, "backward: the rule of " + n.describe() + " gave a gradient " +
                                                g.base().describe() + " (an ntensor defect: please report it)");
    if (!std::ranges::equal(g.names(), n.names.span())) g = g.rename(n.names.span());
    return g;
}

void add_into(std::optional<any_tensor>& slot, any_tensor g) {
    if (!slot) slot = std::move(g);
    else slot = *slot + g;
}

void accumulate_leaf(tape_node& leaf, any_tensor g, bool create_graph) {
    // Without create_graph the gradient may be a view of another's storage (the seed, a
    // broadcast): the leaf keeps its own copy.
    if (!create_graph) g = g.clone();
    std::lock_guard lock(leaf.grad_mutex);
    if (!leaf.grad) leaf.grad = g.base();
    else leaf.grad = (any_tensor(*leaf.grad) + g).base();
}

}  // namespace

std::vector<std::optional<any_tensor>> run_backward(std::span<const backward_root> roots,
                                                    std::span<const std::shared_ptr<tape_node>> targets,
                                                    bool accumulate, bool retain, bool create_graph) {
    std::unordered_map<const tape_node*, std::size_t> target_index;
    for (std::size_t i = 0; i < targets.size(); ++i) target_index.emplace(targets[i].get(), i);
    auto is_target = [&](const tape_node* n) { return target_index.count(n) != 0; };

    // Reachable nodes and how many edges lead into each (the inputs of a target or a
    // leaf are not followed).
    std::unordered_map<const tape_node*, std::size_t> pending;
    std::unordered_set<const tape_node*> seen;
    std::vector<tape_node*> stack;
    for (const backward_root& r : roots)
        if (seen.insert(r.node.get()).second) stack.push_back(r.node.get());
    while (!stack.empty()) {
        tape_node* n = stack.back();
        stack.pop_back();
        if (n->leaf || is_target(n)) continue;
        if (n->released)
            throw error(errc::invalid_argument,
                        "backward: the graph through " + n->describe() +
                            " was freed by an earlier backward pass; pass nt::backward_options{.retain_graph = "
                            "true} to the first backward() to run a second one");
        for (const auto& in : n->inputs) {
            if (!in) continue;
            ++pending[in.get()];
            if (seen.insert(in.get()).second) stack.push_back(in.get());
        }
    }

    std::unordered_map<const tape_node*, std::optional<any_tensor>> gradients;
    for (const backward_root& r : roots) add_into(gradients[r.node.get()], conform(r.seed, *r.node));

    std::vector<std::optional<any_tensor>> captured(targets.size());
    std::vector<tape_node*> ready;
    for (const backward_root& r : roots)
        if (pending[r.node.get()] == 0 &&
            std::find(ready.begin(), ready.end(), r.node.get()) == ready.end())
            ready.push_back(r.node.get());
    std::vector<tape_node*> passed;
    grad_mode_guard mode(create_graph);
    while (!ready.empty()) {
        tape_node* n = ready.back();
        ready.pop_back();
        auto it = gradients.find(n);
        std::optional<any_tensor> g;
        if (it != gradients.end()) {
            g = std::move(it->second);
            gradients.erase(it);
        }
        if (auto t = target_index.find(n); t != target_index.end()) {
            captured[t->second] = std::move(g);
            continue;
        }
        if (n->leaf) {
            if (accumulate && g) accumulate_leaf(*n, std::move(*g), create_graph);
            continue;
        }
        passed.push_back(n);
        input_gradients outs;
        if (g) outs = n->rule(*g);
        for (std::size_t i = 0; i < n->inputs.size(); ++i) {
            tape_node* in = n->inputs[i].get();
            if (in == nullptr) continue;
            if (i < outs.size() && outs[i]) add_into(gradients[in], conform(std::move(*outs[i]), *in));
            if (--pending[in] == 0) ready.push_back(in);
        }
    }
    if (!retain)
        for (tape_node* n : passed) {
            n->rule = nullptr;
            n->released = true;
        }
    return captured;
}

// --- the members of the handles (nt/detail/handle_ops.hpp) --------------------------

tensor_base mark_with_grad(const tensor_base& t) {
    if (!is_floating(t.type()))
        throw error(errc::invalid_argument, "with_grad: " + t.describe() + " holds " + std::string(numpy_name(t.type())) +
                                                " elements; only nt::half, float and double tensors take gradients "
                                                "(convert first: t.astype<float>().with_grad())");
    if (const auto& n = t.grad_node(); n && !n->leaf)
        throw error(errc::invalid_argument, "with_grad: " + t.describe() + " is the result of '" + n->op +
                                                "', not a leaf; gradients reach it through its inputs (mark a "
                                                "fresh leaf with t.detach().with_grad())");
    if (t.grad_node()) return t;
    tensor_base out = t;
    auto n = std::make_shared<tape_node>();
    n->op = "with_grad";
    n->leaf = true;
    n->type = t.type();
    n->shape = dims(t.shape());
    n->names = name_list(t.names());
    out.set_grad_node(std::move(n));
    return out;
}

void backward_from(const tensor_base& y, const tensor_base* seed, const backward_options& options) {
    const auto& n = y.grad_node();
    if (!n)
        throw error(errc::invalid_argument,
                    "backward: " + y.describe() +
                        " does not require a gradient: no tensor it was computed from was marked with_grad(), or it "
                        "was computed under nt::no_grad");
    any_tensor s;
    if (seed != nullptr) {
        if (!std::ranges::equal(seed->shape(), y.shape()) || !std::ranges::equal(seed->names(), y.names()))
            throw error(errc::invalid_argument, "backward: the seed " + seed->describe() + " must have the shape and names of " +
                                                    y.describe());
        s = any_tensor(seed->without_grad_node());
        if (options.create_graph) s = any_tensor(*seed);
    } else {
        if (y.size() != 1)
            throw error(errc::invalid_argument,
                        "backward: " + y.describe() + " has " + std::to_string(y.size()) +
                            " elements; backward() without a seed needs one element (reduce first, e.g. "
                            "nt::sum(y).backward(), or pass the seed: y.backward(seed))");
        s = scalar_of(y.type(), 1.0);
        s = s.reshape(y.shape(), y.names());
    }
    const backward_root root{n, s};
    (void)run_backward({&root, 1}, {}, true, options.retain_graph || options.create_graph, options.create_graph);
}

tensor_base grad_of(const tensor_base& t) {
    const auto& n = t.grad_node();
    if (!n)
        throw error(errc::no_gradient, "grad: " + t.describe() +
                                           " does not take part in a graph; mark it with t.with_grad() before "
                                           "computing from it, then call backward()");
    if (!n->leaf)
        throw error(errc::no_gradient, "grad: " + t.describe() + " is the result of '" + n->op +
                                           "'; only leaves (tensors marked with_grad) keep a gradient. Use "
                                           "nt::grad(f, x) or nt::vjp for gradients with respect to computed tensors");
    std::lock_guard lock(n->grad_mutex);
    if (!n->grad)
        throw error(errc::no_gradient, "grad: no gradient has reached " + t.describe() +
                                           " yet: call backward() on a value computed from it (one that depends on "
                                           "it), or check has_grad() first");
    return *n->grad;
}

bool has_grad_of(const tensor_base& t) noexcept {
    const auto& n = t.grad_node();
    if (!n || !n->leaf) return false;
    std::lock_guard lock(n->grad_mutex);
    return n->grad.has_value();
}

void zero_grad_of(const tensor_base& t) {
    const auto& n = t.grad_node();
    if (!n || !n->leaf) return;
    std::lock_guard lock(n->grad_mutex);
    if (n->grad) n->grad = zeros_of(n->type, n->shape.span(), n->names.span()).base();
}

}  // namespace nt::detail

namespace nt {

no_grad::no_grad() noexcept : previous_(detail::recording) { detail::recording = false; }
no_grad::~no_grad() { detail::recording = previous_; }

}  // namespace nt
