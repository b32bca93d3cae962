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
