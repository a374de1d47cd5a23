# Builds TARGET (a source expected not to compile) in BUILD_DIR and checks that the
# build fails and that the compiler's first diagnostic line (after "In file included
# from" lines) names every string of EXPECT, separated by "|" (the reason and the axis).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(APPEND out "${err}")
if(rc EQUAL 0)
    message(FATAL_ERROR "${TARGET} compiled, but it must not:\n${out}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(first "")
foreach(line IN LISTS lines)
    if(line MATCHES "(: In instantiation of|: error:|: In function|: In member function)")
        set(first "${line}")
        break()
    endif()
endforeach()
if(first STREQUAL "")
    message(FATAL_ERROR "${TARGET}: no compiler diagnostic found in:\n${out}")
endif()
string(REPLACE "|" ";" EXPECT "${EXPECT}")  # "|" separates the strings on the command line
foreach(want IN LISTS EXPECT)
    string(FIND "${first}" "${want}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${TARGET}: the first diagnostic line does not name '${want}':\n${first}\n\nfull output:\n${out}")
    endif()
endforeach()
message(STATUS "${TARGET}: refused as expected: ${first}")
