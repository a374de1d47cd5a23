// .npy files: load, save (atomic), map. The header itself is read by the matcher's
// npy_header reader, shared with `ntensor info` and shape configs.
#include "nt/npy.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include <sys/mman.h>

#include "file_io.hpp"
#include "npy_data.hpp"
#include "npy_header.hpp"
#include "nt/error.hpp"

namespace nt {

namespace detail {

namespace {

/// Bytes copied per block when a non-contiguous tensor is written in C order.
constexpr std::size_t write_block_bytes = std::size_t{8} << 20;

template <std::size_t N>
void swap_each(std::byte* p, std::size_t count) noexcept {
    for (std::size_t i = 0; i < count; ++i, p += N) std::reverse(p, p + N);
}

/// The header of an open file, read through its descriptor.
npy_header read_header(const input_file& f) {
    const std::string head = f.read_string(0, static_cast<std::size_t>(std::min<std::uint64_t>(f.size(), 12)),
                                           "the .npy preamble");
    const std::uint64_t offset = npy_data_offset(head, f.size(), f.where());
    const std::string all = f.read_string(0, static_cast<std::size_t>(offset), "the .npy header");
    return parse_npy_header(all, f.size(), f.where());
}

}  // namespace

dtype npy_dtype(const npy_header& h, std::string_view where) {
    dtype d{};
    if (!dtype_from_string(h.dtype, d))
        throw_error(errc::unsupported_dtype, std::string(where) + ": the descr '" + h.descr + "' (" +
                                                 std::string(h.dtype) +
                                                 ") is not an element type of this ntensor build; convert it "
                                                 "with arr.astype(...) before np.save");
    return d;
}

nt::layout npy_layout(const npy_header& h) {
    return h.fortran_order ? nt::layout::f_contiguous(h.shape) : nt::layout::c_contiguous(h.shape);
}

tensor_base allocate_npy(const npy_header& h, names_arg names, std::string_view where, std::string_view op) {
    const dtype d = npy_dtype(h, where);
    tensor_base t = tensor_base::allocate(d, h.shape, names.span(), op);
    if (h.fortran_order && h.shape.size() > 1)
        t = t.with(npy_layout(h), name_list(t.names().begin(), t.names().end()), false);
    return t;
}

void finish_npy_data(const npy_header& h, std::byte* data) noexcept {
    const auto count = static_cast<std::size_t>(h.element_count());
    if (h.needs_swap()) {
        switch (h.item_size) {
            case 2: swap_each<2>(data, count); break;
            case 4: swap_each<4>(data, count); break;
            case 8: swap_each<8>(data, count); break;
            default: break;
        }
    }
    // A bool byte other than 0 or 1 is not a valid C++ bool: normalise (as NumPy's
    // astype(bool) would read it).
    if (h.kind == 'b')
        for (std::size_t i = 0; i < count; ++i) data[i] = data[i] != std::byte{0} ? std::byte{1} : std::byte{0};
}

void check_npy_type(const npy_header& h, dtype expected, std::string_view where) {
    const dtype d = npy_dtype(h, where);
    if (d != expected)
        throw_error(errc::type_mismatch,
                    std::string(where) + ": the file holds " + std::string(to_string(d)) + " elements ('" + h.descr +
                        "'), not " + std::string(to_string(expected)) +
                        "; call load_npy<T> with the file's type, or load_npy(path).astype<T>() to convert");
}

std::string npy_header_for(const tensor_base& t, bool& fortran) {
    const std::string_view descr = npy_descr_for(to_string(t.type()));
    fortran = !t.is_contiguous() && t.rank() > 1 && t.layout().is_f_contiguous();
    return make_npy_header(descr, fortran, t.shape());
}

void write_npy_data(const tensor_base& t, bool fortran, const std::function<void(const void*, std::size_t)>& put) {
    const std::int64_t es = static_cast<std::int64_t>(t.element_size());
    if (t.size() == 0) return;
    if (t.is_contiguous() || fortran) {
        put(t.data(), static_cast<std::size_t>(t.size() * es));
        return;
    }
    // Any other strides: copy C-order blocks of about write_block_bytes into a buffer.
    // Axes k.. form whole rows of `inner` elements; axis k-1 is split into runs of m.
    const auto shape = t.shape();
    const std::size_t r = shape.size();
    const auto block = static_cast<std::int64_t>(write_block_bytes);
    std::size_t k = r;
    std::int64_t inner = 1;
    while (k > 0 && inner * shape[k - 1] * es <= block) inner *= shape[--k];
    if (k == 0) {
        std::vector<std::byte> buffer(static_cast<std::size_t>(t.size() * es));
        t.copy_to(buffer.data());
        put(buffer.data(), buffer.size());
        return;
    }
    const std::int64_t m = std::max<std::int64_t>(1, block / (inner * es));
    std::vector<std::byte> buffer(static_cast<std::size_t>(std::min(m, shape[k - 1]) * inner * es));
    std::vector<std::int64_t> index(k - 1, 0);
    std::vector<index_item> items(k);
    for (;;) {
        for (std::size_t i = 0; i + 1 < k; ++i) items[i] = to_index_item(index[i]);
        for (std::int64_t j = 0; j < shape[k - 1]; j += m) {
            items[k - 1] = to_index_item(range(j, std::min(j + m, shape[k - 1])));
            const tensor_base part = t.index(items);
            part.copy_to(buffer.data());
            put(buffer.data(), static_cast<std::size_t>(part.size() * es));
        }
        std::size_t axis = k - 1;
        while (axis > 0 && ++index[axis - 1] == shape[axis - 1]) index[--axis] = 0;
        if (axis == 0) break;
    }
}

namespace {
/// load_npy, checking the dtype against `expected` (when given) before any data.
tensor_base load(const std::string& path, names_arg names, const dtype* expected) {
    const input_file f(path, "load_npy");
    const npy_header h = read_header(f);
    if (expected) check_npy_type(h, *expected, f.where());
    tensor_base t = allocate_npy(h, names, f.where(), "load_npy");
    f.read_at(h.data_offset, t.storage(), static_cast<std::size_t>(h.data_bytes()), "the array data");
    finish_npy_data(h, t.storage());
    return t;
}
}  // namespace

tensor_base load_npy_as(const std::string& path, names_arg names, dtype expected) {
    return load(path, names, &expected);
}

}  // namespace detail

any_tensor load_npy(const std::string& path, names_arg names) {
    return any_tensor(detail::load(path, names, nullptr));
}

void save_npy(const std::string& path, const any_tensor& t, const io_options& io) {
    detail::atomic_output_file out(path, "save_npy", io.durable);
    bool fortran = false;
    out.write(detail::npy_header_for(t.base(), fortran));
    detail::write_npy_data(t.base(), fortran, [&](const void* p, std::size_t n) { out.write(p, n); });
    out.commit();
}

any_tensor map_npy(const std::string& path, map_mode mode, names_arg names) {
    const detail::input_file f(path, "map_npy", mode == map_mode::read_write);
    const detail::npy_header h = detail::read_header(f);
    const dtype d = detail::npy_dtype(h, f.where());
    if (h.needs_swap())
        throw_error(errc::unsupported_dtype,
                    f.where() + ": the data is big-endian ('" + h.descr +
                        "') and a mapping cannot swap bytes; use load_npy, which reads and swaps them");
    if (h.data_offset % static_cast<std::uint64_t>(h.item_size) != 0)
        throw_error(errc::unsupported_dtype,
                    f.where() + ": the data starts at byte " + std::to_string(h.data_offset) +
                        ", not a multiple of its " + std::to_string(h.item_size) +
                        "-byte elements, so it cannot be mapped; use load_npy");
    // Names are checked before anything is mapped.
    const name_list n = names_for_rank(names.span(), h.shape.size(), "map_npy");
    const int prot = mode == map_mode::read_only ? PROT_READ : PROT_READ | PROT_WRITE;
    const int flags = mode == map_mode::read_write ? MAP_SHARED : MAP_PRIVATE | MAP_NORESERVE;
    const auto length = static_cast<std::size_t>(f.size());
    void* p = ::mmap(nullptr, length, prot, flags, f.fd(), 0);
    if (p == MAP_FAILED)
        throw_error(errc::io_error, f.where() + ": cannot map: " + std::strerror(errno));
    // The mapping outlives the descriptor (closed with f) and lives as long as any view.
    std::shared_ptr<void> owner(p, [length](void* q) { ::munmap(q, length); });
    auto* data = static_cast<std::byte*>(p) + h.data_offset;
    detail::tensor_base t(d, std::move(owner), data, h.element_count(), detail::npy_layout(h), n,
                          mode == map_mode::read_only);
    return any_tensor(std::move(t));
}

}  // namespace nt
