// explain(plan): the plan as a table for people.
#include <algorithm>
#include <string>
#include <vector>

#include "nt/match.hpp"

namespace nt {

namespace {

std::string input_label(std::size_t i, std::span<const std::string_view> labels) {
    if (i < labels.size() && !labels[i].empty()) return std::string(labels[i]);
    return "input " + std::to_string(i);
}

// What feeds output axis o from one input: "axis 1 (3)", "axis 1 (1, broadcast)",
// "+1" for an inserted singleton ("+1, broadcast" when the output is larger).
std::string cell_text(const input_plan& in, std::size_t o, std::int64_t out_size,
                      std::span<const std::string> unknown_sizes) {
    const std::int32_t a = in.source_axes[o];
    if (a == inserted_axis) return out_size == 1 ? "+1" : "+1 broadcast";
    const std::int64_t size = static_cast<std::size_t>(a) < in.input.rank() ? in.input.size(static_cast<std::size_t>(a)) : out_size;
    std::string text = "axis " + std::to_string(a) + " (" + size_text(size, unknown_sizes);
    // An unknown size is stretched only if it turns out to be 1: not marked.
    if (size == 1 && out_size != 1) text += ", broadcast";
    return text + ")";
}

std::string rule_text(const plan& p, std::size_t o) {
    std::string text;
    switch (p.rules[o]) {
        case axis_rule::by_name: text = "by name"; break;
        case axis_rule::right_aligned: text = p.policy == policy::positional ? "positional" : "right-aligned"; break;
        case axis_rule::searched: text = "searched"; break;
    }
    if (o < p.added_by_union.size() && p.added_by_union[o]) text += ", union";
    return text;
}

void pad_to(std::string& line, std::size_t width) {
    if (line.size() < width) line.append(width - line.size(), ' ');
}

}  // namespace

std::string explain(const plan& p, std::span<const std::string_view> labels, std::span<const std::string> unknown_sizes) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header{"axis", "name", "size", "rule"};
    for (std::size_t i = 0; i < p.inputs.size(); ++i) header.push_back(input_label(i, labels));
    rows.push_back(header);
    for (std::size_t o = 0; o < p.output.rank(); ++o) {
        std::vector<std::string> row{std::to_string(o), std::string(p.output.name(o).str()),
                                     size_text(p.output.size(o), unknown_sizes), rule_text(p, o)};
        for (const input_plan& in : p.inputs) row.push_back(cell_text(in, o, p.output.size(o), unknown_sizes));
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());

    std::string out = "output " + to_string(p.output, unknown_sizes) + "  policy " + std::string(to_string(p.policy));
    if (p.union_axes) out += " + union";
    if (p.host == plan::npos) out += ", broadcast to a target";
    else out += ", host " + input_label(p.host, labels);
    out += '\n';
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            // Sizes and indices read best right-aligned, the rest left-aligned.
            const bool numeric = c == 0 || c == 2;
            if (numeric) line.append(widths[c] - row[c].size(), ' ');
            line += row[c];
            if (c + 1 < row.size()) {
                if (!numeric) pad_to(line, line.size() + widths[c] - row[c].size());
                line += "  ";
            }
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + '\n';
    }
    return out;
}

}  // namespace nt
