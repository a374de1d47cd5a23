// Expected not to compile: policy positional pairs C with H on one output axis.
#include <nt/static.hpp>
using plan = nt::static_plan_for<nt::policy::positional, nt::axes<"N", "C">, nt::axes<"H">>;
constexpr auto names = plan::output_names;
