// RUN: %check_cuda_lint %s cuda-local-memory-array %t

// An array of at most 32 bytes whose every access runs once per thread
// (outside loops): a few local-memory accesses of one L1 line per thread,
// not worth acting on.
__global__ void scatterOnce(const float *in, float *out) {
  float slot[8] = {0};
  slot[threadIdx.x & 7] = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = slot[(threadIdx.x + 1) & 7];
}

// Still findings: the same array used in a loop, and a larger one.
__global__ void scatterLoop(const float *in, float *out, int n) {
  float slot[8] = {0};
  for (int i = 0; i < n; ++i)
    slot[(threadIdx.x + i) & 7] += in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: per-thread array 'slot' is indexed with a value known only at run time, so it is placed in local memory, as slow as global memory, instead of registers [cuda-local-memory-array]
  out[threadIdx.x] = slot[0];
}

__global__ void scatterWide(const float *in, float *out) {
  float slot[16] = {0};
  slot[threadIdx.x & 15] = in[blockIdx.x * blockDim.x + threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: per-thread array 'slot' is indexed with a value known only at run time
  out[blockIdx.x * blockDim.x + threadIdx.x] = slot[(threadIdx.x + 1) & 15];
}
