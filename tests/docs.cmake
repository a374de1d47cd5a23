# Documentation checks (scripts/check_docs.py, standard library python3 only):
# - every code block of docs/*.md and README.md is a snippet (<!-- snippet:
#   guide_basics#creation -->, equal to its region of examples/<file>.cpp, the code
#   CTest builds and runs against <file>.expected), an output (<!-- output: FILE -->,
#   lines of examples/FILE.expected), a Python step run by scripts/run_doc_python.py,
#   or marked <!-- illustration -->;
# - the header tables of docs/reference.md list exactly the public headers of
#   include/nt/ and */include/nt/ (nt/detail/ excepted), and say which ones
#   <nt/nt.hpp> leaves out;
# - every repository path (src/..., tests/..., docs/...) that docs/*.md, README.md
#   and the folders' README.md files mention exists.
#
# - every code block marked <!-- transcript --> (a shell session of `ntensor` and
#   `cat` commands with their output) prints what it shows: docs_transcripts runs
#   each command from the project root with the ntensor command built here.
#
# Run by hand: python3 scripts/check_docs.py .
#              python3 scripts/check_docs.py . --ntensor build/release/src/ntensor
if(NTENSOR_BUILD_TESTS)
    add_test(NAME docs_snippets
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/check_docs.py ${PROJECT_SOURCE_DIR})
    add_test(NAME docs_transcripts
             COMMAND ${NT_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/check_docs.py ${PROJECT_SOURCE_DIR}
                     --ntensor $<TARGET_FILE:ntensor_cli>)
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
