// The axis-matching solver under policy positional: NumPy's rule, every axis
// right-aligned, with names that must agree where both sides have them.
#include "solver.hpp"

namespace nt::detail {

namespace {

class positional_solver : public solver_base {
public:
    using solver_base::solver_base;

private:
    bool solve() override {
        const std::size_t rank = specs_[host_].rank();
        if (target_mode_ && specs_[0].rank() > rank)
            return fail(why_, errc::no_counterpart,
                        "cannot broadcast " + say_.input_with_spec(0) + " to the target " + say_.spec_text(1) +
                            ": the input has more axes than the target, and a broadcast never removes axes. Fix: "
                            "squeeze or index away the extra leading axes first");
        groups_.clear();
        for (std::size_t o = 0; o < rank; ++o) groups_.push_back(unnamed_key(rank - 1 - o));
        out_.inputs.resize(plan_inputs());
        for (std::size_t i = 0; i < plan_inputs(); ++i) {
            input_plan& p = out_.inputs[i];
            p.searched = false;
            p.source_axes.clear();
            p.source_axes.resize(rank, inserted_axis);
            const std::size_t shift = rank - specs_[i].rank();
            for (std::size_t a = 0; a < specs_[i].rank(); ++a) p.source_axes[a + shift] = static_cast<std::int32_t>(a);
        }
        out_.output = spec();
        out_.rules.clear();
        out_.added_by_union.clear();
        for (std::size_t o = 0; o < rank; ++o) {
            nt::name common;
            std::size_t named_by = 0;
            for (std::size_t i = 0; i < specs_.size(); ++i) {
                const std::size_t shift = rank - specs_[i].rank();
                if (o < shift) continue;
                const nt::name n = specs_[i].name(o - shift);
                if (!n) continue;
                if (!common) {
                    common = n;
                    named_by = i;
                } else if (n != common) {
                    return fail(why_, errc::name_mismatch,
                                "output axis " + std::to_string(o) + " (paired positionally, right-aligned) would get two names: " +
                                    say_.input(named_by) + " " + say_.axis(named_by, o - (rank - specs_[named_by].rank())) +
                                    " and " + say_.input(i) + " " + say_.axis(i, o - shift) + ". Shapes: " + say_.shapes() +
                                    ". Fix: rename one of the axes, or use policy 'names' to pair axes by name");
                }
            }
            if (target_mode_) common = specs_[1].name(o);
            for (std::size_t earlier = 0; earlier < o; ++earlier)
                if (common && out_.output.name(earlier) == common)
                    return fail(why_, errc::name_mismatch,
                                "policy 'positional' would give the name '" + std::string(common.str()) +
                                    "' to output axes " + std::to_string(earlier) + " and " + std::to_string(o) +
                                    ". Shapes: " + say_.shapes() + ". Fix: use policy 'names' to pair axes by name");
            std::int64_t size = 0;
            if (!settle_size(o, "positionally (right-aligned)", size)) return false;
            out_.output.push_back({size, common});
            out_.rules.push_back(axis_rule::right_aligned);
            out_.added_by_union.push_back(0);
        }
        return true;
    }
};

}  // namespace

bool solve_positional(std::span<const spec> specs, const match_options& options, bool target_mode, plan& out,
                      mismatch* why) {
    return positional_solver(specs, options, target_mode, out, why).run();
}

}  // namespace nt::detail
