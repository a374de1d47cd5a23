# Pipeline configs backed by .npy files: NumPy writes the files, a setup test of the
# core_numpy fixture, so test_core's [numpy] cases (discovered once, in
# tests/core.cmake) find them; those cases (tagged [pipeline_files]) load configs
# that read their headers.
add_test(NAME core_pipeline_files_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_pipeline_files.py
                 --out ${CMAKE_CURRENT_BINARY_DIR}/data/pipeline)
set_tests_properties(core_pipeline_files_generate PROPERTIES FIXTURES_SETUP core_numpy)
