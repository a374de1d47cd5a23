// The worker pool: a handful of std::threads woken per job through a condition
// variable; chunks are handed out with an atomic counter, the caller takes part.
#include "nt/threads.hpp"

#include "nt/error.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>

#include <pthread.h>
#include <thread>
#include <vector>

namespace nt {
namespace {

thread_local bool t_in_parallel = false;

int hardware_threads() noexcept {
    const unsigned hc = std::thread::hardware_concurrency();
    return hc == 0 ? 1 : static_cast<int>(hc);
}

int initial_threads() noexcept {
    if (const char* env = std::getenv("NT_NUM_THREADS")) {
        char* end = nullptr;
        const long v = std::strtol(env, &end, 10);
        if (end != env && v > 0 && v <= max_threads) return static_cast<int>(v);
        if (end != env && v == 0) return hardware_threads();
    }
    return hardware_threads();
}

class pool {
public:
    // previous: a pool abandoned by fork, kept reachable (see the_pool).
    explicit pool(int threads, pool* previous = nullptr) : wanted_(threads), previous_(previous) {}
    pool(const pool&) = delete;
    pool& operator=(const pool&) = delete;
    ~pool() { stop_workers(); }

    int threads() const noexcept { return wanted_.load(std::memory_order_relaxed); }

    void set_threads(int n) {
        std::lock_guard<std::mutex> job_lock(job_mutex_);
        wanted_.store(n, std::memory_order_relaxed);
        if (static_cast<int>(workers_.size()) != n - 1) stop_workers();
    }

    void run(std::int64_t n, detail::range_fn fn, void* ctx) {
        const int nthreads = threads();
        if (n <= 1 || nthreads <= 1 || t_in_parallel) {
            serial(n, fn, ctx);
            return;
        }
        std::unique_lock<std::mutex> job_lock(job_mutex_, std::try_to_lock);
        if (!job_lock.owns_lock()) {  // another caller owns the pool: do it here
            serial(n, fn, ctx);
            return;
        }
        if (static_cast<int>(workers_.size()) != nthreads - 1) start_workers(nthreads - 1);

        // Chunks: a few per thread for balance; the ranges are contiguous in [0, n).
        const std::int64_t chunks = std::min<std::int64_t>(n, std::int64_t{nthreads} * 4);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            fn_ = fn;
            ctx_ = ctx;
            n_ = n;
            chunks_ = chunks;
            next_.store(0, std::memory_order_relaxed);
            active_ = static_cast<int>(workers_.size());
            error_ = nullptr;
            ++generation_;
        }
        wake_.notify_all();
        t_in_parallel = true;
        work();
        t_in_parallel = false;
        std::exception_ptr error;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            done_.wait(lock, [&] { return active_ == 0; });
            error = error_;
            error_ = nullptr;
        }
        if (error) std::rethrow_exception(error);
    }

private:
    static void serial(std::int64_t n, detail::range_fn fn, void* ctx) {
        if (n > 0) fn(ctx, 0, n);
    }

    void work() {
        for (;;) {
            const std::int64_t c = next_.fetch_add(1, std::memory_order_relaxed);
            if (c >= chunks_) return;
            const std::int64_t b = n_ * c / chunks_;
            const std::int64_t e = n_ * (c + 1) / chunks_;
            try {
                fn_(ctx_, b, e);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex_);
                if (!error_) error_ = std::current_exception();
            }
        }
    }

    void worker_main(std::uint64_t seen) {  // seen: the generation current at start
        t_in_parallel = true;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if (stop_) return;
                seen = generation_;
            }
            work();
            std::lock_guard<std::mutex> lock(mutex_);
            if (--active_ == 0) done_.notify_one();
        }
    }

    void start_workers(int count) {
        stop_workers();
        std::uint64_t generation = 0;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = false;
            generation = generation_;
        }
        workers_.reserve(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i) workers_.emplace_back([this, generation] { worker_main(generation); });
    }

    void stop_workers() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& t : workers_) t.join();
        workers_.clear();
    }

    std::atomic<int> wanted_;
    std::mutex job_mutex_;  // one job at a time
    std::mutex mutex_;      // guards the fields below
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;
    std::uint64_t generation_ = 0;
    bool stop_ = false;
    int active_ = 0;
    std::exception_ptr error_;
    detail::range_fn fn_ = nullptr;
    void* ctx_ = nullptr;
    std::int64_t n_ = 0;
    std::int64_t chunks_ = 0;
    std::atomic<std::int64_t> next_{0};
    [[maybe_unused]] pool* previous_;  // never read: it keeps an abandoned pool reachable
};

// A child of fork() has only the thread that forked: the pool's workers are gone, and
// its mutexes may be held by threads that no longer exist. The child handler only
// marks the pool abandoned (little is safe to call between fork and exec); the child's
// first use builds a fresh pool with the same thread count, as OpenMP runtimes and
// PyTorch's pool do. The abandoned pool is never destroyed: joining its workers would
// wait for threads that are gone. Python's multiprocessing and Dask fork such children.
std::atomic<pool*> g_pool{nullptr};
std::atomic<pool*> g_abandoned{nullptr};  // the newest abandoned pool; older ones chain
std::atomic<int> g_inherited_threads{0};  // the abandoned pool's count, 0: none

void on_fork_child() noexcept {
    pool* old = g_pool.exchange(nullptr, std::memory_order_relaxed);
    if (!old) return;
    g_inherited_threads.store(old->threads(), std::memory_order_relaxed);
    g_abandoned.store(old, std::memory_order_relaxed);
}

// Joins the workers at exit in the process that made the pool (never an abandoned one).
struct pool_owner {
    ~pool_owner() { delete g_pool.exchange(nullptr, std::memory_order_acq_rel); }
};

pool& the_pool() {
    if (pool* p = g_pool.load(std::memory_order_acquire)) return *p;
    static const int registered = [] {
        static pool_owner owner;
        return pthread_atfork(nullptr, nullptr, on_fork_child);
    }();
    (void)registered;
    const int inherited = g_inherited_threads.load(std::memory_order_relaxed);
    // A pool starts no thread until its first job: a spare made by a losing racer is cheap.
    auto* fresh = new pool(inherited > 0 ? inherited : initial_threads(), g_abandoned.load(std::memory_order_relaxed));
    pool* expected = nullptr;
    if (g_pool.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return *fresh;
    delete fresh;
    return *expected;
}

}  // namespace

void set_num_threads(int n) {
    if (n < 0) throw_error(errc::invalid_argument, "set_num_threads: thread count " + std::to_string(n) +
                                                       " is negative; use 0 for the hardware concurrency");
    if (n > max_threads)
        throw_error(errc::invalid_argument, "set_num_threads: thread count " + std::to_string(n) +
                                                " is over the limit of " + std::to_string(max_threads) +
                                                " (NT_NUM_THREADS has the same bound); use at most " +
                                                std::to_string(max_threads) + ", or 0 for the hardware concurrency");
    the_pool().set_threads(n == 0 ? hardware_threads() : n);
}

int get_num_threads() noexcept { return the_pool().threads(); }

namespace detail {
void parallel_for_impl(std::int64_t n, range_fn fn, void* context) { the_pool().run(n, fn, context); }
bool in_parallel_region() noexcept { return t_in_parallel; }

namespace {
std::atomic<std::int64_t> g_parallel_threshold{default_parallel_threshold};
}
std::int64_t parallel_threshold() noexcept { return g_parallel_threshold.load(std::memory_order_relaxed); }
void set_parallel_threshold(std::int64_t elements) noexcept {
    g_parallel_threshold.store(std::max<std::int64_t>(elements, 1), std::memory_order_relaxed);
}
}  // namespace detail

}  // namespace nt
