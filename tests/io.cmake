# .npy / .npz files and nt::any_tensor (test_io), their robustness under random
# and damaged input (test_io_fuzz), and the NumPy oracle:
#   io_numpy_generate  NumPy writes files of every dtype / order / version / archive
#   "io_numpy: ..."    test_io's [numpy] cases read them, compare, write them back
#   io_numpy_check     NumPy reads what ntensor wrote (tests/io/check_written.py)
nt_add_test_area(io ntensor::ntensor)
if(NOT TARGET test_io)
    return()
endif()

set(nt_io_data ${CMAKE_CURRENT_BINARY_DIR}/data/io)
add_test(NAME io_numpy_generate
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/io/gen_npy.py --out ${nt_io_data})
add_test(NAME io_numpy_check COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/io/check_written.py ${nt_io_data})
set_tests_properties(io_numpy_generate PROPERTIES FIXTURES_SETUP io_numpy_files)
# The [numpy] cases read NumPy's files and write theirs, which io_numpy_check reads.
nt_add_file_tests(test_io io_numpy "[numpy]"
                  PROPERTIES FIXTURES_REQUIRED io_numpy_files FIXTURES_SETUP io_numpy_written)
set_tests_properties(io_numpy_check PROPERTIES FIXTURES_REQUIRED "io_numpy_files;io_numpy_written")

# Random and damaged files; replaces operator new to bound allocations (its own
# executable). Also reads archives through the command's header path (src/formats).
nt_add_test_area(io_fuzz ntensor::ntensor)

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
