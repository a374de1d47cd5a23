// Internal: the zip container of .npz files (PKWARE APPNOTE 6.3), with zlib for
// deflate and CRC-32. Reads what Python's zipfile writes for np.savez and
// np.savez_compressed (stored or deflate members, zip64 records and extra fields,
// data descriptors); writes the same. Every size read from the archive is checked
// against the file before it is used, so a damaged or lying archive gives a
// format_error and never a large allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "file_io.hpp"

namespace nt::detail {

/// One member of the central directory, sizes checked against the file.
struct zip_member {
    std::string name;
    std::uint16_t method = 0;  ///< 0 stored, 8 deflate (others are rejected)
    std::uint32_t crc = 0;
    std::uint64_t compressed_size = 0;
    std::uint64_t size = 0;  ///< uncompressed
    std::uint64_t data_offset = 0;  ///< first byte of the (compressed) data
};

/// The members in directory order. Throws format_error (not a zip, damaged records,
/// sizes outside the file, a deflate size beyond deflate's largest ratio),
/// unsupported_dtype (encrypted members, methods other than stored and deflate).
[[nodiscard]] std::vector<zip_member> read_zip_directory(const input_file& f);

/// Reads a member's uncompressed bytes in order.
class zip_member_reader {
public:
    /// `where` names the member in messages.
    zip_member_reader(const input_file& f, const zip_member& m, std::string where);
    ~zip_member_reader();
    zip_member_reader(const zip_member_reader&) = delete;
    zip_member_reader& operator=(const zip_member_reader&) = delete;

    /// The next `n` bytes. Throws format_error when the member ends first or its
    /// compressed data is corrupt.
    void read(void* dst, std::size_t n);
    /// Checks that the member was read to its end and that its CRC-32 matches.
    void finish();

private:
    struct inflater;
    const input_file& file_;
    const zip_member& member_;
    std::string where_;
    std::uint64_t produced_ = 0;   // uncompressed bytes handed out
    std::uint64_t consumed_ = 0;   // compressed bytes read from the file
    std::uint32_t crc_ = 0;
    std::unique_ptr<inflater> inflate_;
};

/// Writes a zip archive member by member into an atomic output file.
class zip_writer {
public:
    explicit zip_writer(atomic_output_file& out) : out_(out) {}

    /// Adds member `name`, stored or deflated, whose bytes `produce` hands to its
    /// argument in order.
    void add(std::string_view name, bool deflate,
             const std::function<void(const std::function<void(const void*, std::size_t)>&)>& produce);
    /// Writes the central directory and end records.
    void finish();

private:
    struct entry {
        std::string name;
        std::uint16_t method;
        std::uint32_t crc;
        std::uint64_t compressed_size, size, offset;
    };
    atomic_output_file& out_;
    std::vector<entry> entries_;
};

}  // namespace nt::detail
