// nt::pipeline_config: run-time checks of tensors against a pipeline config.
//
// The config (parse, symbols, step plans, evaluation and its messages) is the
// matcher's nt::pipeline. This file only adds what a check needs to be cheap and
// safe across threads: per tensor, a flat list of axis checks; per symbol, an
// atomic size. A check whose sizes are all known compares integers and returns
// without a lock. Anything else (a first binding, a mismatch to explain) takes
// the lock and goes through nt::pipeline, which binds, evaluates and words the
// error; its sizes are then published to the atomics.
#include "nt/pipeline_config.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "nt/any_tensor.hpp"
#include "nt/error.hpp"
#include "nt/pipeline.hpp"
#include "regular_file.hpp"

namespace nt {

namespace {

struct string_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

std::string single_quoted(std::string_view text) { return "'" + std::string(text) + "'"; }
std::string double_quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

bool has_name(std::span<const nt::name> names, nt::name n) { return std::find(names.begin(), names.end(), n) != names.end(); }

/// The call that gives a tensor (`names`, `shape`) the config's names `expected`
/// (sizes `sizes`, -1 where not known yet; equal ranks). When its named axes are the
/// config's in another order, renaming them in place would pair the wrong sizes:
/// align_to, with "..." for the config's axes the tensor does not name, if one
/// "..." can stand for them all. The sizes decide when the names are only wrong.
std::string naming_fix(std::span<const nt::name> names, std::span<const std::int64_t> shape,
                       std::span<const nt::name> expected, std::span<const std::int64_t> sizes, std::string_view key) {
    const std::string rename = "t.rename(cfg.spec(" + double_quoted(key) + "))";
    for (nt::name n : names)
        if (n && !has_name(expected, n)) return rename;
    std::vector<std::string> args;
    small_vector<std::size_t, 8> order;  // the tensor's axes in align_to's order
    bool rest = false;
    for (nt::name n : expected) {
        if (n && has_name(names, n)) {
            args.push_back(double_quoted(n.str()));
            order.push_back(static_cast<std::size_t>(std::find(names.begin(), names.end(), n) - names.begin()));
        } else if (args.empty() || args.back() != "\"...\"") {
            if (rest) return rename;
            rest = true;
            args.emplace_back("\"...\"");
            order.push_back(names.size());  // "...": filled below
        }
    }
    small_vector<std::size_t, 8> perm;
    for (std::size_t k : order) {
        if (k < names.size()) {
            perm.push_back(k);
            continue;
        }
        for (std::size_t m = 0; m < names.size(); ++m)
            if (std::find(order.begin(), order.end(), m) == order.end()) perm.push_back(m);
    }
    auto fits = [&](auto axis_at) {
        for (std::size_t a = 0; a < expected.size(); ++a) {
            const std::size_t k = axis_at(a);
            if ((names[k] && names[k] != expected[a]) || (sizes[a] >= 0 && shape[k] != sizes[a])) return false;
        }
        return true;
    };
    const bool aligned_fits = fits([&](std::size_t a) { return perm[a]; });
    const bool in_place_sizes_fit = [&] {
        for (std::size_t a = 0; a < expected.size(); ++a)
            if (sizes[a] >= 0 && shape[a] != sizes[a]) return false;
        return true;
    }();
    if (!aligned_fits && in_place_sizes_fit) return rename;
    std::string call = "t.align_to(";
    for (std::size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
    return call + ")";
}

}  // namespace

/// One tensor of the config, as a check reads it.
struct pipeline_config::entry {
    /// How one axis is checked without the lock.
    struct axis_check {
        enum class kind : std::uint8_t { literal, symbol, computed } how = kind::literal;
        std::int64_t value = 0;                     // literal: the size; symbol: its index
        mutable std::atomic<std::int64_t> cached{-1};  // computed: the size once known (never changes after)
    };

    std::size_t tensor = 0;  // index in p.tensors()
    std::size_t rank = 0;
    bool rank_known = true;
    std::unique_ptr<axis_check[]> axes;
    small_vector<nt::name, 8> names;  // empty: all unnamed
    bool has_dtype = false;
    bool dtype_supported = false;
    nt::dtype type = dtype::f32;
};

struct pipeline_config::state {
    explicit state(pipeline&& loaded) : p(std::move(loaded)) {}

    pipeline p;  // guarded by `lock` for writes (bindings)
    std::vector<entry> entries;
    std::unordered_map<std::string, std::size_t, string_hash, std::equal_to<>> index;
    std::unique_ptr<std::atomic<std::int64_t>[]> sizes;  // per symbol; -1 unbound
    mutable std::mutex lock;

    /// The size axis `a` of `e` must have, or -1 while it is not known yet.
    [[nodiscard]] std::int64_t expected_size(const entry& e, std::size_t a) const {
        const entry::axis_check& c = e.axes[a];
        if (c.how == entry::axis_check::kind::symbol)
            return sizes[static_cast<std::size_t>(c.value)].load(std::memory_order_acquire);
        if (c.how == entry::axis_check::kind::computed) return c.cached.load(std::memory_order_acquire);
        return c.value;
    }

    void build() {
        for (std::size_t s = 0; s < p.steps().size(); ++s) (void)p.plan_step(s);
        p.check_sizes();
        sizes = std::make_unique<std::atomic<std::int64_t>[]>(p.symbols().size());
        publish();
        entries.resize(p.tensors().size());
        for (std::size_t i = 0; i < p.tensors().size(); ++i) {
            const pipeline_tensor& t = p.tensors()[i];
            entry& e = entries[i];
            e.tensor = i;
            e.rank_known = t.rank_known();
            e.rank = t.rank();
            e.names = t.names;
            e.axes = std::make_unique<entry::axis_check[]>(e.rank);
            for (std::size_t a = 0; a < e.rank; ++a) {
                entry::axis_check& c = e.axes[a];
                const std::span<const size_expr> members = t.axis(a);
                if (t.source != pipeline_tensor::origin::step && members.front().is_literal()) {
                    c.how = entry::axis_check::kind::literal;
                    c.value = members.front().literal_value();
                } else if (t.source != pipeline_tensor::origin::step && members.front().is_symbol()) {
                    c.how = entry::axis_check::kind::symbol;
                    c.value = members.front().symbol_index();
                } else {
                    c.how = entry::axis_check::kind::computed;
                }
            }
            if (!t.dtype.empty()) {
                e.has_dtype = true;
                e.dtype_supported = dtype_from_string(t.dtype, e.type);
            }
            index.emplace(t.key, i);
        }
    }

    /// Copies the pipeline's sizes to the atomics (before sharing).
    void publish() {
        for (std::size_t s = 0; s < p.symbols().size(); ++s) sizes[s].store(p.sizes()[s], std::memory_order_release);
    }

    /// What the config expects on axis `a`: "symbol N = 10, bound by axis 0 of
    /// 'image' (checked at run time)", "the config says 3", "the config says
    /// (H - 8) / 6 + 1 = 3 (H = 20 (from ...))".
    std::string expected(const pipeline_tensor& t, std::size_t a, std::int64_t size) const {
        const std::span<const size_expr> members = t.axis(a);
        if (members.size() == 1 && members.front().is_symbol()) {
            const std::uint32_t s = members.front().symbol_index();
            return "symbol " + p.symbols().name(s) + " = " + std::to_string(size) + ", bound by " + p.size_source(s);
        }
        const std::string text = p.axis_text(t, a);
        if (members.size() == 1 && members.front().is_literal()) return "the config says " + text;
        std::string values;
        for (const size_expr& m : members) {
            const std::string v = p.symbol_values(m);
            if (!v.empty()) values += (values.empty() ? "" : ", ") + v;
        }
        return "the config says " + text + " = " + std::to_string(size) + (values.empty() ? "" : " (" + values + ")");
    }

    const entry& find(std::string_view name) const {
        const auto it = index.find(name);
        if (it == index.end()) (void)p.tensor(name);  // throws unknown_tensor with a suggestion
        return entries[it->second];
    }

    /// "pipeline check of 'labels' (12,20,26 | ?,H,W)".
    std::string what(const entry& e, std::span<const std::int64_t> shape, std::span<const nt::name> names) const {
        nt::spec shown;
        for (std::size_t a = 0; a < shape.size(); ++a) shown.push_back({shape[a], a < names.size() ? names[a] : unnamed});
        return "pipeline check of " + single_quoted(p.tensors()[e.tensor].key) + " " + to_string(shown);
    }

    std::string axis_name(const entry& e, std::size_t a) const {
        const nt::name n = e.names.empty() ? unnamed : e.names[a];
        return "axis " + std::to_string(a) + (n ? " '" + std::string(n.str()) + "'" : std::string());
    }
};

pipeline_config::pipeline_config(pipeline p) : s_(std::make_unique<state>(std::move(p))) { s_->build(); }
pipeline_config::pipeline_config(pipeline_config&&) noexcept = default;
pipeline_config& pipeline_config::operator=(pipeline_config&&) noexcept = default;
pipeline_config::~pipeline_config() = default;

const pipeline& pipeline_config::loaded() const noexcept { return s_->p; }

nt::spec pipeline_config::spec(std::string_view name) const {
    const std::lock_guard<std::mutex> guard(s_->lock);
    return s_->p.spec_of(name);
}

std::optional<std::int64_t> pipeline_config::size(std::string_view symbol) const {
    const std::int64_t index = s_->p.symbols().find(symbol);
    if (index < 0)
        throw_error(errc::invalid_argument, "pipeline_config::size: the config has no symbol " + single_quoted(symbol));
    const std::int64_t value = s_->sizes[static_cast<std::size_t>(index)].load(std::memory_order_acquire);
    return value < 0 ? std::nullopt : std::optional<std::int64_t>(value);
}

void pipeline_config::check(std::string_view name, const nt::spec& s) const {
    const dims shape = s.sizes();
    small_vector<nt::name, 8> names;
    for (const axis_spec& axis : s) names.push_back(axis.name);
    check_entry(s_->find(name), shape, names);
}

void pipeline_config::check(std::string_view name, const any_tensor& t) const {
    check(name, t.shape(), t.names(), t.dtype());
}

void pipeline_config::check(std::string_view name, std::span<const std::int64_t> shape,
                            std::span<const nt::name> names, nt::dtype type) const {
    const state& st = *s_;
    const entry& e = st.find(name);
    if (e.has_dtype && (!e.dtype_supported || e.type != type))
        throw_error(errc::type_mismatch, st.what(e, shape, names) + ": the tensor holds " + std::string(to_string(type)) +
                                             ", but the config says " + st.p.tensors()[e.tensor].dtype +
                                             ". Fix: convert it (astype), or change \"dtype\" in the config");
    check_entry(e, shape, names);
}

void pipeline_config::check_entry(const entry& e, std::span<const std::int64_t> shape,
                                  std::span<const nt::name> names) const {
    const state& st = *s_;
    // The common case: every size known and equal, in a few integer compares.
    bool fast = e.rank_known && shape.size() == e.rank;
    for (std::size_t a = 0; fast && a < e.rank; ++a) fast = st.expected_size(e, a) == shape[a];
    if (fast && !names.empty())
        for (std::size_t a = 0; fast && a < e.rank; ++a)
            fast = !names[a] || names[a] == (e.names.empty() ? unnamed : e.names[a]);
    if (!fast) check_slow(e, shape, names);
}

void pipeline_config::check_slow(const entry& e, std::span<const std::int64_t> shape,
                                 std::span<const nt::name> names) const {
    state& st = *s_;
    const pipeline_tensor& t = st.p.tensors()[e.tensor];
    const std::string what = st.what(e, shape, names);
    if (!e.rank_known)
        throw_error(errc::invalid_argument, what + ": the config takes its shape from " + t.file() +
                                                ", whose header was not read; load the config with nt::load_config");
    if (shape.size() != e.rank)
        throw_error(errc::incompatible_sizes, what + ": the tensor has " + std::to_string(shape.size()) +
                                                  (shape.size() == 1 ? " axis" : " axes") + ", the config gives " +
                                                  std::to_string(e.rank) + ". Fix the tensor or the config");
    if (!names.empty())
        for (std::size_t a = 0; a < e.rank; ++a) {
            const nt::name expected = e.names.empty() ? unnamed : e.names[a];
            if (names[a] && names[a] != expected) {
                const small_vector<nt::name, 8> config_names =
                    e.names.empty() ? small_vector<nt::name, 8>(e.rank, unnamed) : e.names;
                dims sizes(e.rank, -1);
                for (std::size_t k = 0; k < e.rank; ++k) sizes[k] = st.expected_size(e, k);
                const std::string fix = naming_fix(names, shape, config_names.span(), sizes.span(), t.key);
                throw_error(errc::name_mismatch,
                            what + ": axis " + std::to_string(a) + " is named '" + std::string(names[a].str()) +
                                "', the config names it " +
                                (expected ? "'" + std::string(expected.str()) + "'" : std::string("? (unnamed)")) +
                                (fix.starts_with("t.align_to")
                                     ? ". Fix: put the axes in the config's order (" + fix + ")"
                                     : ". Fix: rename the tensor to the config's names (" + fix + ")"));
            }
        }

    const std::lock_guard<std::mutex> guard(st.lock);
    // Bind the lone symbols of a declared tensor, then compare every axis; a
    // failure takes the new bindings back.
    std::vector<std::uint32_t> bound_here;
    try {
        if (t.source != pipeline_tensor::origin::step)
            for (std::size_t a = 0; a < e.rank; ++a) {
                const size_expr& size = t.sizes[a];
                if (!size.is_symbol() || st.p.sizes()[size.symbol_index()] >= 0) continue;
                st.p.bind(size.symbol_index(), shape[a],
                          st.axis_name(e, a) + " of " + single_quoted(t.key) + " (checked at run time)", what);
                bound_here.push_back(size.symbol_index());
            }
        for (std::size_t a = 0; a < e.rank; ++a) {
            const std::int64_t expected = st.p.axis_size(t, a);
            if (expected == shape[a]) continue;
            const std::string text = st.p.axis_text(t, a);
            if (expected < 0) {
                const std::vector<std::uint32_t> unbound = st.p.unbound_symbols(t, a);
                const std::string name = unbound.empty() ? text : st.p.symbols().name(unbound.front());
                throw_error(errc::invalid_argument,
                            what + ": " + st.axis_name(e, a) + " has size " + text + " in the config, and " + name +
                                " is not bound yet. Fix: " +
                                (unbound.empty() ? std::string("check the step's inputs first")
                                                 : st.p.how_to_bind(unbound.front())));
            }
            const bool lone_symbol = t.axis(a).size() == 1 && t.axis(a).front().is_symbol();
            throw_error(errc::incompatible_sizes,
                        what + ": " + st.axis_name(e, a) + " has size " + std::to_string(shape[a]) + ", but " +
                            st.expected(t, a, expected) +
                            (lone_symbol ? ". Fix: make the sizes agree (one symbol has one size), or give the config "
                                           "two symbols if these are different dimensions"
                                         : ". Fix the tensor, or the config if the sizes really differ"));
        }
    } catch (...) {
        for (std::uint32_t s : bound_here) st.p.unbind(s);
        throw;
    }
    for (std::uint32_t s : bound_here) st.sizes[s].store(st.p.sizes()[s], std::memory_order_release);
    for (std::size_t a = 0; a < e.rank; ++a)
        if (e.axes[a].how == entry::axis_check::kind::computed)
            e.axes[a].cached.store(shape[a], std::memory_order_release);
}

pipeline_config load_config(const std::string& path, const std::string& base_folder) {
    // A folder, a FIFO or a device is refused by name here, before any parsing.
    const std::string text = detail::read_small_file(path, "load_config: '" + path + "'", std::uint64_t{1} << 30,
                                                     "a config");
    pipeline p = parse_pipeline(text, base_folder.empty() ? std::filesystem::path(path).parent_path().string() : base_folder);
    p.read_files();
    return pipeline_config(std::move(p));
}

}  // namespace nt
