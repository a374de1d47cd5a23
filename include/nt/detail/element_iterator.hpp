// nt/detail/element_iterator.hpp: the random-access iterator of Tensor::begin() /
// end(): elements in row-major order for any strides (negative, zero), so a tensor
// models std::ranges::random_access_range and std::ranges::sort works on a writable
// view. Dereferencing maps the flat position to an offset: free for contiguous
// layouts, a few divisions per axis otherwise.
//
// The iterator copies the sizes and strides (inline up to rank 8), so it stays valid
// when the Tensor handle it came from is gone, as long as the storage lives (it does
// not keep the storage alive: keep a handle).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <type_traits>

#include "nt/small_vector.hpp"

namespace nt::detail {

template <class T, bool Const>
class element_iterator {
public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::remove_const_t<T>;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const T*, T*>;
    using reference = std::conditional_t<Const, const T&, T&>;

    element_iterator() = default;
    /// `origin` is the element at index 0..0; `flat` the row-major position.
    element_iterator(pointer origin, std::span<const std::int64_t> sizes, std::span<const std::int64_t> strides,
                     bool contiguous, std::int64_t flat) noexcept
        : origin_(origin), flat_(flat), contiguous_(contiguous) {
        if (!contiguous) {
            sizes_ = dims(sizes);
            strides_ = dims(strides);
        }
    }
    /// A const iterator from a mutable one.
    template <bool C = Const>
        requires C
    element_iterator(const element_iterator<T, false>& other) noexcept  // NOLINT
        : origin_(other.origin_), sizes_(other.sizes_), strides_(other.strides_), flat_(other.flat_),
          contiguous_(other.contiguous_) {}

    reference operator*() const noexcept { return origin_[offset(flat_)]; }
    pointer operator->() const noexcept { return origin_ + offset(flat_); }
    reference operator[](difference_type n) const noexcept { return origin_[offset(flat_ + n)]; }

    element_iterator& operator++() noexcept { ++flat_; return *this; }
    element_iterator operator++(int) noexcept { auto t = *this; ++flat_; return t; }
    element_iterator& operator--() noexcept { --flat_; return *this; }
    element_iterator operator--(int) noexcept { auto t = *this; --flat_; return t; }
    element_iterator& operator+=(difference_type n) noexcept { flat_ += n; return *this; }
    element_iterator& operator-=(difference_type n) noexcept { flat_ -= n; return *this; }
    friend element_iterator operator+(element_iterator it, difference_type n) noexcept { return it += n; }
    friend element_iterator operator+(difference_type n, element_iterator it) noexcept { return it += n; }
    friend element_iterator operator-(element_iterator it, difference_type n) noexcept { return it -= n; }
    friend difference_type operator-(const element_iterator& a, const element_iterator& b) noexcept {
        return static_cast<difference_type>(a.flat_ - b.flat_);
    }
    friend bool operator==(const element_iterator& a, const element_iterator& b) noexcept { return a.flat_ == b.flat_; }
    friend std::strong_ordering operator<=>(const element_iterator& a, const element_iterator& b) noexcept {
        return a.flat_ <=> b.flat_;
    }

private:
    template <class, bool>
    friend class element_iterator;

    std::int64_t offset(std::int64_t flat) const noexcept {
        if (contiguous_) return flat;
        std::int64_t off = 0;
        for (std::size_t d = sizes_.size(); d-- > 0;) {
            const std::int64_t n = sizes_[d];
            off += (flat % n) * strides_[d];
            flat /= n;
        }
        return off;
    }

    pointer origin_ = nullptr;
    dims sizes_;
    dims strides_;
    std::int64_t flat_ = 0;
    bool contiguous_ = true;
};

}  // namespace nt::detail
