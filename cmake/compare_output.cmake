# Runs PROGRAM (with optional ARGS, a ;-list) and compares its standard output
# with the file EXPECTED. Used by CTest for examples and command tests.
execute_process(COMMAND ${PROGRAM} ${ARGS}
                OUTPUT_VARIABLE actual
                RESULT_VARIABLE status)
file(READ ${EXPECTED} expected)
if(NOT DEFINED EXPECTED_STATUS)
    set(EXPECTED_STATUS 0)
endif()
if(NOT status EQUAL EXPECTED_STATUS)
    message(FATAL_ERROR "${PROGRAM} exited with ${status}, expected ${EXPECTED_STATUS}\n${actual}")
endif()
if(NOT actual STREQUAL expected)
    file(WRITE ${EXPECTED}.actual "${actual}")
    message(FATAL_ERROR "output of ${PROGRAM} differs from ${EXPECTED} (actual output in ${EXPECTED}.actual):\n${actual}")
endif()
