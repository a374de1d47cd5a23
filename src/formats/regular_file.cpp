// Opening regular files without blocking on FIFOs and devices.
#include "regular_file.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nt/error.hpp"

namespace nt::detail {

std::string system_reason() { return std::strerror(errno); }

regular_file::regular_file(const std::string& path, std::string_view where, bool writable) {
    const std::string at(where);
    // O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise. The file
    // type is checked on the open descriptor (no race with a rename in between),
    // and blocking reads are restored for a regular file.
    fd_ = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) {
        if (errno == EISDIR) throw_error(errc::io_error, at + ": is a folder, not a file; give the path of a file");
        throw_error(errc::io_error, at + ": cannot open" + (writable ? " for writing" : "") + ": " + system_reason());
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const std::string r = system_reason();
        ::close(fd_);
        throw_error(errc::io_error, at + ": cannot stat: " + r);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        const char* kind = S_ISDIR(st.st_mode)    ? "a folder"
                           : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "a device";
        throw_error(errc::io_error, at + ": is " + std::string(kind) + ", not a regular file; give the path of a file");
    }
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const std::string r = system_reason();
        ::close(fd_);
        throw_error(errc::io_error, at + ": cannot set blocking reads: " + r);
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
}

regular_file::regular_file(regular_file&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_) {}

regular_file::~regular_file() {
    if (fd_ >= 0) ::close(fd_);
}

std::string read_small_file(const std::string& path, std::string_view where, std::uint64_t limit,
                            std::string_view what) {
    const regular_file f(path, where);
    if (f.size() > limit)
        throw_error(errc::format_error, std::string(where) + ": " + std::to_string(f.size()) + " bytes is too large for " +
                                            std::string(what) + " (at most " + std::to_string(limit) + ")");
    std::string text(static_cast<std::size_t>(f.size()), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ::ssize_t got = ::pread(f.fd(), text.data() + done, text.size() - done, static_cast<off_t>(done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw_error(errc::io_error, std::string(where) + ": cannot read: " + system_reason());
        if (got == 0) break;  // shrank while read: what is there is the file
        done += static_cast<std::size_t>(got);
    }
    text.resize(done);
    return text;
}

}  // namespace nt::detail
