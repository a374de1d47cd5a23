// tensor_base: construction, queries, element access, copies and writes.
#include "nt/detail/tensor_base.hpp"
#include "nt/detail/grad_hooks.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

#include "allocator.hpp"
#include "core_errors.hpp"
#include "convert.hpp"
#include "copy.hpp"
#include "nt/match.hpp"
#include "nt/storage.hpp"

namespace nt::detail {

namespace {
constexpr std::int64_t empty_shape[1] = {0};
constexpr std::int64_t unit_stride[1] = {1};

void check_shape(std::span<const std::int64_t> shape, std::string_view op) {
    check_sizes(shape, op);
    if (!checked_element_count(shape))
        fail(errc::invalid_argument, op, "shape " + shape_text(shape) + " has too many elements for 64-bit sizes");
}
// The bytes that wrapped strides reach, computed in 128 bits: every offset and the
// extent must fit int64 (wrap(ptr, {2}, {INT64_MIN}) would otherwise overflow in
// the span and overlap arithmetic).
void check_addressable_span(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                            std::size_t element_size) {
    __extension__ using i128 = __int128;
    for (std::int64_t n : shape)
        if (n == 0) return;
    i128 lo = 0, hi = 0;
    for (std::size_t i = 0; i < shape.size() && i < strides.size(); ++i) {
        const i128 reach = static_cast<i128>(shape[i] - 1) * strides[i];
        (reach < 0 ? lo : hi) += reach;
    }
    const i128 limit = std::numeric_limits<std::int64_t>::max();
    if ((hi - lo + 1) * static_cast<i128>(element_size) > limit)
        fail(errc::invalid_argument, "wrap",
             "strides " + shape_text(strides) + " over shape " + shape_text(shape) +
                 " reach further than 64-bit byte offsets can address; pass strides in elements whose span fits "
                 "the wrapped memory");
}
}  // namespace

void throw_type_mismatch(dtype expected, dtype actual, const char* op) {
    fail(errc::type_mismatch, op,
         "the tensor holds " + std::string(to_string(actual)) + " elements, not " + std::string(to_string(expected)) +
             "; use a Tensor of the matching element type");
}

tensor_base::tensor_base(dtype d) : layout_(empty_shape, unit_stride, 0), names_(1, name{}), dtype_(d) {}

tensor_base::tensor_base(dtype d, std::shared_ptr<void> owner, std::byte* storage, std::int64_t extent,
                         nt::layout&& layout, name_list&& names, bool read_only)
    : owner_(std::move(owner)), storage_(storage), extent_(extent), layout_(std::move(layout)),
      names_(std::move(names)), read_only_(read_only), dtype_(d) {}

tensor_base::tensor_base(dtype d, std::shared_ptr<void> owner, std::byte* storage, std::int64_t extent,
                         const nt::layout& layout, const name_list& names, bool read_only)
    : owner_(std::move(owner)), storage_(storage), extent_(extent), layout_(layout), names_(names),
      read_only_(read_only), dtype_(d) {}

tensor_base::tensor_base(dtype d, std::size_t bytes, std::int64_t extent, const nt::layout& layout,
                         const name_list& names)
    : extent_(extent), layout_(layout), names_(names), dtype_(d) {
    storage_ = static_cast<std::byte*>(allocate_owned(bytes, owner_));
}

tensor_base tensor_base::allocate(dtype d, std::span<const std::int64_t> shape, std::span<const name> names,
                                  std::string_view op) {
    check_shape(shape, op);
    return fresh(d, shape, names_for_rank(names, shape.size(), op), op);
}

tensor_base tensor_base::allocate_result(dtype d, const nt::spec& s, std::string_view op) {
    // One pass, innermost axis first: sizes, C strides, names and the element count
    // (NumPy's rule of checked_element_count: the non-zero sizes' product must fit).
    // A tiny element-wise op spends a visible part of its time here.
    const std::size_t rank = s.rank();
    dims shape(rank, 0), strides(rank, 0);
    name_list n(rank, name{});
    std::int64_t nonzero = 1;
    bool zero = false, overflow = false;
    for (std::size_t i = rank; i-- > 0;) {
        const axis_spec& ax = s[i];
        shape[i] = ax.size;
        n[i] = ax.name;
        strides[i] = nonzero;
        if (ax.size == 0) zero = true;
        else overflow |= __builtin_mul_overflow(nonzero, ax.size, &nonzero);
    }
    return allocate_result(d, nt::layout(shape.span(), strides.span(), 0), n, overflow ? -1 : zero ? 0 : nonzero, op);
}

tensor_base tensor_base::allocate_result(dtype d, const nt::layout& c_layout, const name_list& names,
                                         std::int64_t count, std::string_view op) {
    std::size_t bytes = 0;
    if (count < 0)
        fail(errc::invalid_argument, op, "shape " + shape_text(c_layout.sizes()) + " has too many elements for 64-bit sizes");
    if (__builtin_mul_overflow(static_cast<std::size_t>(count), size_of(d), &bytes))
        fail(errc::invalid_argument, op, "shape " + shape_text(c_layout.sizes()) + " needs more bytes than memory can address");
    return tensor_base(d, bytes, count, c_layout, names);
}

tensor_base tensor_base::allocate_like(dtype d, const tensor_base& like, std::int64_t count, std::string_view op) {
    if (like.layout_.offset() == 0) return allocate_result(d, like.layout_, like.names_, count, op);
    return allocate_result(d, like.layout_.with_offset(0), like.names_, count, op);
}

tensor_base tensor_base::fresh(dtype d, std::span<const std::int64_t> shape, name_list names, std::string_view op) {
    const auto count = checked_element_count(shape);
    std::size_t bytes = 0;
    if (!count) fail(errc::invalid_argument, op, "shape " + shape_text(shape) + " has too many elements for 64-bit sizes");
    if (__builtin_mul_overflow(static_cast<std::size_t>(*count), size_of(d), &bytes))
        fail(errc::invalid_argument, op, "shape " + shape_text(shape) + " needs more bytes than memory can address");
    return tensor_base(d, bytes, *count, nt::layout::c_contiguous(shape), names);
}

tensor_base tensor_base::wrap(dtype d, void* ptr, std::span<const std::int64_t> shape,
                              std::span<const std::int64_t> strides, std::shared_ptr<void> owner,
                              std::span<const name> names) {
    check_shape(shape, "wrap");
    name_list n = names_for_rank(names, shape.size(), "wrap");
    dims s = strides.empty() ? c_strides(shape) : dims(strides);
    if (s.size() != shape.size())
        fail(errc::invalid_argument, "wrap",
             std::to_string(strides.size()) + " strides given for shape " + shape_text(shape) +
                 "; give one stride per axis (in elements), or none for C order");
    check_addressable_span(shape, s.span(), size_of(d));
    nt::layout probe(shape, s.span(), 0);
    const auto bounds = probe.required_span();
    if (!bounds.empty && ptr == nullptr)
        fail(errc::invalid_argument, "wrap", "a null pointer cannot hold elements; pass the memory to wrap");
    const std::int64_t lo = bounds.empty ? 0 : bounds.min;
    const std::int64_t extent = bounds.empty ? 0 : bounds.max - bounds.min + 1;
    auto* start = static_cast<std::byte*>(ptr) + lo * static_cast<std::int64_t>(size_of(d));
    const bool overlap = probe.has_self_overlap();
    return tensor_base(d, std::move(owner), start, extent, probe.with_offset(-lo), std::move(n), overlap);
}

std::int64_t tensor_base::size(const Axis& axis) const {
    return layout_.size(resolve_axis(axis, names(), "size", shape()));
}

nt::spec tensor_base::spec() const {
    nt::spec s;
    for (std::size_t i = 0; i < rank(); ++i) s.push_back({layout_.size(i), names_[i]});
    return s;
}

bool tensor_base::may_overlap(const tensor_base& other) const noexcept {
    const auto a = layout_.required_span(), b = other.layout_.required_span();
    if (a.empty || b.empty || !storage_ || !other.storage_) return false;
    const auto a0 = reinterpret_cast<std::uintptr_t>(storage_) + static_cast<std::uintptr_t>(a.min) * element_size();
    const auto a1 = reinterpret_cast<std::uintptr_t>(storage_) + static_cast<std::uintptr_t>(a.max + 1) * element_size();
    const auto b0 = reinterpret_cast<std::uintptr_t>(other.storage_) +
                    static_cast<std::uintptr_t>(b.min) * other.element_size();
    const auto b1 = reinterpret_cast<std::uintptr_t>(other.storage_) +
                    static_cast<std::uintptr_t>(b.max + 1) * other.element_size();
    return a0 < b1 && b0 < a1;
}

std::byte* tensor_base::offset_data() const noexcept {
    if (!storage_ || layout_.element_count() == 0) return storage_;
    return storage_ + layout_.offset() * static_cast<std::int64_t>(element_size());
}

std::string tensor_base::describe() const { return spec_text(shape(), names()); }

std::int64_t tensor_base::element_offset(std::span<const std::int64_t> index, const char* op) const {
    if (index.size() != rank())
        fail(errc::invalid_argument, op,
             std::to_string(index.size()) + " indices given for tensor " + describe() + " of rank " +
                 std::to_string(rank()) + "; give one index per axis (use index() for views)");
    std::int64_t off = layout_.offset();
    for (std::size_t k = 0; k < index.size(); ++k) {
        std::int64_t i = index[k];
        const std::int64_t n = layout_.size(k);
        if (i < -n || i >= n) {
            std::string axis = "axis " + std::to_string(k);
            if (names_[k]) axis += " '" + std::string(names_[k].str()) + "'";
            fail(errc::index_out_of_range, op,
                 "index " + std::to_string(i) + " is out of range for " + axis + " (size " + std::to_string(n) +
                     ") of tensor " + describe() +
                     (n == 0 ? std::string("; the axis is empty") : "; valid indices are " + std::to_string(-n) +
                                                                        ".." + std::to_string(n - 1)));
        }
        if (i < 0) i += n;
        off += i * layout_.stride(k);
    }
    return off;
}

void tensor_base::throw_read_only(const char* op) const {
    if (!layout_.has_self_overlap())
        fail(errc::read_only, op,
             "tensor " + describe() +
                 " is read-only (a file mapped with nt::map_mode::read_only, or a view of one); write into clone(), "
                 "or map the file with map_mode::read_write or map_mode::copy_on_write");
    fail(errc::read_only, op,
         "tensor " + describe() + " with strides " + list_text(strides()) +
             " is a read-only view (a broadcast axis of stride 0, or overlapping unfold windows, lets two "
             "indices reach one element); write into clone() or contiguous() instead");
}

tensor_base tensor_base::with(nt::layout l, name_list names, bool read_only) const {
    return tensor_base(dtype_, owner_, storage_, extent_, std::move(l), std::move(names), read_only);
}

// --- copies and writes -------------------------------------------------------------

tensor_base tensor_base::clone(order o) const {
    tensor_base out = allocate(dtype_, shape(), names(), "clone");
    if (o == order::fortran) out.layout_ = nt::layout::f_contiguous(shape());
    copy_elements(out.storage_, out.layout_, storage_, layout_, element_size());
    return out;
}

tensor_base tensor_base::contiguous() const {
    if (!read_only_ && is_contiguous()) return *this;
    return clone();
}

void tensor_base::fill(const void* value) const {
    check_writable("fill");
    before_write(*this, "fill");
    fill_elements(storage_, layout_, value, element_size());
}

void tensor_base::assign(const tensor_base& src) const {
    check_writable("assign");
    before_write(*this, "assign");
    const tensor_base source = may_overlap(src) ? src.clone() : src;
    const std::string_view labels[1] = {"source"};
    match_options options;
    options.labels = labels;
    const plan p = nt::broadcast_to(source.spec(), spec(), options);
    const auto& map = p.inputs[0].source_axes;
    dims sizes, strides;
    for (std::size_t k = 0; k < map.size(); ++k) {
        sizes.push_back(layout_.size(k));
        const std::int32_t a = map[k];
        strides.push_back(a == inserted_axis || source.layout_.size(static_cast<std::size_t>(a)) != layout_.size(k)
                              ? 0
                              : source.layout_.stride(static_cast<std::size_t>(a)));
    }
    const nt::layout from(sizes.span(), strides.span(), source.layout_.offset());
    if (source.dtype_ == dtype_)
        copy_elements(storage_, layout_, source.storage_, from, element_size());
    else
        convert_elements(storage_, layout_, dtype_, source.storage_, from, source.dtype_);
}

void tensor_base::copy_to(void* out) const {
    copy_elements(out, nt::layout::c_contiguous(shape()), storage_, layout_, element_size());
}

}  // namespace nt::detail
