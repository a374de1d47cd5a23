// Run only in the sanitizer build: proves that the per-thread small-block cache is
// live there (a freed block is handed out again) and that ASan poisons a cached
// block, so a use after free through the cache is reported. CTest expects ASan's
// use-after-poison report (tests/sanitize.cmake), which the probe reaches only
// after the block was reused.
#include <cstdio>

#include "nt/nt.hpp"

int main() {
    const float* stale = nullptr;
    {
        auto a = nt::zeros<float>({256});  // 1 KiB: a small class of its own
        stale = a.data();
    }
    const void* again = nullptr;
    {
        auto b = nt::zeros<float>({256});
        again = b.data();
    }
    if (again != stale) {  // the cache is not live: fail before the deliberate bad read
        std::puts("the small-block cache did not hand the freed block out again");
        return 1;
    }
    volatile float x = *stale;  // the block now waits, poisoned, in the cache
    (void)x;
    std::puts("read through a cached block was not reported");
    return 0;
}
