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
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES:   if (tid < 32) {
  // CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += s[tid + 32];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 16);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 8);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 4);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 2);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// The templated helper with volatile, called under `tid < 32`, for two block
// sizes: one warning, one fix for both instantiations.
template <unsigned int blockSize>
__device__ void warpReduce(volatile float *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}
// CHECK-MESSAGES: :[[@LINE-6]]:38: warning: lanes of a warp communicate through 'sdata' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: __device__ void warpReduce(volatile float *sdata, unsigned int tid) {
// CHECK-FIXES-NEXT: {{^}}  const unsigned mask = blockSize >= 32 ? 0xffffffffu : (1u << (blockSize & 31)) - 1u;{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto v = sdata[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 64) v += sdata[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 32) v += __shfl_down_sync(mask, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 16) v += __shfl_down_sync(mask, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 8) v += __shfl_down_sync(mask, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 4) v += __shfl_down_sync(mask, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 2) v += __shfl_down_sync(mask, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

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
  s[lane] = fmaxf(s[lane], s[lane + 8]);
  s[lane] = fmaxf(s[lane], s[lane + 4]);
  s[lane] = fmaxf(s[lane], s[lane + 2]);
  s[lane] = fmaxf(s[lane], s[lane + 1]);
  if (lane == 0)
    out[blockIdx.x] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:28: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES:   __syncwarp();
// CHECK-FIXES-NEXT: {{^}}  auto v = s[lane];{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 16));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 4));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 2));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[lane] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}    out[blockIdx.x] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Hillis-Steele inclusive warp scan: not a reduction, __syncwarp() fix with
// the reads hoisted out of the lane-dependent branches.
__device__ int warpScan(volatile int *s, int tid) {
  int lane = tid & 31;
  if (lane >= 1) s[tid] += s[tid - 1];
  if (lane >= 2) s[tid] += s[tid - 2];
  if (lane >= 4) s[tid] += s[tid - 4];
  if (lane >= 8) s[tid] += s[tid - 8];
  if (lane >= 16) s[tid] += s[tid - 16];
  return s[tid];
}
// CHECK-MESSAGES: :[[@LINE-7]]:28: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES:   int lane = tid & 31;
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer1 = lane >= 1 ? s[tid - 1] : s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane >= 1) s[tid] += peer1;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer2 = lane >= 2 ? s[tid - 2] : s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane >= 2) s[tid] += peer2;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer3 = lane >= 4 ? s[tid - 4] : s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane >= 4) s[tid] += peer3;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer4 = lane >= 8 ? s[tid - 8] : s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane >= 8) s[tid] += peer4;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer5 = lane >= 16 ? s[tid - 16] : s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (lane >= 16) s[tid] += peer5;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  return s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

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
  out[tid] = other;
}
// CHECK-MESSAGES: :[[@LINE-3]]:17: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: __global__ void exchange(const float *in, float *out) {
// CHECK-FIXES-NEXT: {{^}}  __shared__ float s[256];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  float other = s[tid ^ 1];{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = other;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Threads of different warps: a plain missing __syncthreads().
__global__ void neighbours(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  float right = s[tid + 64];
  out[tid] = right;
}
// CHECK-MESSAGES: :[[@LINE-3]]:17: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: __global__ void neighbours(const float *in, float *out) {
// CHECK-FIXES-NEXT: {{^}}  __shared__ float s[256];{{$}}
// CHECK-FIXES-NEXT: {{^}}  int tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  float right = s[tid + 64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = right;{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// The racing statements are in a thread-dependent branch: each goes under
// its own copy of the condition, the barrier between them is reached by
// every thread.
__global__ void divergent(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  if (tid < 200) {
    s[tid] = in[tid];
    out[tid] = s[tid + 40];
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:16: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: __global__ void divergent(const float *in, float *out) {
// CHECK-FIXES-NEXT: {{^}}  __shared__ float s[256];{{$}}
// CHECK-FIXES-NEXT: {{^}}  int tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 200) s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 200) out[tid] = s[tid + 40];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// The same with a declaration in the branch (its scope would change) and
// with a condition that reads memory: warning without fix.
__global__ void divergentDecl(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  if (tid < 200) {
    float x = in[tid];
    s[tid] = x;
    out[tid] = s[tid + 40];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
}

__global__ void divergentData(const float *in, float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  if (in[tid] > 0) {
    s[tid] = in[tid];
    out[tid] = s[tid + 40];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
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
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES:     STEP(32);
  // CHECK-FIXES-NEXT: {{^}}    STEP(16);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
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

// Halving loops are walked once per offset.
__global__ void loopWarp(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    for (int o = 32; o > 0; o >>= 1)
      s[tid] += s[tid + o];
  }
  if (tid == 0)
    out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-5]]:17: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void loopWarp(const float *in, float *out) {{[{]}}{{$}}
// CHECK-FIXES: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v += s[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (int o = 16; o > 0; o >>= 1){{$}}
// CHECK-FIXES-NEXT: {{^}}      v += __shfl_down_sync(0xffffffff, v, o);{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

__global__ void loopWarpBraced(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    for (unsigned o = 16; o != 0; o /= 2) {
      if (tid < o)
        s[tid] += s[tid + o];
    }
  }
  if (tid == 0)
    out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-6]]:19: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void loopWarpBraced(const int *in, int *out) {{[{]}}{{$}}
// CHECK-FIXES: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    for (unsigned o = 16; o != 0; o /= 2) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}      v += __shfl_down_sync(0xffffffff, v, o);{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

__global__ void loopWithBarrier(const int *in, int *out) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned o = 128; o > 0; o >>= 1) {
    if (tid < o)
      s[tid] += s[tid + o];
    __syncthreads();
  }
  if (tid == 0)
    out[0] = s[0];
}
