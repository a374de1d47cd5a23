// The caching allocator: mmap'd, 2 MiB-aligned large blocks with MADV_HUGEPAGE, kept
// after free in a small most-recent-first list bounded in bytes and in count.
#include "allocator.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

// AddressSanitizer, detected for GCC (__SANITIZE_ADDRESS__) and Clang (__has_feature):
// cached blocks are poisoned while they wait in a cache, so a use after free through
// the cache is reported (use-after-poison) instead of reading a recycled block.
#if defined(__SANITIZE_ADDRESS__)
#define NT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NT_ASAN 1
#endif
#endif
#ifdef NT_ASAN
#include <sanitizer/asan_interface.h>
#define NT_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define NT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define NT_POISON(p, n) ((void)(p), (void)(n))
#define NT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace nt::detail {
namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
constexpr std::size_t max_cached_blocks = 64;

std::size_t default_limit() noexcept {
    if (const char* env = std::getenv("NT_ALLOC_CACHE_MB")) {
        char* end = nullptr;
        const unsigned long long mb = std::strtoull(env, &end, 10);
        if (end != env) return static_cast<std::size_t>(mb) << 20;
    }
    std::size_t limit = std::size_t{1} << 30;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0) {
        const std::size_t ram = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
        limit = std::min(limit, ram / 8);
    }
    return limit;
}

void* map_block(std::size_t size) {
    // Over-map by one huge page and trim, so that the block starts on a 2 MiB boundary.
    const bool huge = size >= huge_page;
    const std::size_t span = huge ? size + huge_page : size;
    void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    if (!huge) return raw;
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + huge_page - 1) & ~(std::uintptr_t{huge_page} - 1);
    const std::size_t head = aligned - start;
    const std::size_t tail = span - head - size;
    if (head) ::munmap(raw, head);
    if (tail) ::munmap(reinterpret_cast<void*>(aligned + size), tail);
#ifdef MADV_HUGEPAGE
    ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
#endif
    return reinterpret_cast<void*>(aligned);
}

void unmap_block(void* p, std::size_t size) noexcept {
    NT_UNPOISON(p, size);  // the shadow must not outlive the mapping
    ::munmap(p, size);
}

struct block {
    void* ptr;
    std::size_t size;  // size class
};

class block_cache {
public:
    void* take(std::size_t size) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            // Newest first: the most recently freed block is the likeliest to be in cache.
            for (std::size_t i = blocks_.size(); i-- > 0;) {
                if (blocks_[i].size == size) {
                    void* p = blocks_[i].ptr;
                    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
                    bytes_ -= size;
                    ++hits_;
                    NT_UNPOISON(p, size);
                    return p;
                }
            }
            ++misses_;
        }
        return map_block(size);
    }

    void give(void* p, std::size_t size) noexcept {
        std::vector<block> evicted;
        bool keep = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (size <= limit_) {
                try {
                    blocks_.push_back({p, size});
                    bytes_ += size;
                    keep = true;
                    NT_POISON(p, size);
                } catch (...) {
                }
                evict_locked(evicted);
            }
        }
        if (!keep) unmap_block(p, size);
        for (const block& b : evicted) unmap_block(b.ptr, b.size);
    }

    void set_limit(std::size_t limit) noexcept {
        std::vector<block> evicted;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            limit_ = limit;
            evict_locked(evicted);
        }
        for (const block& b : evicted) unmap_block(b.ptr, b.size);
    }

    allocator_stats stats() noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        return {hits_, misses_, blocks_.size(), bytes_, limit_};
    }

    ~block_cache() {
        for (const block& b : blocks_) unmap_block(b.ptr, b.size);
    }

private:
    void evict_locked(std::vector<block>& out) noexcept {
        // Oldest first. `out` may fail to grow; then unmap directly (rare, harmless).
        while (!blocks_.empty() && (bytes_ > limit_ || blocks_.size() > max_cached_blocks)) {
            const block b = blocks_.front();
            blocks_.erase(blocks_.begin());
            bytes_ -= b.size;
            try {
                out.push_back(b);
            } catch (...) {
                unmap_block(b.ptr, b.size);
            }
        }
    }

    std::mutex mutex_;
    std::vector<block> blocks_;  // oldest first
    std::size_t bytes_ = 0;
    std::size_t limit_ = default_limit();
    std::size_t hits_ = 0;
    std::size_t misses_ = 0;
};

block_cache& cache() {
    static block_cache c;
    return c;
}

// Small blocks: a per-thread cache of freed blocks by 64-byte class. A tiny result
// (a (4,8) sum) otherwise spends more time in the aligned malloc and free than in the
// arithmetic. Blocks come from the global aligned operator new, so a block freed on
// another thread simply joins that thread's cache. Under AddressSanitizer the cache
// stays on (the sanitizer run must test the code that ships) and a cached block is
// poisoned but for the moments its link is read or written.
constexpr std::size_t small_limit = 4096;
constexpr std::size_t small_classes = small_limit / alloc_alignment;
constexpr std::size_t small_cache_max_bytes = std::size_t{256} << 10;

struct free_block {
    free_block* next;
};

class small_cache {
public:
    void* take(std::size_t cls) noexcept {
        free_block* b = heads_[cls];
        if (!b) return nullptr;
        const std::size_t size = (cls + 1) * alloc_alignment;
        NT_UNPOISON(b, size);
        heads_[cls] = b->next;
        bytes_ -= size;
        return b;
    }
    bool give(void* p, std::size_t cls) noexcept {
        const std::size_t size = (cls + 1) * alloc_alignment;
        if (bytes_ + size > small_cache_max_bytes) return false;
        heads_[cls] = ::new (p) free_block{heads_[cls]};
        bytes_ += size;
        NT_POISON(p, size);
        return true;
    }
    ~small_cache() {
        for (std::size_t cls = 0; cls < small_classes; ++cls)
            for (free_block* head = heads_[cls]; head;) {
                NT_UNPOISON(head, (cls + 1) * alloc_alignment);
                free_block* next = head->next;
                ::operator delete(head, std::align_val_t{alloc_alignment});
                head = next;
            }
        dead_ = true;
    }
    // Null during and after the thread's exit, when the cache is gone.
    static small_cache* local() noexcept {
        if (dead_) return nullptr;
        thread_local small_cache cache;
        return &cache;
    }

private:
    std::array<free_block*, small_classes> heads_{};
    std::size_t bytes_ = 0;
    static thread_local bool dead_;
};
thread_local bool small_cache::dead_ = false;

// 0-based class of a small request: its size rounded up to a multiple of 64 bytes.
std::size_t small_class(std::size_t bytes) noexcept {
    return (std::max<std::size_t>(bytes, 1) - 1) / alloc_alignment;
}

}  // namespace

std::size_t allocator_size_class(std::size_t bytes) noexcept {
    if (bytes < large_threshold) return bytes;
    // Eight classes per power of two: round up to a multiple of 2^(floor(log2)-3), and
    // at least to whole pages.
    std::size_t top = std::size_t{1} << (63 - __builtin_clzll(static_cast<unsigned long long>(bytes)));
    const std::size_t step = std::max<std::size_t>(top / 8, 4096);
    return (bytes + step - 1) / step * step;
}

void* allocate(std::size_t bytes) {
    if (bytes < large_threshold) {
        const std::size_t cls = small_class(bytes);
        if (cls < small_classes)
            if (small_cache* c = small_cache::local())
                if (void* p = c->take(cls)) return p;
        return ::operator new((cls + 1) * alloc_alignment, std::align_val_t{alloc_alignment});
    }
    return cache().take(allocator_size_class(bytes));
}

void deallocate(void* p, std::size_t bytes) noexcept {
    if (!p) return;
    if (bytes < large_threshold) {
        const std::size_t cls = small_class(bytes);
        if (cls < small_classes)
            if (small_cache* c = small_cache::local(); c && c->give(p, cls)) return;
        ::operator delete(p, std::align_val_t{alloc_alignment});
        return;
    }
    cache().give(p, allocator_size_class(bytes));
}

allocator_stats get_allocator_stats() noexcept { return cache().stats(); }
void set_allocator_cache_limit(std::size_t bytes) noexcept { cache().set_limit(bytes); }
void release_allocator_cache() noexcept {
    const std::size_t limit = cache().stats().cache_limit;
    cache().set_limit(0);
    cache().set_limit(limit);
}

}  // namespace nt::detail
