# Command tests for `ntensor` (src/cli): exit statuses, JSON output, stdin, the
# table, every error code through a config file, pipelines, and `ntensor check`
# on .npy files that NumPy writes. The bulk lives in
# tests/cli/check_cli.py (run with the system python3 and its json module); the
# golden files below double as documentation of the output formats.

add_test(NAME cli_checks
         COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli.py
                 $<TARGET_FILE:ntensor_cli> ${PROJECT_SOURCE_DIR})

# nt_cli_golden(<name> <expected file> <exit status> <args...>)
function(nt_cli_golden name expected status)
    add_test(NAME cli_${name}
             COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:ntensor_cli> "-DARGS=${ARGN}"
                     -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/cli/expected/${expected}
                     -DEXPECTED_STATUS=${status}
                     -P ${PROJECT_SOURCE_DIR}/cmake/compare_output.cmake)
endfunction()

set(nt_segmentation ${PROJECT_SOURCE_DIR}/examples/specs/segmentation.json)
nt_cli_golden(table_segmentation segmentation.txt 0 plan ${nt_segmentation})
nt_cli_golden(json_segmentation segmentation.json 0 plan --json ${nt_segmentation})
set(nt_pipeline ${PROJECT_SOURCE_DIR}/examples/specs/segmentation_pipeline.json)
nt_cli_golden(table_segmentation_pipeline segmentation_pipeline.txt 0 plan ${nt_pipeline})
nt_cli_golden(json_segmentation_pipeline segmentation_pipeline.json 0 plan --json ${nt_pipeline})

add_test(NAME cli_version COMMAND ntensor_cli --version)
set_tests_properties(cli_version PROPERTIES PASS_REGULAR_EXPRESSION "^ntensor ${PROJECT_VERSION}\n$")

add_test(NAME cli_missing_file COMMAND ntensor_cli plan ${CMAKE_CURRENT_BINARY_DIR}/no-such-config.json)
set_tests_properties(cli_missing_file PROPERTIES WILL_FAIL TRUE)

add_test(NAME cli_config_error COMMAND ntensor_cli plan ${PROJECT_SOURCE_DIR}/examples/specs/prob_pred_no_union.json)
set_tests_properties(cli_config_error PROPERTIES PASS_REGULAR_EXPRESSION "^error \\[no_counterpart\\]: ")
