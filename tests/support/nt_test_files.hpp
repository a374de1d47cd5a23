// Files for the tests of file formats (.npy / .npz, zarr): whole-file reads and
// writes, and fresh places to write to.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace nt::test {

/// The bytes of a file ("" if it cannot be read).
inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Writes `bytes` as a new file at `path`. A new file rather than a truncated one:
/// ext4 flushes a truncated-and-rewritten file on close (auto_da_alloc), which makes
/// thousands of small cases slow.
inline void write_file(const std::string& path, const std::string& bytes) {
    std::filesystem::remove(path);
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// `folder / name` with nothing at it and `folder` created: each case starts from an
/// empty place, whatever an earlier run left there.
inline std::filesystem::path fresh_path(const std::filesystem::path& folder, const std::string& name) {
    const std::filesystem::path p = folder / name;
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(folder);
    return p;
}

/// A .npy file with the header text `dict` (padded as NumPy pads it) and `data`, in
/// format version `major`.0: for writing headers NumPy would not.
inline std::string npy_bytes(const std::string& dict, const std::string& data, char major = 1) {
    std::string header = dict;
    const std::size_t preamble = major == 1 ? 10 : 12;
    while ((preamble + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string out("\x93NUMPY", 6);
    out += major;
    out += '\0';
    for (std::size_t i = 0; i < preamble - 8; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return out + header + data;
}

}  // namespace nt::test
