// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// The operators and element types of the shuffle rewrite.

__global__ void rmax(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] = max(s[tid], s[tid + 32]);
    s[tid] = max(s[tid], s[tid + 16]);
    s[tid] = max(s[tid], s[tid + 8]);
    s[tid] = max(s[tid], s[tid + 4]);
    s[tid] = max(s[tid], s[tid + 2]);
    s[tid] = max(s[tid], s[tid + 1]);
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:26: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void rmax(const int *in, int *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ int s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, s[tid + 32]);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, __shfl_down_sync(0xffffffff, v, 16));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, __shfl_down_sync(0xffffffff, v, 4));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, __shfl_down_sync(0xffffffff, v, 2));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = max(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
__global__ void rmin(const double *in, double *out) {
  __shared__ double s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] = fmin(s[tid + 32], s[tid]);
    s[tid] = fmin(s[tid + 16], s[tid]);
    s[tid] = fmin(s[tid + 8], s[tid]);
    s[tid] = fmin(s[tid + 4], s[tid]);
    s[tid] = fmin(s[tid + 2], s[tid]);
    s[tid] = fmin(s[tid + 1], s[tid]);
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:19: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void rmin(const double *in, double *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ double s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmin(v, s[tid + 32]);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmin(v, __shfl_down_sync(0xffffffff, v, 16));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmin(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmin(v, __shfl_down_sync(0xffffffff, v, 4));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmin(v, __shfl_down_sync(0xffffffff, v, 2));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmin(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
__global__ void ror(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] |= s[tid + 32];
    s[tid] |= s[tid + 16];
    s[tid] |= s[tid + 8];
    s[tid] |= s[tid + 4];
    s[tid] |= s[tid + 2];
    s[tid] |= s[tid + 1];
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void ror(const unsigned *in, unsigned *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ unsigned s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v |= s[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v |= __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v |= __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v |= __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v |= __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v |= __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
__global__ void rand_(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] = s[tid] & s[tid + 16];
    s[tid] = s[tid + 8] & s[tid];
    s[tid] = s[tid] & s[tid + 4];
    s[tid] = s[tid] & s[tid + 2];
    s[tid] = s[tid] & s[tid + 1];
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:23: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void rand_(const unsigned *in, unsigned *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ unsigned s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = v & __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = v & __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = v & __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = v & __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = v & __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
__global__ void rxor(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] ^= s[tid + 16];
    s[tid] ^= s[tid + 8];
    s[tid] ^= s[tid + 4];
    s[tid] ^= s[tid + 2];
    s[tid] ^= s[tid + 1];
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void rxor(const int *in, int *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ int s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v ^= __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v ^= __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v ^= __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v ^= __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v ^= __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
__global__ void rfmaxf(const float *in, float *out) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] = fmaxf(s[tid], s[tid + 32]);
    s[tid] = fmaxf(s[tid], s[tid + 16]);
    s[tid] = fmaxf(s[tid], s[tid + 8]);
    s[tid] = fmaxf(s[tid], s[tid + 4]);
    s[tid] = fmaxf(s[tid], s[tid + 2]);
    s[tid] = fmaxf(s[tid], s[tid + 1]);
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:28: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void rfmaxf(const float *in, float *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ float s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmaxf(v, s[tid + 32]);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 16));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 8));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 4));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 2));{{$}}
// CHECK-FIXES-NEXT: {{^}}    v = fmaxf(v, __shfl_down_sync(0xffffffff, v, 1));{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
__global__ void rmul(const double *in, double *out) {
  __shared__ double s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    s[tid] *= s[tid + 32];
    s[tid] *= s[tid + 16];
    s[tid] *= s[tid + 8];
    s[tid] *= s[tid + 4];
    s[tid] *= s[tid + 2];
    s[tid] *= s[tid + 1];
  }
  if (tid == 0) out[0] = s[0];
}
// CHECK-MESSAGES: :[[@LINE-8]]:15: warning: lanes of a warp communicate through 's' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}__global__ void rmul(const double *in, double *out) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}  __shared__ double s[64];{{$}}
// CHECK-FIXES-NEXT: {{^}}  unsigned tid = threadIdx.x;{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid] = in[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid < 32) {{[{]}}{{$}}
// CHECK-FIXES-NEXT: {{^}}    auto v = s[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v *= s[tid + 32];{{$}}
// CHECK-FIXES-NEXT: {{^}}    v *= __shfl_down_sync(0xffffffff, v, 16);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v *= __shfl_down_sync(0xffffffff, v, 8);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v *= __shfl_down_sync(0xffffffff, v, 4);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v *= __shfl_down_sync(0xffffffff, v, 2);{{$}}
// CHECK-FIXES-NEXT: {{^}}    v *= __shfl_down_sync(0xffffffff, v, 1);{{$}}
// CHECK-FIXES-NEXT: {{^}}    s[tid] = v;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tid == 0) out[0] = s[0];{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}
