// einops patterns (nt/rearrange.hpp): a parser, the plan it gives for one input
// spec, a per-thread plan cache, and the application of a plan as reshape /
// permute / stride-0 insertion / reshape on tensor_base.
#include "nt/rearrange.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "core_errors.hpp"
#include "nt/detail/grad_hooks.hpp"

namespace nt::detail {

namespace {

struct element {
    std::string id;            // identifier, or empty for a number
    std::int64_t literal = -1;  // the number, for anonymous axes
};
struct group {
    std::vector<element> elems;
    bool paren = false;
    bool ellipsis = false;
    std::string rename;  // `(a b):NAME`
};
using side = std::vector<group>;

const char* kind_text(pattern_kind k) {
    switch (k) {
        case pattern_kind::rearrange: return "rearrange";
        case pattern_kind::reduce: return "reduce";
        case pattern_kind::repeat: return "repeat";
    }
    return "?";
}

[[noreturn]] void syntax(std::string_view op, std::string_view pattern, const std::string& what) {
    fail(errc::invalid_argument, op,
         "pattern \"" + std::string(pattern) + "\": " + what +
             "; write it as einops does, e.g. \"N C (H ph) (W pw) -> N (C ph pw) H W\"");
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

side parse_side(std::string_view text, std::string_view pattern, std::string_view op) {
    side out;
    std::size_t i = 0;
    group* open = nullptr;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '(') {
            if (open) syntax(op, pattern, "nested parentheses are not supported");
            out.push_back(group{{}, true, false, {}});
            open = &out.back();
            ++i;
        } else if (c == ')') {
            if (!open) syntax(op, pattern, "')' without '('");
            open = nullptr;
            ++i;
            if (i < text.size() && text[i] == ':') {
                std::size_t j = ++i;
                while (j < text.size() && ident_char(text[j])) ++j;
                if (j == i || !ident_start(text[i])) syntax(op, pattern, "':' after a group needs a name");
                out.back().rename = std::string(text.substr(i, j - i));
                i = j;
            }
        } else if (text.substr(i, 3) == "...") {
            if (open) syntax(op, pattern, "\"...\" inside parentheses is not supported");
            out.push_back(group{{}, false, true, {}});
            i += 3;
        } else if (ident_start(c) || std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t j = i;
            while (j < text.size() && ident_char(text[j])) ++j;
            const std::string word(text.substr(i, j - i));
            element e;
            if (std::isdigit(static_cast<unsigned char>(c))) {
                if (!std::all_of(word.begin(), word.end(), [](char d) { return std::isdigit(static_cast<unsigned char>(d)); }))
                    syntax(op, pattern, "'" + word + "' is neither a number nor an identifier");
                e.literal = std::stoll(word);
            } else {
                e.id = word;
            }
            if (open) open->elems.push_back(std::move(e));
            else out.push_back(group{{std::move(e)}, false, false, {}});
            i = j;
        } else {
            syntax(op, pattern, std::string("unexpected character '") + c + "'");
        }
    }
    if (open) syntax(op, pattern, "'(' without ')'");
    if (std::count_if(out.begin(), out.end(), [](const group& g) { return g.ellipsis; }) > 1)
        syntax(op, pattern, "\"...\" appears twice on one side");
    return out;
}

std::string ellipsis_id(std::size_t k) { return "..." + std::to_string(k); }

std::string axis_label(std::span<const std::int64_t> shape, std::span<const name> names, std::size_t j) {
    return "axis " + std::to_string(j) + (names[j] ? " '" + std::string(names[j].str()) + "'" : std::string()) +
           " (size " + std::to_string(shape[j]) + ")";
}

std::int64_t given_size(std::span<const axis_size> sizes, std::string_view id) {
    for (const axis_size& s : sizes)
        if (s.name == id) return s.size;
    return -1;
}

struct ident_info {
    std::string id;
    std::int64_t size = 0;
    bool on_right = false;
};

pattern_plan build_plan(pattern_kind kind, std::string_view pattern, std::span<const std::int64_t> shape,
                        std::span<const name> names, std::span<const axis_size> sizes, std::string_view op) {
    const auto arrow = pattern.find("->");
    if (arrow == std::string_view::npos || pattern.find("->", arrow + 2) != std::string_view::npos)
        syntax(op, pattern, "it needs exactly one \"->\"");
    const side left = parse_side(pattern.substr(0, arrow), pattern, op);
    const side right = parse_side(pattern.substr(arrow + 2), pattern, op);
    const std::string spec = "tensor " + spec_text(shape, names);
    for (const axis_size& s : sizes)
        if (s.size < 0)
            fail(errc::invalid_argument, op,
                 "size " + std::to_string(s.size) + " given for '" + std::string(s.name) + "' is negative");

    // Left side: one group per input axis; "..." covers the rest.
    const bool left_ellipsis = std::any_of(left.begin(), left.end(), [](const group& g) { return g.ellipsis; });
    const bool right_ellipsis = std::any_of(right.begin(), right.end(), [](const group& g) { return g.ellipsis; });
    const std::size_t spelled = left.size() - (left_ellipsis ? 1 : 0);
    if (left_ellipsis ? spelled > shape.size() : spelled != shape.size())
        fail(errc::invalid_argument, op,
             "the left side of \"" + std::string(pattern) + "\" has " + std::to_string(spelled) + " axes but " + spec +
                 " has rank " + std::to_string(shape.size()) +
                 "; write one group per axis, or \"...\" for the axes not spelled out");
    if (right_ellipsis && !left_ellipsis)
        syntax(op, pattern, "\"...\" is on the right side but not on the left");
    if (left_ellipsis && !right_ellipsis && kind != pattern_kind::reduce)
        syntax(op, pattern, "\"...\" is on the left side but not on the right");
    const std::size_t covered = shape.size() - spelled;

    std::vector<ident_info> idents;  // the elementary axes, in left order
    std::vector<name> ellipsis_names;
    auto find_ident = [&](std::string_view id) -> std::int64_t {
        for (std::size_t k = 0; k < idents.size(); ++k)
            if (idents[k].id == id) return static_cast<std::int64_t>(k);
        return -1;
    };
    auto add_ident = [&](const std::string& id, std::int64_t size) {
        if (find_ident(id) >= 0)
            fail(errc::invalid_argument, op,
                 "identifier '" + id + "' appears twice on the left side of \"" + std::string(pattern) +
                     "\"; give each axis its own identifier");
        idents.push_back({id, size, false});
    };
    std::size_t j = 0;  // input axis
    std::size_t anonymous = 0;
    for (const group& g : left) {
        if (g.ellipsis) {
            for (std::size_t k = 0; k < covered; ++k, ++j) {
                add_ident(ellipsis_id(k), shape[j]);
                ellipsis_names.push_back(names[j]);
            }
            continue;
        }
        if (!g.rename.empty()) syntax(op, pattern, "a ':NAME' belongs on the right side");
        const std::int64_t n = shape[j];
        if (!g.paren) {
            const element& e = g.elems[0];
            if (e.id.empty()) {
                if (e.literal != n)
                    fail(errc::invalid_argument, op,
                         "the left side writes " + std::to_string(e.literal) + " for " + axis_label(shape, names, j) +
                             " of " + spec + "; write an identifier there, or the axis's size");
                if (n != 1) add_ident("#" + std::to_string(anonymous++), n);
            } else {
                if (names[j] && names[j].str() != e.id)
                    fail(errc::name_mismatch, op,
                         axis_label(shape, names, j) + " of " + spec + " is named '" + std::string(names[j].str()) +
                             "' but the left side of \"" + std::string(pattern) + "\" calls it '" + e.id +
                             "'; use the tensor's names in the pattern (or rename the tensor)");
                const std::int64_t given = given_size(sizes, e.id);
                if (given >= 0 && given != n)
                    fail(errc::invalid_argument, op,
                         "'" + e.id + "' is given size " + std::to_string(given) + " but " +
                             axis_label(shape, names, j) + " of " + spec + " has " + std::to_string(n) +
                             "; drop the size or fix it");
                add_ident(e.id, n);
            }
            ++j;
            continue;
        }
        // A group splits the axis: known sizes multiply, one unknown is inferred.
        std::int64_t known = 1;
        std::int64_t unknown = -1;
        std::string group_text = "(";
        for (std::size_t k = 0; k < g.elems.size(); ++k) {
            const element& e = g.elems[k];
            group_text += (k ? " " : "") + (e.id.empty() ? std::to_string(e.literal) : e.id);
            const std::int64_t s = e.id.empty() ? e.literal : given_size(sizes, e.id);
            if (s < 0) {
                if (unknown >= 0)
                    fail(errc::invalid_argument, op,
                         "the group for " + axis_label(shape, names, j) + " of " + spec +
                             " has two identifiers of unknown size ('" + g.elems[static_cast<std::size_t>(unknown)].id +
                             "' and '" + e.id + "'); give one of them in sizes, e.g. {{\"" + e.id + "\", 2}}");
                unknown = static_cast<std::int64_t>(k);
            } else {
                known *= s;
            }
        }
        group_text += ")";
        if (unknown >= 0 ? (known == 0 || n % known != 0) : known != n)
            fail(errc::invalid_argument, op,
                 axis_label(shape, names, j) + " of " + spec + " does not split as " + group_text + ": " +
                     (unknown >= 0 ? std::to_string(n) + " is not a multiple of " + std::to_string(known)
                                   : "the sizes multiply to " + std::to_string(known)) +
                     "; pad or crop the axis to a multiple, or choose other sizes");
        for (std::size_t k = 0; k < g.elems.size(); ++k) {
            const element& e = g.elems[k];
            const std::int64_t s = static_cast<std::int64_t>(k) == unknown ? n / known
                                   : e.id.empty()                          ? e.literal
                                                                           : given_size(sizes, e.id);
            if (e.id.empty()) {
                if (s != 1) add_ident("#" + std::to_string(anonymous++), s);
            } else {
                add_ident(e.id, s);
            }
        }
        ++j;
    }

    // Right side.
    pattern_plan p;
    for (const ident_info& i : idents) p.elementary.push_back(i.size);
    std::vector<std::string> right_seen;
    struct right_axis {
        std::int64_t ident = -1;  // index in idents, or -1 for a new axis
        std::int64_t size = 0;
    };
    std::vector<right_axis> flat;
    auto use = [&](const std::string& id) {
        if (std::find(right_seen.begin(), right_seen.end(), id) != right_seen.end())
            fail(errc::invalid_argument, op,
                 "identifier '" + id + "' appears twice on the right side of \"" + std::string(pattern) +
                     "\"; each axis may appear once (nt::repeat makes copies of an axis)");
        right_seen.push_back(id);
    };
    for (const group& g : right) {
        std::int64_t product = 1;
        if (g.ellipsis) {
            for (std::size_t k = 0; k < covered; ++k) {
                const std::int64_t at = find_ident(ellipsis_id(k));
                flat.push_back({at, idents[static_cast<std::size_t>(at)].size});
                idents[static_cast<std::size_t>(at)].on_right = true;
                p.output.push_back(idents[static_cast<std::size_t>(at)].size);
                p.output_names.push_back(ellipsis_names[k]);
            }
            continue;
        }
        for (const element& e : g.elems) {
            std::int64_t size = 0;
            if (e.id.empty()) {
                if (e.literal != 1 && kind != pattern_kind::repeat)
                    syntax(op, pattern,
                           "the number " + std::to_string(e.literal) + " on the right side makes a new axis, which only "
                           "nt::repeat does (write 1 for a size-1 axis)");
                size = e.literal;
                if (size != 1) flat.push_back({-1, size});
            } else {
                use(e.id);
                const std::int64_t at = find_ident(e.id);
                if (at < 0) {
                    const std::int64_t given = given_size(sizes, e.id);
                    if (kind != pattern_kind::repeat || given < 0) {
                        std::string known_ids;
                        for (const ident_info& i : idents)
                            if (i.id[0] != '#' && i.id[0] != '.') known_ids += (known_ids.empty() ? "" : ", ") + i.id;
                        fail(errc::invalid_argument, op,
                             "identifier '" + e.id + "' on the right side of \"" + std::string(pattern) +
                                 "\" is not on the left side (which has " + known_ids + ")" +
                                 (kind == pattern_kind::repeat ? "; give its size in sizes, e.g. {{\"" + e.id + "\", 3}}"
                                                               : "; a new axis needs nt::repeat, or fix the spelling"));
                    }
                    size = given;
                    flat.push_back({-1, size});
                } else {
                    idents[static_cast<std::size_t>(at)].on_right = true;
                    size = idents[static_cast<std::size_t>(at)].size;
                    flat.push_back({at, size});
                }
            }
            product *= size;
        }
        p.output.push_back(product);
        if (!g.rename.empty()) p.output_names.push_back(name(g.rename));
        else if (!g.paren && g.elems.size() == 1 && !g.elems[0].id.empty()) p.output_names.push_back(name(g.elems[0].id));
        else p.output_names.push_back(name{});
    }
    // Left identifiers missing on the right are reduced (reduce) or an error.
    for (std::size_t k = 0; k < idents.size(); ++k) {
        if (idents[k].on_right) continue;
        if (kind != pattern_kind::reduce) {
            const std::string& id = idents[k].id;
            fail(errc::invalid_argument, op,
                 (id[0] == '#' ? std::string("an anonymous axis") : "identifier '" + id + "'") + " of the left side of \"" +
                     std::string(pattern) + "\" is missing on the right; " + kind_text(kind) +
                     " keeps every axis (nt::reduce reduces axes left out)");
        }
        p.reduced.push_back(static_cast<std::int64_t>(k));
    }
    // Kept positions: elementary axes minus the reduced ones, in order.
    dims kept_index(idents.size(), -1);
    std::int64_t next = 0;
    for (std::size_t k = 0; k < idents.size(); ++k)
        if (idents[k].on_right) kept_index[k] = next++;
    for (const right_axis& a : flat) {
        if (a.ident >= 0) {
            p.order.push_back(kept_index[static_cast<std::size_t>(a.ident)]);
        } else {
            p.order.push_back(-1 - static_cast<std::int64_t>(p.new_sizes.size()));
            p.new_sizes.push_back(a.size);
        }
    }
    check_unique_names(p.output_names.span(), op);
    if (p.output.size() > max_rank || p.elementary.size() > max_rank)
        fail(errc::invalid_spec, op, "the pattern makes more than " + std::to_string(max_rank) + " axes");
    return p;
}

struct cache_entry {
    pattern_kind kind{};
    std::string pattern;
    dims shape;
    name_list names;
    std::vector<std::pair<std::string, std::int64_t>> sizes;
    pattern_plan plan;
};

struct pattern_cache {
    static constexpr std::size_t capacity = 16;
    std::vector<cache_entry> entries;  // most recent last
    std::size_t next = 0;
    pattern_cache_stats stats;
};

thread_local pattern_cache cache;

bool same_key(const cache_entry& e, pattern_kind kind, std::string_view pattern, std::span<const std::int64_t> shape,
              std::span<const name> names, std::span<const axis_size> sizes) {
    if (e.kind != kind || e.pattern != pattern || !std::equal(shape.begin(), shape.end(), e.shape.begin(), e.shape.end()) ||
        !std::equal(names.begin(), names.end(), e.names.begin(), e.names.end()) || e.sizes.size() != sizes.size())
        return false;
    for (std::size_t k = 0; k < sizes.size(); ++k)
        if (e.sizes[k].first != sizes[k].name || e.sizes[k].second != sizes[k].size) return false;
    return true;
}

}  // namespace

const pattern_plan& plan_pattern(pattern_kind kind, std::string_view pattern, std::span<const std::int64_t> shape,
                                 std::span<const name> names, std::span<const axis_size> sizes, std::string_view op) {
    for (const cache_entry& e : cache.entries)
        if (same_key(e, kind, pattern, shape, names, sizes)) {
            ++cache.stats.hits;
            return e.plan;
        }
    ++cache.stats.parses;
    cache_entry e{kind, std::string(pattern), dims(shape), name_list(names), {},
                  build_plan(kind, pattern, shape, names, sizes, op)};
    for (const axis_size& s : sizes) e.sizes.emplace_back(std::string(s.name), s.size);
    if (cache.entries.capacity() < pattern_cache::capacity) cache.entries.reserve(pattern_cache::capacity);
    if (cache.entries.size() < pattern_cache::capacity) {
        cache.entries.push_back(std::move(e));
        return cache.entries.back().plan;
    }
    cache_entry& slot = cache.entries[cache.next];
    cache.next = (cache.next + 1) % pattern_cache::capacity;
    slot = std::move(e);
    return slot.plan;
}

pattern_cache_stats pattern_cache_counters() noexcept { return cache.stats; }

// Both steps are views of a C-contiguous input, whatever they cost on another layout,
// so the tape's view rule is their backward (broadcast new axes sum back).
tensor_base split_elementary(const tensor_base& t, const pattern_plan& p) {
    return viewed("rearrange", t, [&](const tensor_base& x) {
        return x.reshape(p.elementary.span(), std::span<const name>{}, order::c);
    });
}

tensor_base apply_arrangement(const tensor_base& kept, const pattern_plan& p) {
    auto arrange = [&](const tensor_base& x) {
        dims sizes, strides;
        bool aliased = x.is_read_only();
        for (std::int64_t o : p.order) {
            if (o >= 0) {
                sizes.push_back(x.shape()[static_cast<std::size_t>(o)]);
                strides.push_back(x.strides()[static_cast<std::size_t>(o)]);
            } else {
                const std::int64_t n = p.new_sizes[static_cast<std::size_t>(-1 - o)];
                sizes.push_back(n);
                strides.push_back(0);
                aliased = aliased || n > 1;
            }
        }
        const name_list unnamed(sizes.size(), name{});
        return x.with(nt::layout(sizes.span(), strides.span(), x.layout().offset()), unnamed, aliased);
    };
    const tensor_base arranged = viewed("rearrange", kept, arrange);
    return viewed("rearrange", arranged, [&](const tensor_base& x) {
        return x.reshape(p.output.span(), p.output_names.span(), order::c);
    });
}

}  // namespace nt::detail
