// docs/static_names.md, "Names in the type": tensor_of, the compile-time plan,
// reductions and views by name, and the checks at the boundary with run-time tensors.
#include <nt/nt.hpp>
#include <nt/static.hpp>  // opt-in: not part of <nt/nt.hpp>

#include <iostream>

int main() {
    // [types]
    using img_t = nt::tensor_of<float, "?", "CHANNEL", "H", "W">;  // "?": unnamed
    using lbl_t = nt::tensor_of<float, "?", "H", "W">;
    img_t img = img_t::ones({2, 3, 4, 5});         // sizes stay run-time values
    lbl_t lbl = lbl_t::full({2, 4, 5}, 0.5f);
    auto masked = img * lbl;                        // solved while compiling: an img_t
    static_assert(std::is_same_v<decltype(masked), img_t>);
    std::cout << masked.spec() << " " << masked.at(1, 2, 3, 4) << "\n";
    // [types]

    // [plan]
    using plan = nt::static_plan<nt::axes<"?", "CHANNEL", "H", "W">, nt::axes<"?", "H", "W">>;
    static_assert(plan::output_names[1] == "CHANNEL");
    static_assert(plan::source_axes[1][1] == nt::inserted_axis);  // lbl gets a singleton there
    for (auto a : plan::source_axes[1]) std::cout << a << " ";
    std::cout << "\n";
    // [plan]

    // [reduce-views]
    auto per_channel = nt::mean<"H", "W">(masked);      // tensor_of<float, "?", "CHANNEL">
    auto hwc = masked.align_to<"H", "W", "CHANNEL", "?">();
    auto green = masked.index<"CHANNEL">(1);            // an lbl_t
    auto top = masked.slice<"H">(0, 2);                 // still an img_t
    std::cout << per_channel.spec() << " " << hwc.spec() << " " << green.spec() << " " << top.spec() << "\n";
    // [reduce-views]

    // [boundary]
    const nt::Tensor<float>& plain = masked;            // the same handle, no copy
    std::cout << nt::sum(plain).at() << "\n";           // every run-time function takes it
    nt::Tensor<float> loaded = nt::zeros<float>({2, 3, 4, 5}, {"?", "CLASS", "H", "W"});
    try {
        img_t wrong(loaded);                            // checked where run-time meets compile-time
    } catch (const nt::error& e) {
        std::cout << e.what() << "\n";
    }
    // [boundary]
}
