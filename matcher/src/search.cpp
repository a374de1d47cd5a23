#include "search.hpp"

#include <limits>

namespace nt::detail {

namespace {

constexpr std::uint64_t saturated = std::uint64_t{1} << 63;

int gain(std::int64_t a, std::int64_t b) noexcept { return a == b && a != 1 ? 1 : 0; }

// best[i][j]: the best score (and how many placements reach it) for placing the
// first i `from` axes onto the first j `onto` axes, in order; score -1 = impossible.
struct cell {
    int score = -1;
    std::uint64_t count = 0;
};

class placement_table {
public:
    placement_table(std::span<const std::int64_t> from, std::span<const std::int64_t> onto, bool one_sided)
        : from_(from), onto_(onto), one_sided_(one_sided), columns_(onto.size() + 1), cells_((from.size() + 1) * (onto.size() + 1)) {
        for (std::size_t j = 0; j <= onto.size(); ++j) at(0, j) = {0, 1};
        for (std::size_t i = 1; i <= from.size(); ++i)
            for (std::size_t j = i; j <= onto.size(); ++j) at(i, j) = combine(skip(i, j), take(i, j));
    }

    [[nodiscard]] const cell& result() const { return at(from_.size(), onto_.size()); }

    // Placements reaching the optimum, found by walking back along optimal moves.
    void trace(std::size_t i, std::size_t j, small_vector<std::int32_t, 8>& partial,
               std::vector<small_vector<std::int32_t, 8>>& out, std::size_t limit) const {
        if (out.size() >= limit) return;
        if (i == 0) {
            out.push_back(partial);
            return;
        }
        const int target = at(i, j).score;
        const cell via_take = take(i, j);
        if (via_take.score == target && via_take.score >= 0) {
            partial[i - 1] = static_cast<std::int32_t>(j - 1);
            trace(i - 1, j - 1, partial, out, limit);
        }
        const cell via_skip = skip(i, j);
        if (via_skip.score == target && via_skip.score >= 0) trace(i, j - 1, partial, out, limit);
    }

    // With a unique optimum exactly one move keeps the optimum at every step, so a
    // greedy walk finds it without recursion or allocation.
    void trace_unique(small_vector<std::int32_t, 8>& placement) const {
        placement.clear();
        placement.resize(from_.size(), -1);
        std::size_t i = from_.size();
        std::size_t j = onto_.size();
        while (i > 0) {
            const cell via_take = take(i, j);
            if (via_take.score >= 0 && via_take.score == at(i, j).score) {
                placement[i - 1] = static_cast<std::int32_t>(j - 1);
                --i;
            }
            --j;
        }
    }

private:
    [[nodiscard]] cell& at(std::size_t i, std::size_t j) { return cells_[i * columns_ + j]; }
    [[nodiscard]] const cell& at(std::size_t i, std::size_t j) const { return cells_[i * columns_ + j]; }

    // Cells with j < i hold the default (impossible), so no bounds test is needed.
    [[nodiscard]] cell skip(std::size_t i, std::size_t j) const { return at(i, j - 1); }
    [[nodiscard]] cell take(std::size_t i, std::size_t j) const {
        const cell& before = at(i - 1, j - 1);
        if (before.score < 0 || !compatible(from_[i - 1], onto_[j - 1])) return {};
        return {before.score + gain(from_[i - 1], onto_[j - 1]), before.count};
    }
    [[nodiscard]] bool compatible(std::int64_t a, std::int64_t b) const noexcept {
        // A size < 0 is not known yet (match_options::unknown_sizes): it pairs with anything.
        return a == b || a == 1 || a < 0 || b < 0 || (!one_sided_ && b == 1);
    }
    static cell combine(cell a, cell b) {
        if (a.score != b.score) return a.score > b.score ? a : b;
        if (a.score < 0) return {};
        const std::uint64_t sum = a.count + b.count;
        return {a.score, sum >= saturated || sum < a.count ? saturated : sum};
    }

    std::span<const std::int64_t> from_;
    std::span<const std::int64_t> onto_;
    bool one_sided_;
    std::size_t columns_;
    small_vector<cell, 81> cells_;
};

}  // namespace

placement_search search_placements(std::span<const std::int64_t> from, std::span<const std::int64_t> onto,
                                   bool one_sided, std::size_t max_examples) {
    placement_search result;
    if (from.size() > onto.size()) return result;
    const placement_table table(from, onto, one_sided);
    const cell& best = table.result();
    if (best.score < 0) return result;
    result.count = best.count;
    result.best_score = best.score;
    small_vector<std::int32_t, 8> partial(from.size(), -1);
    table.trace(from.size(), onto.size(), partial, result.examples, max_examples);
    return result;
}

std::uint64_t best_placement(std::span<const std::int64_t> from, std::span<const std::int64_t> onto, bool one_sided,
                             small_vector<std::int32_t, 8>& placement) {
    if (from.size() > onto.size()) return 0;
    const placement_table table(from, onto, one_sided);
    const cell& best = table.result();
    if (best.score < 0) return 0;
    if (best.count == 1) table.trace_unique(placement);
    return best.count;
}

}  // namespace nt::detail
