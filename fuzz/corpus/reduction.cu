// The classic shared-memory reduction (reduce4-style) with its unrolled last
// warp: warp-synchronous code with no barrier, a data race since Volta
// (Kepler tuning guide 1.4.9).
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce(const float *g_idata, float *g_odata, unsigned int n) {
  __shared__ float sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  float sum = (i < n) ? g_idata[i] : 0.0f;
  if (i + blockSize < n)
    sum += g_idata[i + blockSize];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce<blockSize>(sdata, tid);
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

int main() {
  const unsigned n = 1 << 20;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n / 512 * sizeof(float));
  reduce<256><<<n / 512, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
