// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)
//
// PolyBench-style kernels spell their element type through a macro: the fix
// is still an insertion outside the macro, `const` before its name and
// `__restrict__` after the star.

#include <cuda_runtime.h>

#define DATA_TYPE float
#define PTR_TYPE float *
#define N 64
#define KERNEL(name) __global__ void name(DATA_TYPE *a, DATA_TYPE *b)
#define PARAM(T, name) T *name

__global__ void mvt(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y1) {
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: pointer parameter 'a' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-MESSAGES: :[[@LINE-2]]:61: warning: pointer parameter 'y1' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void mvt(const DATA_TYPE *__restrict__ a, DATA_TYPE *x1, const DATA_TYPE *__restrict__ y1) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // A local copy spelled through the macro gets `const` too.
  DATA_TYPE *row = a + i * N;
  // CHECK-FIXES: {{^}}  const DATA_TYPE *row = a + i * N;{{$}}
  for (int j = 0; j < N; j++)
    x1[i] += row[j] * y1[j];
}

// Already const: only `__restrict__`, after the star.
__global__ void gemver(DATA_TYPE *out, const DATA_TYPE *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void gemver(DATA_TYPE *out, const DATA_TYPE *__restrict__ in) {{{$}}
  out[threadIdx.x] = in[threadIdx.x];
}

// Negative: the star is in the macro.
__global__ void star(float *out, PTR_TYPE in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:43: note: no automatic fix: the pointer type is spelled in a macro
  out[threadIdx.x] = in[threadIdx.x];
}

// Negative: the parameter itself is declared by a macro.
__global__ void param(float *out, PARAM(float, in)) {
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:48: note: no automatic fix: the kernel is declared in a macro
  out[threadIdx.x] = in[threadIdx.x];
}

// Negative: the whole kernel comes from a macro.
KERNEL(copy) { a[threadIdx.x] = b[threadIdx.x]; }
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: pointer parameter 'b' is only read
// CHECK-MESSAGES: :[[@LINE-2]]:1: note: no automatic fix: the kernel is declared in a macro
