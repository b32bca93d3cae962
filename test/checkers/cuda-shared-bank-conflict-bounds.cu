// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low
// (--min-impact=low: some kernels here access once per thread beside a loop,
// which the impact model ranks low; this file tests the check, not the rank.)

// The padding fix keeps every element in place only when every last
// subscript is provably within [0, C); the block shape, where no launch
// makes it known, is bounded by __launch_bounds__ and by the arrays that
// threadIdx indexes, and the degree is then reported as a bound.

#include <cuda_runtime.h>

// A row-overflowing subscript: t[0][tid] writes all 1024 elements through
// row 0, and padding would move elements 32 and up of that row.
__global__ void flat(float *out, const float *in) {
  __shared__ float t[32][32];
  int tid = threadIdx.y * 32 + threadIdx.x;
  t[0][tid] = in[tid];
  __syncthreads();
  out[tid] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-6]]:20: note: no automatic fix for 't': its last subscript 'tid' is not provably within [0, 32), and padding would change which element an index outside that range addresses
}

// Nothing bounds threadIdx.y by 64.
__global__ void wide(float *out) {
  __shared__ float t[32][64];
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-3]]:20: note: no automatic fix for 't': its last subscript 'threadIdx.y' is not provably within [0, 64)
}

// __launch_bounds__(32): at most 32 threads in any dimension.
__global__ void __launch_bounds__(32) bounded(float *out) {
  __shared__ float t[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float t[32][33];{{$}}
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-4]]:20: note: padding the last dimension of 't' by one element spreads the threads over the banks
}

// No launch: s[threadIdx.x] bounds blockDim.x by 16, so a warp spans two
// rows of threadIdx.y: up to 8-way (the degree of a 16x16 block), not the
// 16-way a 32-wide block would give.
__global__ void smallNoLaunch(float *out) {
  __shared__ float s[16][16];
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
  s[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 8-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-6]]:20: note: padding the last dimension of 's' by one element spreads the threads over the banks
}

// Same with __launch_bounds__(256), which gives a bound, not a shape.
__global__ void __launch_bounds__(256) smallBounded(float *out) {
  __shared__ float s[16][16];
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
  s[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 8-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-6]]:20: note: padding the last dimension of 's' by one element spreads the threads over the banks
}

// Launched with a 32x16 block: threadIdx.y + j reaches 15 + 24 = 39, past
// the row (with BLOCK_ROWS 8 it would stop at 31).
__global__ void loopTooFar(float *out, const float *in) {
  __shared__ float tile[32][32];
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(threadIdx.y + j) * 32 + threadIdx.x];
  __syncthreads();
  for (int j = 0; j < 32; j += 8)
    out[(threadIdx.y + j) * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
    // CHECK-NOTES: :[[@LINE-1]]:49: warning: 32-way shared memory bank conflict
    // CHECK-NOTES: :[[@LINE-7]]:20: note: no automatic fix for 'tile': its last subscript 'threadIdx.y + j' is not provably within [0, 32)
}

// Only an access every thread executes bounds the block: the one after the
// early return does not, and threads 32 and up write past row 0 before it.
__global__ void exitFirst(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  if (threadIdx.x >= 32)
    return;
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-6]]:20: note: no automatic fix for 't': its last subscript 'threadIdx.x' is not provably within [0, 32)
}

// `x % 32` of an unsigned value and `x & 31` stay in the row; `s % 32` of a
// signed s may be negative.
__global__ void modulo(float *out, unsigned k, int s) {
  __shared__ float t[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float t[32][32 + 1];{{$}}
  __shared__ float u[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  u[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][k % 32] + t[threadIdx.x][(k + s) & 31];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-8]]:20: note: padding the last dimension of 't'
  // CHECK-MESSAGES: :[[@LINE-3]]:47: warning: up to 32-way shared memory bank conflict
  out[threadIdx.x] = u[threadIdx.x][s % 32];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-10]]:20: note: no automatic fix for 'u': its last subscript 's % 32' is not provably within [0, 32)
}

// threadIdx.x in the last subscript with a stride of 32: padding the rows
// cannot help.
__global__ void lastSubscript(float *out) {
  __shared__ float t[4][1024];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x * 32];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-5]]:20: note: no automatic fix for 't': threadIdx.x moves only its last subscript: padding the rows does not spread one row over the banks
}

// A __shared__ array at namespace scope: reported in every function that
// uses it, not rewritten.
__shared__ float gtile[32][32];
__global__ void nsShared(float *out) {
  gtile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = gtile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'gtile' in the same bank
  // CHECK-NOTES: :[[@LINE-6]]:18: note: no automatic fix for 'gtile': it is declared at namespace scope, where code elsewhere may depend on its layout
}
__device__ float nsRead(int k) { return gtile[threadIdx.x][k]; }
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'gtile'

void launch(float *out, const float *in) {
  loopTooFar<<<1, dim3(32, 16)>>>(out, in);
}

// A partial sum per thread of an (8, 8) block launched in another file,
// after an exit that only the block index decides: every thread of a block
// that goes on writes part[threadIdx.x * 8 + threadIdx.y], and the threads
// with threadIdx.y == 0 bound threadIdx.x by 7. Doubles, 16 lanes a pass:
// 4-way, not the 8-way a 32-wide block would give.
__global__ void partialSums(const double *in, double *out, int n) {
  __shared__ double part[8 * 8];
  if (blockIdx.x >= n)
    return;
  part[threadIdx.x * 8 + threadIdx.y] =
      in[blockIdx.x * 64 + threadIdx.y * 8 + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: up to 4-way shared memory bank conflict: threads of a warp access different addresses of 'part' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-6]]:21: note: no automatic fix for 'part': it is one-dimensional: change its indexing to spread the threads over the banks
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    double s = 0;
    for (int k = 0; k < 64; ++k)
      s += part[k];
    out[blockIdx.x] = s;
  }
}

// An exit that the thread index decides: the threads that go on need not
// include threadIdx.y == 0, so nothing bounds threadIdx.x.
__global__ void partialSumsGuarded(const double *in, double *out, int n) {
  __shared__ double part[8 * 8];
  if (threadIdx.y >= n)
    return;
  part[threadIdx.x * 8 + threadIdx.y] = in[threadIdx.y * 8 + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 'part' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-5]]:21: note: no automatic fix for 'part': it is one-dimensional
  __syncthreads();
  out[threadIdx.x] = part[threadIdx.x];
}

// A separable convolution's row pass (after the CUDA samples'
// convolutionSeparable): a 16x4 block, rows of 160 floats, so the two
// threadIdx.y rows of a warp share their banks; a pad of 16 (not 1) moves
// the second row to the other half of the banks. The halo loop's counter
// starts below zero, and the last subscript still stays within its row:
// lidX + i * 16 + j is in [8, 151].
#define RADIUS 8
__global__ void convRows(float *dst, const float *src) {
  __shared__ float rows[4][10 * 16];
  // CHECK-FIXES: {{^}}  __shared__ float rows[4][10 * 16 + 16];{{$}}
  int lidX = threadIdx.x, lidY = threadIdx.y;
  for (int i = 1; i < 9; i++)
    rows[lidY][lidX + i * 16] = src[i * 16];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 'rows' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-6]]:20: note: padding the last dimension of 'rows' by 16 elements spreads the threads over the banks
  __syncthreads();
  for (int i = 1; i < 9; i++) {
    float sum = 0;
    for (int j = -RADIUS; j <= RADIUS; j++)
      sum += rows[lidY][lidX + i * 16 + j];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: 2-way shared memory bank conflict
    dst[i * 16] = sum;
  }
}

// The same with the halo loop one step wider on the left: i = 0, j = -9
// reaches before the row's start, so padding could move an element.
__global__ void convRowsOut(float *dst, const float *src) {
  __shared__ float rows[4][10 * 16];
  for (int i = 1; i < 9; i++)
    rows[threadIdx.y][threadIdx.x + i * 16] = src[i * 16];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 2-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-4]]:20: note: no automatic fix for 'rows': its last subscript 'threadIdx.x + i * 16 + j' is not provably within [0, 160)
  __syncthreads();
  float sum = 0;
  for (int i = 0; i < 9; i++)
    for (int j = -9; j <= RADIUS; j++)
      sum += rows[threadIdx.y][threadIdx.x + i * 16 + j];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 2-way shared memory bank conflict
  dst[0] = sum;
}

void launchConv(float *dst, const float *src) {
  convRows<<<64, dim3(16, 4)>>>(dst, src);
  convRowsOut<<<64, dim3(16, 4)>>>(dst, src);
}
