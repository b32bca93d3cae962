// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// The shuffle rewrite leaves the total in lane 0 and other partial values in
// lanes 1..31 than the original. It is offered when the code after reads only
// element 0 (with a __syncwarp() after the write-back when other lanes of the
// warp read it before any barrier), and not when it reads elements 1..31.

// All lanes read s[0] in the same branch, with no barrier: __syncwarp().
__global__ void broadcast(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
    out[tid] = in[tid] / s[0];
  }
  // CHECK-MESSAGES: :[[@LINE-7]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}__global__ void broadcast(const float *in, float *out) {{[{]}}{{$}}
  // CHECK-FIXES: {{^}}    auto v = s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += s[tid + 32];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 16);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 8);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 4);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 2);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(0xffffffff, v, 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    out[tid] = in[tid] / s[0];{{$}}
}

// Every thread reads s[0] after a __syncthreads(): no __syncwarp() needed.
__global__ void afterBarrier(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] ^= s[tid + 32];
    s[tid] ^= s[tid + 16];
    s[tid] ^= s[tid + 8];
    s[tid] ^= s[tid + 4];
    s[tid] ^= s[tid + 2];
    s[tid] ^= s[tid + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}    v ^= __shfl_down_sync(0xffffffff, v, 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  __syncthreads();
  out[tid] = s[0] + s[tid + 32];
}

// The code after reads the partial values s[tid % 32]: no shuffle rewrite,
// the __syncwarp() split keeps them.
__global__ void readsPartials(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}__global__ void readsPartials(const float *in, float *out) {{[{]}}{{$}}
  // CHECK-FIXES: {{^}}  if (tid < 32) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] += s[tid + 32];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer1 = s[tid + 16];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] += peer1;{{$}}
  // CHECK-FIXES: {{^}}    s[tid] += peer5;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  __syncthreads();
  out[tid] = s[tid % 32];
}

// One partial value read by thread 0: s[1] differs after a rewrite.
__global__ void readsElementOne(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] = s[tid] & s[tid + 16];
    s[tid] = s[tid] & s[tid + 8];
    s[tid] = s[tid] & s[tid + 4];
    s[tid] = s[tid] & s[tid + 2];
    s[tid] = s[tid] & s[tid + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:23: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}__global__ void readsElementOne(const unsigned *in, unsigned *out) {{[{]}}{{$}}
  // CHECK-FIXES: {{^}}  if (tid < 32) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer1 = s[tid + 16];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = s[tid] & peer1;{{$}}
  if (tid == 0)
    out[0] = s[0] - s[1];
}

// A helper whose caller reads partial values after the call.
__device__ void warpSum(volatile double *sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}
// CHECK-MESSAGES: :[[@LINE-6]]:17: warning: lanes of a warp communicate through 'sdata' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__device__ void warpSum(volatile double *sdata, unsigned tid) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] += sdata[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer1 = sdata[tid + 16];{{$}}

__global__ void callsWarpSum(const double *in, double *out) {
  __shared__ double s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    warpSum(s, tid);
    out[tid] = s[tid];
  }
}

// A helper whose caller reads only s[0] in every lane: __syncwarp() after the
// write-back, in the helper.
__device__ void warpMin(volatile int *sdata, unsigned tid) {
  sdata[tid] = min(sdata[tid], sdata[tid + 16]);
  sdata[tid] = min(sdata[tid], sdata[tid + 8]);
  sdata[tid] = min(sdata[tid], sdata[tid + 4]);
  sdata[tid] = min(sdata[tid], sdata[tid + 2]);
  sdata[tid] = min(sdata[tid], sdata[tid + 1]);
}
// CHECK-MESSAGES: :[[@LINE-6]]:32: warning: lanes of a warp communicate through 'sdata' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__device__ void warpMin(volatile int *sdata, unsigned tid) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto v = sdata[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 16));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 4));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 2));{{$}}
// CHECK-FIXES-NEXT: {{^}}  v = min(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-FIXES-NEXT: {{^}}  sdata[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

__global__ void callsWarpMin(const int *in, int *out) {
  __shared__ int s[32];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncwarp();
  if (tid < 32) {
    warpMin(s, tid);
    out[tid] = in[tid] - s[0];
  }
}

// The loop form, all lanes reading the result.
__global__ void loopBroadcast(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    for (int o = 32; o > 0; o >>= 1)
      s[tid] += s[tid + o];
    out[tid] = in[tid] - s[0];
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:17: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}__global__ void loopBroadcast(const float *in, float *out) {{[{]}}{{$}}
  // CHECK-FIXES: {{^}}    auto v = s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    v += s[tid + 32];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    for (int o = 16; o > 0; o >>= 1){{$}}
  // CHECK-FIXES-NEXT: {{^}}      v += __shfl_down_sync(0xffffffff, v, o);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    out[tid] = in[tid] - s[0];{{$}}
}
