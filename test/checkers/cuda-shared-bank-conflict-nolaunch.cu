// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- --min-impact=low
// (--min-impact=low: some kernels here access once per thread beside a loop,
// which the impact model ranks low; this file tests the check, not the rank.)

// Padding without a launch in sight: the subscripts that every thread
// executes bound the thread indices (an access outside the whole array is
// undefined), so the last subscripts stay in their rows. Loop counters count
// with every value they take: `tile[threadIdx.y + j]` for j = 0, 8, 16, 24 in
// a 32-row tile means threadIdx.y < 8.

#define TILE_DIM 32
#define BLOCK_ROWS 8

// NVIDIA's transposeCoalesced, launched in another file.
__global__ void transposeCoalesced(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE_DIM][TILE_DIM + 1];{{$}}
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-NOTES: :[[@LINE-1]]:34: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'tile' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-13]]:20: note: padding the last dimension of 'tile' by one element spreads the threads over the banks
}

// The CUDA samples' transpose, stored in a function pointer and launched
// through it: no launch of the kernel itself.
__global__ void transposeSample(float *odata, float *idata, int width,
                                int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE_DIM][TILE_DIM + 1];{{$}}
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'tile' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-14]]:20: note: padding the last dimension of 'tile' by one element spreads the threads over the banks
}

void runTranspose(float *out, float *in) {
  void (*kernel)(float *, float *, int, int);
  kernel = &transposeSample;
  kernel<<<dim3(4, 4), dim3(TILE_DIM, BLOCK_ROWS)>>>(out, in, 128, 128);
}

// C = AA^T (guide 3.2.2.3), no launch.
__global__ void coalescedMultiply(float *a, float *c, int M) {
  __shared__ float aTile[TILE_DIM][TILE_DIM],
      transposedTile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}      transposedTile[TILE_DIM][TILE_DIM + 1];{{$}}
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  aTile[threadIdx.y][threadIdx.x] = a[row * TILE_DIM + threadIdx.x];
  transposedTile[threadIdx.x][threadIdx.y] =
      a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE_DIM + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'transposedTile' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: padding the last dimension of 'transposedTile' by one element spreads the threads over the banks
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i++)
    sum += aTile[threadIdx.y][i] * transposedTile[i][threadIdx.x];
  c[row * M + col] = sum;
}

// A templated matrix-multiply tile read column-wise.
template <int BS>
__global__ void matmulAtB(float *C, const float *A, int n) {
  __shared__ float As[BS][BS];
  // CHECK-FIXES: {{^}}  __shared__ float As[BS][BS + 1];{{$}}
  int tx = threadIdx.x, ty = threadIdx.y;
  As[ty][tx] = A[ty * n + tx];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < BS; ++k)
    s += As[k][ty] * As[tx][k];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 'As' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-9]]:20: note: padding the last dimension of 'As' by one element spreads the threads over the banks
  C[ty * n + tx] = s;
}
template __global__ void matmulAtB<32>(float *, const float *, int);
template __global__ void matmulAtB<16>(float *, const float *, int);

// Negatives. One past the row: threadIdx.y + j + 1 reaches 32 when
// threadIdx.y is 7, so padding would move an element.
__global__ void pastTheRow(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[threadIdx.x] = tile[threadIdx.x][threadIdx.y + j + 1];
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-7]]:20: note: no automatic fix for 'tile': its last subscript 'threadIdx.y + j + 1' is not provably within [0, 32)
}

// A loop that may stop early, or run any number of times, bounds nothing.
__global__ void earlyExit(float *odata, const float *idata, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    tile[threadIdx.y + j][threadIdx.x] = idata[threadIdx.x];
    if (idata[j] < 0)
      break;
  }
  __syncthreads();
  for (int j = 0; j < n; j += BLOCK_ROWS)
    odata[threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-10]]:20: note: no automatic fix for 'tile': its last subscript 'threadIdx.x' is not provably within [0, 32)
}

// A first subscript under a thread-dependent condition bounds only the
// threads that take the branch.
__global__ void conditional(float *odata, const float *idata, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  if (threadIdx.y < n)
    tile[threadIdx.y][threadIdx.x] = idata[threadIdx.x];
  __syncthreads();
  odata[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-6]]:20: note: no automatic fix for 'tile': its last subscript 'threadIdx.y' is not provably within [0, 32)
}

// Already padded: not reported.
__global__ void padded(float *odata, const float *idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
}

// Declared in a macro: reported, not rewritten.
#define DECLARE_TILE(name) __shared__ float name[TILE_DIM][TILE_DIM]
__global__ void macroTile(float *odata, const float *idata) {
  DECLARE_TILE(tile);
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[threadIdx.x];
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: up to 32-way shared memory bank conflict
  // CHECK-NOTES: :[[@LINE-7]]:16: note: no automatic fix for 'tile': its declaration is written in a macro
}

// A C-style loop counter (several definitions, each uniform) in the row
// subscript: the column-wise read is seen, and the counter's loop bounds it.
__global__ void cStyleCounter(float *out, const float *in) {
  __shared__ float t[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float t[TILE_DIM][TILE_DIM + 1];{{$}}
  int k;
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float s = 0;
  for (k = 0; k < TILE_DIM; k++)
    s += t[threadIdx.x][k];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-9]]:20: note: padding the last dimension of 't' by one element spreads the threads over the banks
  // A counter that a divergent break leaves different in each thread:
  // unknown, not reported.
  int m;
  for (m = 0; m < TILE_DIM; m++)
    if (in[threadIdx.x] > 0)
      break;
  out[threadIdx.x] = s + t[m][0];
}

// A C-style counter that its loop's body also changes: not bounded.
__global__ void cStyleChanged(float *out, const float *in, int n) {
  __shared__ float t[TILE_DIM][TILE_DIM];
  int k;
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float s = 0;
  for (k = 0; k < TILE_DIM; k++) {
    s += t[threadIdx.x][k];
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
    // CHECK-NOTES: :[[@LINE-8]]:20: note: no automatic fix for 't': its last subscript 'k' is not provably within [0, 32)
    if (n > 4)
      k += 2;
  }
  out[threadIdx.x] = s;
}
