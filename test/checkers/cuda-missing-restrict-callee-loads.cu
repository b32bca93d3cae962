// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low

// What `__restrict__` can change is judged where the pointer's elements are
// read: an element bound to a const reference (the operators of a class
// type like `__half`) is read there, and a device function the pointer is
// passed to reads it at the call. The finding ranks low (30) where no load
// can move across a global store, and otherwise says which load can.
// No kernel here is launched: the rank is a neutral 50 where nothing lowers
// it.

struct Half {
  unsigned short bits;
};
__device__ Half operator*(const Half &a, const Half &b) {
  Half r;
  r.bits = (unsigned short)(a.bits ^ b.bits);
  return r;
}
__device__ Half operator+(const Half &a, const Half &b) {
  Half r;
  r.bits = (unsigned short)(a.bits + b.bits);
  return r;
}

// A GEMM of a class type: the loop loads through operator*'s const
// references and stores nothing to global memory.
__global__ void gemm(Half *a, Half *b, Half *c, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: pointer parameter 'a' is only read; declare it 'const Half *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-2]]:28: note: impact: low (rank 30/100): the loops that read 'a' store nothing to global memory that could alias it: `__restrict__` can only make its loads ld.global.nc, which gains nothing measurable on sm_70 and later (the read-only data cache is the L1 cache)
  // CHECK-MESSAGES: :[[@LINE-3]]:37: warning: pointer parameter 'b' is only read; declare it 'const Half *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-4]]:37: note: impact: low (rank 30/100): the loops that read 'b' store nothing to global memory that could alias it: `__restrict__` can only make its loads ld.global.nc, which gains nothing measurable on sm_70 and later (the read-only data cache is the L1 cache)
  // CHECK-FIXES: {{^}}__global__ void gemm(const Half *__restrict__ a, const Half *__restrict__ b, Half *c, int n) {{{$}}
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  Half s = {0};
  for (int k = 0; k < n; k++)
    s = s + a[row * n + k] * b[k * n + col];
  c[row * n + col] = s;
}

// A device function that only reads: its loads happen at the call, once
// per thread, before the kernel's store.
__device__ float boxSum(const float *img, int w, int r, int c, int k) {
  float s = 0;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++)
      s += img[(r + i) * w + c + j];
  return s;
}

__global__ void box(float *img, float *out, int w, int k) {
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: pointer parameter 'img' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-2]]:28: note: impact: low (rank 30/100): 'img' is read, here and in the device functions it is passed to (which store nothing to global memory), before any global store of this kernel: `__restrict__` can only make its loads ld.global.nc, which gains nothing measurable on sm_70 and later (the read-only data cache is the L1 cache)
  // CHECK-FIXES: {{^}}__global__ void box(const float *__restrict__ img, float *out, int w, int k) {{{$}}
  int r = blockIdx.y, c = threadIdx.x;
  out[r * w + c] = boxSum(img, w, r, c, k);
}

// The same call after a global store: only `__restrict__` lets nvcc issue
// the function's loads before the store.
__global__ void boxAfter(float *img, float *out, int w, int k) {
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: pointer parameter 'img' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-2]]:33: note: impact: medium (rank 50/100): in kernel 'boxAfter'; how often it runs is not known
  // CHECK-FIXES: {{^}}__global__ void boxAfter(const float *__restrict__ img, float *out, int w, int k) {{{$}}
  int r = blockIdx.y, c = threadIdx.x;
  out[r * w + c] = 0;
  out[r * w + c + 1] = boxSum(img, w, r, c, k);
  // CHECK-NOTES: :[[@LINE-1]]:24: note: this call, which loads it, comes after a global store (line [[@LINE-2]]) that may alias it: only '__restrict__' lets nvcc load first
}

// A device function that stores to global memory itself: what moves there
// is not judged, and the finding keeps its rank, with no note.
__device__ void scatter(const float *in, float *out, int i) {
  out[i] = in[i];
  out[i + 1] = in[i + 1];
}

__global__ void copyPairs(float *in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-2]]:34: note: impact: medium (rank 50/100): in kernel 'copyPairs'; how often it runs is not known
  // CHECK-FIXES: {{^}}__global__ void copyPairs(const float *__restrict__ in, float *out) {{{$}}
  scatter(in, out, 2 * (blockIdx.x * blockDim.x + threadIdx.x));
}

// An element read again after a store: only `__restrict__` lets nvcc reuse
// the first load.
__global__ void twice(float *in, float *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: pointer parameter 'in' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-NOTES: :[[@LINE-2]]:30: note: impact: medium (rank 50/100): in kernel 'twice'; how often it runs is not known
  // CHECK-FIXES: {{^}}__global__ void twice(const float *__restrict__ in, float *out) {{{$}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[2 * i] = v;
  out[2 * i + 1] = in[i] * 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:20: note: this load reads again what was loaded before a global store (line [[@LINE-2]]) that may alias it: only '__restrict__' lets nvcc reuse the first load
}
