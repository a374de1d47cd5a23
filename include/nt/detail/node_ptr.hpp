// nt/detail/node_ptr.hpp: the counted pointer from a tensor to its node in a gradient
// graph (src/autograd/graph.hpp).
//
// Recording copies and drops these pointers several times per operation. Their counts
// are kept by src/autograd/graph.cpp without a locked instruction on the thread that
// made the node (biased reference counting), out of line, so that this header needs
// no atomics and a tensor outside any graph pays one null test.
#pragma once

#include <cstddef>
#include <utility>

namespace nt::detail {

struct tape_node;

void retain_node(tape_node* node) noexcept;
void release_node(tape_node* node) noexcept;

class node_ptr {
public:
    node_ptr() noexcept = default;
    node_ptr(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
    /// Takes over a reference already counted for `node` (a new node's first).
    [[nodiscard]] static node_ptr adopt(tape_node* node) noexcept {
        node_ptr p;
        p.node_ = node;
        return p;
    }
    node_ptr(const node_ptr& other) noexcept : node_(other.node_) {
        if (node_ != nullptr) retain_node(node_);
    }
    node_ptr(node_ptr&& other) noexcept : node_(std::exchange(other.node_, nullptr)) {}
    node_ptr& operator=(const node_ptr& other) noexcept {
        node_ptr(other).swap(*this);
        return *this;
    }
    node_ptr& operator=(node_ptr&& other) noexcept {
        node_ptr(std::move(other)).swap(*this);
        return *this;
    }
    ~node_ptr() {
        if (node_ != nullptr) release_node(node_);
    }

    void reset() noexcept {
        if (tape_node* n = std::exchange(node_, nullptr)) release_node(n);
    }
    void swap(node_ptr& other) noexcept { std::swap(node_, other.node_); }

    [[nodiscard]] tape_node* get() const noexcept { return node_; }
    tape_node& operator*() const noexcept { return *node_; }
    tape_node* operator->() const noexcept { return node_; }
    explicit operator bool() const noexcept { return node_ != nullptr; }
    friend bool operator==(const node_ptr& a, std::nullptr_t) noexcept { return a.node_ == nullptr; }
    friend bool operator==(const node_ptr& a, const node_ptr& b) noexcept { return a.node_ == b.node_; }

private:
    tape_node* node_ = nullptr;
};

}  // namespace nt::detail
