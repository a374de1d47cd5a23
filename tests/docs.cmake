# Documentation checks: every code block of docs/*.md that carries a snippet marker
# (<!-- snippet: guide_basics#creation -->) must equal its region of
# examples/<file>.cpp, the code CTest builds and runs against <file>.expected.
# scripts/check_docs.py needs only the python3 standard library.
#
# Run by hand: python3 scripts/check_docs.py .
if(NTENSOR_BUILD_TESTS)
    add_test(NAME docs_snippets
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/check_docs.py ${PROJECT_SOURCE_DIR})
endif()
