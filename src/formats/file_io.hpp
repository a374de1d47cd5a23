// Internal: POSIX files for the .npy / .npz code. Every failure is an nt::error
// naming the operation and the path: io_error with the system's reason, or
// format_error when a file ends before the bytes its header promised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "regular_file.hpp"

namespace nt::detail {

/// "load_npy: 'ct.npy'", the start of every message about one file.
[[nodiscard]] std::string file_where(std::string_view op, std::string_view path);

/// An open regular file, closed on destruction.
class input_file {
public:
    /// Opens for reading (or reading and writing). Throws io_error (missing,
    /// unreadable, not a regular file).
    input_file(const std::string& path, std::string_view op, bool writable = false);

    [[nodiscard]] int fd() const noexcept { return file_.fd(); }
    [[nodiscard]] std::uint64_t size() const noexcept { return file_.size(); }
    [[nodiscard]] const std::string& where() const noexcept { return where_; }

    /// Reads exactly `n` bytes at `offset`. Throws format_error when the file ends
    /// first (naming `what`), io_error on a read error.
    void read_at(std::uint64_t offset, void* dst, std::size_t n, std::string_view what) const;
    /// The bytes [offset, offset + n), n checked against the file size first.
    [[nodiscard]] std::string read_string(std::uint64_t offset, std::size_t n, std::string_view what) const;

private:
    std::string where_;
    regular_file file_;
};

/// A new file that appears at `path` complete or not at all: the bytes go to a
/// temporary file in the same folder, renamed over `path` by commit(). Destroyed
/// without commit (an exception), it removes the temporary. Durable (the default):
/// the temporary is synced before the rename and the folder after it.
class atomic_output_file {
public:
    /// Throws io_error when the folder is not writable. The first write of the
    /// process into a folder removes the temporaries that killed writers left there.
    atomic_output_file(const std::string& path, std::string_view op, bool durable = true);
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
    bool durable_ = true;
    bool committed_ = false;
};

/// Writes `text` as the whole file at `path`, atomically (an atomic_output_file).
void write_file_atomically(const std::string& path, std::string_view text, std::string_view op, bool durable);

/// Replaces the existing folder `path` by one that `build` fills at a temporary
/// path beside it (given to `build`): the old folder stays whole until the new one
/// is complete, then the two swap in one rename and the old one is removed. A
/// failure before the swap (an exception from `build`, a full disk) leaves the old
/// folder as it was. Throws io_error naming `where`.
void replace_folder(const std::string& path, std::string_view where, bool durable,
                    const std::function<void(const std::string&)>& build);

/// Syncs the folder `folder` (its entries: renames and new files in it), as a
/// durable write does after its rename. Throws io_error naming `where`.
void sync_folder(const std::string& folder, std::string_view where);

/// Whether `name` is a temporary file of an atomic write, left by a process of this
/// machine that no longer runs (so it can be removed).
[[nodiscard]] bool is_stale_temporary(std::string_view name);

/// Test hook: when set, called in order with "fsync file", "rename" and "fsync
/// folder" and the path concerned, as a durable commit makes those calls.
using file_event_hook = void (*)(std::string_view event, const std::string& path);
void set_file_event_hook(file_event_hook hook) noexcept;

}  // namespace nt::detail
