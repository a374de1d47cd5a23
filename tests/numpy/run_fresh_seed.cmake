# Runs a generator script with a fresh seed (printed, so a failure can be
# replayed with --seed). Arguments: PYTHON, SCRIPT, OUT, optional COUNT.
string(TIMESTAMP now "%s")
string(RANDOM LENGTH 6 ALPHABET 0123456789 jitter)
math(EXPR seed "(${now} * 1000 + ${jitter}) % 2147483647")
if(NOT DEFINED COUNT)
    set(COUNT 1000)
endif()
message(STATUS "fresh seed: ${seed} (replay: ${PYTHON} ${SCRIPT} --seed ${seed} --count ${COUNT} --out ${OUT})")
execute_process(COMMAND ${PYTHON} ${SCRIPT} --seed ${seed} --count ${COUNT} --out ${OUT}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "generator failed with ${status}")
endif()
