// Internal: POSIX files for the .npy / .npz code. Every failure is an nt::error
// naming the operation and the path: io_error with the system's reason, or
// format_error when a file ends before the bytes its header promised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nt::detail {

/// "load_npy: 'ct.npy'", the start of every message about one file.
[[nodiscard]] std::string file_where(std::string_view op, std::string_view path);

/// An open regular file, closed on destruction.
class input_file {
public:
    /// Opens for reading (or reading and writing). Throws io_error (missing,
    /// unreadable, not a regular file).
    input_file(const std::string& path, std::string_view op, bool writable = false);
    ~input_file();
    input_file(const input_file&) = delete;
    input_file& operator=(const input_file&) = delete;

    [[nodiscard]] int fd() const noexcept { return fd_; }
    [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
    [[nodiscard]] const std::string& where() const noexcept { return where_; }

    /// Reads exactly `n` bytes at `offset`. Throws format_error when the file ends
    /// first (naming `what`), io_error on a read error.
    void read_at(std::uint64_t offset, void* dst, std::size_t n, std::string_view what) const;
    /// The bytes [offset, offset + n), n checked against the file size first.
    [[nodiscard]] std::string read_string(std::uint64_t offset, std::size_t n, std::string_view what) const;

private:
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::string where_;
};

/// A new file that appears at `path` complete or not at all: the bytes go to a
/// temporary file in the same folder, renamed over `path` by commit(). Destroyed
/// without commit (an exception), it removes the temporary.
class atomic_output_file {
public:
    /// Throws io_error when the folder is not writable.
    atomic_output_file(const std::string& path, std::string_view op);
    ~atomic_output_file();
    atomic_output_file(const atomic_output_file&) = delete;
    atomic_output_file& operator=(const atomic_output_file&) = delete;

    /// Appends bytes (small writes are buffered). Throws io_error (disk full, ...).
    void write(const void* data, std::size_t n);
    void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
    /// Overwrites bytes already written (at offsets below position()).
    void write_at(std::uint64_t offset, const void* data, std::size_t n);
    /// Bytes written so far.
    [[nodiscard]] std::uint64_t position() const noexcept { return position_; }
    [[nodiscard]] const std::string& where() const noexcept { return where_; }
    /// Flushes, sets the permissions a new file would get and renames over `path`.
    void commit();

private:
    void flush();
    [[noreturn]] void fail_system(std::string_view doing) const;

    std::string path_;
    std::string temp_path_;
    std::string where_;
    int fd_ = -1;
    std::uint64_t position_ = 0;
    std::vector<char> buffer_;
    bool committed_ = false;
};

}  // namespace nt::detail
