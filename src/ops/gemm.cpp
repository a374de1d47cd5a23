// Batched matrix products (gemm.hpp): CBLAS for float and double, a blocked loop for
// integer and bool types. The only file that sees the BLAS.
#include "gemm.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <type_traits>

#include <cblas.h>

#include "core_errors.hpp"
#include "element_types.hpp"
#include "nt/threads.hpp"

// OpenBLAS's own controls. Declared here too (identically) so that a cblas.h from
// another BLAS package still compiles; the library links OpenBLAS itself.
extern "C" {
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char* openblas_get_config(void);
}

namespace nt::detail {

namespace {

// OpenBLAS starts its own pool (as many threads as cores, or OPENBLAS_NUM_THREADS).
// nt::set_num_threads is the library's one thread setting, so the BLAS follows it:
// before each product the count in force is handed to OpenBLAS when it changed. A
// relaxed check per call is cheap beside any product; the setting is process-wide
// in OpenBLAS, as it is in ntensor.
std::atomic<int> single_threaded_scopes{0};
std::atomic<int> applied_blas_threads{-1};

void bound_blas_threads() {
    std::atomic<int>& applied = applied_blas_threads;
    const int want = single_threaded_scopes.load(std::memory_order_acquire) > 0 ? 1 : get_num_threads();
    if (applied.load(std::memory_order_relaxed) != want) {
        openblas_set_num_threads(want);
        applied.store(want, std::memory_order_relaxed);
    }
}

/// Offsets of batch index `p` (row-major over batch_sizes) in L, R and C.
struct batch_offsets {
    std::int64_t l = 0, r = 0, c = 0;
};
batch_offsets offsets_of(const gemm_problem& g, std::int64_t p) {
    batch_offsets o;
    for (std::size_t d = g.batch_sizes.size(); d-- > 0;) {
        const std::int64_t n = g.batch_sizes[d];
        const std::int64_t i = p % n;
        p /= n;
        o.l += i * g.l_batch[d];
        o.r += i * g.r_batch[d];
        o.c += i * g.c_batch[d];
    }
    return o;
}

std::int64_t batch_count(const gemm_problem& g) {
    std::int64_t n = 1;
    for (std::int64_t s : g.batch_sizes) n *= s;
    return n;
}

template <class T>
void blas_call(const gemm_problem& g, const T* l, const T* r, T* c) {
    const auto tl = g.trans_l ? CblasTrans : CblasNoTrans;
    const auto tr = g.trans_r ? CblasTrans : CblasNoTrans;
    const auto m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    const auto ldl = static_cast<int>(g.ldl), ldr = static_cast<int>(g.ldr), ldc = static_cast<int>(g.ldc);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasRowMajor, tl, tr, m, n, k, 1.0f, l, ldl, r, ldr, 0.0f, c, ldc);
    else
        cblas_dgemm(CblasRowMajor, tl, tr, m, n, k, 1.0, l, ldl, r, ldr, 0.0, c, ldc);
}

// Products of at most this many multiply-adds (m * n * k) per batch element cost less
// than a BLAS call's fixed overhead (its argument checks and kernel dispatch), so a
// batch of tiny products spends its time in the calls. They take the direct loop below
// (figures: docs/performance.md, "Figures behind the engine's thresholds").
constexpr std::int64_t small_product = 512;

/// C = L . R for one small product: a dot product per element of C, summed in k order.
template <class T>
void small_call(const gemm_problem& g, const T* l, const T* r, T* c) {
    const std::int64_t l_row = g.trans_l ? 1 : g.ldl, l_col = g.trans_l ? g.ldl : 1;
    const std::int64_t r_row = g.trans_r ? 1 : g.ldr, r_col = g.trans_r ? g.ldr : 1;
    for (std::int64_t i = 0; i < g.m; ++i)
        for (std::int64_t j = 0; j < g.n; ++j) {
            T sum = 0;
            for (std::int64_t kk = 0; kk < g.k; ++kk) sum += l[i * l_row + kk * l_col] * r[kk * r_row + j * r_col];
            c[i * g.ldc + j] = sum;
        }
}

template <class T>
void blas_batched(const gemm_problem& g, const T* l, const T* r, T* c) {
    const std::int64_t count = batch_count(g);
    if (g.m * g.n * g.k <= small_product) {
        // Many small products: split the batch among the pool.
        auto run = [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t p = b; p < e; ++p) {
                const batch_offsets o = offsets_of(g, p);
                small_call<T>(g, l + o.l, r + o.r, c + o.c);
            }
        };
        if (count > 1 && want_parallel(count * g.m * g.n * g.k)) parallel_for(count, run);
        else run(0, count);
        return;
    }
    bound_blas_threads();
    // One call per batch element: OpenBLAS threads inside each product. (Its batched
    // interface is newer than the 0.3.21 of Debian 12.)
    for (std::int64_t p = 0; p < count; ++p) {
        const batch_offsets o = offsets_of(g, p);
        blas_call<T>(g, l + o.l, r + o.r, c + o.c);
    }
}

// The integer loop. Products and sums are taken in an unsigned type of at least the
// element's width: wrapping there and truncating to T gives NumPy's wrapped result
// (a ring homomorphism) without signed-overflow undefined behaviour. 32 bits suffice
// for the types up to 32 bits (uint32 * uint32 does not promote to int).
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

// Blocks: a row of C in pieces of `col_block` (stays in L1 while k runs), R's block of
// k_block x col_block (up to 1 MiB for 64-bit types) reused by `row_block` rows.
constexpr std::int64_t row_block = 32;
constexpr std::int64_t col_block = 512;
constexpr std::int64_t k_block = 256;

template <class T>
void loop_rows(const gemm_problem& g, const T* l, const T* r, T* c, std::int64_t i0, std::int64_t i1) {
    using U = wrap_t<T>;
    const std::int64_t l_row = g.trans_l ? 1 : g.ldl, l_col = g.trans_l ? g.ldl : 1;
    const std::int64_t r_row = g.trans_r ? 1 : g.ldr, r_col = g.trans_r ? g.ldr : 1;
    for (std::int64_t j0 = 0; j0 < g.n; j0 += col_block) {
        const std::int64_t jn = std::min(col_block, g.n - j0);
        for (std::int64_t i = i0; i < i1; ++i) std::fill_n(c + i * g.ldc + j0, jn, T(0));
        for (std::int64_t k0 = 0; k0 < g.k; k0 += k_block) {
            const std::int64_t k1 = std::min(g.k, k0 + k_block);
            for (std::int64_t i = i0; i < i1; ++i) {
                T* __restrict crow = c + i * g.ldc + j0;
                for (std::int64_t kk = k0; kk < k1; ++kk) {
                    const T a = l[i * l_row + kk * l_col];
                    if (a == T(0)) continue;  // exact for integers, and free
                    const T* __restrict rrow = r + kk * r_row + j0 * r_col;
                    if constexpr (std::is_same_v<T, bool>) {
                        if (r_col == 1)
                            for (std::int64_t j = 0; j < jn; ++j) crow[j] = crow[j] | rrow[j];
                        else
                            for (std::int64_t j = 0; j < jn; ++j) crow[j] = crow[j] | rrow[j * r_col];
                    } else {
                        const U ua = static_cast<U>(a);
                        if (r_col == 1)
                            for (std::int64_t j = 0; j < jn; ++j)
                                crow[j] = static_cast<T>(static_cast<U>(crow[j]) + ua * static_cast<U>(rrow[j]));
                        else
                            for (std::int64_t j = 0; j < jn; ++j)
                                crow[j] = static_cast<T>(static_cast<U>(crow[j]) +
                                                         ua * static_cast<U>(rrow[j * r_col]));
                    }
                }
            }
        }
    }
}

template <class T>
void loop_batched(const gemm_problem& g, const T* l, const T* r, T* c) {
    // Work items: (batch element, block of rows), split among the pool when large.
    const std::int64_t blocks_per_batch = (g.m + row_block - 1) / row_block;
    const std::int64_t items = batch_count(g) * blocks_per_batch;
    auto run = [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t item = b; item < e; ++item) {
            const std::int64_t p = item / blocks_per_batch;
            const std::int64_t i0 = (item % blocks_per_batch) * row_block;
            const batch_offsets o = offsets_of(g, p);
            loop_rows<T>(g, l + o.l, r + o.r, c + o.c, i0, std::min(g.m, i0 + row_block));
        }
    };
    const double cost = static_cast<double>(batch_count(g)) * static_cast<double>(g.m) * static_cast<double>(g.n) *
                        static_cast<double>(g.k);
    if (items > 1 && want_parallel(cost >= 9.0e18 ? INT64_MAX : static_cast<std::int64_t>(cost)))
        parallel_for(items, run);
    else
        run(0, items);
}

}  // namespace

void gemm_batched(dtype d, const gemm_problem& g, const void* l, const void* r, void* c) {
    for (std::int64_t v : {g.m, g.n, g.k, g.ldl, g.ldr, g.ldc})
        if (v < 1 || v > INT_MAX)
            fail(errc::invalid_argument, "gemm",
                 "a matrix size or leading dimension of " + std::to_string(v) +
                     " is outside the BLAS's 32-bit range 1.." + std::to_string(INT_MAX) +
                     "; split the operands along a kept axis");
    if (d == dtype::f32) {
        blas_batched<float>(g, static_cast<const float*>(l), static_cast<const float*>(r), static_cast<float*>(c));
        return;
    }
    if (d == dtype::f64) {
        blas_batched<double>(g, static_cast<const double*>(l), static_cast<const double*>(r),
                             static_cast<double*>(c));
        return;
    }
    visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        if constexpr (std::is_integral_v<T>)  // the integer types and bool
            loop_batched<T>(g, static_cast<const T*>(l), static_cast<const T*>(r), static_cast<T*>(c));
        else
            fail(errc::type_mismatch, "gemm",
                 std::string("no product kernel for ") + std::string(to_string(d)) + " (f16 is computed in f32)");
    });
}

single_threaded_blas::single_threaded_blas() {
    single_threaded_scopes.fetch_add(1, std::memory_order_acq_rel);
    bound_blas_threads();
}

single_threaded_blas::~single_threaded_blas() { single_threaded_scopes.fetch_sub(1, std::memory_order_acq_rel); }

int blas_num_threads() noexcept { return openblas_get_num_threads(); }

const char* blas_config() noexcept { return openblas_get_config(); }

}  // namespace nt::detail
