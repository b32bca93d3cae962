// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// An access in a __device__ helper that the kernel calls is evaluated by the
// general analysis with the call's arguments (issue 29: races in device
// functions called from kernels): the helper's parameters stand for the
// arguments, its locals for their definitions, and the barrier the fix
// adds goes into the caller, around the call.

// The write in the helper, the read in the kernel.
__device__ void store(float *s, int t, float v) { s[t] = v; }

__global__ void writeInHelper(const float *in, float *out) {
  __shared__ float s[256];
  store(s, threadIdx.x, in[threadIdx.x]);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-7]]:51: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the access at the note is made in the function called here
  // CHECK-NOTES: :[[@LINE-4]]:22: note: for example, thread 31 reads 's[32]', which thread 32 writes (in blocks of 256 threads, as launched here)
  // CHECK-FIXES: {{^}}  store(s, threadIdx.x, in[threadIdx.x]);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];{{$}}
}

// The read in the helper, with the thread index it reads itself.
__device__ float mirror(const float *s) { return s[255 - threadIdx.x]; }

__global__ void readInHelper(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = mirror(s);
  // CHECK-MESSAGES: :[[@LINE-6]]:50: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: the access at the warning is made in the function called here
  // CHECK-NOTES: :[[@LINE-9]]:50: note: for example, thread 0 reads 's[255]', which thread 255 writes (in blocks of 256 threads, as launched here)
  // CHECK-FIXES: {{^}}  s[threadIdx.x] = in[threadIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[threadIdx.x] = mirror(s);{{$}}
}

// A transposed tile read through a helper's local index.
__device__ float transposed(const float *t, int ty, int tx) {
  int at = tx * 16 + ty;
  return t[at];
}

__global__ void tileInHelper(const float *in, float *out) {
  __shared__ float t[256];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty * 16 + tx] = in[ty * 16 + tx];
  out[ty * 16 + tx] = transposed(t, ty, tx);
  // CHECK-MESSAGES: :[[@LINE-8]]:10: warning: threads of different warps communicate through 't' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:23: note: the access at the warning is made in the function called here
  // CHECK-NOTES: :[[@LINE-11]]:10: note: for example, thread (2, 0) reads 't[32]', which thread (0, 2) writes (in blocks of 16x16 threads, as launched here)
  // CHECK-FIXES: {{^}}  t[ty * 16 + tx] = in[ty * 16 + tx];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[ty * 16 + tx] = transposed(t, ty, tx);{{$}}
}

// The call in a branch that some threads skip: no fix there.
__device__ float reversed(const float *s) { return s[255 - threadIdx.x]; }

__global__ void callInBranch(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 128)
    out[threadIdx.x] = reversed(s);
  // CHECK-MESSAGES: :[[@LINE-7]]:52: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:24: note: the access at the warning is made in the function called here
  // CHECK-NOTES: :[[@LINE-10]]:52: note: for example, thread 0 reads 's[255]', which thread 255 writes (in blocks of 256 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-11]]:52: note: no automatic fix: an access is in a called function; a barrier between the accesses belongs in the caller, at a point every thread reaches
}

// Negatives: the barrier in place; a helper reading the thread's own
// element; a helper that changes its parameter before using it.
__global__ void barrierBefore(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = mirror(s);
}

__device__ float own(const float *s, int t) { return s[t % 256]; }

__global__ void ownElement(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = own(s, threadIdx.x);
}

__device__ float shifted(const float *s, int t, int k) {
  k = k * 0;
  return s[t + k];
}

__global__ void changedParameter(const float *in, float *out) {
  __shared__ float s[257];
  s[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = shifted(s, threadIdx.x, 1);
}

int main() {
  float *a;
  writeInHelper<<<1, 256>>>(a, a);
  readInHelper<<<1, 256>>>(a, a);
  tileInHelper<<<1, dim3(16, 16)>>>(a, a);
  callInBranch<<<1, 256>>>(a, a);
  barrierBefore<<<1, 256>>>(a, a);
  ownElement<<<1, 256>>>(a, a);
  changedParameter<<<1, 256>>>(a, a);
}
