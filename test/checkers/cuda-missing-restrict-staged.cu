// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)

// Pointers whose loads `const __restrict__` would not make faster.

// The hot loop already loads through a cache-hint intrinsic; the one plain
// load runs once per thread, before it.
__global__ void streamed(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = in[0];
  for (int k = 0; k < n; ++k)
    s += __ldcs(in + k * n + i);
  out[i] = s;
}

// A tiled GEMM: the only global loads of A and B are one coalesced load
// per element into a shared tile, each element loaded once per block
// (nvcc -ptx -arch=sm_90 turns them from ld.global into ld.global.nc and
// changes nothing else; on sm_70 and later both go through L1).
#define TILE 16
__global__ void tiledGemm(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k = 0; k < n; k += TILE) {
    As[ty][tx] = A[row * n + k + tx];
    Bs[ty][tx] = B[(k + ty) * n + col];
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += As[ty][j] * Bs[j][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Still findings: a plain load in the loop beside the intrinsic, and a
// staged pointer that is also read directly in the compute loop.
__global__ void mixed(const float *in, float *out, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: __global__ void mixed(const float *__restrict__ in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += __ldcs(in + k * n + i) * in[k];
  out[i] = s;
}

__global__ void stagedAndDirect(const float *A, const float *w, float *C,
                                int n) {
  // CHECK-MESSAGES: :[[@LINE-2]]:62: warning: pointer parameter 'w' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: __global__ void stagedAndDirect(const float *A, const float *__restrict__ w, float *C,
  __shared__ float tile[TILE];
  float acc = 0.0f;
  for (int k = 0; k < n; k += TILE) {
    tile[threadIdx.x] = A[k + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += tile[j] * w[k + j];
    __syncthreads();
  }
  C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
