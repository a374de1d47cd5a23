// Data larger than memory (docs/zarr.md): an OME-Zarr CT image that zarr-python wrote
// is opened by axis names, a region is read without the rest, the volume is smoothed
// chunk by chunk with a halo (a progress bar on the terminal), and the result is
// written as a zarr array that xarray and Dask open by the same names.
//
//   example_guide_zarr FOLDER     (FOLDER holds ct.ome.zarr; writes smooth.zarr)
#include <cstdio>
#include <iostream>
#include <string>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"

namespace {

/// "[#########.........] 20/36 chunks" on standard error, redrawn in place.
void progress_bar(std::int64_t done, std::int64_t total) {
    const int width = 30;
    const auto filled = static_cast<int>(width * done / total);
    std::fprintf(stderr, "\r[%s%s] %lld/%lld chunks", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), '.').c_str(), static_cast<long long>(done),
                 static_cast<long long>(total));
    if (done == total) std::fprintf(stderr, "\n");
}

// [smooth]
/// The 3x3x3 mean of one chunk. `c.data` holds the chunk with a halo of 1; at the
/// volume's faces there is no halo, so the edge is repeated there (np.pad's "edge").
nt::any_tensor smooth(const nt::zarr::chunk_view& c) {
    const auto v = c.data.astype<float>();
    std::vector<nt::pad_width> widths;
    for (std::size_t i = 0; i < c.inner_in_data.size(); ++i) {
        const auto& inner = c.inner_in_data[i].second;  // the chunk's place inside data
        const std::int64_t before = 1 - *inner.start;
        const std::int64_t after = 1 - (v.shape()[i] - *inner.stop);
        widths.push_back({nt::Axis(static_cast<std::int64_t>(i)), {before, after}});
    }
    const auto windows = nt::pad(v, widths, nt::pad_mode::edge).unfold({"z", "y", "x"}, {3, 3, 3}, {1, 1, 1});
    return nt::mean(windows, {-3, -2, -1});  // (z, y, x) of the chunk itself
}
// [smooth]

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: example_guide_zarr FOLDER\n";
        return 2;
    }
    const std::string folder = argv[1];
    try {
        // [open]
        // The image's metadata names its axes; every level is an array named by them.
        const nt::zarr::ome_image image = nt::zarr::open_ome(folder + "/ct.ome.zarr");
        std::cout << "image '" << image.name << "', axes";
        for (const auto& a : image.axes) std::cout << ' ' << a.name << " (" << a.type << ", " << a.unit << ")";
        std::cout << '\n';
        for (const auto& level : image.levels) {
            std::cout << "level " << level.path << ": " << nt::to_string(level.data.spec()) << " scale";
            for (double s : level.scale) std::cout << ' ' << s;
            std::cout << '\n';
        }

        // A region by axis names: slices 30-33 and rows 24-71; only the chunks it
        // touches are read and decoded.
        const nt::zarr::array& ct = image.levels[0].data;
        const nt::any_tensor slab = ct.read({{"z", nt::range(30, 34)}, {"y", nt::range(24, 72)}});
        // [open]
        std::cout << "slab " << nt::to_string(slab.spec()) << ' ' << nt::to_string(slab.dtype())
                  << ", mean HU " << nt::mean(slab.astype<double>()).at() << '\n';

        // [map]
        // Chunk by chunk, with a halo of one voxel on each spatial axis.
        nt::zarr::create_options options;
        options.overwrite = true;
        options.compressor = nt::zarr::codec::zstd(3);
        auto smoothed = nt::zarr::create(folder + "/smooth.zarr/ct", nt::dtype::f32, ct.shape(), ct.chunks(),
                                         ct.names(), options);
        nt::zarr::map_options run;
        run.max_chunks_in_memory = 4;
        run.progress = progress_bar;
        nt::zarr::map_chunks(ct, smoothed, smooth, {{"z", 1}, {"y", 1}, {"x", 1}}, run);
        // [map]
        std::cout << "smoothed " << nt::to_string(smoothed.spec()) << " in " << smoothed.chunk_count() << " chunks, "
                  << smoothed.compressor().str() << '\n';
        return 0;
    } catch (const nt::error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
