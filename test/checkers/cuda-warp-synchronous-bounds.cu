// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Accesses that every thread makes bound the block size (assuming in-bounds
// accesses): `s[tid + B]` on an array of 2 B elements means at most B
// threads, so `s[tid + B]` is this thread's own second element.
template <int B>
__global__ void ownTwo(float *out) {
  __shared__ float s[2 * B];
  unsigned tid = threadIdx.x;
  s[tid] = 1.0f;
  s[tid + B] = 2.0f;
  out[tid] = s[tid] + s[tid + B];
}
template __global__ void ownTwo<256>(float *);

// The same bound, a neighbour's element: a race between warps.
__global__ void neighbourTwo(float *out) {
  __shared__ float s[512];
  unsigned tid = threadIdx.x;
  s[tid] = 1.0f;
  s[tid + 256] = 2.0f;
  out[tid] = s[tid + 1] + s[tid + 256];
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}  s[tid + 256] = 2.0f;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = s[tid + 1] + s[tid + 256];{{$}}

// A bound below a warp from the array size alone (s[tid + 16] of 32
// elements: at most 16 threads): a full-mask shuffle would name lanes that do
// not exist. The __syncwarp() split instead. The 16 step reads s[16..31],
// which no thread writes: the race starts with the 8 step.
__global__ void smallBlock(const int *in, int *out) {
  __shared__ int s[32];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncwarp();
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
  if (tid == 0)
    out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-7]]:13: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}  s[tid] += s[tid + 16];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  auto peer1 = s[tid + 8];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] += peer1;{{$}}

// A subscript linear in two thread indices bounds the block jointly:
// `elem[threadIdx.x * 8 + threadIdx.y]` of 64 elements, written by every
// thread, means blocks of at most 8x8 (the launch is in another file), and
// each thread owns one element. An early return on locals copied from
// blockIdx is block-uniform and does not matter.
#define OWN_BS 8
__global__ void ownLinear(const double *in, int n, double *out) {
  __shared__ double elem[OWN_BS * OWN_BS];
  int i = blockIdx.x;
  int j = blockIdx.y;
  if (i >= n || j > i)
    return;
  elem[threadIdx.x * OWN_BS + threadIdx.y] = 0.0;
  for (int k = threadIdx.x; k < n; k += OWN_BS)
    for (int l = threadIdx.y; l < n; l += OWN_BS)
      elem[threadIdx.x * OWN_BS + threadIdx.y] += in[k * n + l];
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    double s = 0.0;
    for (int t = 0; t < OWN_BS * OWN_BS; ++t)
      s += elem[t];
    out[i * n + j] = s;
  }
}

// The same bound, a neighbour's element: still a race (thread (7, 7) reads
// elem[0], which thread (0, 0) of the other warp writes).
__global__ void neighbourLinear(double *out) {
  __shared__ double elem[OWN_BS * OWN_BS];
  elem[threadIdx.x * OWN_BS + threadIdx.y] = 1.0;
  out[threadIdx.x * OWN_BS + threadIdx.y] =
      elem[(threadIdx.x * OWN_BS + threadIdx.y + 1) % (OWN_BS * OWN_BS)];
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: threads of different warps communicate through 'elem' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
