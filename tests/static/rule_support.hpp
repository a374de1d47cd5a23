// The run-time half of "one rule, two evaluations": each generated case records its
// compile-time plan (or refusal) with specs of sizes that fit, and compare_with_match
// checks nt::match's answer on those specs against it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <nt/static.hpp>

namespace nt::test {

struct rule_case {
    std::vector<std::string> specs;
    nt::policy policy = nt::policy::names;
    bool ok = false;
    std::vector<std::string> output_names;
    std::vector<std::vector<std::int32_t>> source_axes;
    nt::errc code = nt::errc::invalid_spec;
    std::string axis;  // the name a refusal reports ("?" for an unnamed axis)
};

template <class E>
struct refusal_of;
template <nt::fixed_name N>
struct refusal_of<nt::static_error::no_counterpart<N>> {
    static constexpr nt::errc code = nt::errc::no_counterpart;
    static constexpr std::string_view axis = N.view();
};
template <nt::fixed_name N>
struct refusal_of<nt::static_error::duplicate_name<N>> {
    static constexpr nt::errc code = nt::errc::duplicate_name;
    static constexpr std::string_view axis = N.view();
};
template <nt::fixed_name N, nt::fixed_name M>
struct refusal_of<nt::static_error::name_mismatch<N, M>> {
    static constexpr nt::errc code = nt::errc::name_mismatch;
    static constexpr std::string_view axis = M.view();
};

template <nt::policy P, class... Axes>
rule_case record_case(std::vector<std::string> specs) {
    rule_case c;
    c.specs = std::move(specs);
    c.policy = P;
    using m = nt::static_match_for<P, Axes...>;
    c.ok = m::ok;
    if constexpr (m::ok) {
        using plan = nt::static_plan_for<P, Axes...>;
        for (std::string_view n : plan::output_names) c.output_names.emplace_back(n);
        for (const auto& map : plan::source_axes) c.source_axes.emplace_back(map.begin(), map.end());
    } else {
        c.code = refusal_of<typename m::error>::code;
        c.axis = std::string(refusal_of<typename m::error>::axis);
    }
    return c;
}

inline void compare_with_match(const std::vector<rule_case>& cases) {
    for (const rule_case& c : cases) {
        std::string listed;
        for (const auto& s : c.specs) listed += s + " ";
        INFO("specs " << listed << "policy " << nt::to_string(c.policy));
        nt::match_options options;
        options.policy = c.policy;
        bool ok = false;
        nt::errc code = nt::errc::invalid_spec;
        std::string message;
        nt::plan p;
        try {
            std::vector<nt::spec> specs;
            for (const auto& s : c.specs) specs.push_back(nt::parse_spec(s));
            auto r = nt::try_match(specs, options);
            ok = r.ok();
            if (ok) p = *r;
            else {
                code = r.error().code;
                message = r.error().message;
            }
        } catch (const nt::error& e) {  // a duplicate name is refused when parsing
            code = e.code();
            message = e.message();
        }
        REQUIRE(ok == c.ok);
        if (ok) {
            std::vector<std::string> names;
            for (const auto& ax : p.output) names.emplace_back(ax.name ? std::string(ax.name.str()) : std::string());
            CHECK(names == c.output_names);
            std::vector<std::vector<std::int32_t>> maps;
            for (const auto& in : p.inputs) maps.emplace_back(in.source_axes.begin(), in.source_axes.end());
            CHECK(maps == c.source_axes);
        } else {
            CHECK(nt::to_string(code) == nt::to_string(c.code));
            if (c.axis != "?") CHECK_THAT(message, Catch::Contains(c.axis));
        }
    }
}

}  // namespace nt::test
