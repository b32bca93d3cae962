// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// The elements each thread writes bound the block where no launch says how
// large it is. An 8x8 DCT over macro-blocks of sixteen 8x8 tiles: thread
// (x, y) loads column x of tile y, elements y * 64 + x + 8 i for i = 0..7,
// so a thread 8 in x would write thread 0's elements; the blocks are 8
// threads wide (here dim3(8, 16), made by the caller in another file). Each
// thread then scales and stores its own column: no thread reads another's
// element. The early return (a tile past the end) depends on threadIdx.y and
// the size, which the check cannot evaluate.
#define TILE 8
#define TILES 16
#define TILE_STRIDE (TILE * TILE)

__global__ void scaleColumns(float *dst, const float *src, unsigned size) {
  __shared__ float block[TILES * TILE_STRIDE + 8];
  if (blockIdx.x * TILES * TILE_STRIDE + (threadIdx.y + 1) * TILE_STRIDE - 1 >=
      size)
    return;
  int offset = threadIdx.y * TILE_STRIDE + threadIdx.x;
  src += blockIdx.x * TILES * TILE_STRIDE + offset;
  dst += blockIdx.x * TILES * TILE_STRIDE + offset;
  float *col = block + offset;
  for (unsigned i = 0; i < TILE; i++)
    col[i * TILE] = src[i * TILE];
  for (unsigned i = 0; i < TILE; i++)
    col[i * TILE] *= 0.5f * (i + 1);
  for (unsigned i = 0; i < TILE; i++)
    dst[i * TILE] = col[i * TILE];
}

extern "C" void runScaleColumns(float *dst, const float *src, unsigned size,
                                dim3 threads, dim3 blocks) {
  scaleColumns<<<blocks, threads>>>(dst, src, size);
}

// The same tile walked by rows after the column load: thread x reads row x
// of its tile, which the other seven threads of its group of 8 (lanes of
// the same warp) wrote. Still a race in blocks 8 threads wide.
__global__ void rowsAfterColumns(float *dst, const float *src,
                                 unsigned size) {
  __shared__ float block[TILES * TILE_STRIDE + 8];
  if (blockIdx.x * TILES * TILE_STRIDE + (threadIdx.y + 1) * TILE_STRIDE - 1 >=
      size)
    return;
  int offset = threadIdx.y * TILE_STRIDE + threadIdx.x;
  src += blockIdx.x * TILES * TILE_STRIDE + offset;
  dst += blockIdx.x * TILES * TILE_STRIDE + offset;
  float *col = block + offset;
  for (unsigned i = 0; i < TILE; i++)
    col[i * TILE] = src[i * TILE];
  float sum = 0.0f;
  for (unsigned i = 0; i < TILE; i++)
    sum += block[threadIdx.y * TILE_STRIDE + threadIdx.x * TILE + i];
  dst[0] = sum;
}
// CHECK-MESSAGES: :[[@LINE-3]]:12: warning: lanes of a warp communicate through 'block' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]

extern "C" void runRowsAfterColumns(float *dst, const float *src,
                                    unsigned size, dim3 threads, dim3 blocks) {
  rowsAfterColumns<<<blocks, threads>>>(dst, src, size);
}

// A thread that writes a strided run of its own elements: thread t writes
// t, t + 256, t + 512 and t + 768 of a 2048-element array, so blocks have
// at most 256 threads (a thread 256 would write thread 0's elements), and
// s[t + 512] is the thread's own third element (for 1024 threads it would
// be thread t + 512's first).
__global__ void stridedOwn(const float *in, float *out) {
  __shared__ float s[2048];
  for (int i = 0; i < 4; ++i)
    s[threadIdx.x + 256 * i] = in[blockIdx.x * 1024 + threadIdx.x + 256 * i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x + 512];
}

// The neighbour's element instead: thread t + 1 writes it, of the same or
// the next warp: a race between warps.
__global__ void stridedNeighbour(const float *in, float *out) {
  __shared__ float s[2048];
  for (int j = 0; j < 4; ++j)
    s[threadIdx.x + 256 * j] = in[blockIdx.x * 1024 + threadIdx.x + 256 * j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
// CHECK-MESSAGES: :[[@LINE-2]]:48: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}    s[threadIdx.x + 256 * j] = in[blockIdx.x * 1024 + threadIdx.x + 256 * j];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
