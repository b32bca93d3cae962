// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A loop whose condition depends only on values that are the same in every
// thread is uniform: __syncthreads() may go in its body. The pair of
// statements also races across the back edge (the next iteration's write
// with this one's read), so the body ends with a barrier too.
__global__ void tiled(const float *in, float *out, int n) {
  __shared__ float s[256 + 32];
  int tid = threadIdx.x;
  float acc = 0;
  for (int t = 0; t < n; t += 256) {
    s[tid] = in[t + tid];
    acc += s[tid + 32];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  for (int t = 0; t < n; t += 256) {{[{]}}{{$}}
  // CHECK-FIXES-NEXT: {{^}}    s[tid] = in[t + tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    acc += s[tid + 32];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  out[tid] = acc;
}

// Uniform values computed from parameters and block indices.
__global__ void tiledWhile(const int *in, int *out, int n) {
  __shared__ int s[128 + 1];
  int tid = threadIdx.x;
  int tiles = (n + 127) / 128;
  int base = blockIdx.x * 128;
  int acc = 0;
  while (tiles > 0) {
    s[tid] = in[base + tid];
    acc += s[tid + 1];
    base += 128 * gridDim.x;
    --tiles;
  }
  // CHECK-MESSAGES: :[[@LINE-4]]:12: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}    s[tid] = in[base + tid];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}    acc += s[tid + 1];{{$}}
  // CHECK-FIXES-NEXT: {{^}}    base += 128 * gridDim.x;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    --tiles;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  out[tid] = acc;
}

// The trip count depends on the thread: no barrier in the body.
__global__ void gridStride(const float *in, float *out, int n) {
  __shared__ float s[256 + 32];
  int tid = threadIdx.x;
  float acc = 0;
  for (int i = blockIdx.x * 256 + tid; i < n; i += 256 * gridDim.x) {
    s[tid] = in[i];
    acc += s[tid + 32];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: no automatic fix: the barrier would be inside a thread-dependent branch or loop
  out[tid] = acc;
}

// A bound from a value that differs between threads (an atomic's result).
__global__ void atomicBound(const float *in, float *out, unsigned *counter) {
  __shared__ float s[256 + 32];
  int tid = threadIdx.x;
  unsigned k = atomicAdd(counter, 1u) % 4;
  float acc = 0;
  for (unsigned t = 0; t < k; ++t) {
    s[tid] = in[t * 256 + tid];
    acc += s[tid + 32];
  }
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:12: note: no automatic fix: the barrier would be inside a thread-dependent branch or loop
  out[tid] = acc;
}

// After an early return of some threads, a barrier would be divergent.
__global__ void earlyReturn(const float *in, float *out, int n) {
  __shared__ float s[256 + 32];
  int tid = threadIdx.x;
  if (blockIdx.x * 256 + tid >= n)
    return;
  s[tid] = in[tid];
  out[tid] = s[tid + 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:14: note: no automatic fix: the barrier would be inside a thread-dependent branch or loop
}
