// OME-Zarr (NGFF 0.4): a hand-written image (tests/io/zarr/gen_ome.py, zarr-python and
// json) opens with its names, units, scales and translations at every level; what
// write_ome writes re-opens with ntensor and passes gen_ome.py --check (zarr-python,
// the spec's rules, NumPy's pyramid); broken metadata names the broken rule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "nt/nt.hpp"
#include "nt/zarr.hpp"
#include "nt_test_support.hpp"

namespace fs = std::filesystem;
using nt::test::require_error;

namespace {

const fs::path ome_dir = fs::path(NT_TEST_DATA_DIR) / "zarr" / "ome";

std::int64_t element_sum(const nt::any_tensor& t) { return nt::sum(t.astype<std::int64_t>()).at(); }

}  // namespace

TEST_CASE("a hand-written NGFF 0.4 image opens with names, units and scales at every level", "[zarr][ome][numpy]") {
    std::ifstream in(ome_dir / "expected.json");
    REQUIRE(in);
    const auto expected = nlohmann::json::parse(in);
    const auto image = nt::zarr::open_ome((ome_dir / "image.ome.zarr").string());
    CHECK(image.name == expected["name"].get<std::string>());
    REQUIRE(image.axes.size() == expected["axes"].size());
    std::vector<nt::name> names;
    for (std::size_t i = 0; i < image.axes.size(); ++i) {
        const auto& e = expected["axes"][i];
        CHECK(image.axes[i] == nt::zarr::ome_axis{e[0], e[1], e[2]});
        names.emplace_back(e[0].get<std::string>());
    }
    REQUIRE(image.levels.size() == expected["levels"].size());
    for (std::size_t l = 0; l < image.levels.size(); ++l) {
        const auto& e = expected["levels"][l];
        const auto& level = image.levels[l];
        INFO("level " << l);
        CHECK(level.path == e["path"].get<std::string>());
        CHECK(level.scale == e["scale"].get<std::vector<double>>());
        CHECK(level.translation == e["translation"].get<std::vector<double>>());
        CHECK(level.data.shape() == e["shape"].get<std::vector<std::int64_t>>());
        CHECK(level.data.names() == names);
        const auto all = level.data.read();
        CHECK(all.spec() == level.data.spec());
        CHECK(element_sum(all) == e["sum"].get<std::int64_t>());
    }
    CHECK(nt::zarr::validate_ome((ome_dir / "image.ome.zarr").string()).empty());
    // A region by the image's axis names.
    const auto part = image.levels[0].data.read({{"c", nt::range(1, 2)}, {"y", nt::range(3, 9)}});
    CHECK(part.spec() == nt::spec({2, 1, 9, 6, 22}, {"t", "c", "z", "y", "x"}));
}

TEST_CASE("write_ome writes a pyramid that re-opens with ntensor", "[zarr][ome][numpy]") {
    auto t = nt::zeros<std::uint16_t>({2, 5, 37, 41}, {"c", "z", "y", "x"});
    std::uint32_t state = 7;
    for (auto& v : t) v = static_cast<std::uint16_t>((state = state * 1664525u + 1013904223u) >> 20);
    nt::zarr::ome_options o;
    o.chunks = {1, 4, 16, 16};
    o.scale = {1.0, 2.0, 0.5, 0.5};
    o.name = "written";
    o.overwrite = true;
    o.axes = {{"c", "channel", ""}, {"z", "space", "micrometer"}, {"y", "space", "micrometer"}, {"x", "space", "micrometer"}};
    const auto path = (ome_dir / "written.ome.zarr").string();
    const auto image = nt::zarr::write_ome(path, t, o);
    CHECK(nt::zarr::validate_ome(path).empty());
    REQUIRE(image.levels.size() == 3);  // y 37 -> 19 -> 10 and x 41 -> 21 -> 11 fit 16 at level 2
    CHECK(image.levels[2].data.spec() == nt::spec({2, 2, 10, 11}, {"c", "z", "y", "x"}));
    CHECK(image.levels[1].scale == std::vector<double>{1.0, 4.0, 1.0, 1.0});
    CHECK(element_sum(image.levels[0].data.read()) == element_sum(t));
    // From the tensor's names when no axes are given; an unknown name is refused.
    o.axes.clear();
    o.overwrite = true;
    CHECK(nt::zarr::write_ome((ome_dir / "named.ome.zarr").string(), t, o).axes[0] ==
          nt::zarr::ome_axis{"c", "channel", ""});
    require_error([&] { (void)nt::zarr::write_ome((ome_dir / "bad.ome.zarr").string(), t.rename({"c", "z", "y", "w"}), o); },
                  nt::errc::invalid_argument, {"'w'", "t, c, z, y, x"});
}

TEST_CASE("broken OME metadata names the NGFF rule", "[zarr][ome]") {
    const fs::path dir = fs::path(NT_TEST_DATA_DIR) / "zarr" / "ome_errors";
    fs::remove_all(dir);
    auto arr = nt::zarr::create((dir / "img" / "0").string(), nt::dtype::u8, {4, 6}, {4, 6});
    (void)arr;
    auto attrs = [&](const std::string& ms) { std::ofstream(dir / "img" / ".zattrs") << R"({"multiscales": )" + ms + "}"; };
    const std::string axes = R"("axes": [{"name": "y", "type": "space"}, {"name": "x", "type": "space"}])";
    const std::string ds = R"("datasets": [{"path": "0", "coordinateTransformations": [{"type": "scale", "scale": [1, 1]}]}])";
    const std::string img = (dir / "img").string();
    attrs("[{\"version\": \"0.4\", " + axes + ", " + ds + "}]");
    CHECK(nt::zarr::validate_ome(img).empty());
    CHECK(nt::zarr::open_ome(img).levels[0].data.spec() == nt::spec({4, 6}, {"y", "x"}));
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"[{\"version\": \"0.3\", " + axes + ", " + ds + "}]", "version MUST be \"0.4\""},
        {"[{\"version\": \"0.4\", " + ds + "}]", "MUST contain \"axes\""},
        {R"([{"version": "0.4", "axes": [{"name": "x", "type": "space"}, {"name": "t", "type": "time"}], )" + ds + "}]",
         "ordered time"},
        {R"([{"version": "0.4", "axes": [{"name": "y", "type": "space"}, {"name": "y", "type": "space"}], )" + ds + "}]",
         "MUST be unique"},
        {R"([{"version": "0.4", "axes": [{"name": "y", "type": "space", "unit": "parsecs"}, {"name": "x", "type": "space"}], )" + ds + "}]",
         "UDUNITS-2 length"},
        {"[{\"version\": \"0.4\", " + axes +
             R"(, "datasets": [{"path": "0", "coordinateTransformations": [{"type": "scale", "scale": [1, 1, 1]}]}]}])",
         "one per axis"},
        {"[{\"version\": \"0.4\", " + axes +
             R"(, "datasets": [{"path": "0", "coordinateTransformations": [{"type": "translation", "translation": [1, 1]}]}]}])",
         "exactly one scale"},
        {"[{\"version\": \"0.4\", " + axes +
             R"(, "datasets": [{"path": "9", "coordinateTransformations": [{"type": "scale", "scale": [1, 1]}]}]}])",
         "MUST name a zarr array"},
        {"{}", "non-empty list"},
    };
    for (const auto& c : cases) {
        // Not a structured binding: clang 14 cannot capture one in the lambda below.
        const std::string& ms = c.first;
        const std::string& rule = c.second;
        INFO(ms);
        attrs(ms);
        const auto broken = nt::zarr::validate_ome(img);
        REQUIRE_FALSE(broken.empty());
        CHECK(std::any_of(broken.begin(), broken.end(), [&](const std::string& b) { return b.find(rule) != std::string::npos; }));
        require_error([&] { (void)nt::zarr::open_ome(img); }, nt::errc::format_error, {broken.front().c_str(), "NGFF 0.4"});
    }
    std::ofstream(dir / "img" / ".zattrs") << "{}";
    require_error([&] { (void)nt::zarr::open_ome(img); }, nt::errc::format_error, {"MUST contain \"multiscales\""});
    require_error([&] { (void)nt::zarr::open_ome((dir / "nowhere").string()); }, nt::errc::io_error, {"does not exist"});
}
