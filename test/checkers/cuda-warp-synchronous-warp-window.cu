// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A helper's pointer parameter that every call binds to its warp's own window
// of a shared array (`s + (threadIdx.x >> 5) * 512`, the layout of
// gpgpu-sim's MD5 and SHA-1 kernels): threads of different warps work in
// different windows, so only lanes of one warp can race there. And a byte
// view of a word array counts in bytes, not in the array's words.

#define SLOT(i) (32 * (i) + (threadIdx.x & 0x1F))

// Each thread fills its own words of the window, then reads their bytes.
__device__ void digest(const unsigned *in, unsigned *sm, int passes,
                       unsigned *out) {
  unsigned char *bytes = (unsigned char *)sm;
  int x0 = SLOT(0);
  int x1 = SLOT(1);
  unsigned h = 0;
  for (int p = 0; p < passes; p++) {
    sm[x0] = in[2 * p];
    sm[x1] = in[2 * p + 1];
    h += bytes[x0 * 4] | (bytes[x0 * 4 + 1] << 8) | bytes[x1 * 4 + 3];
    // No warning: each lane reads the bytes of its own words.
  }
  *out = h;
}

__global__ void perWarpWindows(const unsigned *in, unsigned *out, int passes) {
  __shared__ unsigned s[4 * 1024];
  unsigned *window = s + ((threadIdx.x >> 5) * 512);
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  digest(in + t * 64, window, passes, out + t);
}

// The lanes of a warp exchange words of their window with no __syncwarp().
__device__ void exchange(unsigned *sm, unsigned *out) {
  int lane = threadIdx.x & 31;
  sm[lane] = lane;
  *out = sm[(lane + 1) & 31];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes of a warp communicate through 'sm' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  sm[lane] = lane;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  *out = sm[(lane + 1) & 31];{{$}}
}

__global__ void windowExchange(unsigned *out) {
  __shared__ unsigned s[1024];
  exchange(&s[(threadIdx.x / 32) * 32], out + threadIdx.x);
}

// One window for the whole block: lanes of different warps share words.
__device__ void digestShared(const unsigned *in, unsigned *sm, unsigned *out) {
  int x0 = SLOT(0);
  sm[x0] = in[0];
  *out = sm[x0] + 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: threads of different warps communicate through 'sm' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}  sm[x0] = in[0];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  *out = sm[x0] + 1;{{$}}
}

__global__ void sharedWindow(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[1024];
  digestShared(in + threadIdx.x, s, out + threadIdx.x);
}

// A window that is not per warp (each thread its own offset, the same
// helper): the offset's threads are not one warp's lanes.
__global__ void perThreadOffset(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[1024];
  digestShared(in, s + threadIdx.x, out + threadIdx.x);
}

// A pointer every call offsets by 2 times the global thread index, used only
// at constant slots 0 and 1: each thread's own window of the output (the
// digest that gpgpu-sim's MD5 kernel writes at scratch + hashIndex).
__device__ void digestOut(const unsigned *in, int n, unsigned char *output) {
  unsigned h = 0;
  for (int i = 0; i < n; i++)
    h = h * 31 + in[i];
  output[0] = (unsigned char)(h + threadIdx.x);
  output[1] = (unsigned char)(h >> 8);
}

__global__ void ownWindow(const unsigned *in, int n, unsigned char *out) {
  int t = threadIdx.x + blockDim.x * blockIdx.x;
  int at = t * 2;
  digestOut(in + t * n, n, out + at);
}

// Slot 2 is the next thread's slot 0.
__device__ void digestWide(const unsigned *in, int n, unsigned char *output) {
  unsigned h = 0;
  for (int i = 0; i < n; i++)
    h = h * 31 + in[i];
  output[0] = (unsigned char)(h + threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'output' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  output[2] = (unsigned char)(h >> 8);
}

__global__ void overlapping(const unsigned *in, int n, unsigned char *out) {
  int t = threadIdx.x + blockDim.x * blockIdx.x;
  digestWide(in + t * n, n, out + t * 2);
}
