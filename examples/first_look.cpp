// The README's first look, as a program CTest runs: matching, views, writes
// through views, and element-wise math with names.
#include <iostream>

// [first-look]
#include <nt/nt.hpp>

int main() {
    auto img = nt::zeros<float>({10, 3, 256, 384}, {"?", "CHANNEL", "H", "W"});
    auto lbl = nt::ones<float>({10, 256, 384}, {"?", "H", "W"});

    // The matcher alone: which axes pair, and how each input is viewed.
    const std::string_view labels[] = {"img", "lbl"};
    nt::plan p = nt::match({img.spec(), lbl.spec()});
    std::cout << nt::explain(p, labels);

    // Views: no copies, shared storage, names carried along.
    auto view = lbl.broadcast_like(img);  // stride 0 on CHANNEL, read-only
    std::cout << "broadcast_like: " << view.spec() << " read-only " << view.is_read_only() << "\n";
    auto hw = img.index(0, nt::all).align_to("H", "W", "CHANNEL");
    std::cout << "index + align_to: " << hw.spec() << " shares storage " << hw.shares_storage(img) << "\n";

    auto rows = nt::arange<int>(12).reshape({3, -1});  // (3,4), a view
    auto col = rows.index(nt::all, 1);                  // column 1, a view
    col.assign(nt::scalar(99));                         // writes through into rows
    std::cout << rows << "\n";

    // Element-wise math pairs axes by name: lbl gets a singleton at CHANNEL.
    auto sum = img + lbl * 2.0f;
    std::cout << "img + lbl * 2: " << sum.spec() << " mean " << nt::mean(sum).at() << "\n";
}
// [first-look]
