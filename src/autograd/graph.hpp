// The gradient tape: the nodes operations record on their results, the tensors their
// rules save, and the reverse pass over them.
//
// A node belongs to one result (or is a leaf marked with_grad). It holds the nodes of
// its inputs and a rule that turns the gradient of its result into the gradients of
// its inputs. Rules are written with ntensor's own operations on any_tensor, so the
// backward pass records itself when asked (create_graph) and gradients of gradients
// follow. The graph lives as long as the tensors that hold its last nodes.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
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

// --- the tape's memory ----------------------------------------------------------------
// A recorded operation makes a node, its rule and its saved tensors: small blocks that
// all go when the graph goes, in the thousands per training step. They come from a
// per-thread cache of free blocks by size (the C library's own cache holds a few per
// size, and a freed graph returns hundreds at once). Under AddressSanitizer they come
// from operator new, so that its checks see every block.

[[nodiscard]] void* tape_allocate(std::size_t bytes);
void tape_deallocate(void* block, std::size_t bytes) noexcept;

template <class T>
struct tape_allocator {
    using value_type = T;
    tape_allocator() noexcept = default;
    template <class U>
    tape_allocator(const tape_allocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)
    [[nodiscard]] T* allocate(std::size_t n) {
        static_assert(alignof(T) <= alignof(std::max_align_t));
        return static_cast<T*>(tape_allocate(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept { tape_deallocate(p, n * sizeof(T)); }
    template <class U>
    bool operator==(const tape_allocator<U>&) const noexcept {
        return true;
    }
};

/// A T in tape memory, owned by one pointer.
template <class T>
struct tape_delete {
    void operator()(T* p) const noexcept {
        p->~T();
        tape_deallocate(const_cast<std::remove_const_t<T>*>(p), sizeof(T));
    }
};
template <class T>
using tape_unique = std::unique_ptr<T, tape_delete<T>>;
template <class T, class... Args>
[[nodiscard]] tape_unique<T> make_tape_unique(Args&&... args) {
    void* memory = tape_allocate(sizeof(T));
    try {
        return tape_unique<T>(::new (memory) T(std::forward<Args>(args)...));
    } catch (...) {
        tape_deallocate(memory, sizeof(T));
        throw;
    }
}

/// A node's rule: turns the gradient of its result into the gradients of its inputs.
/// A move-only callable (std::function without the copies). The rules of element-wise
/// operations, recorded thousands of times a step, live in the node itself; larger
/// ones in tape memory.
class backward_rule {
public:
    static constexpr std::size_t inline_bytes = 48;

    backward_rule() noexcept = default;
    backward_rule(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
    template <class F>
        requires(!std::is_same_v<std::decay_t<F>, backward_rule> &&
                 std::is_invocable_r_v<input_gradients, std::decay_t<F>&, const any_tensor&>)
    backward_rule(F&& f)  // NOLINT(google-explicit-constructor)
    {
        construct(std::forward<F>(f));
    }
    backward_rule(backward_rule&& other) noexcept { take(other); }
    backward_rule& operator=(backward_rule&& other) noexcept {
        if (this != &other) {
            reset();
            take(other);
        }
        return *this;
    }
    backward_rule& operator=(std::nullptr_t) noexcept {
        reset();
        return *this;
    }
    /// Replaces the rule by `f`, built in place.
    template <class F>
    void emplace(F&& f) {
        reset();
        construct(std::forward<F>(f));
    }
    /// Replaces the rule by a G made of `args` in place (no temporary to move from).
    template <class G, class... Args>
    void emplace(Args&&... args) {
        static_assert(stored_inline<G>, "emplace<G> is for rules that fit in the node");
        reset();
        object_ = ::new (static_cast<void*>(buffer_)) G{std::forward<Args>(args)...};
        ops_ = &ops_of<G>;
    }
    ~backward_rule() { reset(); }

    explicit operator bool() const noexcept { return object_ != nullptr; }
    input_gradients operator()(const any_tensor& gradient) const { return ops_->call(object_, gradient); }

private:
    template <class G>
    static constexpr bool stored_inline = sizeof(G) <= inline_bytes && alignof(G) <= alignof(std::uint64_t) &&
                                          std::is_nothrow_move_constructible_v<G>;

    struct operations {
        input_gradients (*call)(void* object, const any_tensor& gradient);
        void (*destroy)(void* object) noexcept;
        // Inline rules only: moves the rule to `to` and destroys it at `from`.
        void (*relocate)(void* from, void* to) noexcept;
    };
    template <class G>
    static constexpr operations ops_of{
        [](void* o, const any_tensor& g) -> input_gradients { return (*static_cast<G*>(o))(g); },
        [](void* o) noexcept {
            static_cast<G*>(o)->~G();
            if constexpr (!stored_inline<G>) tape_deallocate(o, sizeof(G));
        },
        stored_inline<G> ? +[](void* from, void* to) noexcept {
            if constexpr (stored_inline<G>) {
                ::new (to) G(std::move(*static_cast<G*>(from)));
                static_cast<G*>(from)->~G();
            }
        } : nullptr};

    template <class F>
    void construct(F&& f) {
        using G = std::decay_t<F>;
        if constexpr (stored_inline<G>) {
            object_ = ::new (static_cast<void*>(buffer_)) G(std::forward<F>(f));
        } else {
            void* block = tape_allocate(sizeof(G));
            try {
                object_ = ::new (block) G(std::forward<F>(f));
            } catch (...) {
                tape_deallocate(block, sizeof(G));
                throw;
            }
        }
        ops_ = &ops_of<G>;
    }
    void take(backward_rule& other) noexcept {
        if (other.object_ == nullptr) return;
        ops_ = other.ops_;
        if (other.object_ == static_cast<void*>(other.buffer_)) {
            ops_->relocate(other.buffer_, buffer_);
            object_ = buffer_;
        } else {
            object_ = other.object_;
        }
        other.object_ = nullptr;
        other.ops_ = nullptr;
    }
    void reset() noexcept {
        if (object_ != nullptr) ops_->destroy(std::exchange(object_, nullptr));
    }

    alignas(std::uint64_t) std::byte buffer_[inline_bytes];
    void* object_ = nullptr;
    const operations* ops_ = nullptr;
};

/// A node's inputs: two in the node (most operations), more in tape memory.
class node_inputs {
public:
    using value_type = node_ptr;

    node_inputs() noexcept = default;
    /// The nodes of `inputs` (null for a null pointer or a tensor outside any graph).
    explicit node_inputs(std::initializer_list<const tensor_base*> inputs)
        : few_{inputs.size() <= 2 && inputs.size() > 0 ? node_of(inputs.begin()[0]) : value_type(),
               inputs.size() == 2 ? node_of(inputs.begin()[1]) : value_type()},
          size_(inputs.size() <= 2 ? static_cast<std::uint32_t>(inputs.size()) : 0) {
        if (inputs.size() <= 2) return;
        reserve(inputs.size());
        for (const tensor_base* in : inputs) emplace_back(node_of(in));
    }
    node_inputs(const node_inputs&) = delete;
    node_inputs& operator=(const node_inputs&) = delete;
    ~node_inputs() {
        if (more_ == nullptr) return;
        more_->~more_list();
        tape_deallocate(more_, sizeof(more_list));
    }

    void reserve(std::size_t n) {
        if (n > few_.size()) more().reserve(n);
    }
    template <class... Args>
    void emplace_back(Args&&... args) {
        if (size_ < few_.size() && more_ == nullptr) {
            few_[size_++] = value_type(std::forward<Args>(args)...);
            return;
        }
        more_list& m = more();
        if (m.empty())
            for (std::size_t i = 0; i < size_; ++i) m.push_back(std::move(few_[i]));
        m.emplace_back(std::forward<Args>(args)...);
        ++size_;
    }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] const value_type* begin() const noexcept {
        return more_ != nullptr && !more_->empty() ? more_->data() : few_.data();
    }
    [[nodiscard]] const value_type* end() const noexcept { return begin() + size_; }
    [[nodiscard]] const value_type& operator[](std::size_t i) const noexcept { return begin()[i]; }

private:
    static value_type node_of(const tensor_base* t) { return t != nullptr ? t->grad_node() : value_type(); }
    using more_list = std::vector<value_type, tape_allocator<value_type>>;
    more_list& more() {
        if (more_ == nullptr) more_ = ::new (tape_allocate(sizeof(more_list))) more_list();
        return *more_;
    }
    std::array<value_type, 2> few_;
    // Operations of more than two inputs (clip, concatenate) only: a pointer keeps the
    // node of every other operation a cache line smaller.
    more_list* more_ = nullptr;
    std::uint32_t size_ = 0;
};

/// Copies the n elements of a shape, strides or names. Most tensors have one to four
/// axes: element by element, where a memcpy of a run-time size is a call (or a rep
/// movs) whose start-up costs more than the copy.
template <class T>
void copy_few(T* to, const T* from, std::size_t n) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    switch (n) {
        case 4: to[3] = from[3]; [[fallthrough]];
        case 3: to[2] = from[2]; [[fallthrough]];
        case 2: to[1] = from[1]; [[fallthrough]];
        case 1: to[0] = from[0]; [[fallthrough]];
        case 0: return;
        default: std::memcpy(static_cast<void*>(to), static_cast<const void*>(from), n * sizeof(T));
    }
}

/// True when two short lists (shapes, names) hold the same elements, compared one by
/// one: std::ranges::equal calls memcmp for the sizes, whose start-up costs more than
/// the comparison of a few.
template <class T>
[[nodiscard]] bool equal_few(std::span<const T> a, std::span<const T> b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i])) return false;
    return true;
}
/// True when `a` and `b` have the same sizes and names.
[[nodiscard]] inline bool same_spec(const tensor_base& a, const tensor_base& b) noexcept {
    return equal_few(a.shape(), b.shape()) && equal_few(a.names(), b.names());
}

/// A node's copy of its result's sizes or names: a few in the node, more in tape
/// memory. Recording copies them for every operation; a dims or name_list is mostly
/// inline room for rank 8 that each copy writes whole.
template <class T, std::size_t Few>
class node_list {
public:
    node_list() noexcept {}  // NOLINT(modernize-use-equals-default): leaves few_ unwritten
    node_list(const node_list&) = delete;
    node_list& operator=(const node_list&) = delete;
    ~node_list() { release(); }

    void assign(std::span<const T> values) {
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
        release();
        T* to = few_;
        if (values.size() > Few) to = more_ = static_cast<T*>(tape_allocate(values.size() * sizeof(T)));
        size_ = static_cast<std::uint32_t>(values.size());
        copy_few(to, values.data(), values.size());
    }
    [[nodiscard]] std::span<const T> span() const noexcept { return {size_ > Few ? more_ : few_, size_}; }

private:
    void release() noexcept {
        if (size_ > Few) tape_deallocate(more_, size_ * sizeof(T));
        size_ = 0;
    }
    union {
        T few_[Few];
        T* more_;  // when size_ > Few
    };
    std::uint32_t size_ = 0;
};

/// Keeps one copy of an operation's name for the life of the process: names longer
/// than op_name holds are few (the operations' own), so interning them costs no more
/// memory than the set of operations.
[[nodiscard]] const std::string* intern_op_name(std::string_view s);

/// The name of a node's operation, for messages. Most are a few letters, kept in the
/// node by fixed-size copies: building a std::string from a string_view is a call
/// and a memcpy for every recorded operation.
class op_name {
public:
    op_name() noexcept {}  // NOLINT(modernize-use-equals-default): leaves few_ unwritten
    op_name(const op_name&) = delete;
    op_name& operator=(const op_name&) = delete;
    op_name& operator=(std::string_view s) {
        if (s.size() > sizeof(few_)) {
            const std::string* kept = intern_op_name(s);
            std::memcpy(few_, &kept, sizeof(kept));
            size_ = interned;
            return *this;
        }
        size_ = static_cast<std::uint8_t>(s.size());
        const char* from = s.data();
        // Two overlapping copies of a fixed size cover any length between it and twice it.
        auto copy_ends = [&]<std::size_t W>(std::integral_constant<std::size_t, W>) {
            std::memcpy(few_, from, W);
            std::memcpy(few_ + size_ - W, from + size_ - W, W);
        };
        if (size_ >= 8) {
            copy_ends(std::integral_constant<std::size_t, 8>{});
        } else if (size_ >= 4) {
            copy_ends(std::integral_constant<std::size_t, 4>{});
        } else if (size_ >= 2) {
            copy_ends(std::integral_constant<std::size_t, 2>{});
        } else if (size_ == 1) {
            few_[0] = from[0];
        }
        return *this;
    }
    [[nodiscard]] std::string_view view() const noexcept {
        if (size_ != interned) return {few_, size_};
        const std::string* kept = nullptr;
        std::memcpy(&kept, few_, sizeof(kept));
        return *kept;
    }
    [[nodiscard]] std::string str() const { return std::string(view()); }

    friend std::string operator+(std::string a, const op_name& b) { return a.append(b.view()); }
    friend std::string operator+(const char* a, const op_name& b) { return std::string(a).append(b.view()); }
    friend std::string operator+(const op_name& a, const char* b) { return a.str().append(b); }
    friend std::string operator+(const op_name& a, const std::string& b) { return a.str().append(b); }

private:
    static constexpr std::uint8_t interned = 0xff;
    char few_[15];  // the name, or (size_ == interned) a pointer to its interned copy
    std::uint8_t size_ = 0;
};

/// What a leaf (a tensor marked with_grad) keeps: its accumulated gradient. Two
/// graphs on two threads may reach one leaf.
struct leaf_gradient {
    std::mutex mutex;
    std::optional<tensor_base> value;
};

/// A thread that makes nodes: it counts their references without locked
/// instructions (graph.cpp).
struct thread_record;

struct tape_node {
    // User-provided: make_tape_node's value-initialisation would zero the whole node
    // (its inline shape and names buffers too) before the members' initialisers run.
    tape_node() noexcept {}  // NOLINT(modernize-use-equals-default)
    /// The node of an operation: every member written once.
    tape_node(std::string_view operation, const tensor_base& result, std::initializer_list<const tensor_base*> in,
              backward_rule&& r)
        : type(result.type()), inputs(in), rule(std::move(r)) {
        op = operation;
        shape.assign(result.shape());
        names.assign(result.names());
    }

    // The counts of node_ptr (graph.cpp): the thread that made the node counts its own
    // references in `local` with plain stores; other threads count in `shared`.
    union {
        thread_record* owner;  // set once, when made
        tape_node* next_dying;  // once no reference is left: the nodes being destroyed
    };
    std::uint32_t local = 1;
    std::atomic<std::int64_t> shared{0};

    op_name op;  // the operation, for messages
    dtype type = dtype::f32;
    bool released = false;  // the rule was freed by a backward pass without retain_graph
    // null where an input takes no gradient
    node_inputs inputs;
    backward_rule rule;
    // Leaves only (an operation's node has none: it is made thousands of times a step).
    std::unique_ptr<leaf_gradient> leaf;
    // The result's spec, for the gradients' checks and messages.
    node_list<std::int64_t, 4> shape;
    node_list<name, 4> names;

    [[nodiscard]] std::string describe() const;
};

/// A new node (in tape memory).
[[nodiscard]] node_ptr make_tape_node();

/// Records `rule` as the node of `out`, with the nodes of `inputs` (a null pointer or
/// a tensor outside any graph gives a null input). Does nothing when `out` is not
/// floating.
void attach_node(std::string_view op, tensor_base& out, std::initializer_list<const tensor_base*> inputs,
                 backward_rule rule);

/// A tensor a rule keeps for the backward pass. Reading it back checks that its
/// storage was not written since (modified_in_place: the reverse pass names the rule
/// and the write). A rule's own result is kept without its node (the node holds the
/// rule: a cycle), and gets it back when read.
///
/// Each copy owns its block in tape memory: rules move their saved tensors, and a
/// shared block would cost an atomic count on every save and free.
class saved_tensor {
public:
    saved_tensor() noexcept = default;
    /// Any tensor, its node (if any) kept with it.
    explicit saved_tensor(const tensor_base& t);
    /// An input of the node whose rule saves it: its node is taken back from that
    /// node's inputs when the rule runs, so saving takes no reference.
    static saved_tensor input(const tensor_base& in);
    /// The result of the operation that saves it (attach the node first).
    static saved_tensor output(const tensor_base& out);

    saved_tensor(const saved_tensor& other);
    saved_tensor& operator=(const saved_tensor& other);
    saved_tensor(saved_tensor&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
    saved_tensor& operator=(saved_tensor&& other) noexcept;
    // Inline: most rules hold saved tensors that saved nothing (y + b saves none).
    ~saved_tensor() {
        if (block_ != nullptr) release(block_);
    }

    [[nodiscard]] any_tensor get() const;

    struct block;  // the tensor and its watch of the storage's version (graph.cpp)

private:
    static void release(block* b) noexcept;
    block* block_ = nullptr;
};

/// How a saved tensor finds its node again (graph.cpp).
enum class saved_kind : std::uint8_t { other, input, output };

/// Where a reverse pass starts: a node and the gradient of its result.
struct backward_root {
    node_ptr node;
    any_tensor seed;
};

/// The reverse pass. Gradients reaching a node of `targets` are returned (in order;
/// nullopt for a target not reached) and go no further; when `accumulate`, those
/// reaching leaves are added to their grad(). Without `retain`, the rules of the
/// nodes passed are freed. With `create_graph` the rules record.
[[nodiscard]] std::vector<std::optional<any_tensor>> run_backward(std::span<const backward_root> roots,
                                                                  std::span<const node_ptr> targets,
                                                                  bool accumulate, bool retain, bool create_graph);

/// Zeros of dtype `d` shaped as `shape` with `names`.
[[nodiscard]] any_tensor zeros_of(dtype d, std::span<const std::int64_t> shape, std::span<const name> names);
/// A rank-0 tensor of dtype `d` holding `value`.
[[nodiscard]] any_tensor scalar_of(dtype d, double value);

}  // namespace nt::detail
