# Sanitizer-only checks. tests/sanitize/cache_probe.cpp reads through a block that
# waits in the allocator's small-block cache: AddressSanitizer must report it
# (use-after-poison), and the block must have been reused first (the cache is live).
if(NTENSOR_SANITIZE)
    add_executable(nt_cache_probe sanitize/cache_probe.cpp)
    target_link_libraries(nt_cache_probe PRIVATE ntensor::ntensor ntensor_build_flags)
    add_test(NAME sanitize_cache_poison COMMAND nt_cache_probe)
    set_tests_properties(sanitize_cache_poison PROPERTIES
        ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0"
        PASS_REGULAR_EXPRESSION "use-after-poison")
endif()
