// Pipelines: binding symbols, evaluating sizes, reading file headers, planning
// steps (nt/pipeline.hpp, docs/config.md).
//
// Symbols are bound by first use, in this order: "sizes"; the headers of "npy"
// files, in the order of "tensors"; then, at run time, the tensors checked by
// nt::pipeline_config. A step is planned with the sizes known so far: a size that is
// not known yet pairs with any size (match_options::unknown_sizes), so `ntensor
// plan` can check names and known sizes long before the data exists.
#include "nt/pipeline.hpp"

#include <algorithm>
#include <unordered_map>

#include "json_document.hpp"
#include "npy_header.hpp"
#include "zarr_metadata.hpp"

namespace nt {

using detail::element_path;
using detail::json_quoted;
using detail::member_path;
using detail::where;

namespace {

/// Most distinct sizes that may meet on one axis of a step's output; only a long
/// chain of steps over unknown sizes comes near it.
constexpr std::size_t max_members = 64;

std::string single_quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool is_absolute(std::string_view path) noexcept { return !path.empty() && path.front() == '/'; }

}  // namespace

// ---------------------------------------------------------------------------------
// pipeline_tensor

bool pipeline_tensor::rank_known() const noexcept {
    return source != origin::file || file_read || !sizes.empty();
}

std::span<const size_expr> pipeline_tensor::axis(std::size_t a) const noexcept {
    if (source != origin::step) return {sizes.data() + a, 1};
    const std::size_t begin = a == 0 ? 0 : member_ends[a - 1];
    return {sizes.data() + begin, member_ends[a] - begin};
}

// ---------------------------------------------------------------------------------
// Looking up

std::int64_t pipeline::find(std::string_view key) const noexcept {
    const auto it = index_.find(key);
    return it == index_.end() ? -1 : static_cast<std::int64_t>(it->second);
}

const pipeline_tensor& pipeline::tensor(std::string_view key) const {
    if (const std::int64_t i = find(key); i >= 0) return tensors_[static_cast<std::size_t>(i)];
    std::vector<std::string_view> keys;
    for (const auto& t : tensors_) keys.push_back(t.key);
    throw_error(errc::unknown_tensor, "no tensor " + json_quoted(key) + " in the config" +
                                          detail::did_you_mean(key, keys) + "; it defines " +
                                          detail::count_of(keys.size(), "tensor") +
                                          ". Fix the key, or define it under \"tensors\"");
}

std::string pipeline::file_path(const pipeline_tensor& t) const {
    const std::string& f = t.file();
    if (folder_.empty() || is_absolute(f)) return f;
    return folder_.back() == '/' ? folder_ + f : folder_ + "/" + f;
}

// ---------------------------------------------------------------------------------
// Sizes

void pipeline::bind(std::uint32_t symbol, std::int64_t value, const std::string& source, std::string_view where_text) {
    if (sizes_[symbol] < 0) {
        sizes_[symbol] = value;
        sources_[symbol] = source;
        return;
    }
    if (sizes_[symbol] == value) return;
    const std::string& name = symbols_.name(symbol);
    throw_error(errc::incompatible_sizes,
                std::string(where_text) + ": symbol " + name + " is " + std::to_string(value) + " at " + source +
                    ", but " + name + " = " + std::to_string(sizes_[symbol]) + " from " + sources_[symbol] +
                    "; one symbol has one size. Fix: make the sizes agree, or use two symbols if these are different "
                    "dimensions");
}

void pipeline::unbind(std::uint32_t symbol) noexcept {
    sizes_[symbol] = -1;
    sources_[symbol].clear();
}

std::string pipeline::symbol_values(const size_expr& e) const {
    std::string out;
    for (std::uint32_t s : e.symbols()) {
        if (!out.empty()) out += ", ";
        out += symbols_.name(s);
        out += sizes_[s] >= 0 ? " = " + std::to_string(sizes_[s]) + " (from " + sources_[s] + ")" : " not bound yet";
    }
    return out;
}

void pipeline::fail_axis(const pipeline_tensor& t, std::size_t a, errc code, const std::string& problem) const {
    const std::string path = t.source == pipeline_tensor::origin::step
                                 ? where(t.path) + " (the output of step " + json_quoted(steps_[t.step].name) + "), axis " +
                                       std::to_string(a)
                                 : where(element_path(member_path(t.path, "shape"), a));
    throw_error(code, path + ": " + problem);
}

std::int64_t pipeline::axis_size(const pipeline_tensor& t, std::size_t a) const { return axis_size(t, a, sizes_); }

std::int64_t pipeline::axis_size(const pipeline_tensor& t, std::size_t a, std::span<const std::int64_t> values) const {
    if (t.source == pipeline_tensor::origin::step && !t.planned) return -1;
    const auto evaluate = [&](const size_expr& e) {
        const size_eval r = e.evaluate(values);
        if (r.ok()) return r.value;
        if (r.state == size_eval::status::unbound) return std::int64_t{-1};
        fail_axis(t, a, errc::invalid_spec,
                  e.text(symbols_) + " with " + symbol_values(e) + ": " + to_string(r, symbols_) +
                      ". Fix the expression or the sizes");
    };
    if (t.source != pipeline_tensor::origin::step) return evaluate(t.sizes[a]);
    // A step's output: the common size other than 1 of the sizes that meet here.
    std::int64_t common = 1;
    const size_expr* first = nullptr;
    bool unknown = false;
    for (const size_expr& e : t.axis(a)) {
        const std::int64_t v = evaluate(e);
        if (v < 0) unknown = true;
        if (v < 0 || v == 1) continue;
        if (!first) {
            common = v;
            first = &e;
        } else if (v != common) {
            fail_axis(t, a, errc::incompatible_sizes,
                      "the step pairs " + first->text(symbols_) + " = " + std::to_string(common) + " with " +
                          e.text(symbols_) + " = " + std::to_string(v) + " (" + symbol_values(e) +
                          "); paired sizes must be equal or 1. Fix: make the sizes agree");
        }
    }
    return first || !unknown ? common : -1;
}

std::string pipeline::axis_text(const pipeline_tensor& t, std::size_t a) const {
    if (t.source != pipeline_tensor::origin::step) return t.sizes[a].text(symbols_);
    if (!t.planned) return t.key + ".shape[" + std::to_string(a) + "]";
    std::string out;
    for (const size_expr& e : t.axis(a)) out += (out.empty() ? "" : "~") + e.text(symbols_);
    return out.empty() ? std::string("1") : out;
}

std::string pipeline::how_to_bind(std::uint32_t symbol) const {
    const std::string& name = symbols_.name(symbol);
    std::string out = "give " + name + " in \"sizes\"";
    for (const pipeline_tensor& t : tensors_) {
        if (t.source == pipeline_tensor::origin::step) continue;
        for (const size_expr& e : t.sizes)
            if (e.is_symbol() && e.symbol_index() == symbol)
                return out + ", or check first a tensor that has it alone as a size, such as " + single_quoted(t.key);
    }
    return out;
}

std::vector<std::uint32_t> pipeline::unbound_symbols(const pipeline_tensor& t, std::size_t a) const {
    std::vector<std::uint32_t> out;
    for (const size_expr& e : t.axis(a))
        for (std::uint32_t s : e.symbols())
            if (sizes_[s] < 0 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    return out;
}

spec pipeline::spec_of(std::string_view key) const {
    const pipeline_tensor& t = tensor(key);
    if (!t.rank_known())
        throw_error(errc::invalid_argument, "the spec of " + single_quoted(t.key) + ": its shape comes from " + t.file() +
                                                ", whose header is not read yet (nt::load_config reads it)");
    spec out;
    for (std::size_t a = 0; a < t.rank(); ++a) {
        const std::int64_t size = axis_size(t, a);
        if (size < 0) {
            const std::vector<std::uint32_t> unbound = unbound_symbols(t, a);
            const std::uint32_t first = unbound.empty() ? 0 : unbound.front();
            throw_error(errc::invalid_argument,
                        "the spec of " + single_quoted(t.key) + ": axis " + std::to_string(a) + " has size " +
                            axis_text(t, a) + ", and " + (unbound.empty() ? std::string("it") : symbols_.name(first)) +
                            " is not bound yet. Fix: " + (unbound.empty() ? std::string("plan the steps first")
                                                                         : how_to_bind(first)));
        }
        out.push_back({size, t.name(a)});
    }
    return out;
}

void pipeline::check_sizes() const {
    for (const pipeline_tensor& t : tensors_) {
        if (!t.rank_known()) continue;
        for (std::size_t a = 0; a < t.rank(); ++a) (void)axis_size(t, a);
    }
}

std::uint32_t pipeline::file_symbol(std::string_view key, std::size_t a) {
    const std::uint32_t s = symbols_.intern(std::string(key) + ".shape[" + std::to_string(a) + "]");
    sizes_.resize(symbols_.size(), -1);
    sources_.resize(symbols_.size());
    return s;
}

// ---------------------------------------------------------------------------------
// Files

void pipeline::read_file(std::size_t index) {
    pipeline_tensor& t = tensors_[index];
    if (t.file().empty()) return;
    const bool zarr = !t.zarr.empty();
    const std::string& file = t.file();
    const std::string where_text = where(member_path(t.path, zarr ? "zarr" : "npy"));
    // What the file says: the npy header, or the zarr array's metadata.
    std::vector<std::int64_t> shape;
    std::string dtype, descr;
    std::vector<std::string> file_names;
    try {
        if (zarr) {
            const detail::zarr_metadata m = detail::read_zarr_metadata(file_path(t));
            shape = m.shape;
            dtype = std::string(m.dtype);
            descr = m.descr;
            file_names = m.names;
        } else {
            const detail::npy_header header = detail::read_npy_header(file_path(t));
            shape = header.shape;
            dtype = std::string(header.dtype);
            descr = header.descr;
        }
    } catch (const error& e) {
        throw_error(e.code(), where_text + ": " + e.message());
    }
    const std::string fix_file = zarr ? "convert the array (zarr.array(..., dtype=...))" : "convert the file (np.save(path, a.astype(...)))";
    if (!t.dtype.empty() && dtype != t.dtype)
        throw_error(errc::type_mismatch,
                    where_text + ": " + file + " holds " + dtype + " (descr '" + descr + "'), but \"dtype\" says " +
                        t.dtype + ". Fix: " + fix_file + " or change \"dtype\"");
    if (zarr && !t.names.empty() && t.names.size() == file_names.size()) {
        for (std::size_t a = 0; a < file_names.size(); ++a)
            if (!file_names[a].empty() && t.names[a] && t.names[a].str() != file_names[a])
                throw_error(errc::invalid_spec,
                            where_text + ": " + file + " names axis " + std::to_string(a) + " '" + file_names[a] +
                                "' (_ARRAY_DIMENSIONS), but \"names\" says '" + std::string(t.names[a].str()) +
                                "'. Fix: drop \"names\" to take the array's, or rename the axis");
    }
    // Without "names" the array's _ARRAY_DIMENSIONS name the axes, whether the config
    // gives a "shape" or not (a rank that disagrees is reported below).
    if (zarr && t.names.empty() && (t.source == pipeline_tensor::origin::file || file_names.size() == t.rank()))
        for (const auto& n : file_names) t.names.push_back(n.empty() ? name() : name(n));
    if (t.source == pipeline_tensor::origin::file && t.sizes.empty())
        for (std::size_t a = 0; a < shape.size(); ++a) t.sizes.push_back(size_expr::symbol(file_symbol(t.key, a)));
    if (shape.size() != t.rank())
        throw_error(errc::incompatible_sizes,
                    where_text + ": " + file + " has shape " + shape_string(shape) + " of rank " +
                        std::to_string(shape.size()) + ", but the config gives " + single_quoted(t.key) + " " +
                        detail::count_of(t.rank(), "axis", "axes") + ". Fix the config's " +
                        (t.source == pipeline_tensor::origin::file ? "\"names\"" : "\"shape\"") + " or the file");
    for (std::size_t a = 0; a < t.rank(); ++a)
        if (t.sizes[a].is_symbol())
            bind(t.sizes[a].symbol_index(), shape[a],
                 "axis " + std::to_string(a) + " of " + single_quoted(t.key) + " (" + file + ")", where_text);
    for (std::size_t a = 0; a < t.rank(); ++a) {
        const std::int64_t size = axis_size(t, a);
        if (size >= 0 && size != shape[a])
            throw_error(errc::incompatible_sizes,
                        where_text + ": " + file + " has shape " + shape_string(shape) + ", size " +
                            std::to_string(shape[a]) + " on axis " + std::to_string(a) + ", but the config says " +
                            t.sizes[a].text(symbols_) +
                            (t.sizes[a].is_literal() ? std::string() : " = " + std::to_string(size) + " (" +
                                                                           symbol_values(t.sizes[a]) + ")") +
                            ". Fix the config or the file");
    }
    t.file_read = true;
    t.file_shape = shape;
    t.file_dtype = dtype;
}

void pipeline::read_files() {
    for (std::size_t i = 0; i < tensors_.size(); ++i) read_file(i);
    check_sizes();
}

// ---------------------------------------------------------------------------------
// Steps

step_plan pipeline::plan_step(std::size_t index) {
    const pipeline_step& step = steps_[index];
    const std::string prefix = step.path.empty() ? std::string() : where(step.path) + ": ";
    step_plan out;
    out.step = index;
    out.labels = step.broadcast;

    // Sizes not known yet get codes < 0, one per distinct text.
    std::unordered_map<std::string, std::int64_t> codes;
    const auto spec_for = [&](const pipeline_tensor& t, const std::string& what) {
        if (t.source == pipeline_tensor::origin::step && !t.planned)
            throw_error(errc::invalid_spec, prefix + what + " " + json_quoted(t.key) + " is the output of step " +
                                                json_quoted(steps_[t.step].name) + ", which has no plan (it failed)");
        if (!t.rank_known())
            throw_error(errc::invalid_spec,
                        prefix + what + " " + json_quoted(t.key) + " takes its shape from " + t.file() +
                            ", which is not read yet, and has no \"names\" to give its rank. Fix: give \"names\" " +
                            "(or \"shape\"), or check the config with `ntensor check`, which reads the file");
        spec s;
        for (std::size_t a = 0; a < t.rank(); ++a) {
            std::int64_t size = axis_size(t, a);
            if (size < 0) {
                const auto [it, fresh] =
                    codes.emplace(axis_text(t, a), -1 - static_cast<std::int64_t>(out.unknown_sizes.size()));
                if (fresh) out.unknown_sizes.push_back(it->first);
                size = it->second;
            }
            s.push_back({size, t.name(a)});
        }
        return s;
    };
    std::vector<spec> specs;
    specs.reserve(step.inputs.size());
    for (std::size_t i = 0; i < step.inputs.size(); ++i)
        specs.push_back(spec_for(tensors_[step.inputs[i]], "broadcast[" + std::to_string(i) + "]"));
    spec target;
    if (step.target) target = spec_for(*step.target, "to");

    std::vector<std::string_view> labels(step.broadcast.begin(), step.broadcast.end());
    match_options options;
    options.policy = step.policy;
    options.union_axes = step.union_axes;
    options.labels = labels;
    options.unknown_sizes = out.unknown_sizes;
    try {
        out.plan = step.target ? broadcast_to(specs.front(), target, options) : match(specs, options);
    } catch (const error& e) {
        std::string symbols;  // the symbols behind the sizes, to find where a size came from
        for (std::size_t input : step.inputs)
            for (const size_expr& e2 : tensors_[input].sizes)
                for (std::uint32_t s : e2.symbols())
                    if (sizes_[s] >= 0 && symbols.find(symbols_.name(s) + " = ") == std::string::npos)
                        symbols += (symbols.empty() ? "" : ", ") + symbols_.name(s) + " = " +
                                   std::to_string(sizes_[s]) + " (from " + sources_[s] + ")";
        std::string message = prefix + e.message();
        if (!symbols.empty()) message += (message.back() == '.' ? " Symbols: " : ". Symbols: ") + symbols + ".";
        throw_error(e.code(), message);
    }

    if (!step.as.empty()) {
        pipeline_tensor& output = tensors_[step.output];
        output.sizes.clear();
        output.member_ends.clear();
        output.names.clear();
        for (std::size_t o = 0; o < out.plan.output.rank(); ++o) {
            const std::size_t begin = output.sizes.size();
            const auto add = [&](const size_expr& e) {
                if (e.is_literal() && e.literal_value() == 1) return;
                for (std::size_t m = begin; m < output.sizes.size(); ++m)
                    if (output.sizes[m] == e) return;
                if (output.sizes.size() - begin == max_members)
                    throw_error(errc::invalid_spec,
                                prefix + "axis " + std::to_string(o) + " of the output " + json_quoted(step.as) +
                                    " pairs more than " + std::to_string(max_members) +
                                    " different sizes; bind some of them in \"sizes\"");
                output.sizes.push_back(e);
            };
            if (step.target) {
                for (const size_expr& e : step.target->axis(o)) add(e);
            } else {
                for (std::size_t i = 0; i < step.inputs.size(); ++i) {
                    const std::int32_t a = out.plan.inputs[i].source_axes[o];
                    if (a == inserted_axis) continue;
                    for (const size_expr& e : tensors_[step.inputs[i]].axis(static_cast<std::size_t>(a))) add(e);
                }
            }
            output.member_ends.push_back(static_cast<std::uint32_t>(output.sizes.size()));
            output.names.push_back(out.plan.output.name(o));
        }
        output.planned = true;
    }
    return out;
}

// ---------------------------------------------------------------------------------
// Reports

const error* pipeline_report::first_failure() const noexcept {
    for (const auto& f : files)
        if (f.failure) return &*f.failure;
    for (const auto& s : steps)
        if (s.failure) return &*s.failure;
    return failure ? &*failure : nullptr;
}

pipeline_report check_pipeline(pipeline& p, bool read_files) {
    pipeline_report report;
    if (read_files) {
        for (std::size_t i = 0; i < p.tensors().size(); ++i) {
            const pipeline_tensor& t = p.tensors()[i];
            if (t.file().empty()) continue;
            pipeline_report::file f;
            f.tensor = i;
            f.path = p.file_path(t);
            try {
                p.read_file(i);
                f.shape = p.tensors()[i].file_shape;
                f.dtype = p.tensors()[i].file_dtype;
            } catch (const error& e) {
                f.failure = e;
            }
            report.files.push_back(std::move(f));
        }
    }
    for (std::size_t s = 0; s < p.steps().size(); ++s) {
        pipeline_report::step entry;
        entry.index = s;
        try {
            entry.plan = p.plan_step(s);
        } catch (const error& e) {
            entry.failure = e;
        }
        report.steps.push_back(std::move(entry));
    }
    try {
        p.check_sizes();
    } catch (const error& e) {
        report.failure = e;
    }
    return report;
}

}  // namespace nt
