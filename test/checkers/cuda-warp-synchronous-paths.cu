// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A barrier on only one path of a branch: on the other path the write and
// the read meet with no barrier (the message says so, and names the
// condition). The fix adds one that every thread reaches.
__global__ void condBarrier(const float *in, float *out, int flag) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  if (flag) __syncthreads();
  out[tid] = s[tid + 64];
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: threads of different warps communicate through 's' with no barrier in between on the paths that skip a conditional barrier; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-5]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-5]]:7: note: the barrier between them is reached only where this condition is true
// CHECK-FIXES: {{^}}  if (flag) __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = s[tid + 64];{{$}}

// The barrier in the else branch only.
__global__ void elseBarrier(const int *in, int *out, int flag) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  if (flag) {
    out[0] = 1;
  } else {
    __syncthreads();
  }
  out[tid] = s[tid ^ 1];
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: lanes of a warp communicate through 's' with no barrier in between on the paths that skip a conditional barrier; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-9]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-9]]:7: note: the barrier between them is reached only where this condition is false
// CHECK-FIXES: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = s[tid ^ 1];{{$}}

// Negative: a barrier on both paths.
__global__ void bothBarriers(const float *in, float *out, int flag) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  if (flag) {
    __syncthreads();
    out[0] = 1.0f;
  } else {
    __syncthreads();
  }
  out[tid] = s[tid + 64];
}

// Barriers on both paths of a condition on the block's position (tpacf's
// ACFKernelSymm): a block takes one path, so the then-path's reads after
// its barrier never meet the else-path's writes before its own.
__global__ void blockPaths(const double *x, unsigned *out) {
  __shared__ double sdata[128];
  int tx = (blockIdx.x << 7) + threadIdx.x;
  if (blockIdx.x < blockIdx.y) {
    out[tx] = 1;
  } else if (blockIdx.x > blockIdx.y) {
    sdata[threadIdx.x] = x[tx];
    __syncthreads();
    double s = 0;
    for (int i = 0; i < 128; ++i)
      s += sdata[i];
    out[tx] = s;
  } else {
    sdata[threadIdx.x] = 2 * x[tx];
    __syncthreads();
    double s = 0;
    for (int i = 0; i < 128; ++i)
      s += sdata[i];
    out[tx] = s;
  }
}

// The same on a condition on the thread: the paths meet.
__global__ void threadPaths(const double *x, unsigned *out) {
  __shared__ double sdata[128];
  int tx = (blockIdx.x << 7) + threadIdx.x;
  if (threadIdx.x > 64) {
    sdata[threadIdx.x] = x[tx];
    __syncthreads();
    double s = 0;
    for (int i = 0; i < 128; ++i)
      s += sdata[i];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: threads of different warps communicate through 'sdata' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    out[tx] = s;
  } else {
    sdata[threadIdx.x] = 2 * x[tx];
    // CHECK-NOTES: :[[@LINE-1]]:5: note: another thread writes the element here
    __syncthreads();
  }
}
