// RUN: %check_cuda_lint %s cuda-shared-bank-conflict %t -- -- -DTILE=16 -DROWS=16

// Tile sizes from the command line, a 16x16 block known from the launches:
// a warp is two rows of 16 threads, so a column-wise read of a [16][16] tile
// is 8-way (banks 0, 1, 16 and 17).

#define DECLARE_TILE(name) __shared__ float name[TILE][TILE]

// Declared by a macro: reported, not rewritten.
__global__ void macroDecl(float *out, const float *in) {
  DECLARE_TILE(t);
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: 8-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES: :[[@LINE-5]]:16: note: no automatic fix for 't': its declaration is written in a macro
}

// A size with a shift is parenthesised before the padding.
__global__ void shifted(float *out, const float *in) {
  __shared__ float w[TILE][2 * TILE >> 1];
  // CHECK-FIXES: {{^}}  __shared__ float w[TILE][(2 * TILE >> 1) + 1];{{$}}
  w[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = w[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 8-way shared memory bank conflict
}

// A template instantiated with the macro's value, launched with a 16x16
// block.
template <int N>
__global__ void transposeT(float *out, const float *in) {
  __shared__ float tile[N][N];
  // CHECK-FIXES: {{^}}  __shared__ float tile[N][N + 1];{{$}}
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 8-way shared memory bank conflict
}

// Row-wise and padded: nothing to report.
__global__ void rowWise(float *out, const float *in) {
  __shared__ float r[TILE][TILE + 1];
  r[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] =
      r[threadIdx.y][threadIdx.x] + r[threadIdx.x][threadIdx.y];
}

void launchAll(float *out, const float *in) {
  dim3 block(TILE, ROWS);
  macroDecl<<<1, block>>>(out, in);
  shifted<<<1, block>>>(out, in);
  transposeT<TILE><<<1, block>>>(out, in);
  rowWise<<<1, block>>>(out, in);
}
