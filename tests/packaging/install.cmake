# Installs an ntensor build tree into a fresh prefix (run by CTest with -P as the
# setup of the packaging fixture), then checks that only public headers went in.
# Arguments: BUILD_DIR, PREFIX, SOURCE_DIR, optional CONFIG.
if(NOT BUILD_DIR OR NOT PREFIX OR NOT SOURCE_DIR)
    message(FATAL_ERROR "usage: cmake -DBUILD_DIR=... -DPREFIX=... -DSOURCE_DIR=... [-DCONFIG=...] -P install.cmake")
endif()
file(REMOVE_RECURSE "${PREFIX}")
set(config_args)
if(CONFIG)
    set(config_args --config "${CONFIG}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "cmake --install failed with ${status}")
endif()
# What a consumer relies on.
foreach(f include/nt/nt.hpp include/nt/tensor.hpp include/nt/match.hpp include/nt/version.hpp)
    if(NOT EXISTS "${PREFIX}/${f}")
        message(FATAL_ERROR "the install tree lacks ${f}")
    endif()
endforeach()

# Only public headers: every installed header is one of the source tree's public
# headers (include/nt/, matcher/include/nt/), so the private ones of src/ (engine,
# kernels, the Hana type list, ...) never ship; and none includes a heavy or
# private dependency that ntensor::ntensor does not carry to consumers.
file(GLOB_RECURSE installed_headers RELATIVE "${PREFIX}/include" "${PREFIX}/include/*")
if(NOT installed_headers)
    message(FATAL_ERROR "no headers were installed under ${PREFIX}/include")
endif()
foreach(h IN LISTS installed_headers)
    if(NOT EXISTS "${SOURCE_DIR}/include/${h}" AND NOT EXISTS "${SOURCE_DIR}/matcher/include/${h}")
        message(FATAL_ERROR "the install tree has ${h}, which is not a public header of include/ or "
                            "matcher/include/ (private headers live in src/)")
    endif()
    file(STRINGS "${PREFIX}/include/${h}" includes REGEX "^[ \t]*#[ \t]*include")
    foreach(line IN LISTS includes)
        if(line MATCHES "range/v3|nlohmann/" OR (line MATCHES "boost/hana" AND NOT h STREQUAL "nt/static.hpp"))
            message(FATAL_ERROR "the installed header ${h} includes a dependency consumers do not get: ${line}")
        endif()
        if(line MATCHES "\"([^\"]+)\"")  # a quoted include must be installed too
            set(target "${CMAKE_MATCH_1}")
            get_filename_component(dir "${PREFIX}/include/${h}" DIRECTORY)
            if(NOT EXISTS "${PREFIX}/include/${target}" AND NOT EXISTS "${dir}/${target}")
                message(FATAL_ERROR "the installed header ${h} includes \"${target}\", which is not installed")
            endif()
        endif()
    endforeach()
endforeach()
foreach(private engine.hpp engine_reduce.hpp element_types.hpp convert.hpp copy.hpp allocator.hpp)
    if(EXISTS "${PREFIX}/include/nt/detail/${private}" OR EXISTS "${PREFIX}/include/nt/${private}")
        message(FATAL_ERROR "the private header ${private} was installed")
    endif()
endforeach()
list(LENGTH installed_headers header_count)
message(STATUS "${header_count} public headers installed, none private")

file(GLOB_RECURSE config_files "${PREFIX}/*/ntensorConfig.cmake")
file(GLOB_RECURSE version_files "${PREFIX}/*/ntensorConfigVersion.cmake")
file(GLOB_RECURSE target_files "${PREFIX}/*/ntensorTargets.cmake")
if(NOT config_files OR NOT version_files OR NOT target_files)
    message(FATAL_ERROR "the install tree lacks the CMake package files "
                        "(config: '${config_files}', version: '${version_files}', targets: '${target_files}')")
endif()
message(STATUS "installed into ${PREFIX}: ${config_files}")

# The exported link interface names targets only: no path of this machine's
# libraries (the consumer's may live elsewhere) and no empty $<LINK_ONLY:> left by a
# build-only dependency.
foreach(f IN LISTS target_files)
    file(STRINGS "${f}" link_lines REGEX "INTERFACE_LINK_LIBRARIES")
    foreach(line IN LISTS link_lines)
        if(line MATCHES "LINK_ONLY:>")
            message(FATAL_ERROR "${f} exports an empty $<LINK_ONLY:> entry: ${line}")
        endif()
        # (file(STRINGS) splits a line at its ';', so a path may start an element.)
        if(line MATCHES "(^|\")/")
            message(FATAL_ERROR "${f} exports an absolute library path: ${line}")
        endif()
    endforeach()
endforeach()
