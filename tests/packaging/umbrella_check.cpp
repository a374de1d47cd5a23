// The umbrella header stays light: it compiles on its own and pulls in neither
// nlohmann/json (JSON lives in src/*.cpp) nor range-v3 nor Boost.Hana
// (docs/style: a consumer's compile time is a feature). Built by the test
// `header_check` (tests/packaging.cmake).
#include <nt/nt.hpp>

#if defined(NLOHMANN_JSON_VERSION_MAJOR) || defined(INCLUDE_NLOHMANN_JSON_HPP_) || \
    defined(INCLUDE_NLOHMANN_JSON_FWD_HPP_)
#error "<nt/nt.hpp> includes nlohmann/json"
#endif
#if defined(RANGES_V3_DETAIL_CONFIG_HPP) || defined(RANGE_V3_MAJOR)
#error "<nt/nt.hpp> includes range-v3"
#endif
#if defined(BOOST_HANA_CONFIG_HPP) || defined(BOOST_HANA_MAJOR_VERSION)
#error "<nt/nt.hpp> includes Boost.Hana"
#endif

// The umbrella gives the whole public API.
namespace nt_umbrella_check {
[[maybe_unused]] inline auto uses_the_api() {
    nt::Tensor<float> t = nt::zeros<float>({2, 3});
    nt::spec s = nt::parse_spec("(2,3)");
    return t.size() + static_cast<std::int64_t>(s.rank()) + static_cast<std::int64_t>(nt::version().size());
}
}  // namespace nt_umbrella_check
