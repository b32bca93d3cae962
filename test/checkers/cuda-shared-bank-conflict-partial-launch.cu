// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low
// (--min-impact=low: some stores here run once per thread, which the impact
// model ranks low; this file tests the degrees, not the rank.)

#include <cuda_runtime.h>

// A block whose z extent is known only at run time keeps its constant x
// and y: the warps are formed from them. Launched with dim3(4, 8, z), the
// 32 lanes of a warp are 4 values of x times 8 of y, and
// S[k][x + 4 * it][y] takes 32 consecutive words: no conflict.
#define DEPTH 4
__global__ void stencilPlanes(float *out, const float *in, int iters) {
  __shared__ float S[DEPTH][4 * DEPTH][8];
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  for (int k = 0; k < DEPTH; ++k)
    for (int it = 0; it < DEPTH; ++it)
      S[k][x + 4 * it][y] = in[((z * DEPTH + k) * 16 + x + 4 * it) * 8 + y];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < DEPTH; ++k)
    for (int it = 0; it < DEPTH; ++it)
      acc += S[k][x + 4 * it][y];
  out[(z * 4 + x) * 8 + y] = acc;
}

// The same kernel with an x extent of 32: lanes differ in x only, and
// S2[x][y] with 8-float rows puts every fourth lane in one bank: 8-way (a
// bound, 'up to', as the z extent is not known).
__global__ void stencilWide(float *out, const float *in) {
  __shared__ float S2[32][8];
  int x = threadIdx.x, y = threadIdx.y;
  S2[x][y] = in[x * 8 + y];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 'S2' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-4]]:20: note: padding the last dimension of 'S2' by one element spreads the threads over the banks
  // CHECK-FIXES: {{^}}  __shared__ float S2[32][8 + 1];{{$}}
  __syncthreads();
  out[y * 32 + x] = S2[x][y];
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 'S2' in the same bank [cuda-shared-bank-conflict]
}

// A walk whose active lanes grow with the loop counter: `lane <= k` lets
// in 1, 2, ... 32 lanes, and the stride-8 access conflicts 1-way to
// 8-way. The degree is the most it reaches: "up to".
__global__ void triangle(float *out, const float *in) {
  __shared__ float T[32 * 8];
  int lane = threadIdx.x;
  T[lane * 8] = in[lane];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 8-way shared memory bank conflict: threads of a warp access different addresses of 'T' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-4]]:20: note: no automatic fix for 'T': it is one-dimensional: change its indexing to spread the threads over the banks
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 32; ++k)
    if (lane <= k)
      acc += T[lane * 8];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 'T' in the same bank [cuda-shared-bank-conflict]
  out[lane] = acc;
}

void launch(float *out, const float *in, int planes) {
  stencilPlanes<<<1, dim3(4, 8, planes)>>>(out, in, 4);
  dim3 wide(32, 8, planes);
  stencilWide<<<1, wide>>>(out, in);
  triangle<<<1, 32>>>(out, in);
}
