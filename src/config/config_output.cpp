// Writing plans and pipeline reports, as JSON and as text (docs/config.md).
//
// Output objects are detail::json_out trees written in insertion order; unlike
// nlohmann::ordered_json they never search their keys, so a plan of 40,000 inputs
// is written in linear time.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "json_document.hpp"
#include "nt/pipeline.hpp"
#include "nt/shape_config.hpp"

namespace nt {

namespace {

using jout = detail::json_out;

/// `indent` < 0: one line without spaces. Otherwise nested values are indented
/// and arrays of scalars (shapes, source maps) stay on one line:
/// `"shape": [10, 3, 256, 384]` reads better than one number per line.
std::string dump(const jout& value, int indent) {
    detail::json_style style;
    style.indent = indent;
    style.flat_scalar_arrays = true;
    style.replace_invalid_utf8 = true;
    return value.dump(style);
}

template <class Ints>
jout int_array(const Ints& values) {
    jout out = jout::array();
    for (auto v : values) out.push(jout::integer(v));
    return out;
}

/// A size: the number, or the text of a size not known yet.
jout size_json(std::int64_t size, std::span<const std::string> unknown_sizes) {
    if (size >= 0) return jout::integer(size);
    return jout::string(size_text(size, unknown_sizes));
}

jout names_json(const spec& s) {
    jout names = jout::array();
    for (const axis_spec& axis : s) names.push(axis.name ? jout::string(axis.name.str()) : jout::null());
    return names;
}

jout source_axes_json(const input_plan& in) {
    jout axes = jout::array();
    for (std::int32_t a : in.source_axes) axes.push(a == inserted_axis ? jout::null() : jout::integer(a));
    return axes;
}

std::string_view rule_name(axis_rule rule) noexcept {
    switch (rule) {
        case axis_rule::by_name: return "by_name";
        case axis_rule::right_aligned: return "right_aligned";
        case axis_rule::searched: return "searched";
    }
    return "unknown";
}

/// Per output axis, how it was paired; "+union" marks an axis the host lacks.
jout rules_json(const plan& p) {
    jout rules = jout::array();
    for (std::size_t o = 0; o < p.rules.size(); ++o) {
        std::string text(rule_name(p.rules[o]));
        if (o < p.added_by_union.size() && p.added_by_union[o]) text += "+union";
        rules.push(jout::string(text));
    }
    return rules;
}

jout input_json(const input_plan& in) {
    jout out = jout::object();
    out.add("source_axes", source_axes_json(in));
    out.add("permutation", int_array(in.permutation()));
    out.add("inserted", int_array(in.inserted()));
    out.add("searched", jout::boolean(in.searched));
    return out;
}

std::vector<std::string> input_labels(std::size_t count, std::span<const std::string> labels) {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    for (std::size_t i = 0; i < count; ++i) {
        std::string label = i < labels.size() && !labels[i].empty() ? labels[i] : "input " + std::to_string(i);
        if (!seen.insert(label).second)
            throw_error(errc::invalid_argument, "plan_to_json: the label " + detail::json_quoted(label) +
                                                    " names two inputs; labels are JSON keys and must be unique");
        out.push_back(std::move(label));
    }
    return out;
}

jout plan_json(const plan& p, std::span<const std::string> labels, std::span<const std::string> unknown_sizes) {
    const std::vector<std::string> names = input_labels(p.inputs.size(), labels);
    jout out = jout::object();
    jout shape = jout::array();
    for (std::size_t o = 0; o < p.output.rank(); ++o) shape.push(size_json(p.output.size(o), unknown_sizes));
    out.add("shape", std::move(shape));
    out.add("names", names_json(p.output));
    jout inputs = jout::object();
    for (std::size_t i = 0; i < p.inputs.size(); ++i) inputs.add(names[i], input_json(p.inputs[i]));
    out.add("inputs", std::move(inputs));
    out.add("policy", jout::string(to_string(p.policy)));
    out.add("union", jout::boolean(p.union_axes));
    out.add("host", p.host < names.size() ? jout::string(names[p.host]) : jout::null());
    out.add("rules", rules_json(p));
    const std::vector<std::string_view> label_views(names.begin(), names.end());
    out.add("explanation", jout::string(explain(p, label_views, unknown_sizes)));
    return out;
}

/// {"code": "...", "message": "..."}
jout error_body(const error& e) {
    jout body = jout::object();
    body.add("code", jout::string(to_string(e.code())));
    body.add("message", jout::string(e.message()));
    return body;
}

jout error_json(const error& e) {
    jout out = jout::object();
    out.add("error", error_body(e));
    return out;
}

/// Symbols a person wrote ("N"), not the per-axis symbols of files ("ct.shape[0]").
bool is_written_symbol(std::string_view name) noexcept { return name.find('.') == std::string_view::npos; }

/// "(N,3,H,W | ?,CHANNEL,H,W)" with the sizes as written.
std::string tensor_text(const pipeline& p, const pipeline_tensor& t) {
    std::string out = "(";
    for (std::size_t a = 0; a < t.rank(); ++a) out += (a ? "," : "") + p.axis_text(t, a);
    if (!t.names.empty()) {
        out += " | ";
        for (std::size_t a = 0; a < t.rank(); ++a) out += (a ? "," : "") + std::string(t.name(a).str());
    }
    return out + ")";
}

std::string step_title(const pipeline& p, const pipeline_step& step) {
    std::string out = "step " + detail::json_quoted(step.name) + ": broadcast ";
    for (std::size_t i = 0; i < step.broadcast.size(); ++i) out += (i ? ", " : "") + step.broadcast[i];
    if (step.target) out += " to " + tensor_text(p, *step.target);
    if (!step.as.empty()) out += " -> " + step.as;
    return out;
}

std::string error_text(const error& e) { return "error [" + std::string(to_string(e.code())) + "]: " + e.message(); }

}  // namespace

std::string plan_to_json(const plan& p, std::span<const std::string> labels, int indent,
                         std::span<const std::string> unknown_sizes) {
    return dump(plan_json(p, labels, unknown_sizes), indent);
}

std::string error_to_json(const error& e, int indent) { return dump(error_json(e), indent); }

std::string report_to_json(const pipeline& p, const pipeline_report& r, int indent) {
    if (p.one_step()) {
        if (const error* e = r.first_failure()) return error_to_json(*e, indent);
        const step_plan& only = *r.steps.front().plan;
        return plan_to_json(only.plan, only.labels, indent, only.unknown_sizes);
    }
    jout out = jout::object();
    jout sizes = jout::object();
    for (std::uint32_t s = 0; s < p.symbols().size(); ++s) {
        if (!is_written_symbol(p.symbols().name(s))) continue;
        sizes.add(p.symbols().name(s), p.sizes()[s] >= 0 ? jout::integer(p.sizes()[s]) : jout::null());
    }
    out.add("sizes", std::move(sizes));
    jout steps = jout::object();
    for (const auto& entry : r.steps) {
        const std::string& name = p.steps()[entry.index].name;
        if (entry.plan) steps.add(name, plan_json(entry.plan->plan, entry.plan->labels, entry.plan->unknown_sizes));
        else steps.add(name, error_json(*entry.failure));
    }
    out.add("steps", std::move(steps));
    if (!r.files.empty()) {
        jout files = jout::object();
        for (const auto& f : r.files) {
            jout file = jout::object();
            file.add("path", jout::string(f.path));
            if (f.failure) {
                file.add("error", error_body(*f.failure));
            } else {
                file.add("shape", int_array(f.shape));
                file.add("dtype", jout::string(f.dtype));
            }
            files.add(p.tensors()[f.tensor].key, std::move(file));
        }
        out.add("files", std::move(files));
    }
    if (r.failure) out.add("error", error_json(*r.failure));
    return dump(out, indent);
}

std::string explain(const pipeline& p, const pipeline_report& r) {
    if (p.one_step()) {
        if (const error* e = r.first_failure()) return error_text(*e) + "\n";
        const step_plan& only = *r.steps.front().plan;
        const std::vector<std::string_view> labels(only.labels.begin(), only.labels.end());
        return explain(only.plan, labels, only.unknown_sizes);
    }
    std::string bound, unbound;
    for (std::uint32_t s = 0; s < p.symbols().size(); ++s) {
        const std::string& name = p.symbols().name(s);
        if (!is_written_symbol(name)) continue;
        if (p.sizes()[s] >= 0) bound += (bound.empty() ? "" : ", ") + name + " = " + std::to_string(p.sizes()[s]);
        else unbound += (unbound.empty() ? "" : ", ") + name;
    }
    std::string out = "sizes: " + (bound.empty() ? std::string("none bound") : bound);
    if (!unbound.empty()) out += "; not bound yet: " + unbound;
    out += '\n';
    if (!r.files.empty()) {
        out += "files:\n";
        std::size_t key_width = 0, path_width = 0;
        for (const auto& f : r.files) {
            key_width = std::max(key_width, p.tensors()[f.tensor].key.size());
            path_width = std::max(path_width, f.path.size());
        }
        for (const auto& f : r.files) {
            const std::string& key = p.tensors()[f.tensor].key;
            out += "  " + key + std::string(key_width - key.size() + 2, ' ') + f.path +
                   std::string(path_width - f.path.size() + 2, ' ');
            out += f.failure ? error_text(*f.failure) : shape_string(f.shape) + " " + f.dtype;
            out += '\n';
        }
    }
    for (const auto& entry : r.steps) {
        const pipeline_step& step = p.steps()[entry.index];
        out += "\n" + step_title(p, step) + "\n";
        if (entry.plan) {
            const std::vector<std::string_view> labels(entry.plan->labels.begin(), entry.plan->labels.end());
            out += explain(entry.plan->plan, labels, entry.plan->unknown_sizes);
        } else {
            out += error_text(*entry.failure) + "\n";
        }
    }
    if (r.failure) out += "\n" + error_text(*r.failure) + "\n";
    return out;
}

}  // namespace nt
