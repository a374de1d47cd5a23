// The guide's "Data in and out" chapter: NumPy writes a CT-like int16 volume,
// ntensor maps it, computes and saves, NumPy reads the results. CTest runs the
// chapter's Python commands before and after this program (tests/io.cmake), in the
// folder given as the first argument.
#include <filesystem>
#include <iostream>

#include <nt/nt.hpp>

int main(int argc, char** argv) {
    if (argc > 1) std::filesystem::current_path(argv[1]);

    // [map]
    nt::any_tensor ct = nt::map_npy("ct.npy", nt::map_mode::read_only, {"Z", "Y", "X"});
    std::cout << "ct.npy: " << ct.spec() << " " << nt::to_string(ct.dtype())
              << ", read-only " << ct.is_read_only() << "\n";
    // [map]

    // [compute]
    // Runtime-typed math promotes as NumPy does: i16 clipped, then / 1000.0 gives f64.
    nt::any_tensor windowed = nt::minimum(nt::maximum(ct, -1000), 1000) / 1000.0;
    nt::any_tensor bone = ct > 300;                              // b8
    nt::any_tensor per_slice = nt::mean(bone, {"Y", "X"});       // f64, one value per Z
    std::cout << "windowed " << nt::to_string(windowed.dtype()) << " " << windowed.spec() << "\n";
    std::cout << "bone fraction " << per_slice.spec() << ", slice 0: "
              << per_slice.as<double>().at(0) << "\n";

    // The typed tensor on the same mapping, when the type is known.
    nt::Tensor<std::int16_t> hu = ct.as<std::int16_t>();
    std::cout << "bone voxels: " << nt::sum(hu > std::int16_t(300)).at() << "\n";
    // [compute]

    // [labels]
    // uint8 labels from NumPy (0 air, 1 soft tissue, 2 bone), compared with the class
    // indices under union: the one-hot masks gain a CLASS axis.
    auto labels = nt::load_npy<std::uint8_t>("labels.npy", {"Z", "Y", "X"});
    auto classes = nt::arange<std::uint8_t>(3).rename({"CLASS"});
    auto masks = nt::with_union(labels) == classes;                        // (Z,Y,X,CLASS) b8
    auto voxels = nt::sum(masks, {"Z", "Y", "X"});                          // i64 per class
    auto hu_sums = nt::sum(nt::where(masks, hu, nt::scalar<std::int16_t>(0)), {"Z", "Y", "X"});
    auto mean_hu = hu_sums / voxels;                                        // f64 per class
    std::cout << "masks " << masks.spec() << "\nvoxels " << voxels << "\nmean HU " << mean_hu << "\n";
    // [labels]

    // [save]
    nt::save_npy("bone.npy", bone);
    nt::save_npy("mean_hu.npy", mean_hu);
    nt::save_npz("summary.npz", {{"windowed", windowed}, {"per_slice", per_slice}},
                 nt::npz_compression::deflate);
    // [save]

    // [errors]
    try {
        nt::Tensor<float> wrong = nt::load_npy<float>("ct.npy");
    } catch (const nt::error& e) {
        std::cout << nt::to_string(e.code()) << ": " << e.message() << "\n";
    }
    // [errors]
}
