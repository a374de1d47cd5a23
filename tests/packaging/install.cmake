# Installs an ntensor build tree into a fresh prefix (run by CTest with -P as the
# setup of the packaging fixture). Arguments: BUILD_DIR, PREFIX, optional CONFIG.
if(NOT BUILD_DIR OR NOT PREFIX)
    message(FATAL_ERROR "usage: cmake -DBUILD_DIR=... -DPREFIX=... [-DCONFIG=...] -P install.cmake")
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
file(GLOB_RECURSE config_files "${PREFIX}/*/ntensorConfig.cmake")
file(GLOB_RECURSE version_files "${PREFIX}/*/ntensorConfigVersion.cmake")
file(GLOB_RECURSE target_files "${PREFIX}/*/ntensorTargets.cmake")
if(NOT config_files OR NOT version_files OR NOT target_files)
    message(FATAL_ERROR "the install tree lacks the CMake package files "
                        "(config: '${config_files}', version: '${version_files}', targets: '${target_files}')")
endif()
message(STATUS "installed into ${PREFIX}: ${config_files}")
