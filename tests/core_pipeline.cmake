# Pipeline configs backed by .npy files: NumPy writes the files (a setup test),
# then test_core's [pipeline_files] cases load configs that read their headers.
add_test(NAME core_pipeline_files_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_pipeline_files.py
                 --out ${CMAKE_CURRENT_BINARY_DIR}/data/pipeline)
set_tests_properties(core_pipeline_files_generate PROPERTIES FIXTURES_SETUP core_pipeline_files)
if(TARGET test_core)
    add_test(NAME core_pipeline_files COMMAND test_core "[pipeline_files]")
    set_tests_properties(core_pipeline_files PROPERTIES FIXTURES_REQUIRED core_pipeline_files)
endif()
