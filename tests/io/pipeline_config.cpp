// nt/pipeline_config.hpp: run-time checks of tensors against a pipeline config,
// binding symbols on first use, thread-safe; configs backed by .npy files that
// NumPy wrote (tests/numpy/gen_pipeline_files.py); rename(spec), from_vector(spec).
#include "core_testing.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

using nt::errc;
using nt::test::error_message;

namespace {

const std::string example = std::string(NT_SOURCE_DIR) + "/examples/specs/segmentation_pipeline.json";
const std::string files_dir = std::string(NT_TEST_DATA_DIR) + "/pipeline";

/// Writes `text` as `name` next to the .npy files and loads it. The folder is made
/// here too: the cases without .npy files run without the NumPy fixture, maybe first.
nt::pipeline_config load_text(const std::string& name, const std::string& text) {
    std::filesystem::create_directories(files_dir);
    const std::string path = files_dir + "/" + name;
    std::ofstream(path) << text;
    return nt::load_config(path);
}

std::string load_error(errc code, const std::string& name, const std::string& text) {
    return error_message(code, [&] { (void)load_text(name, text); });
}

}  // namespace

TEST_CASE("pipeline_config: tensors checked as they flow", "[core][pipeline]") {
    const nt::pipeline_config cfg = nt::load_config(example);
    CHECK(cfg.spec("classes") == nt::parse_spec("(3 | CLASS)"));
    CHECK_FALSE(cfg.size("N").has_value());
    CHECK(cfg.size("K") == 3);

    auto image = nt::zeros<std::uint8_t>({2, 3, 20, 26});
    cfg.check("image", image);  // unnamed axes pass; binds N, H, W
    CHECK(cfg.size("N") == 2);
    CHECK(cfg.size("H") == 20);
    CHECK(cfg.size("W") == 26);
    CHECK(cfg.spec("labels") == nt::parse_spec("(2,20,26 | ?,H,W)"));
    CHECK(cfg.spec("tiles") == nt::parse_spec("(2,3,3,4,8,8 | ?,CHANNEL,TY,TX,PY,PX)"));
    CHECK(cfg.spec("scored") == nt::parse_spec("(2,3,20,26 | ?,CLASS,H,W)"));

    const auto named = image.rename(cfg.spec("image"));
    CHECK(named.spec() == nt::parse_spec("(2,3,20,26 | ?,CHANNEL,H,W)"));
    CHECK(named.shares_storage(image));
    cfg.check("image", named);
    cfg.check("image", named);  // the fast path, every size known

    const auto labels = nt::from_vector(std::vector<std::int32_t>(2 * 20 * 26, 1), cfg.spec("labels"));
    CHECK(labels.spec() == nt::parse_spec("(2,20,26 | ?,H,W)"));
    cfg.check("labels", labels);
    // Step outputs are checked like the others (no dtype in the config: any).
    cfg.check("onehot", nt::zeros<float>({2, 3, 20, 26}, {"?", "CLASS", "H", "W"}));
    cfg.check("scored", nt::spec{2, 3, 20, 26});
}

TEST_CASE("pipeline_config: every error of a check, with its message", "[core][pipeline][errors]") {
    const nt::pipeline_config cfg = nt::load_config(example);

    SECTION("an unbound symbol at check time") {
        const auto tiles = nt::zeros<std::uint8_t>({2, 3, 3, 4, 8, 8});
        CHECK(error_message(errc::invalid_argument, [&] { cfg.check("tiles", tiles); }) ==
              "pipeline check of 'tiles' (2,3,3,4,8,8): axis 2 'TY' has size (H - 8) / 6 + 1 in the config, and H is "
              "not bound yet. Fix: give H in \"sizes\", or check first a tensor that has it alone as a size, such as "
              "'image'");
        // Nothing was bound by the failed check.
        CHECK_FALSE(cfg.size("N").has_value());
        CHECK_THAT(error_message(errc::invalid_argument, [&] { (void)cfg.spec("image"); }),
                   Catch::Contains("axis 0 has size N, and N is not bound yet"));
        // The fixes it suggests: give H (and W) in "sizes", or check 'image' first.
        std::ifstream in(example);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string given = R"("sizes": {"K": 3})";
        REQUIRE(text.find(given) != std::string::npos);
        text.replace(text.find(given), given.size(), R"("sizes": {"K": 3, "H": 20, "W": 26})");
        load_text("sizes_given.json", text).check("tiles", tiles);
        cfg.check("image", nt::zeros<std::uint8_t>({2, 3, 20, 26}));
        cfg.check("tiles", tiles);
    }
    SECTION("a conflicting binding names both tensors, both axes, the symbol and both sizes") {
        cfg.check("image", nt::zeros<std::uint8_t>({2, 3, 20, 26}));
        CHECK(error_message(errc::incompatible_sizes, [&] { cfg.check("labels", nt::zeros<std::int32_t>({2, 21, 26})); }) ==
              "pipeline check of 'labels' (2,21,26): axis 1 'H' has size 21, but symbol H = 20, bound by axis 2 'H' of "
              "'image' (checked at run time). Fix: make the sizes agree (one symbol has one size), or give the config "
              "two symbols if these are different dimensions");
    }
    SECTION("an expression that does not divide") {
        cfg.check("image", nt::zeros<std::uint8_t>({2, 3, 21, 26}));
        CHECK(error_message(errc::invalid_spec, [&] { cfg.check("tiles", nt::zeros<std::uint8_t>({2, 3, 2, 4, 8, 8})); }) ==
              "tensors.tiles.shape[2]: (H - 8) / 6 + 1 with H = 21 (from axis 2 'H' of 'image' (checked at run "
              "time)): 13 / 6 does not divide exactly (use // to round down). Fix the expression or the sizes");
    }
    SECTION("a derived size that differs") {
        cfg.check("image", nt::zeros<std::uint8_t>({2, 3, 20, 26}));
        CHECK_THAT(error_message(errc::incompatible_sizes,
                                 [&] { cfg.check("tiles", nt::zeros<std::uint8_t>({2, 3, 2, 4, 8, 8})); }),
                   Catch::Contains("axis 2 'TY' has size 2, but the config says (H - 8) / 6 + 1 = 3 (H = 20 (from axis "
                                   "2 'H' of 'image' (checked at run time)))"));
    }
    SECTION("a literal size that differs, and a failed check binds nothing") {
        CHECK_THAT(error_message(errc::incompatible_sizes, [&] { cfg.check("image", nt::zeros<std::uint8_t>({2, 4, 20, 26})); }),
                   Catch::Contains("axis 1 'CHANNEL' has size 4, but the config says 3"));
        CHECK_FALSE(cfg.size("N").has_value());
        CHECK_FALSE(cfg.size("H").has_value());
    }
    SECTION("dtype, rank, names") {
        CHECK(error_message(errc::type_mismatch, [&] { cfg.check("image", nt::zeros<float>({2, 3, 20, 26})); }) ==
              "pipeline check of 'image' (2,3,20,26): the tensor holds f32, but the config says u8. Fix: convert it "
              "(astype), or change \"dtype\" in the config");
        cfg.check("image", nt::zeros<float>({2, 3, 20, 26}).astype<std::uint8_t>());  // the fix it suggests
        CHECK_THAT(error_message(errc::incompatible_sizes, [&] { cfg.check("labels", nt::zeros<std::int32_t>({2, 20})); }),
                   Catch::Contains("the tensor has 2 axes, the config gives 3"));
        CHECK_THAT(error_message(errc::name_mismatch,
                                 [&] { cfg.check("labels", nt::zeros<std::int32_t>({2, 20, 26}, {"?", "W", "H"})); }),
                   Catch::Contains("axis 1 is named 'W', the config names it 'H'"));
        CHECK_THAT(error_message(errc::name_mismatch,
                                 [&] { cfg.check("labels", nt::zeros<std::int32_t>({2, 20, 26}, {"B", "H", "W"})); }),
                   Catch::Contains("the config names it ? (unnamed)"));
    }
    SECTION("one symbol twice in one tensor") {
        const nt::pipeline_config sq = load_text("square.json", R"({"tensors": {"m": {"shape": ["N", "N"]}},
                                                                   "steps": [{"name": "s", "broadcast": ["m"]}]})");
        CHECK_THAT(error_message(errc::incompatible_sizes, [&] { sq.check("m", nt::spec{3, 4}); }),
                   Catch::Contains("axis 1 has size 4, but symbol N = 3, bound by axis 0 of 'm'"));
        CHECK_FALSE(sq.size("N").has_value());
        sq.check("m", nt::spec{3, 3});
        CHECK(sq.size("N") == 3);
    }
    SECTION("unknown names") {
        CHECK_THAT(error_message(errc::unknown_tensor, [&] { cfg.check("label", nt::spec{1}); }),
                   Catch::Contains("did you mean \"labels\""));
        CHECK(error_message(errc::invalid_argument, [&] { (void)cfg.size("Q"); }) ==
              "pipeline_config::size: the config has no symbol 'Q'");
    }
}

TEST_CASE("pipeline_config: shared between threads, the first binding wins", "[core][pipeline]") {
    const nt::pipeline_config cfg = nt::load_config(example);
    constexpr int threads = 8;
    std::atomic<int> failures{0};
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
        pool.emplace_back([&, i] {
            // Half the threads see batches of 2, half of 3.
            const std::int64_t n = 2 + i % 2;
            const auto image = nt::zeros<std::uint8_t>({n, 3, 20, 26});
            const auto labels = nt::zeros<std::int32_t>({n, 20, 26});
            for (int round = 0; round < 200; ++round) {
                try {
                    cfg.check(round % 2 ? "image" : "labels", round % 2 ? image.spec() : labels.spec());
                } catch (const nt::error& e) {
                    if (e.code() != errc::incompatible_sizes) throw;
                    ++failures;
                }
            }
        });
    for (auto& t : pool) t.join();
    REQUIRE(cfg.size("N").has_value());
    CHECK((*cfg.size("N") == 2 || *cfg.size("N") == 3));
    // Every check of the losing size failed, every other passed.
    CHECK(failures == threads / 2 * 200);
}

TEST_CASE("pipeline_config: configs backed by .npy files", "[core][pipeline][numpy][pipeline_files]") {
    const std::string tensors_start = R"({"tensors": {)";
    const std::string steps = R"(}, "steps": [{"name": "overlay", "broadcast": ["image", "labels"]}]})";
    SECTION("headers bind the symbols") {
        const nt::pipeline_config cfg = load_text("ok.json", tensors_start + R"(
            "image": {"npy": "image.npy", "shape": ["N", 3, "H", "W"], "names": "? C H W", "dtype": "u8"},
            "labels": {"npy": "labels.npy", "shape": ["N", "H", "W"], "names": "? H W", "dtype": "int32"},
            "ct": {"npy": "ct.npy", "names": "? C D H W"})" + steps);
        CHECK(cfg.size("N") == 2);
        CHECK(cfg.size("W") == 26);
        CHECK(cfg.spec("ct") == nt::parse_spec("(4,1,6,20,26 | ?,C,D,H,W)"));
        cfg.check("labels", nt::zeros<std::int32_t>({2, 20, 26}));
        CHECK_THAT(error_message(errc::incompatible_sizes, [&] { cfg.check("labels", nt::zeros<std::int32_t>({3, 20, 26})); }),
                   Catch::Contains("symbol N = 2, bound by axis 0 of 'image' (image.npy)"));
        // The files themselves, loaded with their dtype known at run time.
        const nt::any_tensor image = nt::load_npy(files_dir + "/image.npy");
        cfg.check("image", image);
        cfg.check("ct", nt::load_npy(files_dir + "/ct.npy", {"?", "C", "D", "H", "W"}));
        CHECK_THAT(error_message(errc::type_mismatch, [&] { cfg.check("labels", nt::load_npy(files_dir + "/labels_n3.npy").astype(nt::dtype::f64)); }),
                   Catch::Contains("the tensor holds f64, but the config says i32"));
    }
    SECTION("a Fortran-ordered file and one without names") {
        const nt::pipeline_config cfg = load_text("fortran.json", tensors_start + R"(
            "image": {"npy": "image.npy"}, "ct": {"npy": "ct_fortran.npy"}},
            "steps": [{"name": "s", "broadcast": ["ct"]}, {"name": "t", "broadcast": ["image"]}]})");
        CHECK(cfg.spec("ct") == nt::spec{4, 1, 6, 20, 26});
        CHECK(cfg.spec("image") == nt::spec{2, 3, 20, 26});
    }
    SECTION("a conflicting binding between two files") {
        CHECK(load_error(errc::incompatible_sizes, "conflict.json", tensors_start + R"(
            "image": {"npy": "image.npy", "shape": ["N", 3, "H", "W"]},
            "labels": {"npy": "labels_n3.npy", "shape": ["N", "H", "W"]})" + steps) ==
              "tensors.labels.npy: symbol N is 3 at axis 0 of 'labels' (labels_n3.npy), but N = 2 from axis 0 of "
              "'image' (image.npy); one symbol has one size. Fix: make the sizes agree, or use two symbols if these are "
              "different dimensions");
        // The fix it suggests, run: a second symbol for the labels' first axis.
        const nt::pipeline_config cfg = load_text("two_symbols.json", tensors_start + R"(
            "image": {"npy": "image.npy", "shape": ["N", 3, "H", "W"]},
            "labels": {"npy": "labels_n3.npy", "shape": ["M", "H", "W"]})" + steps);
        CHECK(cfg.size("N") == 2);
        CHECK(cfg.size("M") == 3);
    }
    SECTION("a config kept apart from its files: load_config's base folder") {
        const std::string apart = std::string(NT_TEST_DATA_DIR) + "/pipeline_apart";
        std::filesystem::create_directories(apart);
        const std::string path = apart + "/apart.json";
        std::ofstream(path) << tensors_start + R"(
            "image": {"npy": "image.npy", "shape": ["N", 3, "H", "W"], "names": "? C H W"},
            "labels": {"npy": "labels.npy", "names": "? H W"})" + steps;
        CHECK_THAT(error_message(errc::io_error, [&] { (void)nt::load_config(path); }),
                   Catch::Contains("image.npy"));  // relative to the config's folder by default
        const nt::pipeline_config cfg = nt::load_config(path, files_dir);
        CHECK(cfg.size("N") == 2);
        CHECK(cfg.size("W") == 26);
    }
    SECTION("a missing file") {
        const std::string message = load_error(errc::io_error, "missing.json", tensors_start + R"(
            "image": {"npy": "image.npy"}, "labels": {"npy": "no_such_labels.npy"})" + steps);
        CHECK_THAT(message, Catch::StartsWith("tensors.labels.npy: ") && Catch::Contains("no_such_labels.npy") &&
                                Catch::Contains("No such file or directory"));
    }
    SECTION("a file of the wrong dtype") {
        CHECK(load_error(errc::type_mismatch, "dtype.json", tensors_start + R"(
            "image": {"npy": "image_f32.npy", "dtype": "u8"}, "labels": {"npy": "labels.npy"})" + steps) ==
              "tensors.image.npy: image_f32.npy holds f32 (descr '<f4'), but \"dtype\" says u8. Fix: convert the file "
              "(np.save(path, a.astype(...))) or change \"dtype\"");
        // The fix it suggests, run: "dtype" changed to the file's (the names let the
        // step pair the labels with the image; unnamed, they right-align and fail).
        const nt::pipeline_config cfg = load_text("dtype_fixed.json", tensors_start + R"(
            "image": {"npy": "image_f32.npy", "dtype": "f32", "names": "? C H W"},
            "labels": {"npy": "labels.npy", "names": "? H W"})" + steps);
        CHECK(cfg.spec("image").rank() == 4);
    }
    SECTION("a file whose rank or size differs from the config") {
        CHECK_THAT(load_error(errc::incompatible_sizes, "rank.json", tensors_start + R"(
            "image": {"npy": "image.npy", "names": "? C H"}, "labels": {"npy": "labels.npy"})" + steps),
                   Catch::Contains("image.npy has shape (2,3,20,26) of rank 4, but the config gives 'image' 3 axes"));
        CHECK_THAT(load_error(errc::incompatible_sizes, "size.json", tensors_start + R"(
            "image": {"npy": "image.npy", "shape": ["N", 4, "H", "W"]}, "labels": {"npy": "labels.npy"})" + steps),
                   Catch::Contains("size 3 on axis 1, but the config says 4"));
    }
    SECTION("an unreadable config") {
        CHECK_THAT(error_message(errc::io_error, [] { (void)nt::load_config(files_dir + "/no_such_config.json"); }),
                   Catch::StartsWith("load_config: '") && Catch::Contains("no_such_config.json': cannot open") &&
                       Catch::Contains("No such file"));
    }
}

TEST_CASE("pipeline_config: the fix a name_mismatch suggests works on the tensor", "[core][pipeline][errors]") {
    const nt::pipeline_config cfg = nt::load_config(example);
    cfg.check("image", nt::zeros<std::uint8_t>({2, 3, 20, 26}));  // binds N, H, W

    // The config's names in another order: renaming in place would pair the wrong
    // sizes (the suggestion used to be t.rename(cfg.spec(...)), which then failed).
    const auto onehot = nt::zeros<float>({2, 20, 26, 3}, {"?", "H", "W", "CLASS"});
    const std::string m = error_message(errc::name_mismatch, [&] { cfg.check("onehot", onehot); });
    CHECK_THAT(m, Catch::Contains("Fix: put the axes in the config's order (t.align_to(\"...\", \"CLASS\", \"H\", \"W\"))"));
    cfg.check("onehot", onehot.align_to("...", "CLASS", "H", "W"));

    // Names that are only wrong (the sizes sit where the config wants them): rename.
    const auto labels = nt::zeros<std::int32_t>({2, 20, 26}, {"?", "W", "H"});
    const std::string r = error_message(errc::name_mismatch, [&] { cfg.check("labels", labels); });
    CHECK_THAT(r, Catch::Contains("Fix: rename the tensor to the config's names (t.rename(cfg.spec(\"labels\")))"));
    cfg.check("labels", labels.rename(cfg.spec("labels")));
    const auto other = nt::zeros<std::int32_t>({2, 20, 26}, {"?", "Y", "X"});
    CHECK_THAT(error_message(errc::name_mismatch, [&] { cfg.check("labels", other); }),
               Catch::Contains("t.rename(cfg.spec(\"labels\"))"));
    cfg.check("labels", other.rename(cfg.spec("labels")));
}

TEST_CASE("pipeline_config: a step pairing a typo with a name is told the name, and the fixed config plans",
          "[core][pipeline][errors]") {
    // Regression: `? Z H W` with `? D H W` was told to set union.
    const std::string config = R"({"tensors": {"vol": {"shape": ["N", 3, 4, 5], "names": "? D H W"},
                                               "seg": {"shape": ["N", 3, 4, 5], "names": "? Z H W"}},
                                   "steps": [{"name": "s", "broadcast": ["vol", "seg"], "as": "s"}]})";
    const std::string m = load_error(errc::no_counterpart, "typo_step.json", config);
    CHECK_THAT(m, Catch::Contains("(did you mean 'D'?)") &&
                      Catch::Contains("Fix: rename the axis 'Z' to 'D', or set 'union' if it is a new axis"));
    std::string fixed = config;
    fixed.replace(fixed.find("? Z H W"), 7, "? D H W");
    const nt::pipeline_config cfg = load_text("typo_step_fixed.json", fixed);
    cfg.check("vol", nt::zeros<float>({2, 3, 4, 5}));
    CHECK(cfg.spec("s") == nt::parse_spec("(2,3,4,5 | ?,D,H,W)"));
}
