# nt/structure.hpp (joining, splitting, pad, flip, roll, repeat, tile, windows):
# test_structure, one executable for tests/structure/*.cpp. Its [numpy] cases replay
# tests/numpy/gen_structure_ops.py's output: a fixed seed, and a fresh seed per run
# (printed by the setup test).
#
# Replay a failing fresh seed by hand:
#   /usr/bin/python3 tests/numpy/gen_structure_ops.py --seed S --count 1500 --out /tmp/s.txt
#   NT_STRUCTURE_OPS_DATA=/tmp/s.txt build/release/tests/test_structure "[numpy]"
nt_add_test_area(structure ntensor::ntensor)
if(NOT TARGET test_structure)
    return()
endif()

set(nt_structure_fixed ${CMAKE_CURRENT_BINARY_DIR}/data/structure_ops_fixed.txt)
set(nt_structure_fresh ${CMAKE_CURRENT_BINARY_DIR}/data/structure_ops_fresh.txt)
add_test(NAME structure_ops_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_structure_ops.py
                 --seed 20261123 --count 3000 --out ${nt_structure_fixed})
add_test(NAME structure_ops_generate_fresh
         COMMAND ${CMAKE_COMMAND} -DPYTHON=${NT_PYTHON3} -DCOUNT=1500
                 -DSCRIPT=${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_structure_ops.py
                 -DOUT=${nt_structure_fresh}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/numpy/run_fresh_seed.cmake)
set_tests_properties(structure_ops_generate PROPERTIES FIXTURES_SETUP structure_ops_fixed)
set_tests_properties(structure_ops_generate_fresh PROPERTIES FIXTURES_SETUP structure_ops_fresh)
add_test(NAME structure_ops_numpy COMMAND test_structure "[numpy]")
set_tests_properties(structure_ops_numpy PROPERTIES
    FIXTURES_REQUIRED structure_ops_fixed ENVIRONMENT NT_STRUCTURE_OPS_DATA=${nt_structure_fixed})
add_test(NAME structure_ops_numpy_fresh COMMAND test_structure "[numpy]")
set_tests_properties(structure_ops_numpy_fresh PROPERTIES
    FIXTURES_REQUIRED structure_ops_fresh ENVIRONMENT NT_STRUCTURE_OPS_DATA=${nt_structure_fresh})
