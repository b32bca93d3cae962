// RUN: %check_cuda_lint %s cuda-warp-synchronous %t -- -config="{CheckOptions: {cuda-warp-synchronous.FixStyle: syncwarp}}"

// With FixStyle=syncwarp, reductions keep their shared-memory steps; each
// racy step reads its peer, waits for the warp, writes, waits again.
template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}
// CHECK-MESSAGES: :[[@LINE-6]]:38: warning: lanes of a warp communicate through 'sdata' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-8]]:24: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-8]]:38: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
// CHECK-FIXES: __device__ void warpReduce(volatile int *sdata, unsigned int tid) {
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 32) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer = sdata[tid + 16];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    sdata[tid] += peer;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 16) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer = sdata[tid + 8];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    sdata[tid] += peer;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 8) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer = sdata[tid + 4];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    sdata[tid] += peer;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 4) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer = sdata[tid + 2];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    sdata[tid] += peer;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (blockSize >= 2) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto peer = sdata[tid + 1];{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    sdata[tid] += peer;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

template <unsigned int blockSize>
__global__ void reduce(const int *in, int *out) {
  __shared__ int sdata[blockSize];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockSize + tid];
  __syncthreads();
  if (tid < 32)
    warpReduce<blockSize>(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
template __global__ void reduce<64>(const int *, int *);

__global__ void reduceInline(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] = s[tid] | s[tid + 16];
    s[tid] = s[tid] | s[tid + 8];
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:23: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-5]]:23: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
  // CHECK-FIXES:   if (tid < 32) {
  // CHECK-FIXES-NEXT: {{^}}    auto peer1 = s[tid + 16];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = s[tid] | peer1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer2 = s[tid + 8];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = s[tid] | peer2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A halving loop: the step is split inside the loop, the read hoisted out
// of the lane-dependent branch.
__global__ void loopWarp(const int *in, int *out) {
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
// CHECK-FIXES: {{^}}    for (unsigned o = 16; o != 0; o /= 2) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}      auto peer = tid < o ? s[tid + o] : s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}      if (tid < o) s[tid] += peer;{{$}}
// CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}

// Accesses through a local alias of the shared array are accesses to it.
__global__ void alias(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  volatile float *vs = s;
  out[tid] = vs[tid + 1];
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: threads of different warps communicate through 'vs' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}  volatile float *vs = s;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = vs[tid + 1];{{$}}

// A step that shares its line with the `{` of its block starts a line of its
// own, one level deeper; the `}` goes back to the block's indentation.
template <unsigned int blockSize>
__global__ void sameLine(const float *in, float *out) {
  __shared__ float sdata[blockSize];
  unsigned tid = threadIdx.x;
  float mySum = in[tid];
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile float *smem = sdata;
    if (blockSize >= 64) { smem[tid] = mySum = mySum + smem[tid + 32]; }
    if (blockSize >= 32) { smem[tid] = mySum = mySum + smem[tid + 16]; }
    if (blockSize >= 16) { smem[tid] = mySum = mySum + smem[tid + 8]; }
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:56: warning: lanes of a warp communicate through 'smem' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}    if (blockSize >= 64) { smem[tid] = mySum = mySum + smem[tid + 32]; }{{$}}
  // CHECK-FIXES-NEXT: {{^}}    if (blockSize >= 32) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}      auto peer1 = smem[tid + 16];{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}      smem[tid] = mySum = mySum + peer1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    }{{$}}
  // CHECK-FIXES-NEXT: {{^}}    if (blockSize >= 16) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}      auto peer2 = smem[tid + 8];{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}      smem[tid] = mySum = mySum + peer2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    }{{$}}
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
template __global__ void sameLine<64>(const float *, float *);
template __global__ void sameLine<32>(const float *, float *);
