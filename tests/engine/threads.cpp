// nt/threads.hpp: parallel_for covers [0, n) exactly once with disjoint ranges for
// any n and thread count, runs nested calls inline, and rethrows a worker's
// exception after every chunk has finished, and works in a child forked after the
// pool has run.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nt/error.hpp"
#include "nt/threads.hpp"

namespace {
struct thread_count_guard {
    int before = nt::get_num_threads();
    ~thread_count_guard() { nt::set_num_threads(before); }
};
}  // namespace

TEST_CASE("parallel_for visits every index once", "[threads]") {
    thread_count_guard guard;
    std::mt19937_64 rng(Catch::rngSeed());
    for (int threads : {1, 2, 3, 8}) {
        nt::set_num_threads(threads);
        CHECK(nt::get_num_threads() == threads);
        for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{7},
                               static_cast<std::int64_t>(rng() % 5000), std::int64_t{100003}}) {
            std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
            std::atomic<std::int64_t> calls{0};
            nt::detail::parallel_for(n, [&](std::int64_t b, std::int64_t e) {
                CHECK(0 <= b);
                CHECK(b < e);
                CHECK(e <= n);
                ++calls;
                for (std::int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)]++;
            });
            for (const auto& h : hits) REQUIRE(h.load() == 1);
            if (n == 0) CHECK(calls == 0);
        }
    }
}

TEST_CASE("nested parallel_for runs inline and the pool survives exceptions", "[threads]") {
    thread_count_guard guard;
    nt::set_num_threads(2);
    std::atomic<std::int64_t> inner_total{0};
    nt::detail::parallel_for(4, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i) {
            CHECK(nt::detail::in_parallel_region());
            nt::detail::parallel_for(10, [&](std::int64_t ib, std::int64_t ie) { inner_total += ie - ib; });
        }
    });
    CHECK(inner_total == 40);
    CHECK_FALSE(nt::detail::in_parallel_region());

    CHECK_THROWS_AS(nt::detail::parallel_for(1000,
                                             [](std::int64_t b, std::int64_t) {
                                                 if (b == 0) throw std::runtime_error("chunk failed");
                                             }),
                    std::runtime_error);
    std::atomic<std::int64_t> after{0};
    nt::detail::parallel_for(1000, [&](std::int64_t b, std::int64_t e) { after += e - b; });
    CHECK(after == 1000);
}

TEST_CASE("set_num_threads: 0 means the hardware, negatives are refused", "[threads]") {
    thread_count_guard guard;
    nt::set_num_threads(0);
    CHECK(nt::get_num_threads() >= 1);
    try {
        nt::set_num_threads(-1);
        FAIL("no throw");
    } catch (const nt::error& e) {
        CHECK(e.code() == nt::errc::invalid_argument);
    }
}

namespace {
/// Sums [0, n) on the pool: a job the pool's workers take part in.
std::int64_t parallel_sum(std::int64_t n) {
    std::atomic<std::int64_t> total{0};
    nt::detail::parallel_for(n, [&](std::int64_t b, std::int64_t e) {
        std::int64_t s = 0;
        for (std::int64_t i = b; i < e; ++i) s += i;
        total += s;
    });
    return total.load();
}
}  // namespace

// Python's multiprocessing and Dask's workers fork processes that have used the pool;
// the child has none of its threads. The child must get a fresh pool, not wait forever
// on workers that do not exist: the parent gives it 20 s, then kills it and fails.
TEST_CASE("a child forked after the pool has run runs parallel jobs", "[threads]") {
    thread_count_guard guard;
    nt::set_num_threads(3);
    constexpr std::int64_t n = 100000, want = n * (n - 1) / 2;
    REQUIRE(parallel_sum(n) == want);  // the workers exist now

    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // No Catch2 here: the child reports through its exit status only.
        const bool ok = nt::get_num_threads() == 3 && parallel_sum(n) == want && parallel_sum(n) == want;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    pid_t done = 0;
    for (int waited_ms = 0; waited_ms < 20000 && done == 0; waited_ms += 10) {
        done = waitpid(child, &status, WNOHANG);
        if (done == 0) usleep(10000);
    }
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        FAIL("the forked child's parallel job did not finish in 20 s");
    }
    REQUIRE(done == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    // The parent's pool is unaffected.
    CHECK(parallel_sum(n) == want);
}
