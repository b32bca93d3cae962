// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// reduce4-style: the last warp unrolled inline under `tid < 32`.
__global__ void reduceInline(const int *in, int *out) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned k = 128; k > 32; k >>= 1) {
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid < 32) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
    // CHECK-FIXES:   if (tid < 32) {
    // CHECK-FIXES:     auto v = s[tid];
    // CHECK-FIXES:     v += s[tid + 32];
    // CHECK-FIXES:     v += __shfl_down_sync(0xffffffff, v, 16);
    // CHECK-FIXES:     v += __shfl_down_sync(0xffffffff, v, 8);
    // CHECK-FIXES:     v += __shfl_down_sync(0xffffffff, v, 4);
    // CHECK-FIXES:     v += __shfl_down_sync(0xffffffff, v, 2);
    // CHECK-FIXES:     v += __shfl_down_sync(0xffffffff, v, 1);
    // CHECK-FIXES:     s[tid] = v;
    // CHECK-FIXES:   }
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// The templated helper with volatile, called under `tid < 32`, for two block
// sizes: one warning, one fix for both instantiations.
template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: lanes of a warp communicate through 'sdata' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
  // CHECK-FIXES: __device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  // CHECK-FIXES:   const unsigned mask = blockSize >= 32 ? 0xffffffffu : (1u << (blockSize & 31)) - 1u;
  // CHECK-FIXES:   auto v = sdata[tid];
  // CHECK-FIXES:   if (blockSize >= 64) v += sdata[tid + 32];
  // CHECK-FIXES:   if (blockSize >= 32) v += __shfl_down_sync(mask, v, 16);
  // CHECK-FIXES:   if (blockSize >= 16) v += __shfl_down_sync(mask, v, 8);
  // CHECK-FIXES:   if (blockSize >= 8) v += __shfl_down_sync(mask, v, 4);
  // CHECK-FIXES:   if (blockSize >= 4) v += __shfl_down_sync(mask, v, 2);
  // CHECK-FIXES:   if (blockSize >= 2) v += __shfl_down_sync(mask, v, 1);
  // CHECK-FIXES:   sdata[tid] = v;
  // CHECK-FIXES: }
}

template <unsigned int blockSize>
__global__ void reduce(const float *in, float *out, unsigned n) {
  __shared__ float sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockSize + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (blockSize >= 256) {
    if (tid < 128)
      sdata[tid] += sdata[tid + 128];
    __syncthreads();
  }
  if (blockSize >= 128) {
    if (tid < 64)
      sdata[tid] += sdata[tid + 64];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce<blockSize>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
template __global__ void reduce<256>(const float *, float *, unsigned);
template __global__ void reduce<64>(const float *, float *, unsigned);

// max through fmaxf, from offset 16, with a lane index.
__global__ void warpMax(const float *in, float *out) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x & 31;
  s[lane] = in[lane];
  __syncwarp();
  s[lane] = fmaxf(s[lane], s[lane + 16]);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  s[lane] = fmaxf(s[lane], s[lane + 8]);
  s[lane] = fmaxf(s[lane], s[lane + 4]);
  s[lane] = fmaxf(s[lane], s[lane + 2]);
  s[lane] = fmaxf(s[lane], s[lane + 1]);
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   auto v = s[lane];
  // CHECK-FIXES:   v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 16));
  // CHECK-FIXES:   v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 8));
  // CHECK-FIXES:   v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 4));
  // CHECK-FIXES:   v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 2));
  // CHECK-FIXES:   v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 1));
  // CHECK-FIXES:   s[lane] = v;
  // CHECK-FIXES:   if (lane == 0)
  if (lane == 0)
    out[blockIdx.x] = s[0];
}

// Hillis-Steele inclusive warp scan: not a reduction, __syncwarp() fix with
// the reads hoisted out of the lane-dependent branches.
__device__ int warpScan(volatile int *s, int tid) {
  int lane = tid & 31;
  if (lane >= 1) s[tid] += s[tid - 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  if (lane >= 2) s[tid] += s[tid - 2];
  if (lane >= 4) s[tid] += s[tid - 4];
  if (lane >= 8) s[tid] += s[tid - 8];
  if (lane >= 16) s[tid] += s[tid - 16];
  // CHECK-FIXES:   int lane = tid & 31;
  // CHECK-FIXES:   auto peer1 = lane >= 1 ? s[tid - 1] : s[tid];
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   if (lane >= 1) s[tid] += peer1;
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   auto peer2 = lane >= 2 ? s[tid - 2] : s[tid];
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   if (lane >= 2) s[tid] += peer2;
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   auto peer3 = lane >= 4 ? s[tid - 4] : s[tid];
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   if (lane >= 4) s[tid] += peer3;
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   auto peer4 = lane >= 8 ? s[tid - 8] : s[tid];
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   if (lane >= 8) s[tid] += peer4;
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   auto peer5 = lane >= 16 ? s[tid - 16] : s[tid];
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   if (lane >= 16) s[tid] += peer5;
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   return s[tid];
  return s[tid];
}

__global__ void scan(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = warpScan(s, tid);
}

// A pairwise exchange inside a warp.
__global__ void exchange(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  float other = s[tid ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES:   s[tid] = in[tid];
  // CHECK-FIXES:   __syncwarp();
  // CHECK-FIXES:   float other = s[tid ^ 1];
  out[tid] = other;
}

// Threads of different warps: a plain missing __syncthreads().
__global__ void neighbours(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  float right = s[tid + 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES:   s[tid] = in[tid];
  // CHECK-FIXES:   __syncthreads();
  // CHECK-FIXES:   float right = s[tid + 64];
  out[tid] = right;
}

// The barrier would be divergent: warning without fix.
__global__ void divergent(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  if (tid < 200) {
    s[tid] = in[tid];
    out[tid] = s[tid + 40];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    // CHECK-FIXES:     s[tid] = in[tid];
    // CHECK-FIXES:     out[tid] = s[tid + 40];
  }
}

// A step spelled through a macro: warning, no fix.
#define STEP(k) s[tid] += s[tid + k]
__global__ void macroSteps(int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncthreads();
  if (tid < 32) {
    STEP(32);
    STEP(16);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
    // CHECK-FIXES:     STEP(32);
    // CHECK-FIXES:     STEP(16);
  }
  out[tid] = s[tid];
}

// Negatives.
__global__ void shuffles(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0)
    out[0] = v;
}

__global__ void groups(const float *in, float *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());
  if (tile.thread_rank() == 0)
    out[blockIdx.x] = v;
}

__global__ void withBarriers(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 128)
    s[tid] += s[tid + 128];
  __syncthreads();
  if (tid < 32) {
    float a = s[tid + 16];
    __syncwarp();
    s[tid] = a;
    __syncwarp();
    a = s[tid ^ 1];
    out[tid] = a;
  }
  __syncthreads();
  cg::thread_block b = cg::this_thread_block();
  s[tid] = 1.0f;
  b.sync();
  out[tid] = s[tid + 1];
}

__global__ void ownElements(float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  s[tid] += 1.0f;
  out[tid] = s[tid];
}

// The first step reads what the second warp wrote before the barrier: no
// race on its own.
__global__ void firstStepOnly(float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncthreads();
  if (tid < 32)
    s[tid] += s[tid + 32];
  float priv[64];
  priv[tid] = 1.0f;
  out[tid] = s[tid] + priv[tid + 1];
}

void host(float *s, int tid) {
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
}
