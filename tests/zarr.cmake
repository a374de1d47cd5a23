# nt/zarr.hpp: Zarr v2 stores and OME-Zarr images (test_zarr), against zarr-python,
# xarray and Dask (Debian python3-zarr, python3-xarray, python3-dask,
# python3-distributed), which generate and check stores inside the test command.
# (test_zarr and its oracles, zarr_python and zarr_ome, are declared in
# tests/CMakeLists.txt; here the command, the guide's chapter and Dask on processes.)
if(NOT TARGET test_zarr)
    return()
endif()
set(nt_zarr_data ${CMAKE_CURRENT_BINARY_DIR}/data/zarr)

# `ntensor info` and `ntensor check` on stores zarr-python and xarray write.
add_test(NAME zarr_cli COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/io/zarr/check_cli_zarr.py
                               $<TARGET_FILE:ntensor_cli> ${nt_zarr_data}/cli)

# The chapter "Data larger than memory" (docs/zarr.md) as CTest runs it: its Python
# writes an OME-Zarr image with zarr-python, examples/guide_zarr reads a region by
# names and smooths the volume with map_chunks, and the chapter's Python opens the
# result with xarray and Dask and compares it with NumPy's.
if(NTENSOR_BUILD_EXAMPLES)
    set(nt_guide_zarr ${nt_zarr_data}/guide)
    add_test(NAME guide_zarr_python_writes
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/run_doc_python.py
                     ${PROJECT_SOURCE_DIR}/docs/zarr.md zarr-write ${nt_guide_zarr})
    add_test(NAME example_guide_zarr
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:example_guide_zarr> -DARGS=${nt_guide_zarr}
                     -DEXPECTED=${PROJECT_SOURCE_DIR}/examples/guide_zarr.expected
                     -P ${PROJECT_SOURCE_DIR}/cmake/compare_output.cmake)
    add_test(NAME guide_zarr_python_reads
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/run_doc_python.py
                     ${PROJECT_SOURCE_DIR}/docs/zarr.md zarr-read ${nt_guide_zarr})
    set_tests_properties(guide_zarr_python_writes PROPERTIES FIXTURES_SETUP guide_zarr_input)
    set_tests_properties(example_guide_zarr PROPERTIES FIXTURES_REQUIRED guide_zarr_input
                                                       FIXTURES_SETUP guide_zarr_output)
    set_tests_properties(guide_zarr_python_reads PROPERTIES FIXTURES_REQUIRED "guide_zarr_input;guide_zarr_output")
endif()

# Dask on worker processes (zarr_python_check runs the LocalCluster on threads): the
# mean over Z of ntensor's (Z,Y,X) store against ntensor's nt::mean.
add_test(NAME zarr_dask_processes_check
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/io/zarr/check_dask.py ${nt_zarr_data}/py --processes 1)
set_tests_properties(zarr_dask_processes_check PROPERTIES FIXTURES_REQUIRED "zarr_python_files;zarr_python_written"
                                                          TIMEOUT 300)
