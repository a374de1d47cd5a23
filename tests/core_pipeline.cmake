# Pipeline configs backed by .npy files: NumPy writes the files (a setup test),
# then test_core's [numpy] cases (tagged [pipeline_files] too) load configs that
# read their headers.
add_test(NAME core_pipeline_files_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_pipeline_files.py
                 --out ${CMAKE_CURRENT_BINARY_DIR}/data/pipeline)
set_tests_properties(core_pipeline_files_generate PROPERTIES FIXTURES_SETUP core_pipeline_files)
if(TARGET test_core)
    nt_discover_numpy_cases(test_core core_pipeline_files core_pipeline_files "[pipeline_files]")
endif()
