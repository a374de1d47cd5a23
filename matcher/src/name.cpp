#include "nt/name.hpp"

#include <deque>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "nt/error.hpp"

namespace nt {

namespace {

// Process-wide intern table. Strings live in a deque so the views handed out by
// name::str() never move; ids are 1-based positions (0 is "unnamed").
class name_table {
public:
    std::uint32_t intern(std::string_view text) {
        {
            std::shared_lock lock(mutex_);
            if (auto it = ids_.find(text); it != ids_.end()) return it->second;
        }
        std::unique_lock lock(mutex_);
        if (auto it = ids_.find(text); it != ids_.end()) return it->second;
        const std::string& stored = texts_.emplace_back(text);
        const auto id = static_cast<std::uint32_t>(texts_.size());
        ids_.emplace(std::string_view(stored), id);
        return id;
    }

    std::string_view text(std::uint32_t id) const {
        std::shared_lock lock(mutex_);
        return texts_[id - 1];
    }

private:
    mutable std::shared_mutex mutex_;
    std::deque<std::string> texts_;
    std::unordered_map<std::string_view, std::uint32_t> ids_;
};

name_table& table() {
    static name_table instance;
    return instance;
}

bool is_name_start(char c) noexcept { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) noexcept { return is_name_start(c) || (c >= '0' && c <= '9'); }

std::string printable(std::string_view text) {
    std::string out;
    for (char c : text.substr(0, 80)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
        } else {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 0xf];
        }
    }
    if (text.size() > 80) out += "...";
    return out;
}

}  // namespace

bool name::is_valid(std::string_view text) noexcept {
    if (text.empty() || text.size() > max_name_length || !is_name_start(text[0])) return false;
    for (char c : text)
        if (!is_name_char(c)) return false;
    return true;
}

name::name(std::string_view text) {
    if (text.empty() || text == "?") return;
    if (!is_valid(text))
        throw_error(errc::invalid_spec,
                    "invalid axis name '" + printable(text) +
                        "': a name is 1 to 64 characters of [A-Za-z_][A-Za-z0-9_]* (use '?' or null for an unnamed axis)");
    id_ = table().intern(text);
}

std::string_view name::str() const noexcept { return id_ == 0 ? std::string_view("?") : table().text(id_); }

}  // namespace nt
