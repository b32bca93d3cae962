// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: this file tests what is a finding, not its rank.)
// REQUIRES: cuda-toolkit

#include <mma.h>
using namespace nvcuda;

// A pointer read only by WMMA fragment loads: wmma::load_matrix_sync is the
// PTX instruction wmma.load.{a,b,c}.sync.aligned...global, an explicit load
// with no non-coherent (read-only cache) form, like `__ldcs` or an asm
// `ld.global.cs`. `const __restrict__` leaves the PTX byte-identical
// (nvcc 13.0 -arch=sm_90; wmma's gemm_impl0, audit of stop 26). Not
// findings.
__global__ void gemmTile(const half *__restrict__ a, const half *__restrict__ b,
                         const float *c, float *d, int k, float alpha,
                         float beta) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  for (int n = 0; n < k; n += 16) {
    wmma::load_matrix_sync(fa, a + n, k);
    wmma::load_matrix_sync(fb, b + n, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  for (int i = 0; i < fc.num_elements; ++i)
    fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// The operands too, without `__restrict__` (their only reads are fragment
// loads), through a local pointer to the tile.
__global__ void gemmPlain(half *a, half *b, float *d, int k) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int n = 0; n < k; n += 16) {
    const half *tileA = a + blockIdx.x * 16 * k + n;
    wmma::load_matrix_sync(fa, tileA, k);
    wmma::load_matrix_sync(fb, b + blockIdx.y * 16 * k + n, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Also read by ordinary code: nvcc proves nothing about a pointer that the
// fragment load's intrinsic takes, and those loads stay ld.global with
// `const __restrict__` too (the same PTX). Not a finding either.
__global__ void gemmScaled(const half *__restrict__ a,
                           const half *__restrict__ b, float *c, float *d,
                           int k) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, k);
  wmma::load_matrix_sync(fb, b, k);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= c[256 + threadIdx.x % 16];
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// A bias read only by ordinary code beside fragment loads and stores of
// other pointers: `const __restrict__` makes its loads ld.global.nc, and
// the finding stays. The fragment's store target is written, not reported.
__global__ void gemmBias(const half *__restrict__ a, const half *__restrict__ b,
                         float *bias, float *d, int k) {
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: pointer parameter 'bias' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}                         const float *__restrict__ bias, float *d, int k) {{{$}}
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, k);
  wmma::load_matrix_sync(fb, b, k);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] += bias[threadIdx.x % 16 + i];
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}
