// A benchmark kernel file in the style of Rodinia and Parboil (CUDA 4-8
// era): a __shfl_down warp reduction, a __ballot count, a block-size macro,
// cudaThreadSynchronize and cudaThreadExit. A CUDA 13 toolkit no longer
// compiles it; cuda-lint parses it (the driver adds its legacy compatibility
// header), reports every finding, fixes what it can, and the fixed file
// compiles with nvcc 13.
//
// 1. Without the compatibility layer the file does not parse.
// RUN: not %cuda_lint --no-legacy-compat --checks='-*,cuda-legacy-runtime-api' %s -- 2>&1 | FileCheck --check-prefix=NOPARSE %s
// NOPARSE: error: use of undeclared identifier 'cudaThreadSynchronize'
//
// 2. With it, every check reports what it reports on modern code, and the
// fixes are applied.
// RUN: %check_cuda_lint -no-compile %s cuda-legacy-warp-intrinsic,cuda-legacy-runtime-api,cuda-double-promotion,cuda-divergent-barrier,cuda-launch-shape %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low
//
// 3. The fixed file compiles with nvcc 13 (the original does not).
// RUN: %if nvcc %{ not %nvcc -arch=sm_90 -c -o %t.orig.o %s %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o %t.o %t.cu %}
//
// 4. The other checks find the same on the legacy file as on its modernised
// copy (only the legacy checks applied), line by line.
// RUN: sed 's|// *CHECK-[A-Z-]*:.*|//|' %s > %t.legacy.cu
// RUN: cp %t.legacy.cu %t.modern.cu
// RUN: %cuda_lint --fix --checks='-*,cuda-legacy-*' %t.modern.cu -- > /dev/null 2>&1
// RUN: not grep -E '__shfl_down\(|__ballot\(|cudaThread[A-Za-z]*\(' %t.modern.cu
// RUN: %cuda_lint --checks='-*,cuda-double-promotion,cuda-divergent-barrier,cuda-launch-shape' --config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low %t.legacy.cu -- 2>&1 | grep -E 'warning:|note:' | cut -d: -f2,5- > %t.legacy.txt
// RUN: %cuda_lint --no-legacy-compat --checks='-*,cuda-double-promotion,cuda-divergent-barrier,cuda-launch-shape' --config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low %t.modern.cu -- 2>&1 | grep -E 'warning:|note:' | cut -d: -f2,5- > %t.modern.txt
// RUN: diff %t.legacy.txt %t.modern.txt
// RUN: grep -c '\[cuda-' %t.legacy.txt | grep -x 3

#include <cstdio>
#include <cstdlib>

#define BLOCK_SIZE 256
#define WARP_SIZE 32

__global__ void reduceKernel(const float *in, float *out, int n) {
  __shared__ float warpSums[BLOCK_SIZE / WARP_SIZE];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  float v = (i < n) ? in[i] : 0.0f;
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down has no mask and is not supported on sm_70 and newer GPUs; use '__shfl_down_sync' [cuda-legacy-warp-intrinsic]
  // CHECK-FIXES: {{^}}    v += __shfl_down_sync(0xffffffff, v, offset);{{$}}
  int lane = tid % WARP_SIZE;
  int warp = tid / WARP_SIZE;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (tid < BLOCK_SIZE / WARP_SIZE) ? warpSums[lane] : 0.0f;
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
      v += __shfl_down(v, offset);
    // The warp index is the same in every lane: the whole first warp is here.
    // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: __shfl_down has no mask
    // CHECK-FIXES: {{^}}      v += __shfl_down_sync(0xffffffff, v, offset);{{$}}
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void countPositive(const float *in, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned votes = __ballot(i < n && in[i] > 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: __ballot has no mask
  // CHECK-FIXES: {{^}}  unsigned votes = __ballot_sync(0xffffffff, i < n && in[i] > 0.0f);{{$}}
  if ((threadIdx.x & 31) == 0)
    atomicAdd(count, __popc(votes));
}

__global__ void normalize(float *data, float total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] / total * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}    data[i] = data[i] / total * 0.5f;{{$}}
}

// An old bug: only the first warp waits at the barrier.
__global__ void prefixFirstWarp(float *data) {
  __shared__ float s[WARP_SIZE];
  if (threadIdx.x < WARP_SIZE) {
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
    data[threadIdx.x] = s[WARP_SIZE - 1 - threadIdx.x];
  }
  // The other threads go on running (they do not exit), so the barrier
  // above can hang them.
  data[blockDim.x + threadIdx.x] = 0.0f;
}

int main() {
  const int n = 1 << 20;
  const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  float *in, *out;
  unsigned *count;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  cudaMalloc(&count, sizeof(unsigned));
  cudaMemset(in, 0, n * sizeof(float));
  cudaMemset(count, 0, sizeof(unsigned));
  reduceKernel<<<blocks, BLOCK_SIZE>>>(in, out, n);
  countPositive<<<blocks, BLOCK_SIZE>>>(in, count, n);
  normalize<<<(n + 99) / 100, 100>>>(in, 1.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: block of 100 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  // CHECK-NOTES: :[[@LINE-2]]:31: note: 100 threads = 4 warps = 128 lanes: 28 lanes (21.9%) idle in every block
  prefixFirstWarp<<<1, 64>>>(in);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceSynchronize', which has the same meaning [cuda-legacy-runtime-api]
  // CHECK-FIXES: {{^}}  cudaDeviceSynchronize();{{$}}
  unsigned host = 0;
  cudaMemcpy(&host, count, sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("%u positive\n", host);
  cudaFree(in);
  cudaFree(out);
  cudaFree(count);
  cudaThreadExit();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadExit' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceReset'
  // CHECK-FIXES: {{^}}  cudaDeviceReset();{{$}}
  return 0;
}
