// RUN: %check_cuda_lint -check-suffixes=DEFAULT %s cuda-double-promotion %t-default
// RUN: %check_cuda_lint -check-suffixes=ALL %s cuda-double-promotion %t-all -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=HIGH %s cuda-double-promotion %t-high -- --min-impact=high
// RUN: %check_cuda_lint -check-suffixes=ALL %s cuda-double-promotion %t-option -- --config="{CheckOptions: {MinImpact: low}}"

// The impact rank of each finding, in a program (it defines main): code
// that never runs, or runs once beside the hot path, ranks low and is hidden
// by default; --min-impact=low (or the MinImpact option) shows it.

#include <cuda_runtime.h>

// A kernel whose only host wrapper is never called.
__global__ void init(float *v, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    v[i] = v[i] * 0.1;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:19: warning: double-precision literal '0.1'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:19: note: impact: low (rank 10/100): kernel 'init' is never launched in this program
  // CHECK-FIXES-DEFAULT: {{^}}    v[i] = v[i] * 0.1;{{$}}
  // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 0.1f;{{$}}
}

static void runInit(float *v, int n) { init<<<1, 256>>>(v, n); }

// A one-shot table setup with 32 blocks, before the loop that runs the
// work.
__global__ void buildTable(float *table) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  table[i] = i * 0.25;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:18: warning: double-precision literal '0.25'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:18: note: impact: low (rank 5/100): once per thread; kernel 'buildTable' is launched once, other kernels in host loops; a grid of 32 blocks
  // CHECK-FIXES-ALL: {{^}}  table[i] = i * 0.25f;{{$}}
}

// A one-shot setup kernel of one block whose loops do the setup work
// (seeding clusters before the iterations): still cold.
__global__ void seed(float *means, const float *data, int k, int d) {
  for (int c = threadIdx.x; c < k; c += blockDim.x)
    for (int j = 0; j < d; ++j)
      means[c * d + j] = data[c * d + j] * 0.3;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:44: warning: double-precision literal '0.3'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:44: note: impact: low (rank 25/100): in a loop nest of depth 2; kernel 'seed' is launched once, other kernels in host loops; a grid of one block
  // CHECK-FIXES-DEFAULT: {{^}}      means[c * d + j] = data[c * d + j] * 0.3;{{$}}
  // CHECK-FIXES-ALL: {{^}}      means[c * d + j] = data[c * d + j] * 0.3f;{{$}}
}

// The hot kernel: launched in the host loop, the literal in its loop.
__global__ void step(float *v, const float *table, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    v[i] = v[i] * 1.5 + table[i % 8192];
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:19: warning: double-precision literal '1.5'
    // CHECK-MESSAGES-ALL: :[[@LINE-2]]:19: warning: double-precision literal '1.5'
    // CHECK-MESSAGES-HIGH: :[[@LINE-3]]:19: warning: double-precision literal '1.5'
    // CHECK-NOTES-ALL: :[[@LINE-4]]:19: note: impact: high (rank 80/100): in a loop; kernel 'step' is launched in a host loop
    // CHECK-FIXES-DEFAULT: {{^}}    v[i] = v[i] * 1.5f + table[i % 8192];{{$}}
    // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 1.5f + table[i % 8192];{{$}}
    // CHECK-FIXES-HIGH: {{^}}    v[i] = v[i] * 1.5f + table[i % 8192];{{$}}
  }
  // Once per thread after the loop that does the work; one thread per block.
  if (threadIdx.x == 0)
    v[blockIdx.x] = v[blockIdx.x] * 2.7;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:37: warning: double-precision literal '2.7'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:37: note: impact: low (rank 10/100): once per thread, outside the loops of kernel 'step'; one thread per block; kernel 'step' is launched in a host loop
  // CHECK-FIXES-DEFAULT: {{^}}    v[blockIdx.x] = v[blockIdx.x] * 2.7;{{$}}
  // CHECK-FIXES-ALL: {{^}}    v[blockIdx.x] = v[blockIdx.x] * 2.7f;{{$}}
}

int main() {
  const int n = 1 << 20;
  float *v, *table;
  cudaMalloc(&v, n * sizeof(float));
  cudaMalloc(&table, 8192 * sizeof(float));
  buildTable<<<32, 256>>>(table);
  seed<<<1, 256>>>(v, table, 16, 64);
  for (int it = 0; it < 100; ++it)
    step<<<256, 256>>>(v, table, n);
  cudaDeviceSynchronize();
  cudaFree(v);
  cudaFree(table);
  return 0;
}
