// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low

// Where a pad of one element does not help, the least pad (up to a bank
// period, 32 words) that gives the best worst access is offered, on every
// finding of the declaration (as an insertion: cuda-lint applies it once).

#include <cuda_runtime.h>

#define NDIM 8
#define R 4

// A 3-D stencil tile of 16 floats a row read by (8, 8, 8) blocks: a warp is
// eight lanes of x by four rows of y, rows 16 words apart, so rows y and
// y + 2 meet in the same banks (2-way). Rows 17 apart keep rows y and y + 2
// overlapping; rows 24 apart put the four rows in banks 0-7, 24-31, 16-23
// and 8-15.
__global__ void stencil(const float *u, float *v, int n) {
  __shared__ float s_u[NDIM + 2 * R][NDIM + 2 * R][NDIM + 2 * R];
  // CHECK-FIXES: {{^}}  __shared__ float s_u[NDIM + 2 * R][NDIM + 2 * R][NDIM + 2 * R + 8];{{$}}
  int tk = threadIdx.x, tj = threadIdx.y, ti = threadIdx.z;
  int i = blockIdx.z * NDIM + ti, j = blockIdx.y * NDIM + tj,
      k = blockIdx.x * NDIM + tk;
  int g = (i * n + j) * n + k;
  s_u[ti + R][tj + R][tk + R] = u[g];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 's_u' in the same bank [cuda-shared-bank-conflict]
  s_u[ti][tj + R][tk + R] = u[g - R * n * n];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict
  __syncthreads();
  v[g] = s_u[ti + R][tj + R][tk + R + 1] + s_u[ti + R][tj + R][tk + R - 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 2-way shared memory bank conflict
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: 2-way shared memory bank conflict
}

// A 5-point Jacobi tile with a halo, 18 floats a row, read by 16x16 blocks:
// the two rows of a warp are 18 words apart and meet in banks 0 and 1; rows
// 48 words apart (16 mod 32) do not.
__global__ void jacobi(const float *f, float *g, int n) {
  __shared__ float tile[18][18];
  // CHECK-FIXES: {{^}}  __shared__ float tile[18][18 + 30];{{$}}
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y + 1][threadIdx.x + 1] = f[y * n + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 'tile'
  __syncthreads();
  g[y * n + x] = 0.25f * (tile[threadIdx.y][threadIdx.x + 1] +
                          tile[threadIdx.y + 2][threadIdx.x + 1]);
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: 2-way shared memory bank conflict
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: 2-way shared memory bank conflict
}

// A small 3-D tile whose warp holds two planes of four rows of four: no pad
// spreads the eight rows over the banks (rows 5z + y for z < 2, y < 4 meet
// for every row length), so there is no fix, and the note says why.
__global__ void cubes(const float *f, float *g) {
  __shared__ float value[9][5][5];
  value[threadIdx.z][threadIdx.y][threadIdx.x] = f[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 'value' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-3]]:20: note: no automatic fix for 'value': padding its last dimension by up to 32 elements would not reduce the conflict
  __syncthreads();
  g[threadIdx.x] = value[threadIdx.z][threadIdx.y][threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 2-way shared memory bank conflict
}

// Dynamic shared memory, whose size is not known here, next to the tile:
// only the pad of one element is considered, and it does not help.
__global__ void withDynamic(const float *f, float *g, int n) {
  extern __shared__ float scratch[];
  __shared__ float tile[18][18];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y + 1][threadIdx.x + 1] = f[y * n + x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 'tile'
  // CHECK-NOTES: :[[@LINE-4]]:20: note: no automatic fix for 'tile': padding its last dimension by one element would not reduce the conflict
  scratch[threadIdx.y * 16 + threadIdx.x] = 0.0f;
  __syncthreads();
  g[y * n + x] = tile[threadIdx.y + 1][threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 2-way shared memory bank conflict
}

// A tile that fills the 48 KiB of static shared memory: no room to pad.
__global__ void full(const float *f, float *g) {
  __shared__ float big[96][128];
  big[threadIdx.x][threadIdx.y] = f[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'big'
  // CHECK-NOTES: :[[@LINE-3]]:20: note: no automatic fix for 'big': padding it would take the kernel past 48 KiB of static shared memory
  __syncthreads();
  g[threadIdx.x] = big[threadIdx.y][threadIdx.x];
}

void launch(const float *f, float *g, int n) {
  stencil<<<dim3(4, 4, 4), dim3(8, 8, 8)>>>(f, g, n);
  jacobi<<<dim3(4, 4), dim3(16, 16)>>>(f, g, n);
  cubes<<<1, dim3(4, 4, 8)>>>(f, g);
  withDynamic<<<dim3(4, 4), dim3(16, 16), 1024>>>(f, g, n);
}
