// docs/guide.md, "Names": naming axes, and how names follow each operation.
#include <nt/nt.hpp>

#include <iostream>

// SPEC(expr) prints an expression and the spec of the tensor it gives:
// SPEC(t.squeeze(0)) prints "t.squeeze(0) -> (6,1)".
#define SPEC(...) (std::cout << #__VA_ARGS__ << " -> " << (__VA_ARGS__).spec() << "\n")

int main() {
    // [spec-forms]
    auto batch = nt::zeros<float>({10, 3, 4, 5}, {"?", "CHANNEL", "H", "W"});      // "?": unnamed
    auto same = nt::zeros<float>({10, 3, 4, 5}, nt::parse_names("? CHANNEL H W"));  // one string
    std::cout << batch.spec() << "\n";                  // sizes | names
    std::cout << nt::names_string(same.spec()) << "\n";  // the names form again
    auto s = nt::parse_spec("(10,4,5 | ?,H,W)");        // a spec: what the matcher sees
    auto lbl = nt::empty<float>(s);                     // shaped and named like s, uninitialised
    for (nt::name n : lbl.names()) std::cout << n.str() << (n.has_value() ? " named\n" : " unnamed\n");
    // [spec-forms]

    // [naming]
    auto t = nt::zeros<float>({2, 3, 4});  // no names
    SPEC(t);
    SPEC(t.rename({"N", "C", "W"}));
    SPEC(t.refine_names({"N", "..."}));
    auto named = t.refine_names({"N", "?", "W"});
    SPEC(named);
    SPEC(named.rename("W", "X"));
    SPEC(named.rename({}));
    try {
        (void)named.refine_names({"B", "C", "W"});  // N is already named
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << ": " << e.message() << "\n";
    }
    // [naming]

    // [by-name]
    auto img = nt::zeros<float>({2, 3, 4, 5}, {"N", "C", "H", "W"});
    std::cout << "img.size(\"H\") -> " << img.size("H") << "\n";
    SPEC(img.swap_axes("H", "W"));
    SPEC(img.align_to("N", "H", "W", "C"));
    SPEC(img.align_to("...", "C"));
    SPEC(img.align_to("C", "...", "N"));
    // [by-name]

    // [propagation]
    SPEC(img.index(0));  // drops N
    SPEC(img.index(nt::all, 1));
    SPEC(img.slice("W", 1, 3));
    SPEC(img.unsqueeze(1));
    SPEC(img.unfold("W", 2));
    SPEC(img.unfold("W", 2, 1, "K"));
    SPEC(img.reshape({2, 3, 20}));  // prefix kept
    SPEC(img.reshape({6, 4, 5}));  // suffix kept
    SPEC(img.reshape({2, 12, 5}));  // both
    SPEC(img.reshape({6, 20}, {"B", "P"}));
    SPEC(img.flatten("H", "W", "HW"));
    SPEC(img.unflatten("W", {1, 5}, {"S", "W"}));
    SPEC(img.broadcast_left({7}));
    SPEC(nt::sum(img, "C"));
    // [propagation]
}
