// The source of the ntensor_test_pch target (tests/CMakeLists.txt), which builds the
// precompiled header that the test areas reuse. It needs a file to compile; this one.
