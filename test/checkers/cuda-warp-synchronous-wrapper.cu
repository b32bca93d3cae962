// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// The block passed in through a parameter of the launching function: the
// launch analysis follows it to the calls of that function, when they are
// all in this file. Tiles of 8x16 elements, one per thread, in global
// memory.
#define TW 8
#define TH 16

// Each thread scales its own element: no thread reads another's. Launched
// through two wrappers with dim3(8, 16); blocks of 128x8 (the model
// without the launch) would give elements to two threads each.
__global__ void scaleTile(float *buf, const float *in, float *out) {
  float *tile = buf + blockIdx.x * TW * TH;
  int e = threadIdx.y * TW + threadIdx.x;
  tile[e] = in[blockIdx.x * TW * TH + e];
  out[blockIdx.x * TW * TH + e] = 2.0f * tile[e];
}

static void runScale(float *buf, const float *in, float *out, int n,
                     dim3 threads) {
  scaleTile<<<n / (TW * TH), threads>>>(buf, in, out);
}

static void scaleAll(float *buf, const float *in, float *out, int n,
                     const dim3 &threads) {
  runScale(buf, in, out, n, threads);
}

// Each thread reads its neighbour's element (k ^ 1): lanes of one warp in
// the blocks launched, dim3(8, 16), made by the caller.
__global__ void swapTile(float *buf, const float *in, float *out) {
  float *tile = buf + blockIdx.x * TW * TH;
  int k = threadIdx.y * TW + threadIdx.x;
  tile[k] = in[blockIdx.x * TW * TH + k];
  out[blockIdx.x * TW * TH + k] = tile[k ^ 1];
}
// CHECK-MESSAGES: :[[@LINE-2]]:35: warning: lanes of a warp communicate through 'buf' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-4]]:35: note: for example, thread (0, 0) reads 'buf[1]', which thread (1, 0) writes (in blocks of 8x16 threads, as launched here)
// CHECK-FIXES: {{^}}  tile[k] = in[blockIdx.x * TW * TH + k];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}

static void runSwap(float *buf, const float *in, float *out, int n,
                    dim3 threads = dim3(TW, TH)) {
  swapTile<<<n / (TW * TH), threads>>>(buf, in, out);
}

void run(float *buf, const float *in, float *out, int n) {
  dim3 threads(TW, TH);
  scaleAll(buf, in, out, n, threads);
  runSwap(buf, in, out, n);
}

// One dimension, an int parameter: thread t reads s[(t + 32) % 64], which
// thread (t + 32) % 64 of the other warp writes, in the blocks of 64 threads
// launched.
__global__ void neighbourInt(const float *in, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 32) % 64];
}
// CHECK-MESSAGES: :[[@LINE-2]]:48: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-4]]:48: note: for example, thread 0 reads 's[32]', which thread 32 writes (in blocks of 64 threads, as launched here)
// CHECK-FIXES: {{^}}  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}

namespace {
void runNeighbourInt(const float *in, float *out, int n, int threads) {
  neighbourInt<<<n / threads, threads>>>(in, out);
}
} // namespace

void runNeighbour(const float *in, float *out, int n) {
  runNeighbourInt(in, out, n, 64);
}

// Not followed: a wrapper meant for other files (`extern "C"`), and one
// whose address is taken (a call through the pointer may pass any block):
// the largest block is assumed.
__global__ void neighbourC(const float *in, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 32) % 64];
}
// CHECK-MESSAGES: :[[@LINE-2]]:48: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-4]]:48: note: for example, thread 0 reads 's[32]', which thread 32 writes (assuming blocks of 1024 threads)
// CHECK-FIXES: {{^}}  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}

extern "C" void runNeighbourC(const float *in, float *out, int n,
                              int threads) {
  neighbourC<<<n / threads, threads>>>(in, out);
}

void runC(const float *in, float *out, int n) {
  runNeighbourC(in, out, n, 64);
}

__global__ void neighbourP(const float *in, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 32) % 64];
}
// CHECK-MESSAGES: :[[@LINE-2]]:48: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
// CHECK-NOTES: :[[@LINE-4]]:48: note: for example, thread 0 reads 's[32]', which thread 32 writes (assuming blocks of 1024 threads)
// CHECK-FIXES: {{^}}  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}

static void runNeighbourP(const float *in, float *out, int n, int threads) {
  neighbourP<<<n / threads, threads>>>(in, out);
}

void (*neighbourLauncher)(const float *, float *, int, int) = runNeighbourP;

void runP(const float *in, float *out, int n) {
  runNeighbourP(in, out, n, 64);
}
