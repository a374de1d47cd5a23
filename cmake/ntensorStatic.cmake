# ntensor_config_header(<target> <config.json> [OUTPUT <header>] [TYPE <element type>]
#                       [NAMESPACE <ns>])
# Generates, with `ntensor header`, a C++ header of nt::tensor_of aliases, one per
# tensor of the shape config (docs/static_names.md), and adds it to <target>: its
# folder goes on <target>'s include path, so `#include "<config stem>.hpp"` finds it.
# The header is regenerated whenever the config changes, so the config and the code
# that uses its types cannot drift apart: a change of names or ranks is a compile
# error where the code disagrees.
# Default OUTPUT: ${CMAKE_CURRENT_BINARY_DIR}/ntensor_headers/<config stem>.hpp.
function(ntensor_config_header target config)
    cmake_parse_arguments(PARSE_ARGV 2 arg "" "OUTPUT;TYPE;NAMESPACE" "")
    get_filename_component(config_path "${config}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${config}" NAME_WE)
    if(NOT arg_OUTPUT)
        set(arg_OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/ntensor_headers/${stem}.hpp")
    endif()
    get_filename_component(out_dir "${arg_OUTPUT}" DIRECTORY)
    set(options)
    if(arg_TYPE)
        list(APPEND options --type "${arg_TYPE}")
    endif()
    if(arg_NAMESPACE)
        list(APPEND options --namespace "${arg_NAMESPACE}")
    endif()
    # The command's file; and, in the source tree, its target (built first).
    set(tool_deps "$<TARGET_FILE:ntensor::cli>")
    get_target_property(tool_imported ntensor::cli IMPORTED)
    if(NOT tool_imported)
        list(APPEND tool_deps ntensor::cli)
    endif()
    # `ntensor header -o` leaves an unchanged header alone; the touch then marks it
    # up to date for the build tool (the config is newer than the old header).
    add_custom_command(OUTPUT "${arg_OUTPUT}"
        COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
        COMMAND ntensor::cli header ${options} -o "${arg_OUTPUT}" "${config_path}"
        COMMAND "${CMAKE_COMMAND}" -E touch "${arg_OUTPUT}"
        DEPENDS "${config_path}" ${tool_deps}
        COMMENT "ntensor header: ${config} -> ${arg_OUTPUT}"
        VERBATIM)
    target_sources(${target} PRIVATE "${arg_OUTPUT}")
    target_include_directories(${target} PRIVATE "${out_dir}")
endfunction()
