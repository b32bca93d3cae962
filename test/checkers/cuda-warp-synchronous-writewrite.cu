// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Write-write races (issue 29): two threads store different values to one
// element with no barrier between. Stores of one value (GPUVerify's benign
// races) and stores that a barrier separates are not reported.

#define STORE(a, i, v) a[i] = v

__global__ void everyThreadWritesOne() {
  __shared__ int A[16];
  A[0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'A' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 'A[0]', which thread 1 writes (in blocks of 16 threads, as launched here)
}

__global__ void ownThenFixed(int *out) {
  __shared__ int a[1024];
  a[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0)
    a[7] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads write different values to one element of 'a' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
}

__global__ void neighbours() {
  __shared__ int p[1024];
  for (int i = 0; i < 100; i++) {
    if (threadIdx.x == 5)
      p[threadIdx.x] = threadIdx.x;
    if (threadIdx.x == 4)
      p[threadIdx.x + 1] = threadIdx.x;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: threads write different values to one element of 'p' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: another thread writes the element here
  }
}

__global__ void inMacro() {
  __shared__ int m[32];
  STORE(m, 3, threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'm' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 'm[3]', which thread 1 writes (in blocks of 32 threads, as launched here)
}

__global__ void blocksWriteTheirIndex(int *p) {
  p[threadIdx.x] = blockIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different blocks write different values to one element of 'p' with no grid-wide synchronization in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 of block 0 writes 'p[0]', which thread 0 of block 1 writes (in blocks of 64 threads, as launched here)
}

template <typename T> __global__ void templated(T v) {
  __shared__ T t[64];
  t[1] = v + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 't' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
}

// --- no write-write race ---------------------------------------------------

__global__ void sameConstant() {
  __shared__ int A[16];
  A[0] = 0;
}

__global__ void oneThreadWrites(int *out) {
  __shared__ int s[64];
  if (threadIdx.x == 0)
    s[0] = threadIdx.x;
  out[threadIdx.x] = threadIdx.x;
}

__global__ void ownElements(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void globalOwnElements(int *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

__global__ void sameValueEveryBlock(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void separatedByBarrier() {
  __shared__ int a[1024];
  a[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    a[7] = 0;
}

__global__ void dataDependent(const int *in, int *out) {
  __shared__ int best;
  __shared__ int slot[1];
  if (in[threadIdx.x] > 100)
    slot[0] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x] = slot[0];
}

__global__ void accumulate(int *out) {
  __shared__ int sum[1];
  if (threadIdx.x == 0)
    sum[0] = 0;
  __syncthreads();
  atomicAdd(&sum[0], threadIdx.x);
}

// A condition on a local computed from the thread index: left to the
// read-write test (the write-write test keeps to conditions it decides
// surely), so no finding here even though only thread 7 writes.
__global__ void localCondition() {
  __shared__ int s[4];
  int i = (int)(threadIdx.x) - 7;
  if (i == 0)
    s[0] = threadIdx.x;
}

// A true race the check misses (threads 0-7 store to r[0]): computed
// indices on both sides (`r[clamp(...)]`) are left out.
__global__ void computedIndices(int *r) {
  int i = threadIdx.x < 8 ? 0 : threadIdx.x;
  r[i * 2] = threadIdx.x;
}

void host(int *p) {
  int h[4];
  for (int i = 0; i < 4; ++i)
    h[0] = i;
  everyThreadWritesOne<<<1, 16>>>();
  ownThenFixed<<<1, 1024>>>(p);
  neighbours<<<1, 1024>>>();
  inMacro<<<1, 32>>>();
  blocksWriteTheirIndex<<<4, 64>>>(p);
  templated<<<1, 64>>>(1);
  sameConstant<<<1, 16>>>();
  oneThreadWrites<<<1, 64>>>(p);
  ownElements<<<4, 64>>>(p);
  globalOwnElements<<<4, 64>>>(p);
  sameValueEveryBlock<<<4, 64>>>(p);
  separatedByBarrier<<<1, 1024>>>();
  dataDependent<<<2, 64>>>(p, p);
  accumulate<<<2, 64>>>(p);
  localCondition<<<1, 128>>>();
  computedIndices<<<1, 128>>>(p);
}
