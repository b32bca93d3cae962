// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Kernels that a CUDA programmer would call race-free, each the shape of a
// false alarm found on real code (issue 19), and the true races next to
// them that must stay reported.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define NT 256
#define MAX_THREADS_PER_BLOCK 512

// A read-modify-write of the thread's own element with a block stride NT:
// blocks of NT threads, which do not overlap.
__global__ void scaleOwn(float *d, int n) {
  int ei = blockIdx.x * NT + threadIdx.x;
  if (ei < n)
    d[ei] = d[ei] * 2;
}

// The same index, with a neighbour's element read: thread NT - 1 reads what
// thread 0 of the next block writes.
__global__ void shiftLeft(float *d, int n) {
  int ei = blockIdx.x * NT + threadIdx.x;
  if (ei + 1 < n)
    d[ei] = d[ei + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different blocks communicate through 'd' with no grid-wide synchronization in between; __syncthreads() cannot order them [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread 255 of block 0 reads 'd[256]', which thread 0 of block 1 writes (assuming blocks of 256 threads)
  // CHECK-NOTES: :[[@LINE-4]]:13: note: no automatic fix: only a grid-wide synchronization (a second kernel launch, or cooperative_groups grid.sync()) orders threads of different blocks
}

// The block size is a macro the launch uses: blocks of 512 threads.
__global__ void increment(int *a) {
  int i = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
  a[i] = a[i] + 1;
}

// Launched with blocks of 256: a stride of 256 per block, no overlap.
__global__ void addOne(int *a) {
  int i = blockIdx.x * 256 + threadIdx.x;
  a[i] += 1;
}

// Launched with 16x16 blocks: the rows of the tile are the block's rows.
__global__ void rowSums(const float *in, float *out) {
  __shared__ float tile[16 * 16];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * 16 + tx] = in[(blockIdx.x * 16 + ty) * 16 + tx];
  __syncthreads();
  for (int i = 1; i < 16; i *= 2) {
    if (ty % (2 * i) == 0)
      tile[ty * 16 + tx] += tile[(ty + i) * 16 + tx];
    __syncthreads();
  }
  if (ty == 0)
    out[blockIdx.x * 16 + tx] = tile[tx];
}

// A race that the launch shape makes real: every block of 64 threads reads
// its neighbour's first element before the barrier.
__global__ void neighbour(const float *in, float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:40: note: for example, thread 31 reads 's[32]', which thread 32 writes (in blocks of 64 threads, as launched here)
  // CHECK-FIXES: {{^}}  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

void launch(int *a, float *d, float *o, int n) {
  increment<<<n / MAX_THREADS_PER_BLOCK, MAX_THREADS_PER_BLOCK>>>(a);
  int threads = 256;
  addOne<<<n / 256, threads>>>(a);
  dim3 block(16, 16);
  rowSums<<<n / 16, block>>>(d, o);
  neighbour<<<n / 64, 64>>>(d, o);
}

// A pointer moved onto the thread's element: p[0] is a different element
// in every thread.
__global__ void rebased(float *p, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n)
    return;
  p = &p[x];
  p[0] = p[0] + 1.0f;
}

__global__ void advanced(float *p, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  p += x;
  p[0] = 2.0f * p[0];
}

// Pitch-linear rows: the row pointer holds y * pitch.
__global__ void pitched(float *devPtr, size_t pitch, int width, int height) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < height && c < width) {
    float *row = (float *)((char *)devPtr + r * pitch);
    row[c] = row[c] * 0.5f;
  }
}

// Cooperative groups: thread_rank() == 0 is one thread, like threadIdx.x
// == 0; block.sync() and cg::sync(grid) are barriers.
__global__ void rankGuard(float *out, const float *in, float v) {
  __shared__ float s[4];
  cg::thread_block cta = cg::this_thread_block();
  if (cta.thread_rank() == 0) {
    s[0] = v;
    out[blockIdx.x] = s[0] + in[0];
  }
}

__global__ void tileLeader(float *out, float v) {
  __shared__ float s[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  if (tile.thread_rank() == 0) {
    s[threadIdx.x / 32] = v;
    out[threadIdx.x] = s[threadIdx.x / 32];
  }
}

__global__ void gridSynced(float *buf, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[i] = i;
  cg::sync(grid);
  out[i] = buf[(i + 1) % n];
}

__global__ void blockSynced(const float *in, float *out) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  s[threadIdx.x] = in[threadIdx.x];
  block.sync();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// Without the barrier, the rank guard still lets the broadcast race.
__global__ void rankBroadcast(float *out, float v) {
  __shared__ float s[4];
  cg::thread_block cta = cg::this_thread_block();
  if (cta.thread_rank() == 0)
    s[0] = 2.0f * v;
  out[threadIdx.x] = s[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 32 reads 's[0]', which thread 0 writes (assuming blocks of 1024 threads)
  // CHECK-FIXES: {{^}}    s[0] = 2.0f * v;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

// A warp tree reduction guarded by a lane variable, __syncwarp between the
// steps: the lanes that read (lane < i) are not those that write them.
__global__ void laneTree(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[tid];
  __syncwarp();
  for (int i = 16; i > 0; i >>= 1) {
    if (lane < i)
      s[tid] += s[tid + i];
    __syncwarp();
  }
  if (lane == 0)
    out[tid / 32] = s[tid];
}

__global__ void laneTreeUnrolled(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid % 32;
  s[tid] = in[tid];
  __syncwarp();
  if (lane < 16)
    s[tid] += s[tid + 16];
  __syncwarp();
  if (lane < 8)
    s[tid] += s[tid + 8];
  __syncwarp();
  if (lane == 0)
    out[tid / 32] = s[tid];
}

// A single writer chosen by sorted keys: no static analysis can tell, so
// the warning says that it depends on the data, without a fix.
__global__ void findSlot(const int *keys, const int *key, int *slot,
                         int levels) {
  int t = threadIdx.x;
  int b = blockIdx.x;
  for (int l = 0; l < levels; l++) {
    if (keys[t] <= key[b] && key[b] < keys[t + 1]) {
      if (slot[b] < 1000)
        slot[b] = slot[b] + t;
    }
    __syncthreads();
  }
  // CHECK-MESSAGES: :[[@LINE-5]]:11: warning: threads may communicate through 'slot' with no barrier in between, depending on the data: a race unless a data-dependent condition lets only one thread at each element [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-5]]:9: note: another thread may write the element here
  // CHECK-NOTES: :[[@LINE-8]]:9: note: this condition depends on data the check cannot evaluate
}

// A pointer to the thread's column of the tile: its elements are the
// thread's own (main reported 'col[0]' as written by another thread).
__global__ void columns(const float *src, float *dst) {
  __shared__ float block[8 * 8];
  float *col = block + threadIdx.x;
  for (int i = 0; i < 8; i++)
    col[i * 8] = src[i * 8 + threadIdx.x];
  for (int i = 0; i < 8; i++)
    dst[i * 8 + threadIdx.x] = 2.0f * col[i * 8];
}
