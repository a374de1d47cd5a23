// regular_file.hpp (private to ntensor): opening a path that must be a regular file.
//
// Every reader of ntensor's files (.npy, .npz, zarr metadata and chunks, configs,
// the command) opens through here, so that a FIFO, a device or a folder named where
// a file belongs is refused at once with io_error, instead of blocking forever in
// open() or read() (a FIFO with no writer blocks both).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nt::detail {

/// An open regular file, closed on destruction. Throws io_error naming `where`
/// (for example "load_npy: 'ct.npy'") when the path is missing, unreadable, or not
/// a regular file; a folder is named as a folder.
class regular_file {
public:
    regular_file(const std::string& path, std::string_view where, bool writable = false);
    ~regular_file();
    regular_file(regular_file&& other) noexcept;
    regular_file(const regular_file&) = delete;
    regular_file& operator=(const regular_file&) = delete;
    regular_file& operator=(regular_file&&) = delete;

    [[nodiscard]] int fd() const noexcept { return fd_; }
    [[nodiscard]] std::uint64_t size() const noexcept { return size_; }

private:
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

/// The whole text of a small file (a config or a metadata document), at most
/// `limit` bytes; longer files are refused with format_error naming `what`.
[[nodiscard]] std::string read_small_file(const std::string& path, std::string_view where, std::uint64_t limit,
                                          std::string_view what);

/// The system's reason for the last failed call (strerror(errno)).
[[nodiscard]] std::string system_reason();

}  // namespace nt::detail
