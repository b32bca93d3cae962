// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Hillis-Steele warp scans: not reductions; each step is split into read,
// __syncwarp(), write, __syncwarp(), with the barriers outside the
// lane-dependent branch.

// The doubling loop, walked once per offset 1, 2, 4, 8, 16.
__global__ void scanLoop(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[tid];
  __syncwarp();
  for (int off = 1; off < 32; off <<= 1) {
    if (lane >= off) s[tid] += s[tid - off];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:32: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  for (int off = 1; off < 32; off <<= 1) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer = lane >= off ? s[tid - off] : s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    if (lane >= off) s[tid] += peer;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  out[tid] = s[tid];
}

// Unbraced, `off *= 2`, `off <= 16`, unsigned: the body gets braces.
__global__ void scanLoopUnbraced(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[128];
  unsigned tid = threadIdx.x;
  unsigned lane = tid % 32;
  s[tid] = in[tid];
  __syncthreads();
  for (unsigned off = 1; off <= 16; off *= 2)
    if (lane >= off)
      s[tid] += s[tid - off];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  for (unsigned off = 1; off <= 16; off *= 2) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    auto peer = lane >= off ? s[tid - off] : s[tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    if (lane >= off) s[tid] += peer;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  out[tid] = s[tid];
}

// Braced steps with a temporary: each statement under its own copy of the
// condition, the barriers between them.
__global__ void scanTmp(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  s[tid] = in[tid];
  __syncthreads();
  float t;
  if (lane >= 1) { t = s[tid - 1]; s[tid] += t; }
  if (lane >= 2) { t = s[tid - 2]; s[tid] += t; }
  if (lane >= 4) { t = s[tid - 4]; s[tid] += t; }
  if (lane >= 8) { t = s[tid - 8]; s[tid] += t; }
  if (lane >= 16) { t = s[tid - 16]; s[tid] += t; }
  // CHECK-MESSAGES: :[[@LINE-5]]:24: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  float t;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane >= 1) t = s[tid - 1];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane >= 1) s[tid] += t;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane >= 2) t = s[tid - 2];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane >= 2) s[tid] += t;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane >= 4) t = s[tid - 4];{{$}}
  // The last step needs no barrier inside: lanes 16..31 read the elements
  // of lanes 0..15, which it does not write.
  // CHECK-FIXES: {{^}}  if (lane >= 8) s[tid] += t;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (lane >= 16) { t = s[tid - 16]; s[tid] += t; }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  //{{$}}
  out[tid] = s[tid];
}

// Negative: the fixed form, walked once per offset, has no race.
__global__ void scanSynced(const int *in, int *out) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[tid];
  __syncwarp();
  for (int off = 1; off < 32; off = off << 1) {
    int t = lane >= off ? s[tid - off] : 0;
    __syncwarp();
    if (lane >= off)
      s[tid] += t;
    __syncwarp();
  }
  out[tid] = s[tid];
}
