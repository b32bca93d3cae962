// RUN: %check_cuda_lint -no-compile %s cuda-launch-shape %t

// One-warp blocks are short of the 64-thread minimum only through the limit
// of 32 resident blocks per multiprocessor. Where shared memory already
// holds a multiprocessor to fewer than 32 blocks (228 KB per multiprocessor
// on sm_90, 1 KB reserved per block: more than about 6 KB per block), or
// where the whole grid fits at once, that limit cannot bind.

#define TILE_FLOATS 2304 // 9 KB of floats
#define COUNT 3072

__global__ void stagedRows(const float *in, float *out, int n) {
  __shared__ float tile[TILE_FLOATS];
  for (int i = threadIdx.x; i < TILE_FLOATS; i += 32)
    tile[i] = in[blockIdx.x * TILE_FLOATS + i];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = tile[threadIdx.x * 7 % TILE_FLOATS];
}

__global__ void dynamicRows(const float *in, float *out, int n) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = buffer[31 - threadIdx.x];
}

__device__ float stageHelper(const float *in) {
  __shared__ double scratch[1024]; // 8 KB, in a callee
  scratch[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  return scratch[(threadIdx.x + 1) % 32];
}
__global__ void viaHelper(const float *in, float *out) {
  out[blockIdx.x * 32 + threadIdx.x] = stageHelper(in + blockIdx.x * 32);
}

__global__ void smallShared(const float *in, float *out) {
  __shared__ float few[256]; // 1 KB: 114 blocks per SM by shared memory
  few[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = few[31 - threadIdx.x];
}

void residency(const float *in, float *out, int n, int rows) {
  // 9 KB of static shared memory per 32-thread block: 22 blocks per SM.
  stagedRows<<<rows, 32>>>(in, out, n);
  // 28 KB of dynamic shared memory per block: 7 blocks per SM.
  dynamicRows<<<rows, 32, 28 * 1024>>>(in, out, n);
  const size_t bytes = 7 * 1024 * sizeof(float);
  dynamicRows<<<rows, 32, bytes>>>(in, out, n);
  // 8 KB in a device function the kernel calls.
  viaHelper<<<rows, 32>>>(in, out);

  // A grid of at most 114 x 32 blocks is resident at once, however it is
  // spelled: 96 blocks through a local, 32 blocks in all.
  int blocks = (COUNT + 31) / 32;
  smallShared<<<blocks, 32>>>(in, out);
  dim3 grid(COUNT / 96);
  smallShared<<<grid, dim3(32)>>>(in, out);

  // Still findings: a run-time grid with little shared memory (up to 6 KB
  // per block leaves room for 32 blocks), or a dynamic size known only at
  // run time.
  smallShared<<<rows, 32>>>(in, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64; with more than 32 blocks per multiprocessor waiting, the limit of 32 resident blocks holds a multiprocessor to at most 32 of its 64 warps [cuda-launch-shape]
  dynamicRows<<<rows, 32, 6 * 1024>>>(in, out, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64
  dynamicRows<<<rows, 32, n>>>(in, out, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: block of 32 threads is below the recommended minimum of 64
  // Idle lanes are there whatever the shared memory.
  stagedRows<<<rows, 48>>>(in, out, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: block of 48 threads is not a multiple of the warp size (32)
  // CHECK-NOTES: :[[@LINE-2]]:22: note: 48 threads = 2 warps = 64 lanes: 16 lanes (25.0%) idle in every block
}
