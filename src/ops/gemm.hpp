// gemm.hpp (private): batched matrix products, the engine under nt/linalg.hpp.
//
// float and double go to the BLAS (CBLAS sgemm/dgemm of OpenBLAS); integer and bool
// types to a blocked loop here. No BLAS header is included outside gemm.cpp, so the
// BLAS stays a private dependency of the compiled library.
#pragma once

#include <cstdint>
#include <span>

#include "nt/dtype.hpp"

namespace nt::detail {

/// C[p][i, j] = sum_k L[p][i, k] * R[p][k, j] for every batch index p, with
/// - L[p] at l + sum(p_d * l_batch[d]); element (i, k) at i * ldl + k, or at
///   k * ldl + i when trans_l (the same for R with (k, j));
/// - C[p] at c + sum(p_d * c_batch[d]), element (i, j) at i * ldc + j.
/// Strides are in elements and may be 0 in the batch; ldl >= the row length (the
/// BLAS's rule) is the caller's to ensure. m, n, k >= 1 (the caller handles empty
/// products), and at most INT32_MAX, as are the leading dimensions.
struct gemm_problem {
    std::int64_t m = 1, n = 1, k = 1;
    bool trans_l = false, trans_r = false;
    std::int64_t ldl = 1, ldr = 1, ldc = 1;
    std::span<const std::int64_t> batch_sizes;
    std::span<const std::int64_t> l_batch, r_batch, c_batch;
};

/// Runs the batched product for element type `d` (f32, f64, an integer type or
/// bool; f16 is computed in f32 by the caller). Integer products and sums wrap in
/// the type (NumPy's results, computed without signed overflow); bool is the "or" of
/// the "and"s.
void gemm_batched(dtype d, const gemm_problem& g, const void* l, const void* r, void* c);

/// While one lives, the BLAS runs each product on its caller's thread (gemm_batched
/// leaves its thread count at 1): the imaging operations run many small products on
/// the pool's threads at once, which the BLAS's own pool would oversubscribe. Nests;
/// process-wide, as the BLAS's setting is.
class single_threaded_blas {
public:
    single_threaded_blas();
    ~single_threaded_blas();
    single_threaded_blas(const single_threaded_blas&) = delete;
    single_threaded_blas& operator=(const single_threaded_blas&) = delete;
};

/// The thread count the BLAS is using now (openblas_get_num_threads), for tests.
[[nodiscard]] int blas_num_threads() noexcept;

/// The BLAS's own description (openblas_get_config()), for benchmarks and docs.
[[nodiscard]] const char* blas_config() noexcept;

}  // namespace nt::detail
