#include "nt/spec.hpp"

#include <charconv>
#include <limits>
#include <ostream>
#include <vector>

#include "nt/error.hpp"

namespace nt {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view text) noexcept {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

// Splits on commas and/or runs of white space. A single trailing comma is allowed
// ("(3,)" as in Python); an empty item elsewhere is a parse error.
std::vector<std::string_view> split_items(std::string_view text, std::string_view whole) {
    std::vector<std::string_view> items;
    text = trim(text);
    if (text.empty()) return items;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = pos;
        while (end < text.size() && text[end] != ',' && !is_space(text[end])) ++end;
        const std::string_view item = text.substr(pos, end - pos);
        // Skip the separator: white space, optionally one comma, white space.
        std::size_t next = end;
        while (next < text.size() && is_space(text[next])) ++next;
        const bool comma = next < text.size() && text[next] == ',';
        if (comma) ++next;
        while (next < text.size() && is_space(text[next])) ++next;
        if (item.empty())
            throw_error(errc::parse_error, "malformed spec " + quoted(whole) +
                                               ": empty item between separators (write sizes as \"(2,3)\" and names as \"? H W\")");
        items.push_back(item);
        if (next >= text.size()) break;
        pos = next;
    }
    return items;
}

std::int64_t parse_size(std::string_view item, std::string_view whole, std::size_t index) {
    const bool negative = !item.empty() && item.front() == '-';
    const std::string_view digits = negative ? item.substr(1) : item;
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec == std::errc::invalid_argument || ptr != digits.data() + digits.size())
        throw_error(errc::parse_error, "malformed spec " + quoted(whole) + ": size " + std::to_string(index) + " is " +
                                           quoted(item) + ", not an integer");
    if (negative)
        throw_error(errc::invalid_spec, "invalid spec " + quoted(whole) + ": size " + std::to_string(index) + " is " +
                                            std::string(item) + "; sizes must be >= 0");
    if (ec == std::errc::result_out_of_range || value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw_error(errc::invalid_spec, "invalid spec " + quoted(whole) + ": size " + std::to_string(index) + " (" +
                                            std::string(item) + ") does not fit in a 64-bit signed integer");
    return static_cast<std::int64_t>(value);
}

}  // namespace

spec::spec(std::initializer_list<std::int64_t> sizes) : spec(std::span<const std::int64_t>(sizes.begin(), sizes.size())) {}

spec::spec(std::span<const std::int64_t> sizes) {
    axes_.reserve(sizes.size());
    for (std::int64_t s : sizes) axes_.push_back({s, {}});
    validate();
}

spec::spec(std::span<const std::int64_t> sizes, std::span<const nt::name> names) {
    if (!names.empty() && names.size() != sizes.size())
        throw_error(errc::invalid_spec, "a spec has " + std::to_string(sizes.size()) + " sizes " + shape_string(sizes) +
                                            " but " + std::to_string(names.size()) +
                                            " names; give one name per axis ('?' for unnamed) or none");
    axes_.reserve(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) axes_.push_back({sizes[i], names.empty() ? nt::name{} : names[i]});
    validate();
}

spec::spec(std::initializer_list<std::int64_t> sizes, std::initializer_list<nt::name> names)
    : spec(std::span<const std::int64_t>(sizes.begin(), sizes.size()),
           std::span<const nt::name>(names.begin(), names.size())) {}

dims spec::sizes() const {
    dims out;
    out.reserve(rank());
    for (const auto& a : axes_) out.push_back(a.size);
    return out;
}

bool spec::has_names() const noexcept {
    for (const auto& a : axes_)
        if (a.name) return true;
    return false;
}

std::int64_t spec::find(nt::name n) const noexcept {
    if (!n) return -1;
    for (std::size_t i = 0; i < axes_.size(); ++i)
        if (axes_[i].name == n) return static_cast<std::int64_t>(i);
    return -1;
}

void spec::validate(std::string_view what, std::span<const std::string> unknown_sizes) const {
    if (rank() > max_rank)
        throw_error(errc::invalid_spec, std::string(what) + " has rank " + std::to_string(rank()) +
                                            ", over the limit of " + std::to_string(max_rank) + " axes");
    for (std::size_t i = 0; i < rank(); ++i) {
        if (axes_[i].size < 0 && static_cast<std::uint64_t>(-1 - axes_[i].size) >= unknown_sizes.size())
            throw_error(errc::invalid_spec, std::string(what) + " " + to_string(*this) + ": axis " + std::to_string(i) +
                                                " has size " + std::to_string(axes_[i].size) + "; sizes must be >= 0");
        if (!axes_[i].name) continue;
        for (std::size_t j = 0; j < i; ++j)
            if (axes_[j].name == axes_[i].name)
                throw_error(errc::duplicate_name,
                            std::string(what) + " " + to_string(*this, unknown_sizes) + ": name '" + std::string(axes_[i].name.str()) +
                                "' is used by axis " + std::to_string(j) + " and axis " + std::to_string(i) +
                                "; names must be unique within a spec (rename one, or leave it unnamed with '?')");
    }
}

spec parse_spec(std::string_view text) {
    std::string_view body = trim(text);
    if (!body.empty() && body.front() == '(') {
        if (body.back() != ')')
            throw_error(errc::parse_error, "malformed spec " + quoted(text) + ": '(' without a closing ')'");
        body = body.substr(1, body.size() - 2);
    } else if (!body.empty() && body.back() == ')') {
        throw_error(errc::parse_error, "malformed spec " + quoted(text) + ": ')' without an opening '('");
    }
    const std::size_t bar = body.find('|');
    const std::string_view sizes_part = body.substr(0, bar);
    const std::string_view names_part = bar == std::string_view::npos ? std::string_view{} : body.substr(bar + 1);
    if (names_part.find('|') != std::string_view::npos)
        throw_error(errc::parse_error, "malformed spec " + quoted(text) + ": more than one '|'");
    for (char c : sizes_part)
        if (c == '(' || c == ')')
            throw_error(errc::parse_error, "malformed spec " + quoted(text) + ": nested parentheses");

    const auto size_items = split_items(sizes_part, text);
    if (size_items.size() > max_rank)
        throw_error(errc::invalid_spec, "spec " + quoted(text) + " has " + std::to_string(size_items.size()) +
                                            " axes, over the limit of " + std::to_string(max_rank));
    dims sizes;
    for (std::size_t i = 0; i < size_items.size(); ++i) sizes.push_back(parse_size(size_items[i], text, i));

    small_vector<nt::name, 8> names;
    if (bar != std::string_view::npos) {
        const auto name_items = split_items(names_part, text);
        if (name_items.size() != sizes.size())
            throw_error(errc::invalid_spec, "spec " + quoted(text) + " has " + std::to_string(sizes.size()) + " sizes but " +
                                                std::to_string(name_items.size()) +
                                                " names; give one name per axis, '?' for unnamed");
        for (auto item : name_items) names.push_back(nt::name(item));
    }
    return spec(sizes, names);
}

small_vector<name, 8> parse_names(std::string_view text) {
    small_vector<name, 8> names;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && is_space(text[pos])) ++pos;
        std::size_t end = pos;
        while (end < text.size() && !is_space(text[end])) ++end;
        if (end > pos) {
            if (names.size() == max_rank)
                throw_error(errc::invalid_spec, "names string lists more than " + std::to_string(max_rank) + " axes");
            names.push_back(name(text.substr(pos, end - pos)));
        }
        pos = end;
    }
    return names;
}

std::string size_text(std::int64_t size, std::span<const std::string> unknown_sizes) {
    if (size >= 0) return std::to_string(size);
    const auto index = static_cast<std::size_t>(-1 - size);
    return index < unknown_sizes.size() ? unknown_sizes[index] : std::to_string(size);
}

std::string shape_string(std::span<const std::int64_t> sizes, std::span<const std::string> unknown_sizes) {
    std::string out = "(";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (i) out += ',';
        out += size_text(sizes[i], unknown_sizes);
    }
    return out + ")";
}

std::string names_string(const spec& s) {
    std::string out;
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (i) out += ' ';
        out += s.name(i).str();
    }
    return out;
}

std::string spec_string(std::span<const std::int64_t> sizes, std::span<const name> names,
                        std::span<const std::string> unknown_sizes) {
    std::string out = shape_string(sizes, unknown_sizes);
    bool named = false;
    for (name n : names) named = named || n.has_value();
    if (!named) return out;
    out.back() = ' ';
    out += "| ";
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += ',';
        out += names[i].str();
    }
    return out + ")";
}

std::string to_string(const spec& s, std::span<const std::string> unknown_sizes) {
    small_vector<std::int64_t, 8> sizes;
    small_vector<name, 8> names;
    for (const axis_spec& ax : s) {
        sizes.push_back(ax.size);
        names.push_back(ax.name);
    }
    return spec_string(sizes.span(), names.span(), unknown_sizes);
}

std::ostream& operator<<(std::ostream& os, const spec& s) { return os << to_string(s); }

}  // namespace nt
