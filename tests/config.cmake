# Symbolic sizes of configs against Python's own evaluation of the same expressions
# (tests/numpy/gen_size_exprs.py): a fixed seed and a fresh (printed) seed per run,
# generated before test_config's [numpy] cases.
add_test(NAME config_numpy_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_size_exprs.py
                 --seed 20261123 --count 3000 --out ${CMAKE_CURRENT_BINARY_DIR}/data/size_exprs_fixed.txt)
add_test(NAME config_numpy_generate_fresh
         COMMAND ${CMAKE_COMMAND} -DPYTHON=${NT_PYTHON3} -DCOUNT=1500
                 -DSCRIPT=${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_size_exprs.py
                 -DOUT=${CMAKE_CURRENT_BINARY_DIR}/data/size_exprs_fresh.txt
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/numpy/run_fresh_seed.cmake)
set_tests_properties(config_numpy_generate config_numpy_generate_fresh PROPERTIES FIXTURES_SETUP config_numpy)
nt_discover_numpy_cases(test_config config_numpy config_numpy)

# Large configs (hidden tag [.large]): reading and planning are linear, so these
# take about a second; the quadratic reader of before took minutes, past TIMEOUT.
add_test(NAME config_large COMMAND test_config "[large]")
set_tests_properties(config_large PROPERTIES TIMEOUT 90)
