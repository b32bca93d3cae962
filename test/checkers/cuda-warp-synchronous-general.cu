// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Races whose indices are not the thread's own index plus a constant: the
// general analysis evaluates each subscript for every thread of a model
// block (and grid, for global memory).

#define TILE 32
#define ROWS 8

// Reversal: thread t reads s[255 - t], which thread 255 - t writes.
__global__ void reverse(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  out[blockIdx.x * 256 + tid] = s[255 - tid];
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:33: note: for example, thread 0 reads 's[255]', which thread 255 writes (assuming blocks of 256 threads)
  // CHECK-FIXES: {{^}}  s[tid] = in[blockIdx.x * 256 + tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[blockIdx.x * 256 + tid] = s[255 - tid];{{$}}
}

// Rotation through a modulo: thread 31 reads s[32], thread 255 reads s[0].
__global__ void rotate(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  int next = s[(tid + 1) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, thread 31 reads 's[32]', which thread 32 writes (assuming blocks of 256 threads)
  // CHECK-FIXES: {{^}}  s[tid] = in[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  int next = s[(tid + 1) % 256];{{$}}
  out[tid] = next;
}

// The tiled transpose without its barrier (32x8 threads per 32x32 tile, the
// block shape bounded by the tile and the loop). One barrier goes before the
// loop that only reads the tile, not one per iteration.
__global__ void transpose(float *odata, const float *idata, int width) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: threads of different warps communicate through 'tile' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:34: note: for example, thread (1, 0) reads 'tile[1][0]', which thread (0, 1) writes (assuming blocks of 32x8 threads)
  // CHECK-FIXES: {{^}}  y = blockIdx.x * TILE + threadIdx.y;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  for (int j = 0; j < TILE; j += ROWS){{$}}
}

// A template: one warning for both instantiations.
template <typename T, int Tile>
__global__ void transposeT(T *odata, const T *idata, int width) {
  __shared__ T tile[Tile][Tile + 1];
  int x = blockIdx.x * Tile + threadIdx.x;
  int y = blockIdx.y * Tile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = idata[y * width + x];
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  odata[y * width + x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: threads of different warps communicate through 'tile' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:26: note: for example, thread (2, 0) reads 'tile[2][0]', which thread (0, 2) writes (assuming blocks of 16x16 threads)
  // CHECK-FIXES: {{^}}  y = blockIdx.x * Tile + threadIdx.y;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  odata[y * width + x] = tile[threadIdx.x][threadIdx.y];{{$}}
}
template __global__ void transposeT<float, 16>(float *, const float *, int);
template __global__ void transposeT<double, 32>(double *, const double *, int);

// Global memory: thread blockDim.x - 1 reads the element that thread 0 of
// the next block writes. No barrier in a block orders that: no fix.
__global__ void neighbour(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) {
    buf[i] = buf[i] * 2.0f;
    buf[i] += buf[i + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: threads of different blocks communicate through 'buf' with no grid-wide synchronization in between; __syncthreads() cannot order them [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-4]]:15: note: for example, thread 1023 of block 0 reads 'buf[1024]', which thread 0 of block 1 writes (assuming blocks of 1024 threads)
  // CHECK-NOTES: :[[@LINE-5]]:15: note: no automatic fix: only a grid-wide synchronization (a second kernel launch, or cooperative_groups grid.sync()) orders threads of different blocks
}

// A value broadcast through s[0]: thread 0 writes it, every thread reads it.
__global__ void broadcastOne(const float *in, float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  if (tid == 0)
    s[0] = in[blockIdx.x];
  float scale = s[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:17: note: for example, thread 32 reads 's[0]', which thread 0 writes (assuming blocks of 128 threads)
  // CHECK-FIXES: {{^}}    s[0] = in[blockIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float scale = s[0];{{$}}
  out[blockIdx.x * 128 + tid] = in[tid] * scale;
}

// The tiled product without the barrier at the end of the loop body: the
// next iteration overwrites the tiles while other threads still read them.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: threads of different warps communicate through 'As' across iterations of the loop with no barrier in between; missing __syncthreads() at the end of the loop body [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: another thread writes the element here in the next iteration
  // CHECK-NOTES: :[[@LINE-4]]:14: note: for example, thread (0, 0) reads 'Bs[1][0]', which thread (0, 1) writes (assuming blocks of 32x32 threads)
  // CHECK-FIXES: {{^}}      sum += As[ty][k] * Bs[k][tx];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  C[row * n + col] = sum;
}

// The same in a while loop.
__global__ void whileEdge(const float *in, float *out, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  float acc = 0.0f;
  int t = 0;
  while (t < n) {
    s[tid] = in[t + tid];
    __syncthreads();
    acc += s[127 - tid];
    t += 128;
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: threads of different warps communicate through 's' across iterations of the loop with no barrier in between; missing __syncthreads() at the end of the loop body [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: another thread writes the element here in the next iteration
  // CHECK-NOTES: :[[@LINE-5]]:12: note: for example, thread 0 reads 's[127]', which thread 127 writes (assuming blocks of 128 threads)
  // CHECK-FIXES: {{^}}    t += 128;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  out[tid] = acc;
}

// In place after a barrier: the read is hoisted, and barriers go on both
// sides of the write.
__global__ void inPlace(float *g) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = g[tid];
  __syncthreads();
  s[tid] = s[255 - tid];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  auto peer = s[255 - tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  s[tid] = peer;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  g[tid] = s[tid];
}

// Inside one warp: __syncwarp().
__global__ void laneReverse(float *out) {
  __shared__ float s[32];
  unsigned tid = threadIdx.x;
  if (tid < 32) {
    s[tid] = out[tid];
    out[tid] = s[31 - tid];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}    s[tid] = out[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    out[tid] = s[31 - tid];{{$}}
}

// Negatives.

__global__ void transposeOk(float *odata, const float *idata, int width) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void matmulOk(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

// An offset the analysis cannot know (it may be 0): not reported.
__global__ void offsetUnknown(float *out, int n) {
  __shared__ float s[512];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  out[tid] = s[tid + n];
}

// Each thread reads only what it wrote.
__global__ void ownGlobal(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i] + 1.0f;
  a[i] *= 2.0f;
}

__global__ void gridStride(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] = a[i] * 2.0f;
}

// Thread 0 reads s[0] after writing it; only thread 0 reads it.
__global__ void lane0Only(float *out) {
  __shared__ float s[64];
  if (threadIdx.x == 0) {
    s[0] = out[0];
    out[1] = s[0];
  }
}

// Host code is not device code.
__host__ void hostReverse(float *s, int tid) {
  s[tid] = 1.0f;
  s[0] = s[255 - tid];
}

// A block barrier between the write and the read orders the threads of the
// block, not those of the next one: thread blockDim.x - 1 still reads what
// thread 0 of the next block writes.
__global__ void blockBarrierOnly(float *a, const float *b, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = b[i] * 2.0f;
  __syncthreads();
  float right = a[i + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: threads of different blocks communicate through 'a' with no grid-wide synchronization in between; __syncthreads() cannot order them [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:17: note: for example, thread 1023 of block 0 reads 'a[1024]', which thread 0 of block 1 writes (assuming blocks of 1024 threads)
  // CHECK-NOTES: :[[@LINE-4]]:17: note: no automatic fix: only a grid-wide synchronization (a second kernel launch, or cooperative_groups grid.sync()) orders threads of different blocks
  out[i] = right;
}

// A grid-wide sync, and a fence before an atomic flag (the last block reads
// what the others published), order blocks.
namespace cooperative_groups {
struct grid_group {
  __device__ void sync();
};
__device__ grid_group this_grid();
} // namespace cooperative_groups

__global__ void gridSynced(float *a) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i] + a[i + 1];
  grid.sync();
  a[i] = 0.5f * v;
}

__global__ void lastBlock(float *partial, float *out, unsigned *count) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    __threadfence();
    unsigned t = atomicInc(count, gridDim.x);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float s = 0;
    for (int b = 0; b < 64; ++b)
      s += partial[b];
    out[0] = s;
  }
}

// Macros: a read written in a macro still gets the barrier on the line
// before its statement; a statement that is all macro gets none.
#define READ_REV(a, i) a[255 - (i)]
#define REVERSE_INTO(o, a, i) o[i] = a[255 - (i)]
__global__ void reverseMacro(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  out[tid] = READ_REV(s, tid);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  s[tid] = in[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[tid] = READ_REV(s, tid);{{$}}
}

__global__ void reverseAllMacro(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  REVERSE_INTO(out, s, tid);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: no automatic fix: the statement is written in a macro
}

// Deep definition chains and nested loops: the evaluation is bounded (the
// write under three loops of 100 is left out), and what it can evaluate is
// still checked: threads 0..99 write a[tid] while every thread reads a[p].
__global__ void bounded(float *a) {
  __shared__ float s[1024];
  int i = threadIdx.x;
  i = i * 2 + i;
  i = i * 2 + i;
  i = i * 2 + i;
  i = i * 2 + i;
  for (int p = 0; p < 100; ++p)
    for (int q = 0; q < 100; ++q)
      for (int r = 0; r < 100; ++r)
        s[(p + q + r + threadIdx.x) % 1024] = a[p];
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: threads of different warps communicate through 'a' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:47: note: for example, thread 0 reads 'a[32]', which thread 32 writes (assuming blocks of 1024 threads)
  a[threadIdx.x] = s[(i + 1) % 1024];
}

// Loops with a barrier: accesses of one iteration meet only that iteration's
// (and, across the back edge, the next one's). Double buffering and one row
// per iteration do not race.
__global__ void doubleBuffer(const float *in, float *out) {
  __shared__ float buf[2][256];
  int tid = threadIdx.x;
  float acc = 0;
  for (int t = 0; t < 8; ++t) {
    buf[t & 1][tid] = in[t * 256 + tid];
    __syncthreads();
    acc += buf[t & 1][(tid + 1) % 256];
  }
  out[tid] = acc;
}

__global__ void rowPerIteration(const float *in, float *out) {
  __shared__ float s[8][256];
  int tid = threadIdx.x;
  for (int t = 0; t < 8; ++t) {
    s[t][tid] = in[t * 256 + tid];
    __syncthreads();
    out[t * 256 + tid] = s[t][255 - tid];
  }
}

// ...but one buffer reused by every iteration does.
__global__ void singleBuffer(const float *in, float *out) {
  __shared__ float buf[2][256];
  int tid = threadIdx.x;
  float acc = 0;
  for (int t = 0; t < 8; ++t) {
    buf[t & 1][tid] = in[t * 256 + tid];
    __syncthreads();
    acc += buf[(t + 1) & 1][(tid + 1) % 256];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: threads of different warps communicate through 'buf' across iterations of the loop with no barrier in between; missing __syncthreads() at the end of the loop body [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}    acc += buf[(t + 1) & 1][(tid + 1) % 256];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  out[tid] = acc;
}

// A block reduction through per-warp partials and a halo'd stencil tile,
// both with their barriers: nothing to report.
__global__ void blockReduce(const float *in, float *out) {
  __shared__ float warpSums[32];
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  float v = in[blockIdx.x * blockDim.x + tid];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpSums[lane] : 0;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

__global__ void haloStencil(const float *in, float *out) {
  __shared__ float tile[256 + 2];
  int g = blockIdx.x * 256 + threadIdx.x;
  tile[threadIdx.x + 1] = in[g];
  if (threadIdx.x == 0)
    tile[0] = in[g - 1];
  if (threadIdx.x == 255)
    tile[257] = in[g + 1];
  __syncthreads();
  out[g] = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2];
}
