// nt/pipeline_config.hpp: a pipeline config checking tensors as they flow
// (docs/config.md, "Pipeline configs"; the tutorial is docs/guide.md).
//
//     nt::pipeline_config cfg = nt::load_config("segmentation_pipeline.json");
//     cfg.check("image", image);        // binds N, H, W on first use
//     cfg.check("labels", labels);      // must agree with them
//     auto onehot = nt::from_vector(values, cfg.spec("onehot"));
//
// The same rules as `ntensor plan` and `ntensor check`: the parse, the symbols and
// the plans come from the matcher (nt/pipeline.hpp); this header adds the checks
// against tensors. A pipeline_config is safe to share between threads: checks that
// find every size bound read atomics only (no lock, so concurrent checks do not wait
// for each other; figures in docs/performance.md); binding a symbol takes a lock once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "nt/dtype.hpp"
#include "nt/name.hpp"
#include "nt/spec.hpp"
#include "nt/tensor.hpp"

namespace nt {

class any_tensor;
class pipeline;

/// A loaded pipeline config: its tensors' specs, and the sizes of its symbols,
/// bound on first use. Move-only; share it by reference (or a shared_ptr) between
/// threads.
class pipeline_config {
public:
    /// Plans the steps of a parsed pipeline (its files read or not) and takes it
    /// over. Throws as pipeline::plan_step.
    explicit pipeline_config(pipeline p);
    pipeline_config(pipeline_config&&) noexcept;
    pipeline_config& operator=(pipeline_config&&) noexcept;
    pipeline_config(const pipeline_config&) = delete;
    pipeline_config& operator=(const pipeline_config&) = delete;
    ~pipeline_config();

    /// The spec of tensor (or step output) `name` with the sizes bound so far.
    /// Throws unknown_tensor, or invalid_argument naming a symbol not bound yet.
    [[nodiscard]] nt::spec spec(std::string_view name) const;

    /// Checks a tensor against `name`'s entry: dtype (when the config gives one),
    /// rank, names (an unnamed axis of `t` passes; a named one must carry the
    /// config's name), and sizes. A symbol that stands alone as a size of a
    /// declared tensor is bound by the first check that reaches it; a failed check
    /// binds nothing. Throws unknown_tensor, type_mismatch, name_mismatch,
    /// incompatible_sizes (naming the tensor, the axis, the symbol, both sizes and
    /// what bound it), invalid_argument (a symbol this check needs is not bound),
    /// invalid_spec (an expression of the config fails, e.g. does not divide).
    template <element T>
    void check(std::string_view name, const Tensor<T>& t) const {
        check(name, t.shape(), t.names(), t.dtype());
    }
    /// The same for a tensor whose element type is known at run time (a .npy file
    /// read with nt::load_npy or nt::map_npy).
    void check(std::string_view name, const any_tensor& t) const;
    /// The check of a tensor with this shape, names (one per axis, or empty) and dtype.
    void check(std::string_view name, std::span<const std::int64_t> shape, std::span<const nt::name> names,
               nt::dtype type) const;
    /// The check of a shape and names alone (no dtype check).
    void check(std::string_view name, const nt::spec& s) const;

    /// The size bound to `symbol`, or none yet. Throws invalid_argument for a symbol
    /// the config does not have.
    [[nodiscard]] std::optional<std::int64_t> size(std::string_view symbol) const;

    /// The config as loaded (its own sizes are those bound at load time).
    [[nodiscard]] const pipeline& loaded() const noexcept;

private:
    struct state;
    struct entry;
    void check_entry(const entry& e, std::span<const std::int64_t> shape, std::span<const nt::name> names) const;
    void check_slow(const entry& e, std::span<const std::int64_t> shape, std::span<const nt::name> names) const;
    std::unique_ptr<state> s_;
};

/// Reads the config at `path`, the headers of its "npy" files and plans its steps.
/// A relative "npy" path is taken from `base_folder`, or from the config's folder
/// when it is empty (a config kept apart from its data: load_config("cfg.json",
/// "/data/run7")). Throws io_error for an unreadable file, the errors of
/// parse_pipeline, pipeline::read_files and pipeline::plan_step.
[[nodiscard]] pipeline_config load_config(const std::string& path, const std::string& base_folder = {});

}  // namespace nt
