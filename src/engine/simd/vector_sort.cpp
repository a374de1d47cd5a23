// Highway's vqsort behind nt::detail::vector_sort (see vector_sort.hpp).
#include "vector_sort.hpp"

#include <cstddef>

#include <hwy/contrib/sort/vqsort.h>

namespace nt::detail {

namespace {
// A Sorter holds scratch space; one per thread, since rows may sort on the pool.
const hwy::Sorter& sorter() {
    thread_local const hwy::Sorter s;
    return s;
}

template <class K>
void sort_keys(K* keys, std::int64_t n) {
    if (n > 1) sorter()(keys, static_cast<std::size_t>(n), hwy::SortAscending());
}
}  // namespace

void vector_sort(float* keys, std::int64_t n) { sort_keys(keys, n); }
void vector_sort(double* keys, std::int64_t n) { sort_keys(keys, n); }
void vector_sort(std::int32_t* keys, std::int64_t n) { sort_keys(keys, n); }
void vector_sort(std::int64_t* keys, std::int64_t n) { sort_keys(keys, n); }
void vector_sort(std::uint32_t* keys, std::int64_t n) { sort_keys(keys, n); }
void vector_sort(std::uint64_t* keys, std::int64_t n) { sort_keys(keys, n); }

static_assert(sizeof(key128) == sizeof(hwy::uint128_t) && alignof(key128) == alignof(hwy::uint128_t));
// The keys cross into libhwy_contrib as its own type: no code here reads them through
// both types.
void vector_sort(key128* keys, std::int64_t n) { sort_keys(reinterpret_cast<hwy::uint128_t*>(keys), n); }

}  // namespace nt::detail
