# Symbolic sizes of configs against Python's own evaluation of the same expressions
# (tests/numpy/gen_size_exprs.py): a fixed seed and a fresh (printed) seed per run,
# generated before test_config's [numpy] cases.
nt_add_oracle_data(config_numpy gen_size_exprs.py size_exprs 3000 1500)
nt_discover_numpy_cases(test_config config_numpy config_numpy)

# Large configs (hidden tag [.large]): reading and planning are linear, so these
# stay well inside TIMEOUT, which a quadratic reader (as there was before) runs past.
# The longest single test under the sanitizers: a high COST starts it first, so it
# does not run alone at the end (figures: docs/performance.md, "Build time of the
# test command").
add_test(NAME config_large COMMAND test_config "[large]")
set_tests_properties(config_large PROPERTIES TIMEOUT 90 COST 1000)
