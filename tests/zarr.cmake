# nt/zarr.hpp: Zarr v2 stores and OME-Zarr images (test_zarr), against zarr-python,
# xarray and Dask (Debian python3-zarr, python3-xarray, python3-dask,
# python3-distributed), which generate and check stores inside the test command.
nt_add_test_area(zarr ntensor::ntensor nlohmann_json::nlohmann_json)
if(NOT TARGET test_zarr)
    return()
endif()
set(nt_zarr_data ${CMAKE_CURRENT_BINARY_DIR}/data/zarr)

# `ntensor info` and `ntensor check` on stores zarr-python and xarray write.
add_test(NAME zarr_cli COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/zarr/check_cli_zarr.py
                               $<TARGET_FILE:ntensor_cli> ${nt_zarr_data}/cli)
