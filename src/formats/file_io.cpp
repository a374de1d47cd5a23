// POSIX file access for the .npy / .npz code: checked reads, atomic writes.
#include "file_io.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unordered_set>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
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
    : where_(file_where(op, path)), file_(path, where_, writable) {}

void input_file::read_at(std::uint64_t offset, void* dst, std::size_t n, std::string_view what) const {
    auto* out = static_cast<char*>(dst);
    std::size_t done = 0;
    while (done < n) {
        const std::size_t want = std::min(n - done, max_chunk);
        const ::ssize_t got = ::pread(fd(), out + done, want, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw_error(errc::io_error, where_ + ": cannot read " + std::string(what) + ": " + reason());
        if (got == 0)
            throw_error(errc::format_error, where_ + ": the file ends at byte " + std::to_string(offset + done) +
                                                ", inside " + std::string(what) + ": it is truncated");
        done += static_cast<std::size_t>(got);
    }
}

std::string input_file::read_string(std::uint64_t offset, std::size_t n, std::string_view what) const {
    if (offset > size() || n > size() - offset)
        throw_error(errc::format_error, where_ + ": " + std::string(what) + " at byte " + std::to_string(offset) +
                                            " needs " + std::to_string(n) + " bytes but the file has " +
                                            std::to_string(size()) + ": it is truncated or damaged");
    std::string s(n, '\0');
    read_at(offset, s.data(), n, what);
    return s;
}

namespace {

std::atomic<file_event_hook> event_hook{nullptr};

void report(std::string_view event, const std::string& path) {
    if (const auto hook = event_hook.load(std::memory_order_acquire)) hook(event, path);
}

/// This machine, as 8 hex digits of its host name's FNV-1a hash: temporaries of other
/// machines (a shared network folder) are never taken for stale.
const std::string& host_tag() {
    static const std::string tag = [] {
        char host[256] = {};
        if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
        std::uint32_t h = 2166136261u;
        for (const char* c = host; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
        char text[9];
        std::snprintf(text, sizeof text, "%08x", h);
        return std::string(text);
    }();
    return tag;
}

constexpr std::string_view temp_marker = ".tmp-";

/// "<folder>/.<name>.tmp-<host>-<pid>-XXXXXX", for mkstemp and mkdtemp: the dot
/// hides it from globs, and the host and process let a later write tell a killed
/// writer's leftover from a running writer's file.
std::string temporary_template(const std::string& dir, const std::string& base) {
    return dir + "." + base + std::string(temp_marker) + host_tag() + "-" + std::to_string(::getpid()) + "-XXXXXX";
}

/// `path` split into its folder (with the trailing '/', or empty) and its last part.
std::pair<std::string, std::string> split_path(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return {std::string(), path};
    return {path.substr(0, slash + 1), path.substr(slash + 1)};
}

/// The folder that holds `path`'s entry, as sync_folder takes it.
std::string parent_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return std::string();
    return path.substr(0, slash == 0 ? 1 : slash);
}

/// Removes the stale temporaries in `folder`, once per folder and process: listing a
/// zarr store's folder of many chunks at every chunk write would cost more than the
/// writes.
void clean_folder_once(const std::string& folder) {
    static std::mutex lock;
    static std::unordered_set<std::string> cleaned;
    static pid_t owner = 0;
    {
        std::lock_guard guard(lock);
        // A forked child (a Dask or multiprocessing worker) is a new process: the
        // folders its parent cleaned may hold temporaries killed since.
        if (owner != ::getpid()) {
            cleaned.clear();
            owner = ::getpid();
        }
        if (!cleaned.insert(folder).second) return;
    }
    DIR* dir = ::opendir(folder.empty() ? "." : folder.c_str());
    if (!dir) return;  // the write itself reports what is wrong with the folder
    while (const dirent* e = ::readdir(dir)) {
        const std::string_view name(e->d_name);
        if (is_stale_temporary(name)) ::unlinkat(::dirfd(dir), e->d_name, 0);
    }
    ::closedir(dir);
}

}  // namespace

void set_file_event_hook(file_event_hook hook) noexcept { event_hook.store(hook, std::memory_order_release); }

bool is_stale_temporary(std::string_view name) {
    // ".<target>.tmp-<host>-<pid>-XXXXXX"
    if (name.size() < 2 || name[0] != '.') return false;
    const auto marker = name.rfind(temp_marker);
    if (marker == std::string_view::npos || marker < 2) return false;
    std::string_view rest = name.substr(marker + temp_marker.size());
    const std::string& host = host_tag();
    if (rest.size() < host.size() + 1 || rest.substr(0, host.size()) != host || rest[host.size()] != '-') return false;
    rest.remove_prefix(host.size() + 1);
    const auto dash = rest.find('-');
    if (dash == std::string_view::npos || dash == 0 || dash > 9 || rest.size() - dash - 1 != 6) return false;
    long pid = 0;
    for (const char c : rest.substr(0, dash)) {
        if (c < '0' || c > '9') return false;
        pid = pid * 10 + (c - '0');
    }
    if (pid <= 0 || pid == static_cast<long>(::getpid())) return false;
    // Signal 0 tests whether the process exists; EPERM means it does (another user's).
    return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

void sync_folder(const std::string& folder, std::string_view where) {
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw_error(errc::io_error, std::string(where) + ": cannot open its folder to sync it: " + reason());
    report("fsync folder", folder);
    const int rc = ::fsync(fd);
    const int saved = errno;
    ::close(fd);
    // File systems that cannot sync a folder (EINVAL) order their renames themselves.
    if (rc != 0 && saved != EINVAL) {
        errno = saved;
        throw_error(errc::io_error, std::string(where) + ": cannot sync its folder: " + reason());
    }
}

void write_file_atomically(const std::string& path, std::string_view text, std::string_view op, bool durable) {
    atomic_output_file out(path, op, durable);
    out.write(text);
    out.commit();
}

atomic_output_file::atomic_output_file(const std::string& path, std::string_view op, bool durable)
    : path_(path), where_(file_where(op, path)), durable_(durable) {
    // The temporary lives next to the target so that rename() is atomic (same
    // file system).
    const auto [dir, base] = split_path(path);
    if (base.empty()) throw_error(errc::io_error, where_ + ": the path names a folder, not a file");
    clean_folder_once(dir);
    temp_path_ = temporary_template(dir, base);
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
    // The data must reach the disk before the rename does: otherwise a crash can
    // leave the new name on the disk with the old (or no) bytes behind it.
    if (durable_) {
        report("fsync file", temp_path_);
        if (::fsync(fd_) != 0) fail_system("cannot sync the written data to the disk");
    }
    if (::close(fd_) != 0) {
        fd_ = -1;
        fail_system("cannot write");
    }
    fd_ = -1;
    report("rename", path_);
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail_system("cannot rename the temporary file over it");
    committed_ = true;
    if (durable_) sync_folder(parent_of(path_), where_);
}

void replace_folder(const std::string& path, std::string_view where, bool durable,
                    const std::function<void(const std::string&)>& build) {
    std::string target = path;
    while (target.size() > 1 && target.back() == '/') target.pop_back();
    const auto [dir, base] = split_path(target);
    const std::string at(where);
    std::string fresh = temporary_template(dir, base);
    if (!::mkdtemp(fresh.data()))
        throw_error(errc::io_error, at + ": cannot create a temporary folder beside it: " + reason());
    try {
        build(fresh);
    } catch (const error& e) {
        std::error_code ec;
        std::filesystem::remove_all(fresh, ec);
        // The inner message names the temporary folder; the caller knows the target.
        throw_error(e.code(), at + ": the replacement could not be written, so the old one is kept as it was: " +
                                  e.message());
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove_all(fresh, ec);
        throw;
    }
    if (durable) sync_folder(fresh, where);
    // One rename swaps the two folders where the file system can (Linux 3.15+);
    // elsewhere the old folder is moved aside first and moved back if the new one
    // cannot take its place. Either way the old folder's data is never deleted
    // before the new folder holds the path.
    std::string old = fresh;
    report("rename", target);
    if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
        if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
            const std::string r = reason();
            std::error_code ec;
            std::filesystem::remove_all(fresh, ec);
            throw_error(errc::io_error, at + ": cannot put the new folder in place of the old one: " + r);
        }
        old = temporary_template(dir, base);
        if (!::mkdtemp(old.data()) || ::rename(target.c_str(), old.c_str()) != 0) {
            const std::string r = reason();
            std::error_code ec;
            std::filesystem::remove_all(fresh, ec);
            throw_error(errc::io_error, at + ": cannot move the old folder aside: " + r);
        }
        if (::rename(fresh.c_str(), target.c_str()) != 0) {
            const std::string r = reason();
            ::rename(old.c_str(), target.c_str());
            std::error_code ec;
            std::filesystem::remove_all(fresh, ec);
            throw_error(errc::io_error, at + ": cannot put the new folder in place of the old one: " + r);
        }
    }
    if (durable) sync_folder(parent_of(target), where);
    // The old content, now under the temporary name; a failure to remove it leaves
    // a hidden folder, never a damaged array.
    std::error_code ec;
    std::filesystem::remove_all(old, ec);
}

}  // namespace nt::detail
