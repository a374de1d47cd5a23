# Element-wise operations against NumPy: a fixed seed and a fresh (printed) seed.
add_test(NAME ops_numpy_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_elementwise.py
                 --seed 20261123 --count 4000 --sweep --out ${CMAKE_CURRENT_BINARY_DIR}/data/elementwise_fixed.txt)
add_test(NAME ops_numpy_generate_fresh
         COMMAND ${CMAKE_COMMAND} -DPYTHON=${NT_PYTHON3} -DCOUNT=1500
                 -DSCRIPT=${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_elementwise.py
                 -DOUT=${CMAKE_CURRENT_BINARY_DIR}/data/elementwise_fresh.txt
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/numpy/run_fresh_seed.cmake)
set_tests_properties(ops_numpy_generate ops_numpy_generate_fresh PROPERTIES FIXTURES_SETUP ops_numpy)
if(TARGET test_ops)
    nt_discover_numpy_cases(test_ops ops_numpy ops_numpy)
endif()
