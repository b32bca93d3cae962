// RUN: %check_cuda_lint -no-compile %s cuda-constant-divergent-access %t

// A divergent read that runs once per thread beside the loop that does the
// work: outside every loop, or in a loop whose iterations do not change its
// index (nvcc loads a loop-invariant constant once, before the loop). The
// serialization is paid once per thread, not per iteration.

__constant__ int c_rowStart[1025];
__constant__ float c_weight[256];

__global__ void rowSums(const float *vals, float *out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  int begin = c_rowStart[row];
  float acc = 0.0f;
  for (int k = begin; k < c_rowStart[row + 1]; ++k)
    acc += vals[k] * vals[k];
  out[row] = acc;
}

__global__ void scaledSums(const float *vals, float *out, int n) {
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += vals[k * 256 + tid] * c_weight[tid];
  out[tid] = acc;
}

// Still findings: an index that changes from one iteration to the next,
// and a read in a function without loops (the read is its work).
__global__ void walk(const float *vals, float *out, int n) {
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += vals[k] * c_weight[(tid + k) & 255];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __constant__ array 'c_weight' is read at 32 different addresses by the threads of a warp; constant memory serves one address at a time, so the read is serialized 32 ways [cuda-constant-divergent-access]
  // CHECK-NOTES: :9:20: note: 'c_weight' is declared __constant__ here; reading it through a 'const __restrict__' global pointer (the read-only cache) or from shared memory serves the warp at once
  out[tid] = acc;
}

__global__ void lookup(float *out) {
  out[threadIdx.x] = c_weight[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __constant__ array 'c_weight' is read at 32 different addresses
}
