// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Accesses in a straight-line __device__ helper join the caller's region at
// the call (issue 29): the helper's p[tid] meets the caller's p[tid + 1].
// The fix puts the barrier in the caller, around the call.

#define tid threadIdx.x
#define READ_AT(a, i) a[i]

__device__ int readOwn(int *p) { return p[tid]; }

__global__ void readInHelper() {
  __shared__ int s[64];
  readOwn(s);
  s[tid + 1] = tid;
}
// CHECK-MESSAGES: :[[@LINE-7]]:41: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-5]]:3: note: the access at the warning is made in the function called here
// CHECK-FIXES: {{^}}  readOwn(s);{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  s[tid + 1] = tid;{{$}}

__device__ int sum3(int *x, int *y) { return x[tid] + READ_AT(y, tid + 2); }
__device__ int nested(int *a) { return sum3(a, a); }

__global__ void twoCallsDeep(int *out) {
  __shared__ int s[128];
  s[tid] = tid;
  out[tid] = nested(s);
}
// CHECK-MESSAGES: :[[@LINE-8]]:55: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-4]]:14: note: the access at the warning is made in the function called here
// CHECK-FIXES: {{^}}  s[tid] = tid;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = nested(s);{{$}}

template <typename T> __device__ T load(T *p) { return p[tid + 1]; }

template <typename T> __global__ void templated(T *out) {
  __shared__ T t[64];
  t[tid] = out[tid];
  out[tid] = load(t);
}
// CHECK-MESSAGES: :[[@LINE-7]]:56: warning: threads of different warps communicate through 't' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}  t[tid] = out[tid];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[tid] = load(t);{{$}}

// --- no race across the call ---------------------------------------------

__global__ void barrierBetween() {
  __shared__ int s[64];
  s[tid + 1] = tid;
  __syncthreads();
  readOwn(s);
}

__global__ void ownElement() {
  __shared__ int s[64];
  readOwn(s);
  s[tid] = tid;
}

__device__ int branchy(int *p) {
  if (tid == 0)
    return p[5];
  return 0;
}

__global__ void helperWithBranch() {
  __shared__ int s[64];
  int v = branchy(s);
  if (tid == 0)
    s[tid + 6] = v;
}

__device__ int readPrivate(int *p) { return p[tid % 4]; }

__global__ void privateArray(int *out) {
  int local[4] = {0, 1, 2, 3};
  out[tid] = readPrivate(local);
  local[(tid + 1) % 4] = 7;
}

int hostHelper(int *p) { return p[0]; }

void host(float *f) {
  int h[4] = {};
  hostHelper(h);
  h[1] = 2;
  readInHelper<<<1, 64>>>();
  twoCallsDeep<<<1, 128>>>(nullptr);
  templated<<<1, 64>>>(f);
  barrierBetween<<<1, 64>>>();
  ownElement<<<1, 64>>>();
  helperWithBranch<<<1, 64>>>();
  privateArray<<<1, 64>>>(nullptr);
}
