// .npz archives: a zip of .npy members, read and written through zip.hpp.
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "file_io.hpp"
#include "npy_data.hpp"
#include "npz_headers.hpp"
#include "nt/error.hpp"
#include "nt/npy.hpp"
#include "zip.hpp"

namespace nt {

namespace detail {
namespace {

constexpr std::string_view npy_suffix = ".npy";

std::string member_where(const input_file& f, std::string_view member) {
    return f.where() + " member '" + std::string(member) + "'";
}

/// The member's name without ".npy"; format_error for other members.
std::string entry_name(const input_file& f, const zip_member& m) {
    if (m.name.size() <= npy_suffix.size() || !m.name.ends_with(npy_suffix))
        throw_error(errc::format_error,
                    member_where(f, m.name) +
                        " is not a .npy array (an .npz holds '<name>.npy' members only, as np.savez writes them)");
    return m.name.substr(0, m.name.size() - npy_suffix.size());
}

/// Reads a member's .npy header through `r` (its first bytes).
npy_header read_member_header(zip_member_reader& r, const zip_member& m, const std::string& where) {
    std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(m.size, 12)), '\0');
    r.read(head.data(), head.size());
    const std::uint64_t offset = npy_data_offset(head, m.size, where);
    // A version 1.0 header shorter than 2 bytes ends inside the 12 bytes read: the
    // parser rejects it (no dict fits), so no data is ever read from a wrong offset.
    if (offset > head.size()) {
        std::string rest(static_cast<std::size_t>(offset - head.size()), '\0');
        r.read(rest.data(), rest.size());
        head += rest;
    }
    return parse_npy_header(head, m.size, where);
}

/// Records `name` in `seen`; format_error when it is there already. A hash set: an
/// archive may hold tens of thousands of members, and a scan per member was quadratic
/// (figures: docs/performance.md, "Figures behind the engine's thresholds").
void check_unique(const input_file& f, std::unordered_set<std::string>& seen, const std::string& name) {
    if (!seen.insert(name).second)
        throw_error(errc::format_error, f.where() + ": the archive has two members named '" + name +
                                            ".npy'; each array name must be unique");
}

}  // namespace

std::vector<std::pair<std::string, npy_header>> read_npz_headers(const std::string& path, std::string_view op) {
    const input_file f(path, op);
    const std::vector<zip_member> members = read_zip_directory(f);
    std::vector<std::pair<std::string, npy_header>> out;
    std::unordered_set<std::string> seen;
    for (const zip_member& m : members) {
        std::string name = entry_name(f, m);
        check_unique(f, seen, name);
        zip_member_reader r(f, m, member_where(f, m.name));
        out.emplace_back(std::move(name), read_member_header(r, m, member_where(f, m.name)));
    }
    return out;
}

}  // namespace detail

std::vector<std::string> npz::names() const {
    std::vector<std::string> out;
    out.reserve(entries_.size());
    for (const npz_entry& e : entries_) out.push_back(e.name);
    return out;
}

const npz_entry* npz::find(std::string_view name) const noexcept {
    // As NumPy's NpzFile: the name as given, else without a ".npy" suffix.
    for (const npz_entry& e : entries_)
        if (e.name == name) return &e;
    if (!name.ends_with(detail::npy_suffix)) return nullptr;
    name.remove_suffix(detail::npy_suffix.size());
    for (const npz_entry& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
}

bool npz::contains(std::string_view name) const noexcept { return find(name) != nullptr; }

const any_tensor& npz::operator[](std::string_view name) const {
    if (const npz_entry* e = find(name)) return e->array;
    std::string available;
    for (const npz_entry& e : entries_) available += (available.empty() ? "'" : ", '") + e.name + "'";
    throw_error(errc::invalid_argument, "npz::operator[]: no array named '" + std::string(name) + "'; the archive has " +
                                            (available.empty() ? std::string("no arrays") : available));
}

npz load_npz(const std::string& path) {
    const detail::input_file f(path, "load_npz");
    const std::vector<detail::zip_member> members = detail::read_zip_directory(f);
    std::vector<npz_entry> entries;
    std::unordered_set<std::string> seen;
    for (const detail::zip_member& m : members) {
        std::string name = detail::entry_name(f, m);
        detail::check_unique(f, seen, name);
        const std::string where = detail::member_where(f, m.name);
        detail::zip_member_reader r(f, m, where);
        const detail::npy_header h = detail::read_member_header(r, m, where);
        detail::tensor_base t = detail::allocate_npy(h, {}, where, "load_npz");
        r.read(t.storage(), static_cast<std::size_t>(h.data_bytes()));
        r.finish();
        detail::finish_npy_data(h, t.storage());
        entries.push_back({std::move(name), any_tensor(std::move(t))});
    }
    return npz(std::move(entries));
}

void save_npz(const std::string& path, std::span<const npz_entry> entries, npz_compression compression,
              const io_options& io) {
    std::unordered_set<std::string_view> names;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string& n = entries[i].name;
        if (n.empty() || n.find('/') != std::string::npos || n.find('\\') != std::string::npos || n.size() > 60000)
            throw_error(errc::invalid_argument, "save_npz: '" + path + "': entry " + std::to_string(i) + " name '" + n +
                                                    "' is not a plain file name; give a non-empty name without "
                                                    "'/' or '\\'");
        if (!names.insert(n).second)
            throw_error(errc::invalid_argument, "save_npz: '" + path + "': the name '" + n +
                                                    "' is given twice; each array needs its own name");
    }
    detail::atomic_output_file out(path, "save_npz", io.durable);
    detail::zip_writer zip(out);
    for (const npz_entry& e : entries) {
        const detail::tensor_base& t = e.array.base();
        zip.add(e.name + std::string(detail::npy_suffix), compression == npz_compression::deflate,
                [&](const std::function<void(const void*, std::size_t)>& put) {
                    bool fortran = false;
                    const std::string header = detail::npy_header_for(t, fortran);
                    put(header.data(), header.size());
                    detail::write_npy_data(t, fortran, put);
                });
    }
    zip.finish();
    out.commit();
}

void save_npz(const std::string& path, std::initializer_list<npz_entry> entries, npz_compression compression,
              const io_options& io) {
    save_npz(path, std::span<const npz_entry>(entries.begin(), entries.size()), compression, io);
}

}  // namespace nt
