# The matcher against NumPy's np.broadcast_shapes: a fixed seed and a fresh seed
# per run (printed), generated before test_matcher's [numpy] cases run.
add_test(NAME matcher_numpy_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_broadcast_shapes.py
                 --seed 20261123 --count 3000 --out ${CMAKE_CURRENT_BINARY_DIR}/data/broadcast_fixed.txt)
add_test(NAME matcher_numpy_generate_fresh
         COMMAND ${CMAKE_COMMAND} -DPYTHON=${NT_PYTHON3}
                 -DSCRIPT=${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_broadcast_shapes.py
                 -DOUT=${CMAKE_CURRENT_BINARY_DIR}/data/broadcast_fresh.txt
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/numpy/run_fresh_seed.cmake)
set_tests_properties(matcher_numpy_generate matcher_numpy_generate_fresh PROPERTIES FIXTURES_SETUP matcher_numpy)
nt_discover_numpy_cases(test_matcher matcher_numpy matcher_numpy)
