// docs/guide.md, "Joining, padding, windows and patterns": the structural operations
// that pipelines reach for (nt/structure.hpp, nt/rearrange.hpp).
#include <nt/nt.hpp>

#include <algorithm>
#include <iostream>
#include <utility>

#define SHOW(...) (std::cout << #__VA_ARGS__ << "\n" << (__VA_ARGS__) << "\n")
#define SPEC(...) (std::cout << #__VA_ARGS__ << " -> " << (__VA_ARGS__).spec() << "\n")

int main() {
    std::cout << std::boolalpha;

    // [join]
    auto a = nt::arange<int>(6).reshape({2, 3}, {"H", "W"});
    auto b = (nt::arange<int>(3) + 10).reshape({3, 1}, {"W", "H"});  // other order
    SHOW(nt::concatenate({a, b}, "H"));  // b is matched to a by names
    SPEC(nt::stack({a, a, a}, 0, "N"));
    auto parts = nt::split(a, "W", {1});  // views: [0, 1) and [1, 3)
    std::cout << parts.size() << " parts, " << parts[1].spec() << ", a view: " << parts[1].shares_storage(a) << "\n";
    SPEC(nt::chunk(a, 2, "W")[1]);
    // [join]

    // [pad]
    auto row = nt::arange<int>(4);
    SHOW(nt::pad(row, {{0, {2, 3}}}));  // constant 0
    SHOW(nt::pad(row, {{0, {2, 3}}}, nt::pad_mode::reflect));
    SHOW(nt::pad(row, {{0, {2, 3}}}, nt::pad_mode::symmetric));
    SHOW(nt::pad(row, {{0, {2, 3}}}, nt::pad_mode::wrap));
    SHOW(nt::pad(nt::arange<int>(3), {{0, {5, 5}}}, nt::pad_mode::reflect));  // wider than the axis: again
    SPEC(nt::pad(a, {{"H", {1, 1}}, {"W", {2, 2}}}, nt::pad_mode::edge));
    // [pad]

    // [flip-roll]
    SHOW(a.flip("W"));  // a view with a negative stride
    SHOW(nt::roll(row, 1, 0));
    SHOW(nt::repeat(row, 2, 0));
    SHOW(nt::tile(row, {2}));
    // [flip-roll]

    // [windows]
    auto vol = nt::ones<float>({10, 10, 10}, {"D", "H", "W"});
    auto patches = vol.unfold({"D", "H", "W"}, {4, 4, 4}, {3, 3, 3});
    SPEC(patches);  // D, H, W now count windows; the window axes come last
    std::cout << "a view: " << patches.shares_storage(vol) << ", read-only: " << patches.is_read_only() << "\n";
    auto added = nt::fold(patches, {"D", "H", "W"}, {10, 10, 10}, {3, 3, 3});
    auto counts = nt::fold_counts(patches, {"D", "H", "W"}, {10, 10, 10}, {3, 3, 3});
    std::cout << "added(3,3,3) " << added.at(3, 3, 3) << ", counts(3,3,3) " << counts.at(3, 3, 3) << "\n";
    auto averaged = nt::fold(patches, {"D", "H", "W"}, {10, 10, 10}, {3, 3, 3}, nt::fold_norm::average);
    std::cout << "averaged: min " << nt::min(averaged).at() << ", max " << nt::max(averaged).at() << "\n";
    // [windows]

    // [patterns]
    auto x = nt::arange<float>(2 * 3 * 4 * 4).reshape({2, 3, 4, 4}, {"N", "C", "H", "W"});
    SPEC(nt::rearrange(x, "N C H W -> N H W C"));  // a view
    SPEC(nt::rearrange(x, "N C (H ph) (W pw) -> N (C ph pw) H W", {{"ph", 2}, {"pw", 2}}));
    SPEC(nt::rearrange(x, "N C (H ph) (W pw) -> N (C ph pw):K H W", {{"ph", 2}, {"pw", 2}}));
    SPEC(nt::rearrange(x, "... W -> W ..."));
    SPEC(nt::reduce(x, "N C (H 2) (W 2) -> N C H W", nt::reduce_op::max));
    SPEC(nt::repeat(nt::zeros<float>({4, 4}, {"H", "W"}), "H W -> H W C", {{"C", 3}}));
    try {
        (void)nt::rearrange(x, "N C (H ph) W -> N C H ph W", {{"ph", 3}});
    } catch (const nt::error& e) {
        std::cout << e.what() << "\n";
    }
    // [patterns]

    // [ranges]
    auto scores = nt::tensor<int>({{5, 1, 4}, {2, 9, 3}}).rename({"N", "C"});
    auto first = scores.index(nt::all, 0);   // a strided view: the first column
    std::ranges::sort(first);                // sorts in place, through the strides
    int total = 0;
    for (int v : std::as_const(scores)) total += v;  // row-major, any layout
    std::cout << scores << "\ntotal " << total << ", max at";
    for (const auto& i : nt::indices(scores.shape()))
        if (scores.at(i[0], i[1]) == nt::max(scores).at()) std::cout << " (" << i[0] << "," << i[1] << ")";
    std::cout << "\n";
    // [ranges]
}
