// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low

#include <cuda_runtime.h>

// The degree counts only the lanes that reach the access: thread-index
// guards (`if`, early `return`) keep the others out.
#define TILE 32

// Thread 0 of each row writes its column's first element: under `tx == 0`
// one lane of each warp reads the transposed tile, no conflict. Under
// `ty == 0` the whole first warp does: 32 lanes in one bank.
__global__ void firstColumn(float *colOut, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.y * TILE + ty) * n + blockIdx.x * TILE + tx];
  __syncthreads();
  if (tx == 0)
    colOut[blockIdx.x * TILE + ty] = tile[tx][ty];
  if (ty == 0)
    colOut[blockIdx.x * TILE + tx] += tile[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 32-way shared memory bank conflict: threads of a warp access different addresses of 'tile' in the same bank [cuda-shared-bank-conflict]
}

// A stride-6 read by the 16 lanes the guard lets in: 6 * lane mod 32 takes
// 16 different banks, no conflict (all 32 lanes would be 2-way).
__global__ void sixWide(float *out, const float *in) {
  __shared__ float buf[16 * 6];
  int idx = threadIdx.x;
  if (idx < 16 * 6)
    buf[idx] = in[idx];
  __syncthreads();
  if (idx >= 16)
    return;
  out[idx] = buf[idx * 6];
}
__global__ void sixWideIf(float *out, const float *in) {
  __shared__ float buf[32 * 6];
  int idx = threadIdx.x;
  buf[idx] = in[idx];
  __syncthreads();
  if (idx < 16)
    out[idx] = buf[idx * 6];
  out[idx] += buf[idx * 6];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 'buf' in the same bank [cuda-shared-bank-conflict]
}

// Launch shapes resolved: a `dim3` assigned before the launch (the last
// assignment counts), members set one by one, and a kernel declared before
// its launch and defined after it. 16 wide: 8-way, not "up to 16-way".
__global__ void columns16(float *out, const float *in);
__global__ void columnsSet(float *out, const float *in);
void launch(float *o, const float *i, int n) {
  dim3 blocks, threads;
  threads = dim3(32);
  blocks = dim3(n);
  threads = dim3(16, 16);
  columns16<<<blocks, threads>>>(o, i);
  dim3 shape;
  shape.x = 16;
  shape.y = 16;
  columnsSet<<<n, shape>>>(o, i);
  firstColumn<<<dim3(n, n), dim3(TILE, TILE)>>>(o, i, n);
  sixWide<<<n, 32>>>(o, i);
  sixWideIf<<<n, 32>>>(o, i);
}
__global__ void columns16(float *out, const float *in) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  out[ty * 16 + tx] = s[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 8-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
}
__global__ void columnsSet(float *out, const float *in) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  out[ty * 16 + tx] = s[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 8-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
}

// The extents read through local integers that nothing changes (the
// evaluation of KernelLaunches, shared with the other checks).
__global__ void columnsLocal(float *out, const float *in) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  out[ty * 16 + tx] = s[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 8-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
}
void launchLocal(float *o, const float *i, int n) {
  int w = 16;
  dim3 threads(w, w);
  columnsLocal<<<n, threads>>>(o, i);
}

// Shapes that stay unknown: changed under a branch before the launch.
__global__ void columnsMaybe(float *out, const float *in) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = in[ty * 16 + tx];
  __syncthreads();
  out[ty * 16 + tx] = s[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
}
void launchMaybe(float *o, const float *i, int n, bool wide) {
  dim3 threads(16, 16);
  if (wide)
    threads.x = 8;
  columnsMaybe<<<n, threads>>>(o, i);
}
