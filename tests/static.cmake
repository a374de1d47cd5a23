# <nt/static.hpp>: axis names in the type (docs/static_names.md).
#
# 1. test_static: tests/static/*.cpp, values of every operation on tensor_of against
#    the run-time operation on the same data, checks, views, gradients.
# 2. One rule, two evaluations: tests/static/gen_rule_cases.py writes C++ files of
#    static_asserts (its own reading of docs/matching.md against the compile-time
#    solver) whose cases also run nt::match on the same specs (test_static_rule).
#    Generated at build time; the files are rewritten only when their text changes.
# 3. Compile-fail tests: sources that must not compile, whose first diagnostic line
#    must name the reason and the axis (tests/static/compile_fail.cmake).
nt_add_test_executable(static static ntensor::ntensor)

if(TARGET test_static AND NOT NTENSOR_SANITIZE)  # compile-time checks: once, in the ordinary build
    set(nt_rule_dir ${CMAKE_CURRENT_BINARY_DIR}/static_rule)
    set(nt_rule_files 4)
    set(nt_rule_sources)
    math(EXPR nt_rule_last "${nt_rule_files} - 1")
    foreach(i RANGE ${nt_rule_last})
        list(APPEND nt_rule_sources ${nt_rule_dir}/rule_cases_${i}.cpp)
    endforeach()
    add_custom_command(OUTPUT ${nt_rule_sources}
        COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/static/gen_rule_cases.py --out ${nt_rule_dir}
                --count 2000 --files ${nt_rule_files}
        DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/static/gen_rule_cases.py
        COMMENT "Generating the compile-time rule cases (tests/static/gen_rule_cases.py)"
        VERBATIM)
    add_executable(test_static_rule ${nt_rule_sources})
    target_link_libraries(test_static_rule PRIVATE ntensor_catch_main ntensor::ntensor ntensor_build_flags)
    target_include_directories(test_static_rule PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/static)
    target_compile_definitions(test_static_rule PRIVATE ${nt_test_definitions})
    target_precompile_headers(test_static_rule REUSE_FROM ntensor_test_pch)
    add_test(NAME "static: rule cases" COMMAND test_static_rule "[rule]")

    foreach(case IN ITEMS no_counterpart positional_names reduce_missing align_missing in_place_grows in_place_names)
        add_library(static_fail_${case} OBJECT EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/static/fail/${case}.cpp)
        target_link_libraries(static_fail_${case} PRIVATE ntensor::ntensor)
    endforeach()
    set(nt_fail_expect_no_counterpart "no_counterpart" "{\"CLASS\"}")
    set(nt_fail_expect_positional_names "name_mismatch" "{\"C\"}" "{\"H\"}")
    set(nt_fail_expect_reduce_missing "missing_axis" "{\"DEPTH\"}")
    set(nt_fail_expect_align_missing "missing_axis" "{\"CLASS\"}")
    set(nt_fail_expect_in_place_grows "in_place_grows" "3" "4")
    set(nt_fail_expect_in_place_names "no_counterpart" "{\"CLASS\"}")
    foreach(case IN ITEMS no_counterpart positional_names reduce_missing align_missing in_place_grows in_place_names)
        list(JOIN nt_fail_expect_${case} "|" expect)
        add_test(NAME "static: refused ${case}"
                 COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DTARGET=static_fail_${case}
                         "-DEXPECT=${expect}" -P ${CMAKE_CURRENT_SOURCE_DIR}/static/compile_fail.cmake)
        # One build tool at a time in the build tree.
        set_tests_properties("static: refused ${case}" PROPERTIES RESOURCE_LOCK nt_build_tree)
    endforeach()
endif()

# 4. ntensor_config_header (cmake/ntensorStatic.cmake): a program typed by a config's
#    generated aliases builds and runs.
if(TARGET ntensor_cli AND NOT NTENSOR_SANITIZE)
    add_executable(test_static_config ${CMAKE_CURRENT_SOURCE_DIR}/static/config_header/uses_header.cpp)
    target_link_libraries(test_static_config PRIVATE ntensor::ntensor ntensor_build_flags)
    ntensor_config_header(test_static_config ${CMAKE_CURRENT_SOURCE_DIR}/static/configs/segmentation.json)
    add_test(NAME "static: config header" COMMAND test_static_config)
    set_tests_properties("static: config header" PROPERTIES PASS_REGULAR_EXPRESSION "^\\(2,3,4,5 \\| \\?,CHANNEL,H,W\\) 0.5")
endif()
