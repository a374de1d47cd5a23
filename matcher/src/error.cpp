#include "nt/error.hpp"

#include <array>
#include <utility>

namespace nt {

namespace {
constexpr std::array<std::pair<errc, std::string_view>, 20> code_names{{
    {errc::parse_error, "parse_error"},
    {errc::invalid_spec, "invalid_spec"},
    {errc::duplicate_name, "duplicate_name"},
    {errc::unknown_tensor, "unknown_tensor"},
    {errc::incompatible_sizes, "incompatible_sizes"},
    {errc::no_counterpart, "no_counterpart"},
    {errc::name_mismatch, "name_mismatch"},
    {errc::ambiguous, "ambiguous"},
    {errc::axis_out_of_range, "axis_out_of_range"},
    {errc::index_out_of_range, "index_out_of_range"},
    {errc::invalid_argument, "invalid_argument"},
    {errc::not_a_view, "not_a_view"},
    {errc::read_only, "read_only"},
    {errc::type_mismatch, "type_mismatch"},
    {errc::io_error, "io_error"},
    {errc::format_error, "format_error"},
    {errc::unsupported_dtype, "unsupported_dtype"},
    {errc::no_gradient, "no_gradient"},
    {errc::modified_in_place, "modified_in_place"},
    {errc::rank_mismatch, "rank_mismatch"},
}};
}  // namespace

std::string to_string(errc code) {
    for (const auto& [c, name] : code_names)
        if (c == code) return std::string(name);
    return "unknown_error";
}

bool errc_from_string(std::string_view text, errc& code) noexcept {
    for (const auto& [c, name] : code_names)
        if (name == text) {
            code = c;
            return true;
        }
    return false;
}

error::error(errc code, const std::string& message)
    : std::runtime_error("[nt." + to_string(code) + "] " + message), code_(code), message_(message) {}

void throw_error(errc code, const std::string& message) { throw error(code, message); }

}  // namespace nt
