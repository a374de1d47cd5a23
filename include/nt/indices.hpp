// nt/indices.hpp: nt::indices(shape), the multi-indices of a shape in row-major
// order, as a range (a forward range of nt::dims):
//
//     for (const auto& i : nt::indices(t.shape())) total += t.at(i[0], i[1]);
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>

#include "nt/small_vector.hpp"

namespace nt {

/// The range returned by nt::indices.
class index_range {
public:
    class iterator {
    public:
        using iterator_concept = std::forward_iterator_tag;
        using iterator_category = std::forward_iterator_tag;
        using value_type = dims;
        using difference_type = std::ptrdiff_t;
        using reference = const dims&;
        using pointer = const dims*;

        iterator() = default;
        iterator(const index_range* r, std::int64_t flat) : r_(r), flat_(flat), index_(r->shape_.size(), 0) {}
        reference operator*() const noexcept { return index_; }
        pointer operator->() const noexcept { return &index_; }
        iterator& operator++() noexcept {
            ++flat_;
            for (std::size_t d = index_.size(); d-- > 0;) {  // odometer
                if (++index_[d] < r_->shape_[d]) break;
                index_[d] = 0;
            }
            return *this;
        }
        iterator operator++(int) {
            auto t = *this;
            ++*this;
            return t;
        }
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.flat_ == b.flat_; }

    private:
        const index_range* r_ = nullptr;
        std::int64_t flat_ = 0;
        dims index_;
    };

    explicit index_range(std::span<const std::int64_t> shape) : shape_(shape) {
        count_ = 1;
        for (std::int64_t n : shape_) count_ *= n;
    }
    [[nodiscard]] iterator begin() const { return iterator(this, 0); }
    [[nodiscard]] iterator end() const { return iterator(this, count_); }
    /// Number of multi-indices (the product of the sizes; 1 for rank 0).
    [[nodiscard]] std::int64_t size() const noexcept { return count_; }

private:
    dims shape_;
    std::int64_t count_ = 1;
};

/// The multi-indices of `shape` in row-major order (last index fastest); one empty
/// index for rank 0, none when a size is 0. The range owns a copy of the shape.
[[nodiscard]] inline index_range indices(std::span<const std::int64_t> shape) { return index_range(shape); }
[[nodiscard]] inline index_range indices(std::initializer_list<std::int64_t> shape) {
    return index_range(std::span<const std::int64_t>(shape.begin(), shape.size()));
}

}  // namespace nt
