// RUN: %check_cuda_lint -check-suffix=LDG %s cuda-missing-restrict %t-ldg -- --min-impact=low -config="{CheckOptions: {cuda-missing-restrict.UseLdg: true}}"
// RUN: %check_cuda_lint -check-suffix=RW %s cuda-missing-restrict %t-rw -- --min-impact=low -config="{CheckOptions: {cuda-missing-restrict.RestrictWritable: true}}"
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)

#include <cuda_runtime.h>
#ifdef __clang__
// clang lowers <<<>>> through this call; CUDA 13 no longer declares it.
extern "C" cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0,
                                         cudaStream_t = 0);
#endif

struct Particle {
  float x, y;
};

__global__ void loads(float *out, float *in, const float4 *v,
                      const Particle *p, int n) {
  // CHECK-MESSAGES-LDG: :[[@LINE-2]]:42: warning: pointer parameter 'in' is only read; load it with '__ldg()' so that its loads use the read-only data cache
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:60: warning: pointer parameter 'v' is only read; load it with '__ldg()'
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:39: warning: pointer parameter 'p' is only read; load it with '__ldg()'
  // CHECK-NOTES-LDG: :[[@LINE+10]]:37: note: '__ldg' has no overload for 'Particle'; this load is left unchanged
  // CHECK-MESSAGES-RW: :[[@LINE-6]]:30: warning: pointer parameter 'out' is written but not '__restrict__'; the compiler must assume that it aliases the kernel's other pointers
  // CHECK-MESSAGES-RW: :[[@LINE-7]]:42: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-MESSAGES-RW: :[[@LINE-8]]:60: warning: pointer parameter 'v' is only read; declare it 'const float4 *__restrict__'
  // CHECK-MESSAGES-RW: :[[@LINE-8]]:39: warning: pointer parameter 'p' is only read; declare it 'const Particle *__restrict__'
  // CHECK-FIXES-RW: {{^}}__global__ void loads(float *__restrict__ out, const float *__restrict__ in, const float4 *__restrict__ v,{{$}}
  // CHECK-FIXES-RW: {{^}}                      const Particle *__restrict__ p, int n) {{{$}}
  // CHECK-FIXES-LDG: {{^}}__global__ void loads(float *out, float *in, const float4 *v,{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + *in + v[i].x + p[i].x;
  // CHECK-FIXES-LDG: {{^}}    out[i] = __ldg(&in[i]) + __ldg(in) + __ldg(&v[i]).x + p[i].x;{{$}}
  // CHECK-FIXES-RW: {{^}}    out[i] = in[i] + *in + v[i].x + p[i].x;{{$}}
}

// Written through a post-incremented pointer: no '__ldg', whose loads must
// not see memory the kernel writes.
__global__ void advance(float *in) {
  // CHECK-MESSAGES-RW: :[[@LINE-1]]:32: warning: pointer parameter 'in' is written but not '__restrict__'
  // CHECK-FIXES-RW: {{^}}__global__ void advance(float *__restrict__ in) {{{$}}
  float v = in[threadIdx.x];
  *in++ = v;
  // CHECK-FIXES-LDG: {{^}}  float v = in[threadIdx.x];{{$}}
}

// Already const __restrict__, and aliased launches: RestrictWritable does
// not add __restrict__ where two parameters may alias.
__global__ void inplace(float *a, float *b) { a[threadIdx.x] += b[threadIdx.x]; }
// CHECK-MESSAGES-LDG: :[[@LINE-1]]:42: warning: pointer parameter 'b' is only read; declare it 'const float *' (not '__restrict__', which the read-only data cache needs: it may alias another parameter)
// CHECK-MESSAGES-RW: :[[@LINE-2]]:32: warning: pointer parameter 'a' is written but not '__restrict__'; the compiler must assume that it aliases the kernel's other pointers
// CHECK-NOTES-RW: :[[@LINE+6]]:25: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'a' and 'b'
// CHECK-MESSAGES-RW: :[[@LINE-4]]:42: warning: pointer parameter 'b' is only read; declare it 'const float *' (not '__restrict__'
// CHECK-NOTES-RW: :[[@LINE+4]]:25: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'b' and 'a'
// CHECK-NOTES-LDG: :[[@LINE+3]]:25: note: '__restrict__' not added: this launch passes pointers into the same allocation as 'b' and 'a'
// CHECK-FIXES-RW: {{^}}__global__ void inplace(float *a, const float *b) { a[threadIdx.x] += b[threadIdx.x]; }{{$}}
// CHECK-FIXES-LDG: {{^}}__global__ void inplace(float *a, const float *b) { a[threadIdx.x] += b[threadIdx.x]; }{{$}}
void launch(float *d) { inplace<<<1, 32>>>(d, d + 16); }

// A volatile pointee: '__ldg' has no volatile overload, and volatile loads
// must not be cached.
__global__ void volatileLoads(float *out, volatile float *v) {
  // CHECK-MESSAGES-LDG: :[[@LINE-1]]:59: warning: pointer parameter 'v' is only read; load it with '__ldg()'
  // CHECK-MESSAGES-RW: :[[@LINE-2]]:38: warning: pointer parameter 'out' is written but not '__restrict__'
  // CHECK-MESSAGES-RW: :[[@LINE-3]]:59: warning: pointer parameter 'v' is only read; declare it 'const volatile float *__restrict__'
  // CHECK-FIXES-RW: {{^}}__global__ void volatileLoads(float *__restrict__ out, volatile const float *__restrict__ v) {{{$}}
  out[threadIdx.x] = v[threadIdx.x];
  // CHECK-NOTES-LDG: :[[@LINE-1]]:22: note: '__ldg' has no overload for volatile 'float', and a volatile load must not go through a cache; this load is left unchanged
  // CHECK-FIXES-LDG: {{^}}  out[threadIdx.x] = v[threadIdx.x];{{$}}
}

// A pointer passed to a recursion that nvcc keeps as a call (see
// cuda-missing-restrict-recursion.cu): `const __restrict__` changes no
// load, and without UseLdg it is not reported; `__ldg` forces
// ld.global.nc for the kernel's own load.
__device__ int cover(const int *fanin, int *seen, int i) {
  if (i <= 0 || seen[i & 7])
    return 0;
  seen[i & 7] = 1;
  return 1 + cover(fanin, seen, fanin[i]) + cover(fanin, seen, fanin[i + 1]);
}
__global__ void covers(int *__restrict__ out, const int *fanin, int n) {
  // CHECK-MESSAGES-LDG: :[[@LINE-1]]:58: warning: pointer parameter 'fanin' is only read; load it with '__ldg()'
  int seen[8] = {0};
  out[threadIdx.x] = cover(fanin, seen, n) + fanin[n + 1];
  // CHECK-FIXES-LDG: {{^}}  out[threadIdx.x] = cover(fanin, seen, n) + __ldg(&fanin[n + 1]);{{$}}
}
