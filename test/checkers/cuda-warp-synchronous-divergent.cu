// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Steps run by only some lanes of a warp: a full-mask shuffle (or a
// __syncwarp()) there would be executed by fewer lanes than it names. No
// shuffle rewrite; the __syncwarp() split where the steps can be put under
// copies of the condition, else __syncwarp(mask) naming the lanes that
// arrive where they are known exactly, else no fix.

// Half-warp reduction by lane index inside a lane-dependent branch: a
// full-mask shuffle executed by 16 lanes would give 16 instead of 32.
__global__ void halfWarp(const float *in, float *out) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x & 31;
  s[lane] = in[lane];
  __syncwarp();
  if (lane < 16) {
    s[lane] += s[lane + 16];
    s[lane] += s[lane + 8];
    s[lane] += s[lane + 4];
    s[lane] += s[lane + 2];
    s[lane] += s[lane + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-5]]:16: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-7]]:16: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
  // CHECK-FIXES: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane < 16) s[lane] += s[lane + 16];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto peer1 = lane < 16 ? s[lane + 8] : s[lane];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane < 16) s[lane] += peer1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto peer2 = lane < 16 ? s[lane + 4] : s[lane];{{$}}
  // CHECK-FIXES: {{^}}  if (lane < 16) s[lane] += peer4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  //{{$}}
  if (lane == 0)
    out[blockIdx.x] = s[0];
}

// The same through a helper called under a lane-dependent guard.
__device__ void red(volatile int *s, unsigned lane) {
  s[lane] += s[lane + 16];
  s[lane] += s[lane + 8];
  s[lane] += s[lane + 4];
  s[lane] += s[lane + 2];
  s[lane] += s[lane + 1];
}
// CHECK-MESSAGES: :[[@LINE-5]]:14: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-7]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-7]]:14: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
// Every call is under `lane < 16`: lanes 0..15 of each warp, __syncwarp(0xffff).
// CHECK-FIXES: {{^}}  s[lane] += s[lane + 16];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp(0xffff);{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer1 = s[lane + 8];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp(0xffff);{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[lane] += peer1;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp(0xffff);{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer2 = s[lane + 4];{{$}}
// CHECK-FIXES: {{^}}  s[lane] += peer4;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp(0xffff);{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

__global__ void callsRed(const int *in, int *out) {
  __shared__ int s[32];
  unsigned lane = threadIdx.x & 31;
  s[lane] = in[lane];
  __syncwarp();
  if (lane < 16)
    red(s, lane);
  if (lane == 0)
    out[0] = s[0];
}

// `tid < 32` and a data-dependent condition: not whole warps.
__global__ void dataDependent(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32 && in[tid] > 0) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-8]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-8]]:15: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
  // CHECK-NOTES: :[[@LINE-9]]:15: note: no automatic fix: the steps run on only some lanes of a warp (a thread-dependent branch); a shuffle or __syncwarp() there would be divergent
  if (tid == 0)
    out[0] = s[0];
}

// A halving loop under a lane-dependent guard: lanes 0..7, __syncwarp(0xff).
__global__ void loopLane(const float *in, float *out) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x % 32;
  s[lane] = in[lane];
  __syncwarp();
  if (lane < 8) {
    for (int o = 16; o > 0; o >>= 1)
      s[lane] += s[lane + o];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:18: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-4]]:18: note: this relies on the lanes of a warp running in lock-step and on a warp size of 32; neither is guaranteed since Volta
  // CHECK-FIXES: {{^}}    for (int o = 16; o > 0; o >>= 1) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}      auto peer = s[lane + o];{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp(0xff);{{$}}
  // CHECK-FIXES-NEXT: {{^}}      s[lane] += peer;{{$}}
  // CHECK-FIXES-NEXT: {{^}}      __syncwarp(0xff);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    }{{$}}
  if (lane == 0)
    out[0] = s[0];
}

// `tid < 64` runs whole warps, but two of them: the 16 step crosses into the
// second warp's elements, which it also writes. Threads of different warps:
// no shuffle, __syncthreads() outside the branch.
__global__ void twoWarps(const int *in, int *out) {
  __shared__ int s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 64) {
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:15: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: another thread writes the element here
  // CHECK-FIXES: {{^}}  auto peer1 = tid < 64 ? s[tid + 16] : s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (tid < 64) s[tid] += peer1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto peer2 = tid < 64 ? s[tid + 8] : s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (tid < 64) s[tid] += peer2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (tid == 0)
    out[0] = s[0];
}

// A scan in half a warp: the steps under `lane >= k` are lifted out of
// their branches, and the barriers around them, inside `lane < 16`, name
// lanes 0..15.
__global__ void halfScan(const int *in, int *out) {
  __shared__ int s[32];
  unsigned lane = threadIdx.x & 31;
  s[lane] = in[lane];
  __syncwarp();
  if (lane < 16) {
    if (lane >= 1) s[lane] += s[lane - 1];
    if (lane >= 2) s[lane] += s[lane - 2];
    out[lane] = s[lane];
  }
  // CHECK-MESSAGES: :[[@LINE-4]]:31: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  if (lane < 16) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer1 = lane >= 1 ? s[lane - 1] : s[lane];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp(0xffff);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    if (lane >= 1) s[lane] += peer1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp(0xffff);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer2 = lane >= 2 ? s[lane - 2] : s[lane];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp(0xffff);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    if (lane >= 2) s[lane] += peer2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp(0xffff);{{$}}
  // CHECK-FIXES-NEXT: {{^}}    out[lane] = s[lane];{{$}}
}

// A helper called under different guards: the lanes that arrive are not
// known exactly, and no mask is right for both calls.
__device__ void step(volatile float *s, unsigned lane) {
  s[lane] += s[lane + 4];
  s[lane] += s[lane + 2];
}
// CHECK-MESSAGES: :[[@LINE-3]]:14: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-4]]:14: note: no automatic fix: the barrier would be inside a thread-dependent branch or loop

__global__ void twoGuards(float *out) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x & 31;
  s[lane] = out[lane];
  __syncwarp();
  if (lane < 8)
    step(s, lane);
  if (lane < 4)
    step(s, lane);
}
