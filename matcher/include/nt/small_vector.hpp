// nt/small_vector.hpp: a vector of trivially copyable values with inline storage.
//
// Shapes, strides, specs and source maps are short (rank <= 8 almost always), so
// they live inline and the per-operation path never touches the heap; longer ones
// spill to the heap transparently. Restricted to trivially copyable element types,
// which keeps the implementation a handful of memcpy calls.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <span>
#include <type_traits>

namespace nt {

template <class T, std::size_t N = 8>
class small_vector {
    static_assert(std::is_trivially_copyable_v<T>, "small_vector holds trivially copyable values only");
    static_assert(N > 0);

public:
    using value_type = T;
    using size_type = std::size_t;
    using iterator = T*;
    using const_iterator = const T*;
    using reference = T&;
    using const_reference = const T&;

    small_vector() noexcept = default;
    explicit small_vector(size_type count, const T& value = T{}) { resize(count, value); }
    small_vector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    template <class It, class = decltype(*std::declval<It>())>
    small_vector(It first, It last) { assign(first, last); }
    explicit small_vector(std::span<const T> values) { assign(values.begin(), values.end()); }

    small_vector(const small_vector& other) {
        if (other.heap_) assign(other.begin(), other.end());
        else copy_inline(other);
    }
    small_vector(small_vector&& other) noexcept { steal(other); }
    small_vector& operator=(const small_vector& other) {
        if (this == &other) return *this;
        if (!heap_ && !other.heap_) copy_inline(other);
        else assign(other.begin(), other.end());
        return *this;
    }
    small_vector& operator=(small_vector&& other) noexcept {
        if (this != &other) {
            release();
            steal(other);
        }
        return *this;
    }
    ~small_vector() { release(); }

    template <class It>
    void assign(It first, It last) {
        const auto count = static_cast<size_type>(std::distance(first, last));
        size_ = 0;
        reserve(count);
        std::copy(first, last, data());
        size_ = count;
    }

    [[nodiscard]] T* data() noexcept { return heap_ ? heap_ : inline_data(); }
    [[nodiscard]] const T* data() const noexcept { return heap_ ? heap_ : inline_data(); }
    [[nodiscard]] size_type size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] size_type capacity() const noexcept { return heap_ ? capacity_ : N; }
    [[nodiscard]] bool is_inline() const noexcept { return heap_ == nullptr; }

    iterator begin() noexcept { return data(); }
    iterator end() noexcept { return data() + size_; }
    const_iterator begin() const noexcept { return data(); }
    const_iterator end() const noexcept { return data() + size_; }

    T& operator[](size_type i) noexcept { return data()[i]; }
    const T& operator[](size_type i) const noexcept { return data()[i]; }
    T& front() noexcept { return data()[0]; }
    const T& front() const noexcept { return data()[0]; }
    T& back() noexcept { return data()[size_ - 1]; }
    const T& back() const noexcept { return data()[size_ - 1]; }

    [[nodiscard]] std::span<const T> span() const noexcept { return {data(), size_}; }

    void reserve(size_type wanted) {
        if (wanted <= capacity()) return;
        size_type grown = std::max<size_type>(wanted, capacity() * 2);
        T* fresh = static_cast<T*>(::operator new(grown * sizeof(T), std::align_val_t{alignof(T)}));
        if (size_) std::memcpy(static_cast<void*>(fresh), data(), size_ * sizeof(T));
        release();
        heap_ = fresh;
        capacity_ = grown;
    }
    void resize(size_type count, const T& value = T{}) {
        reserve(count);
        for (size_type i = size_; i < count; ++i) data()[i] = value;
        size_ = count;
    }
    void clear() noexcept { size_ = 0; }
    void push_back(const T& value) {
        if (size_ == capacity()) {
            T copy = value;  // value may alias our storage
            reserve(size_ + 1);
            data()[size_++] = copy;
            return;
        }
        data()[size_++] = value;
    }
    void pop_back() noexcept { --size_; }
    iterator insert(const_iterator pos, const T& value) {
        const auto at = static_cast<size_type>(pos - data());
        T copy = value;
        reserve(size_ + 1);
        T* base = data();
        std::memmove(static_cast<void*>(base + at + 1), base + at, (size_ - at) * sizeof(T));
        base[at] = copy;
        ++size_;
        return base + at;
    }
    iterator erase(const_iterator pos) noexcept {
        const auto at = static_cast<size_type>(pos - data());
        T* base = data();
        std::memmove(static_cast<void*>(base + at), base + at + 1, (size_ - at - 1) * sizeof(T));
        --size_;
        return base + at;
    }

    friend bool operator==(const small_vector& a, const small_vector& b) noexcept {
        return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
    }

private:
    T* inline_data() noexcept { return std::launder(reinterpret_cast<T*>(inline_)); }
    const T* inline_data() const noexcept { return std::launder(reinterpret_cast<const T*>(inline_)); }
    void release() noexcept {
        if (heap_) ::operator delete(heap_, std::align_val_t{alignof(T)});
        heap_ = nullptr;
        capacity_ = 0;
    }
    void steal(small_vector& other) noexcept {
        size_ = other.size_;
        if (other.heap_) {
            heap_ = other.heap_;
            capacity_ = other.capacity_;
            other.heap_ = nullptr;
            other.capacity_ = 0;
        } else {
            copy_inline_bytes(other);
        }
        other.size_ = 0;
    }
    // Copying the whole inline buffer (a constant size) compiles to a few vector
    // moves, much cheaper than a call copying size_ elements: views copy shapes a lot.
    // The unused tail may be indeterminate; copying it as bytes is fine.
    void copy_inline(const small_vector& other) noexcept {
        copy_inline_bytes(other);
        size_ = other.size_;
    }
    // GCC warns that the tail past size_ may be uninitialised: it is, and copying it
    // as bytes is harmless (it is never read as T).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    void copy_inline_bytes(const small_vector& other) noexcept { std::memcpy(inline_, other.inline_, sizeof(inline_)); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

    T* heap_ = nullptr;
    size_type size_ = 0;
    size_type capacity_ = 0;
    alignas(T) unsigned char inline_[N * sizeof(T)];
};

/// Sizes, strides and positions: rank <= 8 stays inline.
using dims = small_vector<std::int64_t, 8>;

namespace detail {
/// Whether two short spans hold the same values, for the per-call checks of shapes
/// and strides and the per-thread memos: a plain loop over a few elements beats the
/// call to memcmp that std::ranges::equal makes of them.
template <class T>
[[nodiscard]] constexpr bool same_values(std::span<const T> a, std::span<const T> b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i])) return false;
    return true;
}
}  // namespace detail

}  // namespace nt
