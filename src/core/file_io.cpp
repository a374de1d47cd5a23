// POSIX file access for the .npy / .npz code: checked reads, atomic writes.
#include "file_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nt/error.hpp"

namespace nt::detail {

namespace {

/// Writes below this size are gathered in the buffer; larger ones go straight out.
constexpr std::size_t buffer_size = std::size_t{1} << 20;
/// Largest single read or write (Linux caps one call at about 2 GiB).
constexpr std::size_t max_chunk = std::size_t{1} << 30;

std::string reason() { return std::strerror(errno); }

/// The permission bits a newly created file gets: 0666 minus the umask (read from
/// /proc, since umask() can only be read by changing it, which races with threads).
mode_t new_file_mode() {
    mode_t mask = 022;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Umask:", 0) == 0) {
            mask = static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
            break;
        }
    return static_cast<mode_t>(0666 & ~mask);
}

}  // namespace

std::string file_where(std::string_view op, std::string_view path) {
    return std::string(op) + ": '" + std::string(path) + "'";
}

input_file::input_file(const std::string& path, std::string_view op, bool writable)
    : where_(file_where(op, path)) {
    fd_ = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd_ < 0)
        throw_error(errc::io_error, where_ + ": cannot open" + (writable ? " for writing" : "") + ": " + reason());
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const std::string r = reason();
        ::close(fd_);
        throw_error(errc::io_error, where_ + ": cannot stat: " + r);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        throw_error(errc::io_error, where_ + ": not a regular file (a directory or a device?)");
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
}

input_file::~input_file() {
    if (fd_ >= 0) ::close(fd_);
}

void input_file::read_at(std::uint64_t offset, void* dst, std::size_t n, std::string_view what) const {
    auto* out = static_cast<char*>(dst);
    std::size_t done = 0;
    while (done < n) {
        const std::size_t want = std::min(n - done, max_chunk);
        const ::ssize_t got = ::pread(fd_, out + done, want, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw_error(errc::io_error, where_ + ": cannot read " + std::string(what) + ": " + reason());
        if (got == 0)
            throw_error(errc::format_error, where_ + ": the file ends at byte " + std::to_string(offset + done) +
                                                ", inside " + std::string(what) + ": it is truncated");
        done += static_cast<std::size_t>(got);
    }
}

std::string input_file::read_string(std::uint64_t offset, std::size_t n, std::string_view what) const {
    if (offset > size_ || n > size_ - offset)
        throw_error(errc::format_error, where_ + ": " + std::string(what) + " at byte " + std::to_string(offset) +
                                            " needs " + std::to_string(n) + " bytes but the file has " +
                                            std::to_string(size_) + ": it is truncated or damaged");
    std::string s(n, '\0');
    read_at(offset, s.data(), n, what);
    return s;
}

atomic_output_file::atomic_output_file(const std::string& path, std::string_view op)
    : path_(path), where_(file_where(op, path)) {
    // The temporary lives next to the target so that rename() is atomic (same
    // file system); the dot hides it from globs while it is being written.
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (base.empty()) throw_error(errc::io_error, where_ + ": the path names a folder, not a file");
    temp_path_ = dir + "." + base + ".tmp-XXXXXX";
    fd_ = ::mkostemp(temp_path_.data(), O_CLOEXEC);
    if (fd_ < 0) fail_system("cannot create a temporary file in its folder");
    buffer_.reserve(buffer_size);
}

atomic_output_file::~atomic_output_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_path_.c_str());
}

void atomic_output_file::fail_system(std::string_view doing) const {
    throw_error(errc::io_error, where_ + ": " + std::string(doing) + ": " + reason());
}

void atomic_output_file::flush() {
    std::size_t done = 0;
    while (done < buffer_.size()) {
        const ::ssize_t put = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) fail_system("cannot write");
        done += static_cast<std::size_t>(put);
    }
    buffer_.clear();
}

void atomic_output_file::write(const void* data, std::size_t n) {
    const auto* in = static_cast<const char*>(data);
    position_ += n;
    if (buffer_.size() + n <= buffer_size) {
        buffer_.insert(buffer_.end(), in, in + n);
        return;
    }
    flush();
    std::size_t done = 0;
    while (done < n) {
        const ::ssize_t put = ::write(fd_, in + done, std::min(n - done, max_chunk));
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) fail_system("cannot write");
        done += static_cast<std::size_t>(put);
    }
}

void atomic_output_file::write_at(std::uint64_t offset, const void* data, std::size_t n) {
    flush();
    const auto* in = static_cast<const char*>(data);
    std::size_t done = 0;
    while (done < n) {
        const ::ssize_t put = ::pwrite(fd_, in + done, n - done, static_cast<off_t>(offset + done));
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) fail_system("cannot write");
        done += static_cast<std::size_t>(put);
    }
}

void atomic_output_file::commit() {
    flush();
    // An existing file keeps its permissions; a new one gets the usual 0666 & ~umask
    // (mkstemp made the temporary 0600).
    struct stat st {};
    const mode_t mode = ::stat(path_.c_str(), &st) == 0 ? (st.st_mode & 07777) : new_file_mode();
    if (::fchmod(fd_, mode) != 0) fail_system("cannot set permissions");
    if (::close(fd_) != 0) {
        fd_ = -1;
        fail_system("cannot write");
    }
    fd_ = -1;
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail_system("cannot rename the temporary file over it");
    committed_ = true;
}

}  // namespace nt::detail
