# nt::half against NumPy's float16: the generator writes every bit pattern and many
# floats and doubles with NumPy's conversions; test_core's [numpy] cases replay them.
add_test(NAME core_numpy_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_half.py
                 --out ${CMAKE_CURRENT_BINARY_DIR}/data/half_cases.txt)
set_tests_properties(core_numpy_generate PROPERTIES FIXTURES_SETUP core_numpy)
if(TARGET test_core)
    nt_discover_numpy_cases(test_core core_numpy core_numpy "[numpy]~[pipeline_files]")
endif()
