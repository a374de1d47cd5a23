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

# The element-type tables of docs/reference.md (types, the 12 x 12 promotion table,
# result types of float math and reductions) are generated from NumPy; this checks
# that the page still holds exactly what the generator prints. Update with
#   /usr/bin/python3 tests/numpy/gen_dtype_tables.py . --write docs/reference.md
if(NTENSOR_BUILD_TESTS)
    add_test(NAME docs_dtype_tables
             COMMAND ${NT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/numpy/gen_dtype_tables.py ${PROJECT_SOURCE_DIR}
                     --check ${PROJECT_SOURCE_DIR}/docs/reference.md)
endif()
