# Run after a Catch2 test program is linked (nt_add_file_tests in
# tests/CMakeLists.txt). Asks EXECUTABLE which source files hold the cases matching
# the Catch2 test spec SPEC (--filenames-as-tags tags each case with
# [#<file stem>]) and writes OUT, a CTest script with one test per such file,
# "<PREFIX>: <file stem>", which runs that file's matching cases in one process.
# PROPERTIES: test properties and their values, |-separated, set on every test.
execute_process(COMMAND ${EXECUTABLE} --filenames-as-tags --list-tags ${SPEC}
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE status)
# Catch2 2 exits with the number of tags listed, so the listing is what is checked.
if(NOT listing MATCHES "(Tags for matching test cases|All available tags):")
    message(FATAL_ERROR "${EXECUTABLE} --filenames-as-tags --list-tags ${SPEC} exited with ${status}:\n${listing}${errors}")
endif()
string(REGEX MATCHALL "\\[#[^]]+\\]" file_tags "${listing}")
string(REPLACE "|" ";" properties "${PROPERTIES}")
set(script "# Written by cmake/add_file_tests.cmake from ${EXECUTABLE} --filenames-as-tags --list-tags ${SPEC}\n")
set(names "")
foreach(tag IN LISTS file_tags)
    string(REGEX REPLACE "^\\[#(.*)\\]$" "\\1" stem "${tag}")
    set(name "${PREFIX}: ${stem}")
    string(APPEND script "add_test([==[${name}]==] [==[${EXECUTABLE}]==] --filenames-as-tags [==[[#${stem}]${SPEC}]==])\n")
    list(APPEND names "[==[${name}]==]")
endforeach()
if(names AND properties)
    list(JOIN names " " name_list)
    set(values "")
    foreach(p IN LISTS properties)
        string(APPEND values " [==[${p}]==]")
    endforeach()
    string(APPEND script "set_tests_properties(${name_list} PROPERTIES${values})\n")
endif()
file(WRITE ${OUT} "${script}")
