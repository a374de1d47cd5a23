// docs/guide.md, "A whole pipeline in one config": examples/specs/segmentation_pipeline.json
// describes the tensors of a segmentation pipeline with symbolic sizes (N, H, W,
// K = 3); `ntensor plan` checks it before any data moves, and this program checks
// the tensors against it as they flow. Run from the repository's root (CTest does).
#include <nt/nt.hpp>

#include <cstdint>
#include <iostream>

int main() {
    // [load]
    nt::pipeline_config cfg = nt::load_config("examples/specs/segmentation_pipeline.json");
    std::cout << "classes " << cfg.spec("classes") << "\n";  // K = 3 comes from "sizes"
    try {
        (void)cfg.spec("labels");  // N, H and W come from the first tensors checked
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << ": " << e.message() << "\n";
    }
    // [load]

    // [flow]
    // A batch from a loader: plain arrays without names.
    auto image = nt::zeros<std::uint8_t>({2, 3, 20, 26});
    auto labels = nt::zeros<std::int32_t>({2, 20, 26});
    cfg.check("image", image);    // binds N = 2, H = 20, W = 26
    cfg.check("labels", labels);  // must agree with them
    image = image.rename(cfg.spec("image"));
    labels = labels.rename(cfg.spec("labels"));
    std::cout << "image  " << image.spec() << "\n";
    std::cout << "N = " << *cfg.size("N") << ", H = " << *cfg.size("H") << ", W = " << *cfg.size("W") << "\n";

    // Tensors made by the pipeline are checked the same way, step outputs too.
    auto prob = nt::full<float>(cfg.spec("prob").sizes(), 1.0f / 3).rename(cfg.spec("prob"));
    auto ids = nt::arange<std::int32_t>(3).rename(cfg.spec("classes"));
    auto onehot = nt::astype<float>(ids.broadcast_like(prob) == labels);
    cfg.check("prob", prob);
    cfg.check("onehot", onehot);  // the output of step "one_hot"
    std::cout << "onehot " << onehot.spec() << "\n";

    // Derived sizes: 8x8 tiles every 6 pixels, (H - 8) / 6 + 1 of them.
    auto tiles = image.unfold("H", 8, 6, "PY").unfold("W", 8, 6, "PX").rename("H", "TY").rename("W", "TX");
    cfg.check("tiles", tiles);
    std::cout << "tiles  " << tiles.spec() << "\n";
    // [flow]

    // [wrong-size]
    // The next batch's labels come from a loader that crops one row too many.
    auto bad = nt::zeros<std::int32_t>({2, 21, 26});
    try {
        cfg.check("labels", bad);
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << ": " << e.message() << "\n";
    }
    // [wrong-size]
}
