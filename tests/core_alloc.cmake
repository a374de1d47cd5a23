# Tensor core: views must not touch the heap for rank <= 8. A separate executable,
# because it replaces the global operator new to count allocations.
add_executable(test_core_alloc ${CMAKE_CURRENT_SOURCE_DIR}/core_alloc/views_no_heap.cpp)
target_link_libraries(test_core_alloc PRIVATE ntensor_catch_main ntensor::ntensor ntensor_build_flags)
target_include_directories(test_core_alloc PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
nt_add_file_tests(test_core_alloc core_alloc "")
