// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low
// RUN: %check_cuda_lint -check-suffix=MIN16 %s cuda-shared-bank-conflict %t -- -config="{CheckOptions: {cuda-shared-bank-conflict.MinConflictDegree: 16}}" --min-impact=low
// (--min-impact=low: this file is a program whose main launches some of its
// kernels, so the impact model ranks the others never launched, low; the
// file tests the check, not the rank.)

#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// The tiled transpose (guide 3.2.2.3): the transposed read of the tile puts
// all 32 threads of a warp in one bank.
__global__ void transposeTiled(float *odata, const float *idata, int width,
                               int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE_DIM][TILE_DIM + 1];{{$}}
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 32-way shared memory bank conflict: threads of a warp access different addresses of 'tile' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-12]]:20: note: padding the last dimension of 'tile' by one element spreads the threads over the banks
  // CHECK-MESSAGES-MIN16: :[[@LINE-3]]:35: warning: 32-way shared memory bank conflict
  // CHECK-FIXES-MIN16: {{^}}  __shared__ float tile[TILE_DIM][TILE_DIM + 1];{{$}}
}

// Two conflicting accesses: each carries the fix, as an insertion that
// cuda-lint applies once (a literal size with one finding becomes the next
// literal).
__global__ void transposeLiteral(float *odata, const float *idata, int n) {
  __shared__ float t[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float t[32][32 + 1];{{$}}
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  t[threadIdx.y][threadIdx.x] = idata[y * n + x];
  __syncthreads();
  float a = t[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: up to 32-way shared memory bank conflict
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:13: warning: up to 32-way shared memory bank conflict
  float b = t[threadIdx.x][(threadIdx.y + 1) & 31];
  odata[(blockIdx.x * 32 + threadIdx.y) * n + blockIdx.y * 32 + threadIdx.x] = a + b;
  t[threadIdx.x][threadIdx.y] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: up to 32-way shared memory bank conflict
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:3: warning: up to 32-way shared memory bank conflict
}

// C = A * A^T (guide 3.2.2.3): the transposed tile is written column-wise.
// Only that declarator of the declaration is padded. No launch is in sight:
// aTile[threadIdx.y] and transposedTile[threadIdx.x] bound both thread
// indices by 32, so every last subscript stays in its row.
__global__ void aaT(float *c, const float *a, int m) {
  __shared__ float aTile[TILE_DIM][TILE_DIM], transposedTile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float aTile[TILE_DIM][TILE_DIM], transposedTile[TILE_DIM][TILE_DIM + 1];{{$}}
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  aTile[threadIdx.y][threadIdx.x] = a[row * TILE_DIM + threadIdx.x];
  transposedTile[threadIdx.x][threadIdx.y] =
      a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE_DIM + threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'transposedTile'
  // CHECK-MESSAGES-MIN16: :[[@LINE-3]]:3: warning: up to 32-way
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i++)
    sum += aTile[threadIdx.y][i] * transposedTile[i][threadIdx.x];
  c[row * m + col] = sum;
}

// A template over the tile size keeps the template parameter's spelling.
template <int TILE>
__global__ void transposeT(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE][TILE + 1];{{$}}
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * n + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: up to 32-way shared memory bank conflict
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:40: warning: up to 32-way
}
template __global__ void transposeT<16>(float *, const float *, int);
template __global__ void transposeT<32>(float *, const float *, int);

// A 16x16 tile read column-wise by a 16x16 block: 8-way (two rows of 16
// threads per warp, banks 0, 1, 16 and 17).
__global__ void small(float *out, const float *in) {
  __shared__ float s[16][16];
  // CHECK-FIXES: {{^}}  __shared__ float s[16][17];{{$}}
  s[threadIdx.y][threadIdx.x] = in[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 8-way shared memory bank conflict
}

// Element sizes: 8-byte elements are served in two passes of 16 threads,
// 16-byte elements in four passes of 8, bytes share a word.
__global__ void sizes(double *d, int2 *i2, float4 *f4, char *c) {
  __shared__ double dt[32][32];
  // CHECK-FIXES: {{^}}  __shared__ double dt[32][33];{{$}}
  __shared__ int2 it[32][32];
  // CHECK-FIXES: {{^}}  __shared__ int2 it[32][32 + 1];{{$}}
  __shared__ float4 ft[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float4 ft[32][33];{{$}}
  __shared__ char ct[32][32];
  // CHECK-FIXES: {{^}}  __shared__ char ct[32][33];{{$}}
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  dt[ty][tx] = d[tx];
  it[ty][tx] = i2[tx];
  ft[ty][tx] = f4[tx];
  ct[ty][tx] = c[tx];
  __syncthreads();
  d[tx] = dt[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: up to 16-way shared memory bank conflict: threads of a warp access different addresses of 'dt'
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:11: warning: up to 16-way
  i2[tx] = it[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: up to 16-way shared memory bank conflict: threads of a warp access different addresses of 'it'
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:12: warning: up to 16-way
  // One 4-byte member: the whole warp in one pass, all in one bank; padding
  // leaves a 2-way conflict, still better.
  i2[tx].x = it[tx][ty].y;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'it'
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:14: warning: up to 32-way
  f4[tx] = ft[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 'ft'
  c[tx] = ct[tx][ty];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: up to 8-way shared memory bank conflict: threads of a warp access different addresses of 'ct'
}

// A 3-D block: threadIdx.x still picks the row.
__global__ void volume(float *out) {
  __shared__ float v[2][32][32];
  // CHECK-FIXES: {{^}}  __shared__ float v[2][32][33];{{$}}
  v[threadIdx.z][threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = v[threadIdx.z][threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way shared memory bank conflict
  // CHECK-MESSAGES-MIN16: :[[@LINE-2]]:22: warning: 32-way
}

//===--- Warnings without a fix -------------------------------------------===//

// One-dimensional and dynamically sized arrays: the layout is the index.
__global__ void oneDim(float *out, int k) {
  __shared__ float s[32 * 32];
  extern __shared__ float dyn[];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32 + k];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank
  // CHECK-NOTES: :[[@LINE-6]]:20: note: no automatic fix for 's': it is one-dimensional: change its indexing to spread the threads over the banks
  // CHECK-MESSAGES-MIN16: :[[@LINE-3]]:22: warning: up to 32-way
  dyn[threadIdx.x * 16] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: up to 16-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-9]]:27: note: no automatic fix for 'dyn': it is a dynamically sized extern __shared__ array
  // CHECK-MESSAGES-MIN16: :[[@LINE-3]]:3: warning: up to 16-way
}

// The tile's address is taken: padding would change what the pointer sees.
__device__ float sumRow(const float *p, int n);
__global__ void addressTaken(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + sumRow(&tile[0][0], 32);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-5]]:20: note: no automatic fix for 'tile': its address is taken or it is used other than by subscripts
  // CHECK-MESSAGES-MIN16: :[[@LINE-3]]:22: warning: up to 32-way
}

//===--- No finding -------------------------------------------------------===//

// Already padded.
__global__ void padded(float *out) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A skewed (rotated) layout: column (tx + k) % 32 spreads the lanes.
__global__ void skewed(float *out, int k) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][(threadIdx.x + threadIdx.y) % 32] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][(threadIdx.x + k) % 32];
}

// Tiled matrix multiply, a stencil, a reduction, a histogram.
__global__ void matmulTiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[TILE_DIM][TILE_DIM], bs[TILE_DIM][TILE_DIM];
  int row = blockIdx.y * TILE_DIM + threadIdx.y;
  int col = blockIdx.x * TILE_DIM + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE_DIM; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * TILE_DIM + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * TILE_DIM + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE_DIM; ++k)
      sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

__global__ void stencil(float *out, const float *in, int nx) {
  __shared__ float sm[18][34];
  int i = blockIdx.x * 32 + threadIdx.x, j = blockIdx.y * 16 + threadIdx.y;
  sm[threadIdx.y + 1][threadIdx.x + 1] = in[j * nx + i];
  __syncthreads();
  out[j * nx + i] = sm[threadIdx.y][threadIdx.x + 1] +
                    sm[threadIdx.y + 2][threadIdx.x + 1] +
                    sm[threadIdx.y + 1][threadIdx.x] +
                    sm[threadIdx.y + 1][threadIdx.x + 2];
}

__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void histogram(unsigned *bins, const unsigned char *data, int n) {
  __shared__ unsigned hist[256];
  hist[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], hist[threadIdx.x]);
}

// Host code is never touched.
void host() {
  float tile[32][32] = {};
  for (int x = 0; x < 32; ++x)
    tile[x][0] += tile[0][x];
}

int main() {
  float *a = nullptr, *b = nullptr;
  transposeTiled<<<dim3(4, 4), dim3(TILE_DIM, BLOCK_ROWS)>>>(b, a, 128, 128);
  dim3 block16(16, 16);
  small<<<1, block16>>>(b, a);
  volume<<<1, dim3(32, 4, 2)>>>(b);
  return 0;
}
