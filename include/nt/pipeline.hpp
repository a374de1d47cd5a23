// nt/pipeline.hpp: pipeline configs: symbolic sizes, several steps, tensors backed
// by files (docs/config.md, "Pipeline configs").
//
// The shape-only half: reading a config, binding its symbols (from "sizes" and
// file headers), planning its steps. No tensor data is involved; the run-time
// checks of tensors live in the core library (nt/pipeline_config.hpp).
//
//     nt::pipeline p = nt::parse_pipeline(text, "configs/");
//     nt::pipeline_report r = nt::check_pipeline(p, /*read_files=*/false);
//     std::cout << nt::explain(p, r);
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "nt/error.hpp"
#include "nt/match.hpp"
#include "nt/size_expr.hpp"

namespace nt {

/// One tensor of a pipeline: sizes that may be symbolic, names, and optionally a
/// dtype and a file.
struct pipeline_tensor {
    /// Where its shape comes from.
    enum class origin : std::uint8_t {
        declared,  ///< "shape" in the config (a file, if any, is checked against it)
        file,      ///< "npy" or "zarr" without "shape": the file gives it (see pipeline::read_file)
        step,      ///< the output of a step ("as")
    };

    std::string key;
    /// Where it is defined, for messages: "tensors.image", `step "score": as`.
    std::string path;
    origin source = origin::declared;
    /// Sizes. Declared tensors and read files: one per axis. Step outputs: the
    /// sizes that meet on each axis (see axis()).
    std::vector<size_expr> sizes;
    /// Step outputs only: axis a has sizes[member_ends[a-1] .. member_ends[a]).
    std::vector<std::uint32_t> member_ends;
    /// One name per axis, or empty (all unnamed).
    small_vector<nt::name, 8> names;
    /// ntensor's short dtype name ("u16"), or empty when not declared.
    std::string dtype;
    /// The "npy" file as written in the config, or empty.
    std::string npy;
    /// The "zarr" array (a folder holding .zarray) as written in the config, or empty.
    std::string zarr;
    /// The file the shape comes from ("npy" or "zarr"), or empty.
    [[nodiscard]] const std::string& file() const noexcept { return npy.empty() ? zarr : npy; }
    /// origin::file: true once the header has been read. A file's sizes are the
    /// symbols "key.shape[i]", bound by its header.
    bool file_read = false;
    /// After read_file: the header's shape and dtype.
    std::vector<std::int64_t> file_shape;
    std::string file_dtype;
    /// Step outputs: the index of the step; true once that step is planned.
    std::size_t step = 0;
    bool planned = false;

    /// False only for a file whose header is not read yet and that has no names.
    [[nodiscard]] bool rank_known() const noexcept;
    [[nodiscard]] std::size_t rank() const noexcept {
        return source == origin::step ? member_ends.size() : sizes.size();
    }
    /// The sizes that meet on axis `a`: one for a declared tensor; for a step's
    /// output, the sizes of its inputs paired there (the axis has their common
    /// size other than 1, or 1).
    [[nodiscard]] std::span<const size_expr> axis(std::size_t a) const noexcept;
    /// The name of axis `a` (unnamed when no names are given).
    [[nodiscard]] nt::name name(std::size_t a) const noexcept { return names.empty() ? nt::unnamed : names[a]; }
};

/// One step: what to broadcast, and under which name its output joins the tensors.
struct pipeline_step {
    std::string name;
    /// "steps[1]", for messages before the name is known.
    std::string path;
    /// The tensor keys, in argument order, and their indices in pipeline::tensors().
    std::vector<std::string> broadcast;
    std::vector<std::size_t> inputs;
    /// A target (broadcast_to); then `broadcast` holds one key.
    std::optional<pipeline_tensor> target;
    nt::policy policy = policy::names;
    bool union_axes = false;
    /// The output's key ("as"), or empty; its index in pipeline::tensors().
    std::string as;
    std::size_t output = 0;
};

/// A step's plan. Sizes not known yet are < 0 in the plan: `unknown_sizes[-1 - s]`
/// names them ("N", "(H - 8) / 6 + 1", "ct.shape[2]").
struct step_plan {
    std::size_t step = 0;
    nt::plan plan;
    std::vector<std::string> labels;
    std::vector<std::string> unknown_sizes;
};

/// A parsed pipeline config and the sizes bound so far. Not thread-safe; the core's
/// nt::pipeline_config is the thread-safe run-time form.
class pipeline {
public:
    /// Parses a config (docs/config.md). `folder` is where "npy" paths are relative
    /// to ("" for the working directory). Binds the symbols of "sizes" and checks
    /// every size that they fix. Throws parse_error, invalid_spec, duplicate_name,
    /// unknown_tensor; never another exception but std::bad_alloc.
    [[nodiscard]] static pipeline parse(std::string_view json_text, std::string folder = {});

    // --- the config -----------------------------------------------------------------

    [[nodiscard]] const symbol_table& symbols() const noexcept { return symbols_; }
    /// Per symbol: its size, or -1 while unbound.
    [[nodiscard]] std::span<const std::int64_t> sizes() const noexcept { return sizes_; }
    /// Per symbol: what bound it ("\"sizes\"", "axis 0 of 'image' (image.npy)"), or "".
    [[nodiscard]] const std::string& size_source(std::uint32_t symbol) const noexcept { return sources_[symbol]; }
    /// Declared tensors in file order, then step outputs ("as") in step order.
    [[nodiscard]] std::span<const pipeline_tensor> tensors() const noexcept { return tensors_; }
    [[nodiscard]] std::span<const pipeline_step> steps() const noexcept { return steps_; }
    /// The index of tensor `key`, or -1.
    [[nodiscard]] std::int64_t find(std::string_view key) const noexcept;
    /// Tensor `key`; throws unknown_tensor (with a suggestion).
    [[nodiscard]] const pipeline_tensor& tensor(std::string_view key) const;
    /// True for a config written with a top-level "broadcast" (today's one-step
    /// form), whose plan prints as one plan.
    [[nodiscard]] bool one_step() const noexcept { return one_step_; }
    [[nodiscard]] const std::string& folder() const noexcept { return folder_; }
    /// The path a tensor's "npy" file or "zarr" array is read from.
    [[nodiscard]] std::string file_path(const pipeline_tensor& t) const;

    // --- sizes ----------------------------------------------------------------------

    /// Binds `symbol` to `value` (>= 0) on behalf of `source` (e.g. "axis 0 of
    /// 'image' (cfg.check)"). Throws incompatible_sizes, prefixed by `where`, naming
    /// the symbol, both sizes and both sources when it is bound to another value.
    void bind(std::uint32_t symbol, std::int64_t value, const std::string& source, std::string_view where);
    /// Forgets the size of `symbol` (to take back the bindings of a failed check).
    void unbind(std::uint32_t symbol) noexcept;

    /// The size of axis `a` of `t` with the symbols bound so far, or -1 when not
    /// known yet. Throws invalid_spec when an expression fails (a `/` that does not
    /// divide, a negative size), incompatible_sizes when a step output's sizes
    /// disagree; the message names the tensor, the axis and the symbols' values.
    [[nodiscard]] std::int64_t axis_size(const pipeline_tensor& t, std::size_t a) const;
    /// Like axis_size, but evaluates with `values` instead of the bound sizes.
    [[nodiscard]] std::int64_t axis_size(const pipeline_tensor& t, std::size_t a,
                                         std::span<const std::int64_t> values) const;
    /// The size of axis `a` as text: "N", "(H - 8) / 6 + 1", "ct.shape[2]".
    [[nodiscard]] std::string axis_text(const pipeline_tensor& t, std::size_t a) const;
    /// The spec of tensor `key` with the sizes bound so far. Throws unknown_tensor,
    /// or invalid_argument naming the symbols not bound yet.
    [[nodiscard]] spec spec_of(std::string_view key) const;
    /// Evaluates every size whose symbols are bound (errors as axis_size).
    void check_sizes() const;

    // --- files and steps --------------------------------------------------------------

    /// Reads the header of tensor `index`'s "npy" file or the metadata of its "zarr"
    /// array (nothing for other tensors): checks the dtype and the declared shape,
    /// binds symbols, and takes a zarr array's names when the config gives none
    /// (names given must agree with the array's). Throws io_error,
    /// format_error, unsupported_dtype, type_mismatch, incompatible_sizes.
    void read_file(std::size_t index);
    /// read_file for every tensor, in file order, then check_sizes.
    void read_files();
    /// Plans step `index` with the sizes known so far (unknown sizes pair with any
    /// size) and fixes the output's sizes. Errors name the step.
    [[nodiscard]] step_plan plan_step(std::size_t index);

    /// The fix for a symbol that is not bound: "give N in \"sizes\", or check first a
    /// tensor that has it alone as a size, such as 'image'".
    [[nodiscard]] std::string how_to_bind(std::uint32_t symbol) const;
    /// The symbols of the sizes of axis `a` of `t` that are not bound yet.
    [[nodiscard]] std::vector<std::uint32_t> unbound_symbols(const pipeline_tensor& t, std::size_t a) const;
    /// A message part "N = 10 (from \"sizes\")" for the symbols of `e`.
    [[nodiscard]] std::string symbol_values(const size_expr& e) const;

private:
    friend class pipeline_reader;

    [[noreturn]] void fail_axis(const pipeline_tensor& t, std::size_t a, errc code, const std::string& problem) const;
    /// The symbol "key.shape[a]" of a file's axis, bound when its header is read.
    std::uint32_t file_symbol(std::string_view key, std::size_t a);

    symbol_table symbols_;
    std::vector<std::int64_t> sizes_;
    std::vector<std::string> sources_;
    std::vector<pipeline_tensor> tensors_;
    std::vector<pipeline_step> steps_;
    struct key_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::size_t, key_hash, std::equal_to<>> index_;
    std::string folder_;
    bool one_step_ = false;
};

/// pipeline::parse.
[[nodiscard]] pipeline parse_pipeline(std::string_view json_text, std::string folder = {});

/// What `ntensor plan` and `ntensor check` report: each file read, each step's plan
/// or its error.
struct pipeline_report {
    struct file {
        std::size_t tensor = 0;
        std::string path;
        std::vector<std::int64_t> shape;
        std::string dtype;
        std::optional<error> failure;
    };
    struct step {
        std::size_t index = 0;
        std::optional<step_plan> plan;
        std::optional<error> failure;
    };
    std::vector<file> files;
    std::vector<step> steps;
    /// An error outside files and steps (check_sizes at the end).
    std::optional<error> failure;

    /// The first failure, in file, step, final order; null when all passed.
    [[nodiscard]] const error* first_failure() const noexcept;
};

/// Reads the files (when `read_files`) and plans every step, in order, reporting
/// each failure instead of throwing (a step whose input came from a failed step
/// fails too). Throws only std::bad_alloc.
[[nodiscard]] pipeline_report check_pipeline(pipeline& p, bool read_files);

/// {"sizes": {symbol: size or null}, "steps": {name: plan}} (plans as
/// plan_to_json; a failed step: {"error": {...}}); with files read, also "files":
/// {key: {"path", "shape", "dtype"} or {"error": ...}}. A one-step config prints
/// its plan alone, as plan_to_json. `indent` as plan_to_json.
[[nodiscard]] std::string report_to_json(const pipeline& p, const pipeline_report& r, int indent = 2);

/// The report for people: files, sizes, and each step's table (explain).
[[nodiscard]] std::string explain(const pipeline& p, const pipeline_report& r);

}  // namespace nt
