// RUN: %check_cuda_lint %s cuda-warp-synchronous %t -- -config="{CheckOptions: {cuda-warp-synchronous.SharedScalars: true}}"

// A `__shared__` scalar is one element that every thread of the block sees:
// one thread publishes a value through it, the others read it, and without a
// barrier in between they race (issue 29; GPUVerify's shared_int). The race
// analysis treats it as an array of one element; `&s` (an atomic on it) is no
// access, and a volatile scalar (a spin flag) is left out.

__global__ void publishNoBarrier(const float *a, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = a[blockIdx.x];
  out[threadIdx.x] = s;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 32 reads 's', which thread 0 writes (in blocks of 256 threads, as launched here)
  // CHECK-FIXES: {{^}}    s = a[blockIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[threadIdx.x] = s;{{$}}
}

// The loop reads the value thread 0 publishes in the next iteration: a
// write-after-read across the back edge.
__global__ void loopNoTrailingBarrier(const float *a, float *out, int n) {
  __shared__ float s;
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0)
      s = a[i];
    __syncthreads();
    acc += s;
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: threads of different warps communicate through 's' across iterations of the loop with no barrier in between; missing __syncthreads() at the end of the loop body [cuda-warp-synchronous]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: another thread writes the element here in the next iteration
    // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread 32 reads 's', which thread 0 writes (in blocks of 256 threads, as launched here)
    // CHECK-FIXES: {{^}}    acc += s;{{$}}
    // CHECK-FIXES: {{^}}    __syncthreads();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  out[threadIdx.x] = acc;{{$}}
  }
  out[threadIdx.x] = acc;
}

// Every thread stores its own index: which one remains is undefined.
__global__ void everyThreadWrites(int *out) {
  __shared__ int s;
  s = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to 's' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 's', which thread 32 writes (in blocks of 256 threads, as launched here)
  __syncthreads();
  out[threadIdx.x] = s;
}

// Negatives: the barrier between; an atomic on the scalar; every thread
// storing the same value; one thread writing and reading; a volatile flag.
__global__ void publishWithBarrier(const float *a, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = a[blockIdx.x];
  __syncthreads();
  out[threadIdx.x] = s;
}

__global__ void loopWithTrailingBarrier(const float *a, float *out, int n) {
  __shared__ float s;
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x == 0)
      s = a[i];
    __syncthreads();
    acc += s;
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__global__ void countWithAtomic(const int *a, int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  if (a[threadIdx.x] > 0)
    atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
}

__global__ void sameValue(const int *a, int *out) {
  __shared__ int found;
  if (threadIdx.x == 0)
    found = 0;
  __syncthreads();
  if (a[threadIdx.x] < 0)
    found = 1;
  __syncthreads();
  out[threadIdx.x] = found;
}

__global__ void oneThread(const int *a, int *out) {
  __shared__ int s;
  if (threadIdx.x == 0) {
    s = a[0];
    s += a[1];
    out[blockIdx.x] = s;
  }
}

__global__ void spinFlag(int *out) {
  volatile __shared__ int flag;
  if (threadIdx.x == 0)
    flag = 1;
  out[threadIdx.x] = flag;
}

// The last thread carries a running seed between the digits (SHOC's
// top_scan): one thread, chosen through a local flag, updates it.
__global__ void lastThreadSeed(const int *in, int *out, int n) {
  __shared__ int seed;
  if (threadIdx.x == 0)
    seed = 0;
  __syncthreads();
  int last = (threadIdx.x + 1 == n) ? 1 : 0;
  for (int d = 0; d < 16; ++d) {
    int v = in[d * n + threadIdx.x];
    out[d * n + threadIdx.x] = v + seed;
    __syncthreads();
    if (last)
      seed += v;
    __syncthreads();
  }
}

// Two threads pass the flag: their read-modify-writes race.
__global__ void lastTwoSeed(const int *in, int *out, int n) {
  __shared__ int seed;
  if (threadIdx.x == 0)
    seed = 0;
  __syncthreads();
  int last = threadIdx.x + 2 >= n;
  int v = in[threadIdx.x];
  if (last)
    seed += v;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps communicate through 'seed' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread 0 reads 'seed', which thread 32 writes (in blocks of 256 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:5: note: no automatic fix: the statements involved cannot be rewritten in place (macros or statement forms the rewrite does not handle)
  __syncthreads();
  out[threadIdx.x] = seed;
}

void launch(const float *a, float *b, const int *c, int *d, int n) {
  lastThreadSeed<<<1, 256>>>(c, d, n);
  lastTwoSeed<<<1, 256>>>(c, d, n);
  publishNoBarrier<<<64, 256>>>(a, b);
  loopNoTrailingBarrier<<<64, 256>>>(a, b, n);
  everyThreadWrites<<<64, 256>>>(d);
  publishWithBarrier<<<64, 256>>>(a, b);
  loopWithTrailingBarrier<<<64, 256>>>(a, b, n);
  countWithAtomic<<<64, 256>>>(c, d);
  sameValue<<<64, 256>>>(c, d);
  oneThread<<<64, 256>>>(c, d);
  spinFlag<<<64, 256>>>(d);
}
