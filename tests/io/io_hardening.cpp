// Files under failure and hostile input: durable writes (the order of fsync and
// rename), stale temporaries of killed writers, FIFOs named as files, archives whose
// directory lists one member many times, and messages that name what went wrong.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file_io.hpp"
#include "npy_header.hpp"
#include "nt/nt.hpp"
#include "nt/zarr.hpp"
#include "nt_test_files.hpp"
#include "nt_test_support.hpp"

namespace fs = std::filesystem;
using nt::test::require_error;

namespace {

fs::path scratch(const std::string& name) {
    return nt::test::fresh_path(fs::path(NT_TEST_DATA_DIR) / "io" / "hardening", name);
}

/// The file events of durable commits, recorded through the test hook.
struct recorded_events {
    static std::mutex lock;
    static std::vector<std::pair<std::string, std::string>> events;
    static void record(std::string_view event, const std::string& path) {
        std::lock_guard guard(lock);
        events.emplace_back(std::string(event), path);
    }
    recorded_events() {
        events.clear();
        nt::detail::set_file_event_hook(&record);
    }
    ~recorded_events() { nt::detail::set_file_event_hook(nullptr); }
    recorded_events(const recorded_events&) = delete;
    recorded_events& operator=(const recorded_events&) = delete;

    /// The events' names in order, "fsync file,rename,fsync folder,...".
    static std::string names() {
        std::lock_guard guard(lock);
        std::string out;
        for (const auto& [e, p] : events) out += (out.empty() ? "" : ",") + e;
        return out;
    }
};
std::mutex recorded_events::lock;
std::vector<std::pair<std::string, std::string>> recorded_events::events;

/// Runs `f` on another thread and fails if it has not returned within 20 s; then
/// opens `fifo` for writing and closes it, so that a reader blocked on it wakes up
/// (with end of file) and the test ends instead of hanging.
template <class F>
void finishes_quickly(const std::string& fifo, F&& f) {
    auto done = std::async(std::launch::async, std::forward<F>(f));
    const bool in_time = done.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
    if (!in_time) {
        for (int i = 0; i < 100 && done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready; ++i) {
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
    }
    CHECK(in_time);
    done.get();
}

}  // namespace

TEST_CASE("durable writes sync the file before the rename and the folder after it", "[io][durable]") {
    const auto folder = scratch("durable");
    fs::create_directories(folder);
    const std::string target = (folder / "a.npy").string();
    const auto t = nt::arange<float>(12).reshape({3, 4});
    {
        recorded_events rec;
        nt::save_npy(target, t);
        CHECK(rec.names() == "fsync file,rename,fsync folder");
        REQUIRE(rec.events.size() == 3);
        CHECK(rec.events[0].second.find(".a.npy.tmp-") != std::string::npos);
        CHECK(rec.events[1].second == target);
        CHECK(rec.events[2].second == folder.string());
    }
    {
        recorded_events rec;
        nt::save_npy(target, t, nt::io_options{.durable = false});
        CHECK(rec.names() == "rename");
    }
    {
        recorded_events rec;
        nt::save_npz((folder / "b.npz").string(), {{"t", nt::any_tensor(t)}});
        CHECK(rec.names() == "fsync file,rename,fsync folder");
    }
    {
        recorded_events rec;
        nt::save_npz((folder / "b.npz").string(), {{"t", nt::any_tensor(t)}}, nt::npz_compression::none, {.durable = false});
        CHECK(rec.names() == "rename");
    }
    // zarr: every metadata document and chunk is synced before its rename (on one
    // thread, so that the chunks' events do not interleave).
    const int threads = nt::get_num_threads();
    nt::set_num_threads(1);
    {
        recorded_events rec;
        auto a = nt::zarr::create((folder / "c.zarr").string(), nt::dtype::f32, {3, 4}, {3, 2}, {"Y", "X"});
        a.write(nt::any_tensor(t));
        const std::string names = rec.names();
        INFO(names);
        std::size_t renames = 0;
        for (std::size_t i = 0; i < rec.events.size(); ++i)
            if (rec.events[i].first == "rename") {
                ++renames;
                REQUIRE(i > 0);
                CHECK(rec.events[i - 1].first == "fsync file");
                REQUIRE(i + 1 < rec.events.size());
                CHECK(rec.events[i + 1].first == "fsync folder");
            }
        CHECK(renames == 4);  // .zgroup is not needed (the folder exists): .zattrs, .zarray, two chunks
    }
    {
        recorded_events rec;
        auto a = nt::zarr::open((folder / "c.zarr").string(), {.durable = false});
        a.write(nt::any_tensor(t));
        CHECK(rec.names() == "rename,rename");
    }
    nt::set_num_threads(threads);
    CHECK(nt::load_npy<float>(target).to_vector() == t.to_vector());
}

TEST_CASE("a killed writer's temporary file is removed by the next write into its folder", "[io][durable]") {
    const auto folder = scratch("stale");
    fs::create_directories(folder);
    const std::string target = (folder / "img.npy").string();
    nt::save_npy(target, nt::arange<std::int16_t>(5), {.durable = false});
    // A child process starts replacing the file and is killed mid-way.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        nt::detail::atomic_output_file out(target, "save_npy", false);
        out.write("half of an array");
        ::kill(::getpid(), SIGKILL);
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    const auto temporaries = [&] {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(folder))
            if (e.path().filename().string().find(".tmp-") != std::string::npos) out.push_back(e.path().filename());
        return out;
    };
    const auto left = temporaries();
    REQUIRE(left.size() == 1);
    CHECK(left.front().rfind(".img.npy.tmp-", 0) == 0);
    // The old file is whole.
    CHECK(nt::load_npy<std::int16_t>(target).to_vector() == nt::arange<std::int16_t>(5).to_vector());
    // A temporary of a running writer (this process) and a file that only looks
    // similar are left alone.
    const std::string mine = "." + std::string("img.npy.tmp-") + left.front().substr(13, 8) + "-" +
                             std::to_string(::getpid()) + "-abcdef";
    nt::test::write_file((folder / mine).string(), "in progress");
    nt::test::write_file((folder / ".notes.tmp-other").string(), "kept");
    // A fresh process writes next (the cleaning runs once per process and folder).
    const pid_t writer = ::fork();
    REQUIRE(writer >= 0);
    if (writer == 0) {
        try {
            nt::save_npy(target, nt::arange<std::int16_t>(7), {.durable = false});
        } catch (...) {
            ::_exit(2);
        }
        ::_exit(0);
    }
    ::waitpid(writer, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    const auto after = temporaries();
    CHECK(after.size() == 2);
    CHECK(std::find(after.begin(), after.end(), left.front()) == after.end());
    CHECK(std::find(after.begin(), after.end(), mine) != after.end());
    CHECK(nt::load_npy<std::int16_t>(target).to_vector() == nt::arange<std::int16_t>(7).to_vector());
}

TEST_CASE("a FIFO named as a file is refused at once, never read from", "[io][fifo]") {
    const auto folder = scratch("fifo");
    fs::create_directories(folder);
    const std::string fifo = (folder / "data.npy").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto refused = [&](auto&& call) {
        finishes_quickly(fifo, [&] { require_error(call, nt::errc::io_error, {fifo.c_str(), "FIFO"}); });
    };
    refused([&] { (void)nt::load_npy(fifo); });
    refused([&] { (void)nt::map_npy(fifo); });
    refused([&] { (void)nt::load_npz(fifo); });
    refused([&] { (void)nt::detail::read_npy_header(fifo); });
    refused([&] { (void)nt::load_config(fifo); });
    // A FIFO as a zarr array's metadata document.
    const auto store = folder / "a.zarr";
    fs::create_directories(store);
    const std::string zarray = (store / ".zarray").string();
    REQUIRE(::mkfifo(zarray.c_str(), 0600) == 0);
    finishes_quickly(zarray, [&] {
        require_error([&] { (void)nt::zarr::open(store.string()); }, nt::errc::io_error, {".zarray", "FIFO"});
    });
}

TEST_CASE("an archive whose directory lists one member under many names is refused", "[io][npz]") {
    // A 1 MB member listed 2000 times made a small file fill 2 GB; two listings are
    // enough to show that members may not share bytes.
    const auto folder = scratch("npz_shared");
    fs::create_directories(folder);
    const std::string path = (folder / "shared.npz").string();
    nt::save_npz(path, {{"a", nt::any_tensor(nt::arange<double>(1000))}});
    std::string s = nt::test::read_file(path);
    const auto le = [&](std::size_t at, std::size_t n) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(s[at + i])} << (8 * i);
        return v;
    };
    const auto put = [&](std::size_t at, std::uint64_t v, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
    };
    const std::size_t central = s.find("PK\x01\x02");
    REQUIRE(central != std::string::npos);
    const std::size_t length = 46 + le(central + 28, 2) + le(central + 30, 2) + le(central + 32, 2);
    std::string copy = s.substr(central, length);
    copy[46] = 'b';  // "b.npy": the same bytes under another name
    s.insert(central + length, copy);
    const std::size_t end = s.rfind("PK\x05\x06");
    put(end + 8, le(end + 8, 2) + 1, 2);
    put(end + 10, le(end + 10, 2) + 1, 2);
    put(end + 12, le(end + 12, 4) + length, 4);
    if (const std::size_t z = s.rfind("PK\x06\x06"); z != std::string::npos) {
        put(z + 24, le(z + 24, 8) + 1, 8);
        put(z + 32, le(z + 32, 8) + 1, 8);
        put(z + 40, le(z + 40, 8) + length, 8);
        const std::size_t locator = s.rfind("PK\x06\x07");
        put(locator + 8, le(locator + 8, 8) + length, 8);
    }
    nt::test::write_file(path, s);
    require_error([&] { (void)nt::load_npz(path); }, nt::errc::format_error, {path.c_str(), "a.npy", "b.npy", "share"});
}

TEST_CASE("messages name the caller's value and the path", "[io][errors]") {
    const auto t = nt::arange<double>(10);
    require_error([&] { (void)nt::percentile(t, 101); }, nt::errc::invalid_argument, {"101", "[0, 100]"});
    require_error([&] { (void)nt::percentile(nt::any_tensor(t), -5); }, nt::errc::invalid_argument, {"-5", "[0, 100]"});
    require_error([&] { (void)nt::quantile(t, 1.5); }, nt::errc::invalid_argument, {"1.5", "[0, 1]"});
    const auto folder = scratch("config_folder");
    fs::create_directories(folder);
    require_error([&] { (void)nt::load_config(folder.string()); }, nt::errc::io_error,
                  {folder.string().c_str(), "folder"});
    require_error([&] { (void)nt::load_npy(folder.string()); }, nt::errc::io_error, {folder.string().c_str(), "folder"});
}
