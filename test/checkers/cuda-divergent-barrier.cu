// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// A barrier inside a branch on the thread index.
__global__ void branchOnThread(float *out, int n) {
  int tid = threadIdx.x;
  if (tid < n) {
    out[tid] = 1.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
  }
  // The threads that skipped the barrier go on running: a kernel whose `if`
  // is its last statement is the exited-threads case
  // (cuda-divergent-barrier-exit.cu).
  out[n + tid] = 0.0f;
}

// Some threads leave the kernel early: they have exited, and exited threads
// do not hold up the barrier (see cuda-divergent-barrier-exit.cu).
__global__ void earlyReturn(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __shared__ float tile[256];
  tile[threadIdx.x] = out[i];
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}

// A helper's early return is not an exit: those threads go on running in
// the caller, and the others wait for them at this barrier.
__device__ void helperReturn(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __shared__ float tile[256];
  tile[threadIdx.x] = out[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: some threads return here, before the barrier; they go on running in the caller
  out[i] = tile[255 - threadIdx.x];
}

// Derived values: a lane id, a loop whose trip count depends on the thread.
__global__ void derived(float *out, int n) {
  int lane = threadIdx.x & 31;
  bool leader = lane == 0;
  if (leader)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    out[j] = 0.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step blockDim.x; otherwise only some threads run the last iteration
    // CHECK-NOTES: :[[@LINE-4]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
  }
  // Assigned under a thread-dependent condition.
  int flag = 0;
  if (threadIdx.x % 32 == 0)
    flag = 1;
  while (flag) {
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncwarp' is reached by only some threads of the warp
    // CHECK-NOTES: :[[@LINE-3]]:10: note: the barrier is under this condition
    flag = 0;
  }
  // A value read at a thread-dependent index.
  if (out[threadIdx.x] > 0.0f)
    __syncthreads_count(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads_count' is reached by only some threads
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition
  out[threadIdx.x] += 1.0f;
}

// Not findings: block-uniform conditions.
__global__ void uniform(float *data, const int *flags, int n, bool twice) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = data[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  // A tree reduction: the loop bound is uniform, the branch is not, and the
  // barrier is outside the branch.
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (blockIdx.x < n)
    __syncthreads();
  if (twice && gridDim.x > 1)
    __syncthreads();
  if (flags[blockIdx.x])
    __syncthreads();
  // Shared memory read at a uniform address: the same value in every thread.
  if (s[0] > 0.0f)
    __syncthreads();
  for (int k = 0; k < 4; ++k)
    __syncthreads();
  // A whole warp (the warp index is the same in every lane) may __syncwarp,
  // but not __syncthreads.
  unsigned warp = tid / 32;
  if (warp == 1)
    __syncwarp();
  if (warp == 1)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the barrier is under this condition
  // A partial mask is the programmer's statement about who takes part.
  if (tid < 16)
    __syncwarp(0xffff);
  if (tid == 0)
    data[blockIdx.x] = s[0];
}

// Host code and lambdas are not the kernel's control flow.
__device__ void helper(float *p) { __syncthreads(); }
__global__ void withLambda(float *p) {
  auto f = [](float *q) {
    __syncthreads();
  };
  f(p);
  helper(p);
}

// Templates: reported once, whatever the instantiation.
template <int Active> __global__ void firstThreads(float *p) {
  if (threadIdx.x < Active) {
    p[threadIdx.x] = 0.0f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads
  }
  p[Active + threadIdx.x] = 1.0f;
}
template __global__ void firstThreads<32>(float *);
template __global__ void firstThreads<64>(float *);

// Macros: the barrier inside a macro is reported at the use.
#define BARRIER_IF(c)                                                          \
  if (c)                                                                       \
  __syncthreads()
__global__ void viaMacro(float *p) {
  BARRIER_IF(threadIdx.x == 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads' is reached by only some threads
  BARRIER_IF(blockIdx.x == 0);
}
