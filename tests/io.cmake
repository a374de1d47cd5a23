# (test_io, test_io_fuzz and the NumPy oracle of .npy / .npz files are declared in
# tests/CMakeLists.txt.)
#
# The guide's "Data in and out" round trip: the chapter's Python writes ct.npy
# (scripts/run_doc_python.py runs the blocks of docs/guide.md), examples/guide_data
# maps it and writes results, the chapter's Python reads them with NumPy.
if(NTENSOR_BUILD_EXAMPLES)
    set(nt_guide_data ${CMAKE_CURRENT_BINARY_DIR}/data/guide_data)
    add_test(NAME guide_data_numpy_writes
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/run_doc_python.py
                     ${PROJECT_SOURCE_DIR}/docs/guide.md data-write ${nt_guide_data})
    add_test(NAME example_guide_data
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:example_guide_data> -DARGS=${nt_guide_data}
                     -DEXPECTED=${PROJECT_SOURCE_DIR}/examples/guide_data.expected
                     -P ${PROJECT_SOURCE_DIR}/cmake/compare_output.cmake)
    add_test(NAME guide_data_numpy_reads
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/run_doc_python.py
                     ${PROJECT_SOURCE_DIR}/docs/guide.md data-read ${nt_guide_data})
    set_tests_properties(guide_data_numpy_writes PROPERTIES FIXTURES_SETUP guide_data_input)
    set_tests_properties(example_guide_data PROPERTIES FIXTURES_REQUIRED guide_data_input
                                                       FIXTURES_SETUP guide_data_output)
    set_tests_properties(guide_data_numpy_reads PROPERTIES FIXTURES_REQUIRED "guide_data_input;guide_data_output")
endif()
