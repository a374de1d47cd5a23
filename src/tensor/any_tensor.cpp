// nt::any_tensor: conversions, fill and printing over the untyped handle. The
// operations on any_tensor operands are in any_ops.cpp.
#include "nt/any_tensor.hpp"

#include <ostream>

#include "core_errors.hpp"
#include "convert.hpp"
#include "copy.hpp"
#include "element_types.hpp"
#include "nt/elementwise.hpp"
#include "nt/print.hpp"

namespace nt {

namespace detail {
void throw_any_type_mismatch(dtype requested, dtype actual) {
    fail(errc::type_mismatch, "any_tensor::as",
         "the tensor holds " + std::string(to_string(actual)) + " elements, not " + std::string(to_string(requested)) +
             "; call as<T>() with T of dtype " + std::string(to_string(actual)) +
             " (nt::visit gives the typed tensor), or astype<T>() to convert");
}
}  // namespace detail

detail::tensor_base any_tensor::convert(nt::dtype d) const {
    detail::tensor_base out = detail::tensor_base::allocate(d, shape(), names(), "astype");
    if (d == dtype())
        detail::copy_elements(out.storage(), out.layout(), b_.storage(), b_.layout(), b_.element_size());
    else
        detail::convert_elements(out.storage(), out.layout(), d, b_.storage(), b_.layout(), dtype());
    if (detail::records(b_)) [[unlikely]]
        detail::record_cast(b_, out);
    return out;
}

namespace {
/// `s` converted to `d` as a scalar operand converts (saturating float to integer,
/// NaN to 0), passed to `f` as a pointer to one element of `d`.
template <class F>
void with_scalar_as(nt::dtype d, const any_scalar& s, F&& f) {
    detail::visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        T v{};
        switch (s.k) {
            case any_scalar::kind::boolean: v = detail::scalar_as<T>(s.b); break;
            case any_scalar::kind::signed_integer: v = detail::scalar_as<T>(s.i); break;
            case any_scalar::kind::unsigned_integer: v = detail::scalar_as<T>(s.u); break;
            case any_scalar::kind::floating: v = detail::scalar_as<T>(s.f); break;
        }
        f(static_cast<const void*>(&v));
    });
}
}  // namespace

void any_tensor::fill_scalar(const any_scalar& s) const {
    // Then fills like Tensor<T>::fill.
    with_scalar_as(dtype(), s, [&](const void* v) { b_.fill(v); });
}

void any_tensor::masked_fill_scalar(const any_tensor& mask, const any_scalar& s) const {
    with_scalar_as(dtype(), s, [&](const void* v) { detail::masked_fill(b_, mask.base(), v); });
}

std::ostream& operator<<(std::ostream& os, const any_tensor& a) {
    detail::print(os, a.base());
    return os;
}

std::string to_string(const any_tensor& a) { return detail::format(a.base()); }

}  // namespace nt
