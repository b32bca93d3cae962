// RUN: %check_cuda_lint -check-suffixes=LOW %s cuda-missing-restrict %t-low -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=DEFAULT %s cuda-missing-restrict %t-default

// A grid-stride loop that every launch's grid covers runs its body once per
// thread: an element-wise kernel written that way reads each element once,
// before its store, and `__restrict__` can only add `.nc` to the loads
// (ranked low, as for the same kernel without the loop). The same loop over
// a capped grid iterates, and nvcc unrolls it: the next iteration's loads
// follow this one's store, which only `__restrict__` lets them pass; but
// they read new elements (a stream), which gains nothing measurable: low
// too, with that reason.

#include <cuda_runtime.h>

__global__ void covered(float *out, float *in, int n) {
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:44: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES-LOW: :[[@LINE-2]]:44: note: impact: low (rank 30/100): 'in' is read once per thread (in a grid-stride loop that every launch's grid covers), before any global store: `__restrict__` can only make its loads ld.global.nc, which gains nothing measurable on sm_70 and later (the read-only data cache is the L1 cache)
  // CHECK-FIXES-LOW: {{^}}__global__ void covered(float *out, const float *__restrict__ in, int n) {{{$}}
  // CHECK-FIXES-DEFAULT: {{^}}__global__ void covered(float *out, float *in, int n) {{{$}}
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i] * 2.0f;
}

__global__ void capped(float *out, float *in, int n) {
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:43: warning: pointer parameter 'in' is only read
  // CHECK-NOTES-LOW: :[[@LINE-2]]:43: note: impact: low (rank 30/100): 'in' is streamed: each of its loads reads a new element in every iteration of the loop that stores, and no element is read twice across a store; `__restrict__` can only make the loads ld.global.nc and let later iterations' loads issue early, which gains nothing measurable on sm_70 and later
  // CHECK-FIXES-LOW: {{^}}__global__ void capped(float *out, const float *__restrict__ in, int n) {{{$}}
  // CHECK-FIXES-DEFAULT: {{^}}__global__ void capped(float *out, float *in, int n) {{{$}}
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i] * 2.0f;
}

int main() {
  const int n = 1 << 20;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  for (int it = 0; it < 10; ++it) {
    covered<<<(n + 255) / 256, 256>>>(b, a, n);
    capped<<<160, 256>>>(b, a, n);
  }
  cudaDeviceSynchronize();
  return 0;
}
