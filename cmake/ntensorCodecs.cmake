# The zarr chunk codecs' libraries, zstd (Debian libzstd-dev) and blosc (libblosc-dev,
# which has no CMake package), as the imported targets ntensor::zstd and
# ntensor::blosc. Run by the build and by the installed package (ntensorConfig.cmake),
# so that the exported link interface names these targets, found again on the
# consumer's machine, instead of the build machine's library paths.
foreach(_nt_codec zstd blosc)
    if(NOT TARGET ntensor::${_nt_codec})
        find_library(NTENSOR_${_nt_codec}_LIBRARY NAMES ${_nt_codec})
        if(NOT NTENSOR_${_nt_codec}_LIBRARY)
            message(FATAL_ERROR "ntensor needs the ${_nt_codec} library (Debian: lib${_nt_codec}-dev)")
        endif()
        add_library(ntensor::${_nt_codec} UNKNOWN IMPORTED)
        set_target_properties(ntensor::${_nt_codec} PROPERTIES IMPORTED_LOCATION "${NTENSOR_${_nt_codec}_LIBRARY}")
    endif()
endforeach()
unset(_nt_codec)
