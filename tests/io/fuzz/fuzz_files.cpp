// Robustness of the .npy / .npz readers: thousands of random and mutated headers,
// truncated and damaged files, archives with corrupt deflate data and lying sizes.
// Every case must end in success or an nt::error with a file code (format_error,
// unsupported_dtype, io_error; type_mismatch for load_npy<T>): never a crash,
// never another exception, and never an allocation larger than the file allows
// (the file size plus a fixed slack for buffers; for a deflate member, its
// compressed size times deflate's largest ratio, 1032). Runs under ASan + UBSan in
// scripts/test.sh. Seeded by Catch's --rng-seed (printed on failure).
//
// A separate executable: it replaces the global operator new to record the largest
// request while a case runs (large tensor blocks are mapped by the core's allocator
// and counted through its statistics).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "npy_header.hpp"
#include "npz_headers.hpp"
#include "nt/nt.hpp"
#include "nt_test_files.hpp"

using nt::test::read_file;
using nt::test::write_file;

namespace {
std::atomic<std::size_t> largest_request{0};

void note(std::size_t n) noexcept {
    std::size_t seen = largest_request.load(std::memory_order_relaxed);
    while (n > seen && !largest_request.compare_exchange_weak(seen, n, std::memory_order_relaxed)) {
    }
}
void* checked_malloc(std::size_t n, std::size_t align) {
    note(n);
    void* p = align <= alignof(std::max_align_t) ? std::malloc(n ? n : 1)
                                                 : std::aligned_alloc(align, (std::max<std::size_t>(n, 1) + align - 1) / align * align);
    if (!p) throw std::bad_alloc();
    return p;
}
}  // namespace

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) { return checked_malloc(n, 0); }
void* operator new[](std::size_t n) { return checked_malloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return checked_malloc(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return checked_malloc(n, static_cast<std::size_t>(a)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
// The nothrow forms too (Catch2 allocates with them): every new must pair with the
// free above, or AddressSanitizer reports an alloc-dealloc mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    const auto align = static_cast<std::size_t>(a);
    return std::aligned_alloc(align, (std::max<std::size_t>(n, 1) + align - 1) / align * align);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
    return operator new(n, a, t);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

namespace fs = std::filesystem;

/// Fixed buffers a read may allocate whatever the file: zlib's state and window,
/// message strings, the zip reader's input chunk (bounded by the file too).
constexpr std::size_t slack = 256 * 1024;

const fs::path folder = fs::path(NT_TEST_DATA_DIR) / "io_fuzz";

struct outcome_counts {
    std::size_t ok = 0, format = 0, dtype = 0, io = 0, type = 0;
};

std::size_t large_blocks() {
    const auto s = nt::get_allocator_stats();
    return s.cache_hits + s.cache_misses;
}

/// Runs `read` on `bytes` (written to `path`); checks the outcome and the allocations.
/// `allowed`: the largest single heap request; `large_allowed`: whether the core may
/// map a large block (>= 1 MiB) at all (never for a .npy file of a few KiB).
template <class Read>
void run_case(const std::string& path, const std::string& bytes, std::size_t allowed, bool large_allowed,
              outcome_counts& counts, Read&& read) {
    write_file(path, bytes);
    largest_request = 0;
    const std::size_t blocks = large_blocks();
    try {
        read();
        ++counts.ok;
    } catch (const nt::error& e) {
        switch (e.code()) {
            case nt::errc::format_error: ++counts.format; break;
            case nt::errc::unsupported_dtype: ++counts.dtype; break;
            case nt::errc::io_error: ++counts.io; break;
            case nt::errc::type_mismatch: ++counts.type; break;
            default: FAIL("unexpected error code " << nt::to_string(e.code()) << ": " << e.what());
        }
        if (e.message().find(path) == std::string::npos) FAIL("the message does not name the file: " << e.what());
    } catch (const std::exception& e) {
        FAIL("not an nt::error: " << e.what());
    }
    if (largest_request > allowed) FAIL("allocated " << largest_request << " bytes for a file of " << bytes.size());
    if (!large_allowed && large_blocks() != blocks)
        FAIL("a large block was allocated for a file of " << bytes.size() << " bytes");
}

/// Reading every element catches out-of-bounds layouts under ASan.
void touch(const nt::any_tensor& a) {
    std::vector<std::byte> out(static_cast<std::size_t>(a.size()) * nt::size_of(a.dtype()));
    a.base().copy_to(out.data());
    if (a.dtype() == nt::dtype::b8)
        for (const std::byte b : out) REQUIRE(static_cast<unsigned>(b) <= 1);
}

/// Reads every way: the header alone, load (any and typed), map.
void read_npy_every_way(const std::string& path) {
    const nt::detail::npy_header h = nt::detail::read_npy_header(path);
    touch(nt::load_npy(path));
    touch(nt::Tensor<float>(nt::load_npy<float>(path)));
    if (!h.needs_swap()) touch(nt::map_npy(path, nt::map_mode::read_only));
}

void read_npz_every_way(const std::string& path) {
    (void)nt::detail::read_npz_headers(path, "info");
    const nt::npz z = nt::load_npz(path);
    for (const auto& [name, a] : z) touch(a);
}

/// Valid .npy files to mutate: several dtypes, orders, versions, ranks.
std::vector<std::string> npy_seeds() {
    const std::string p = (folder / "seed.npy").string();
    std::vector<std::string> out;
    const auto keep = [&](const nt::any_tensor& t) {
        nt::save_npy(p, t);
        out.push_back(read_file(p));
    };
    keep(nt::arange<float>(12).reshape({3, 4}));
    keep(nt::arange<double>(5));
    keep(nt::scalar<std::int64_t>(7));
    keep(nt::arange<std::uint8_t>(24).reshape({2, 3, 4}).transpose(0, 2).contiguous());
    keep(nt::any_tensor(nt::arange<std::int32_t>(6).reshape({2, 3}).base().clone(nt::order::fortran)));
    keep(nt::zeros<bool>({2, 0, 3}));
    keep(nt::ones<bool>({4}));
    // Hand-written forms: version 2 and 3, big-endian, Python 2 longs.
    std::string v3 = out[0];
    v3[6] = 3;
    out.push_back(v3);
    std::string be = nt::detail::make_npy_header(">i4", false, std::vector<std::int64_t>{2, 2}) + std::string(16, '\1');
    out.push_back(be);
    return out;
}

/// A random header text built from the header's own tokens.
std::string random_header(std::mt19937_64& rng) {
    static const char* tokens[] = {"{",       "}",     "(",       ")",     "[",       "]",     ",",
                                   ":",       " ",     "'descr'", "'shape'", "'fortran_order'",
                                   "'<f4'",   "'<i2'", "'>f8'",   "'|b1'", "'<c8'",   "'|O'",  "'<U4'",
                                   "True",    "False", "0",       "1",     "3",       "12",    "-1",
                                   "99999999999999999999", "4294967296", "'",  "\"",      "L",     "\\",
                                   "\n",      "None",  "'names'", "'<f4",  "1e3",     "0x10"};
    std::uniform_int_distribution<std::size_t> pick(0, std::size(tokens) - 1);
    std::uniform_int_distribution<int> length(0, 40);
    std::string h;
    // Mostly well-formed skeletons, with random values and a random token or two.
    if (rng() % 2) {
        h = "{'descr': " + std::string(tokens[pick(rng)]) + ", 'fortran_order': " + tokens[pick(rng)] +
            ", 'shape': (" + tokens[pick(rng)] + ", " + tokens[pick(rng)] + "), }";
    } else {
        for (int i = length(rng); i > 0; --i) h += tokens[pick(rng)];
    }
    return h;
}

std::string npy_with_header(const std::string& dict, std::size_t data_bytes, char major, std::mt19937_64& rng) {
    std::string data(data_bytes, '\0');
    for (auto& c : data) c = static_cast<char>(rng());
    return nt::test::npy_bytes(dict, data, major);
}

}  // namespace

TEST_CASE("random and mutated .npy files give file errors, never crashes or large allocations", "[fuzz][npy]") {
    fs::create_directories(folder);
    std::mt19937_64 rng(Catch::rngSeed());
    const std::string path = (folder / "case.npy").string();
    const std::vector<std::string> seeds = npy_seeds();
    outcome_counts counts;
    const auto run = [&](const std::string& bytes) {
        run_case(path, bytes, bytes.size() + slack, false, counts, [&] { read_npy_every_way(path); });
    };

    // Every truncation of every seed.
    for (const std::string& s : seeds)
        for (std::size_t n = 0; n < s.size(); ++n) run(s.substr(0, n));
    // Byte mutations in and around the header: flips, random bytes, inserts, deletes.
    for (int i = 0; i < 3000; ++i) {
        std::string s = seeds[rng() % seeds.size()];
        const std::size_t span = std::min<std::size_t>(s.size(), 140);
        for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
            const std::size_t at = rng() % span;
            switch (rng() % 4) {
                case 0: s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8))); break;
                case 1: s[at] = static_cast<char>(rng()); break;
                case 2: s.insert(at, 1, static_cast<char>(rng())); break;
                default: s.erase(at, 1); break;
            }
        }
        run(s);
    }
    // Random header texts over random data lengths, every version.
    for (int i = 0; i < 3000; ++i)
        run(npy_with_header(random_header(rng), rng() % 64, static_cast<char>(1 + rng() % 3), rng));
    // Lying header lengths and shapes.
    for (int i = 0; i < 500; ++i) {
        std::string s = seeds[rng() % seeds.size()];
        s[8] = static_cast<char>(rng());
        s[9] = static_cast<char>(rng());
        run(s);
        run(npy_with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(rng() % 100000000) +
                                ", " + std::to_string(rng()) + "), }",
                            rng() % 256, 1, rng));
    }
    INFO("ok " << counts.ok << ", format_error " << counts.format << ", unsupported_dtype " << counts.dtype
               << ", type_mismatch " << counts.type);
    CHECK(counts.ok > 0);
    CHECK(counts.format > 1000);
    CHECK(counts.dtype > 10);
}

namespace {

std::vector<std::string> npz_seeds() {
    const std::string p = (folder / "seed.npz").string();
    std::vector<std::string> out;
    const auto img = nt::arange<float>(24).reshape({2, 3, 4});
    const auto lbl = nt::arange<std::uint8_t>(12).reshape({3, 4});
    const auto big = nt::zeros<std::int32_t>({3000});  // compresses well
    for (const auto c : {nt::npz_compression::none, nt::npz_compression::deflate}) {
        nt::save_npz(p, {{"img", img}, {"lbl", lbl}, {"big", big}}, c);
        out.push_back(read_file(p));
        nt::save_npz(p, {{"one", nt::scalar<double>(1)}}, c);
        out.push_back(read_file(p));
    }
    return out;
}

void put_le(std::string& s, std::size_t at, std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n && at + i < s.size(); ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

/// Offsets of every occurrence of a 4-byte zip signature.
std::vector<std::size_t> find_all(const std::string& s, std::uint32_t signature) {
    std::vector<std::size_t> out;
    const std::string sig{static_cast<char>(signature & 0xff), static_cast<char>((signature >> 8) & 0xff),
                          static_cast<char>((signature >> 16) & 0xff), static_cast<char>(signature >> 24)};
    for (std::size_t at = s.find(sig); at != std::string::npos; at = s.find(sig, at + 1)) out.push_back(at);
    return out;
}

}  // namespace

TEST_CASE("damaged .npz archives give file errors, never crashes or large allocations", "[fuzz][npz]") {
    fs::create_directories(folder);
    std::mt19937_64 rng(Catch::rngSeed() + 1);
    const std::string path = (folder / "case.npz").string();
    const std::vector<std::string> seeds = npz_seeds();
    outcome_counts counts;
    const auto run = [&](const std::string& bytes) {
        // A deflate member may inflate to 1032 times its compressed size.
        run_case(path, bytes, bytes.size() * 1032 + slack, true, counts, [&] { read_npz_every_way(path); });
    };

    for (const std::string& s : seeds)
        for (std::size_t n = 0; n < s.size(); n += 1 + n / 64) run(s.substr(0, n));
    // Random bytes anywhere: headers, npy headers, deflate data (CRC and inflate errors).
    for (int i = 0; i < 2000; ++i) {
        std::string s = seeds[rng() % seeds.size()];
        for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) {
            const std::size_t at = rng() % s.size();
            s[at] = rng() % 2 ? static_cast<char>(s[at] ^ (1 << (rng() % 8))) : static_cast<char>(rng());
        }
        run(s);
    }
    // Lying sizes and offsets in the records: random, huge, 0xffffffff (zip64 forms).
    const std::uint64_t lies[] = {0, 1, 0xffffffffu, 0xfffffffeu, 0x7fffffffu, 1u << 20, 1u << 30};
    for (int i = 0; i < 2000; ++i) {
        std::string s = seeds[rng() % seeds.size()];
        const auto central = find_all(s, 0x02014b50);
        const auto local = find_all(s, 0x04034b50);
        const auto end = find_all(s, 0x06054b50);
        const std::uint64_t lie = rng() % 3 ? lies[rng() % std::size(lies)] : rng();
        switch (rng() % 7) {
            case 6:  // a member's .npy header length (bytes 8-9 of its data), small or lying
                if (const auto at = s.find("\x93NUMPY"); at != std::string::npos) {
                    put_le(s, at + 8, rng() % 2 ? rng() % 16 : lie, 2);
                    break;
                }
                [[fallthrough]];
            case 0:  // central directory: compressed or uncompressed size
                if (!central.empty()) put_le(s, central[rng() % central.size()] + (rng() % 2 ? 20 : 24), lie, 4);
                break;
            case 1:  // central directory: local header offset, name or extra length
                if (!central.empty()) {
                    const std::size_t fields[] = {42, 28, 30};
                    const std::size_t f = fields[rng() % 3];
                    put_le(s, central[rng() % central.size()] + f, lie, f == 42 ? 4 : 2);
                }
                break;
            case 2:  // local header: name or extra length
                if (!local.empty()) put_le(s, local[rng() % local.size()] + (rng() % 2 ? 26 : 28), lie, 2);
                break;
            case 3:  // end record: counts, directory size and offset
                if (!end.empty()) {
                    const std::size_t fields[] = {8, 10, 12, 16};
                    const std::size_t f = fields[rng() % 4];
                    put_le(s, end.back() + f, lie, f >= 12 ? 4 : 2);
                }
                break;
            case 4:  // local zip64 extra sizes
                if (!local.empty()) {
                    const std::size_t at = local[rng() % local.size()];
                    const std::size_t name = static_cast<unsigned char>(s[at + 26]);
                    put_le(s, at + 30 + name + 4 + (rng() % 2) * 8, lie, 8);
                }
                break;
            default:  // crc
                if (!central.empty()) put_le(s, central[rng() % central.size()] + 16, lie, 4);
                break;
        }
        run(s);
    }
    INFO("ok " << counts.ok << ", format_error " << counts.format << ", unsupported_dtype " << counts.dtype);
    CHECK(counts.ok > 0);
    CHECK(counts.format > 1000);
}

TEST_CASE("a deflate member whose sizes and header agree but whose data is short", "[fuzz][npz]") {
    // The lie the size checks cannot see: the directory and the .npy header agree on
    // 8 MB, but half of the deflate stream is zeroed. The read ends in format_error.
    fs::create_directories(folder);
    const std::string path = (folder / "short.npz").string();
    nt::save_npz(path, {{"a", nt::arange<double>(1'000'000)}}, nt::npz_compression::deflate);
    std::string s = read_file(path);
    const std::size_t data_at = 30 + 5 + 20;  // local header, "a.npy", zip64 extra
    const std::size_t central = find_all(s, 0x02014b50).front();
    std::uint64_t compressed = 0;
    for (std::size_t i = 0; i < 4; ++i)
        compressed |= std::uint64_t{static_cast<unsigned char>(s[central + 20 + i])} << (8 * i);
    // Keep the first half of the compressed stream only, zero the rest.
    std::fill(s.begin() + static_cast<std::ptrdiff_t>(data_at + compressed / 2),
              s.begin() + static_cast<std::ptrdiff_t>(data_at + compressed), '\0');
    write_file(path, s);
    try {
        (void)nt::load_npz(path);
        FAIL("a truncated deflate stream loaded");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::format_error);
    }
}
