// NumPy's broadcasting rule on bare shapes: the one home of right alignment.
#include <algorithm>

#include "nt/match.hpp"

namespace nt {

bool numpy_broadcast_shape(std::span<const std::span<const std::int64_t>> shapes, dims& out) {
    std::size_t rank = 0;
    for (const auto& s : shapes) rank = std::max(rank, s.size());
    out.clear();
    for (std::size_t o = 0; o < rank; ++o) {
        std::int64_t size = 1;
        for (const auto& s : shapes) {
            if (o + s.size() < rank) continue;
            const std::int64_t d = s[o + s.size() - rank];
            if (d == 1) continue;
            if (size != 1 && d != size) return false;
            size = d;
        }
        out.push_back(size);
    }
    return true;
}

bool numpy_broadcast_map(std::span<const std::int64_t> sizes, std::span<const std::int64_t> target,
                         small_vector<std::int32_t, 8>& map) {
    const std::size_t rank = sizes.size();
    if (rank > target.size()) return false;
    const std::size_t shift = target.size() - rank;
    map.clear();
    map.resize(target.size(), inserted_axis);
    for (std::size_t a = 0; a < rank; ++a) {
        if (sizes[a] != 1 && sizes[a] != target[a + shift]) return false;
        map[a + shift] = static_cast<std::int32_t>(a);
    }
    return true;
}

}  // namespace nt
