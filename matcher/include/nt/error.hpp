// nt/error.hpp: the one exception root of ntensor and its stable error codes.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace nt {

/// Stable error codes. Their spellings (see to_string) are part of the contract:
/// the `ntensor` command prints them and tests match on them.
enum class errc {
    parse_error,         ///< malformed JSON or spec string
    invalid_spec,        ///< negative size, bad name, length mismatch, unknown key or policy, rank over the limit
    duplicate_name,      ///< a name used twice within one spec
    unknown_tensor,      ///< a config refers to a tensor it does not define
    incompatible_sizes,  ///< matched axes whose sizes are neither equal nor 1
    no_counterpart,      ///< an axis with nothing to match in the host (try `union`)
    name_mismatch,       ///< positional policy: two names on one output axis
    ambiguous,           ///< search policy: several best placements
    axis_out_of_range,   ///< an axis index or name that the tensor does not have
    index_out_of_range,  ///< an element index outside its axis
    invalid_argument,    ///< any other bad argument (step 0, two -1 in a reshape, ...)
    not_a_view,          ///< `view` asked for a layout that needs a copy
    read_only,           ///< a write through a view whose elements alias each other
    type_mismatch,       ///< an element type that does not fit
    io_error,            ///< a file cannot be opened, read, written, mapped or renamed
    format_error,        ///< bad magic, malformed header, sizes that disagree with the file, corrupt data
    unsupported_dtype,   ///< a dtype or codec ntensor does not read (complex, object, strings, structured, ...)
    no_gradient,         ///< grad() of a tensor that no backward pass reached (nt/autograd.hpp)
    modified_in_place,   ///< backward needs a tensor that was written in place after a rule saved it
    rank_mismatch,       ///< a tensor whose rank is not the one a type (nt::tensor_of, <nt/static.hpp>) names
};

/// The code's stable spelling, e.g. "incompatible_sizes" (a std::string, as every
/// nt::to_string).
[[nodiscard]] std::string to_string(errc code);

/// Parses a spelling produced by to_string; returns false if unknown.
[[nodiscard]] bool errc_from_string(std::string_view text, errc& code) noexcept;

/// Root of every exception ntensor throws. `what()` is "[nt.<code>] <message>";
/// `message()` is the message alone, as the JSON output reports it.
class error : public std::runtime_error {
public:
    error(errc code, const std::string& message);

    [[nodiscard]] errc code() const noexcept { return code_; }
    [[nodiscard]] const std::string& message() const noexcept { return message_; }

private:
    errc code_;
    std::string message_;
};

/// Throws nt::error. Out of line so that message formatting never bloats callers.
[[noreturn]] void throw_error(errc code, const std::string& message);

}  // namespace nt
