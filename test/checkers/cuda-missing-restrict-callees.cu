// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low
//
// A read-only pointer passed to a device function of the translation unit
// whose parameter is a non-const pointer that it only reads: the fix makes
// that parameter const too (every declaration of it, its local copies, and
// the functions it passes the pointer on to), where that changes nothing
// else: not for templates, overloaded or virtual functions, or functions
// used as values.

#include <cuda_runtime.h>

// Declared before its definition: both declarations get `const`.
__device__ float gather(float *table, int i);
// CHECK-FIXES: {{^}}__device__ float gather(const float *table, int i);{{$}}

__device__ float gather(float *table, int i) {
  // CHECK-FIXES: {{^}}__device__ float gather(const float *table, int i) {{{$}}
  float *row = table + (i & ~31);
  // CHECK-FIXES: {{^}}  const float *row = table + (i & ~31);{{$}}
  return row[i & 31];
}

// A chain of helpers.
__device__ float inner(float *q, int i) { return q[i] * 0.5f; }
// CHECK-FIXES: {{^}}__device__ float inner(const float *q, int i) { return q[i] * 0.5f; }{{$}}
__device__ float outer(float *p, int i) { return inner(p, i) + p[i + 1]; }
// CHECK-FIXES: {{^}}__device__ float outer(const float *p, int i) { return inner(p, i) + p[i + 1]; }{{$}}

__global__ void lookup(float *out, float *table, float *coef, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: pointer parameter 'table' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-MESSAGES: :[[@LINE-15]]:32: note: 'const' added to parameter 'table' of 'gather' too, which only reads it
  // CHECK-MESSAGES: :[[@LINE-3]]:57: warning: pointer parameter 'coef' is only read; declare it 'const float *__restrict__'
  // CHECK-MESSAGES: :[[@LINE-7]]:31: note: 'const' added to parameter 'p' of 'outer' too, which only reads it
  // CHECK-MESSAGES: :[[@LINE-10]]:31: note: 'const' added to parameter 'q' of 'inner' too, which only reads it
  // CHECK-FIXES: {{^}}__global__ void lookup(float *out, const float *__restrict__ table, const float *__restrict__ coef, int n) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = gather(table, i) * outer(coef, i);
}

// Another kernel passes a pointer it writes: a non-const pointer still
// converts to the const parameter.
__global__ void update(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = gather(data, i) + 1.0f;
}

// Negative: the helper is overloaded.
__device__ float fetch(float *p, int i) { return p[i]; }
__device__ double fetch(double *p, int i) { return p[i]; }
__global__ void useFetch(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: no automatic fix: it is passed to 'fetch' as a non-const pointer; declare that parameter 'const' first
  out[threadIdx.x] = fetch(in, threadIdx.x);
}

// Negative: the helper's address is taken.
__device__ float peek(float *p, int i) { return p[i]; }
__device__ float (*peekPtr)(float *, int) = peek;
__global__ void usePeek(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: no automatic fix: it is passed to 'peek' as a non-const pointer; declare that parameter 'const' first
  out[threadIdx.x] = peek(in, threadIdx.x);
}

// Negative: a template helper.
template <typename T> __device__ T first(T *p) { return p[0]; }
__global__ void useFirst(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: no automatic fix: it is passed to 'first' as a non-const pointer; declare that parameter 'const' first
  out[threadIdx.x] = first(in);
}

// Negative: the helper casts its parameter to a non-const pointer.
__device__ int bits(float *p) { return *(int *)p; }
__global__ void useBits(int *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:42: note: no automatic fix: it is passed to 'bits' as a non-const pointer; declare that parameter 'const' first
  out[threadIdx.x] = bits(in + threadIdx.x);
}

// Negative: the helper's parameter is spelled in a macro.
#define FPTR float *
__device__ float viaMacro(FPTR p) { return p[1]; }
__global__ void useMacro(float *out, float *in) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer parameter 'in' is only read
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: no automatic fix: it is passed to 'viaMacro' as a non-const pointer; declare that parameter 'const' first
  out[threadIdx.x] = viaMacro(in);
}
