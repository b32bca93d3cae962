// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low

// The check reports the accesses the compiled code issues (each case checked
// in nvcc 13's PTX, -arch=sm_90 -O3): adjacent elements one thread accesses
// in straight-line code become one vector access, and a load of an element
// the thread already read or wrote is not issued again.

#include <cuda_runtime.h>

// A pair per thread in an extern __shared__ array (aligned to 16 bytes):
// one st.shared.v2.f32 and one ld.shared.v2.f32, each lane's 8 bytes next
// to its neighbour's: two passes of 16 lanes, no conflict. As scalars, each
// would be 2-way.
__global__ void scanPairs(const float *in, float *out) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  buf[2 * t] = in[2 * t];
  buf[2 * t + 1] = in[2 * t + 1];
  __syncthreads();
  out[t] = buf[2 * t] + buf[2 * t + 1];
  // Written in either order, and with other work in between.
  buf[2 * t + 1] = out[t];
  buf[2 * t] = in[t];
}

// 8-byte elements: a pair is one 16-byte ld/st.shared.v2.f64.
__global__ void doublePairs(const double *in, double *out) {
  extern __shared__ double dbuf[];
  int t = threadIdx.x;
  dbuf[2 * t] = in[2 * t];
  dbuf[2 * t + 1] = in[2 * t + 1];
  __syncthreads();
  out[t] = dbuf[2 * t] + dbuf[2 * t + 1];
}

// Four floats in an array aligned to 16 bytes: one v4 access per thread.
__global__ void quads(const float *in, float *out) {
  __shared__ __align__(16) float q[1024];
  int t = threadIdx.x;
  q[4 * t] = in[t];
  q[4 * t + 1] = in[t + 32];
  q[4 * t + 2] = in[t + 64];
  q[4 * t + 3] = in[t + 96];
  __syncthreads();
  out[t] = q[4 * t] + q[4 * t + 1] + q[4 * t + 2] + q[4 * t + 3];
}

// Aligned to 8 bytes only, stride 4: two v2 accesses whose lanes are 16
// bytes apart: 2-way (the scalar accesses would be 4-way), one finding per
// vector, at the element with the lowest address.
__global__ void pairsOfQuad(const float *in, float *out) {
  __shared__ __align__(8) float p[1024];
  int t = threadIdx.x;
  p[4 * t] = in[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 2-way shared memory bank conflict: threads of a warp access different addresses of 'p' in the same bank [cuda-shared-bank-conflict]
  p[4 * t + 1] = in[t + 32];
  __syncthreads();
  out[t] = p[4 * t] * p[4 * t + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: up to 2-way shared memory bank conflict
}

// A plain float array is aligned to 4 bytes: nvcc keeps two scalar
// st.shared.f32, each 2-way.
__global__ void unaligned(const float *in, float *out) {
  __shared__ float u[512];
  int t = threadIdx.x;
  u[2 * t] = in[2 * t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 2-way shared memory bank conflict: threads of a warp access different addresses of 'u'
  u[2 * t + 1] = in[2 * t + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 2-way shared memory bank conflict: threads of a warp access different addresses of 'u'
  __syncthreads();
  out[t] = u[t];
}

// What keeps the accesses apart: a barrier between the two stores, a store
// to the array between two loads, a branch, an offset of unknown parity.
__global__ void kept(const float *in, float *out, int stride) {
  extern __shared__ float k[];
  int t = threadIdx.x;
  k[2 * t] = in[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 2-way shared memory bank conflict: threads of a warp access different addresses of 'k'
  __syncthreads();
  k[2 * t + 1] = in[t + 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 2-way shared memory bank conflict
  __syncthreads();
  float a = k[2 * t];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: up to 2-way shared memory bank conflict
  k[64 + t] = a;
  float b = k[2 * t + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: up to 2-way shared memory bank conflict
  if (stride > 1) {
    float c = k[2 * t - stride];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: up to 2-way shared memory bank conflict
    float d = k[2 * t + 1 - stride];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: up to 2-way shared memory bank conflict
    a += c * d;
  }
  out[t] = a * b;
}

// A re-read of an element the thread already loaded: nvcc reuses the
// register (one ld.shared for lines 1 and 3 below). Block (8, 8): rows 16
// words apart, 2-way; rows 24 words apart spread a warp's four rows of
// eight over the banks, and every finding carries the fix.
__global__ void reread(const float *in, float *out) {
  __shared__ float s[8][16];
  // CHECK-FIXES: {{^}}  __shared__ float s[8][16 + 8];{{$}}
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = ty * 8 + tx;
  s[ty][tx] = in[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 's'
  __syncthreads();
  float a = s[ty][tx] * in[i + 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 2-way shared memory bank conflict
  out[i] = a - s[ty][tx];
  // The value the thread stores is forwarded to its next load.
  s[ty][tx] = a;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict
  out[i + 64] = s[ty][tx];
}

// A re-read after a barrier, or after a store to the array, is issued
// again; one under a branch, or after one, with nothing stored in between,
// is not.
__global__ void rereadKept(const float *in, float *out, int n) {
  __shared__ float r[8][16];
  // CHECK-FIXES: {{^}}  __shared__ float r[8][16 + 8];{{$}}
  int tx = threadIdx.x, ty = threadIdx.y;
  r[ty][tx] = in[tx];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 'r'
  __syncthreads();
  float a = r[ty][tx];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 2-way shared memory bank conflict
  __syncthreads();
  a += r[ty][tx];
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 2-way shared memory bank conflict
  r[ty][(tx + 1) % 8] = a;
  a += r[ty][tx];
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 2-way shared memory bank conflict
  if (n > 2)
    a += r[ty][tx] * n;
  a += r[ty][tx];
  out[tx] = a;
}

void launch(const float *in, float *out, int n) {
  reread<<<1, dim3(8, 8)>>>(in, out);
  rereadKept<<<1, dim3(8, 8)>>>(in, out, n);
}
