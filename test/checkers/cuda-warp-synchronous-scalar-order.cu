// RUN: %check_cuda_lint %s cuda-warp-synchronous %t -- -config="{CheckOptions: {cuda-warp-synchronous.SharedScalars: true}}"

// Two shapes of shared-flag code that are no race (issue 29; look-alikes of
// false alarms a sealed audit found): a do-while tests its condition after
// the body, so a barrier at the top of the body separates the condition
// from a write before the loop; and every thread storing one value before
// it reads the flag sees that value whichever store lands last.

__global__ void doWhileBarrierAtTop(const int *in, int *out, int n) {
  __shared__ bool done;
  __shared__ bool again;
  int i = threadIdx.x;
  if (i == 0)
    done = false;
  do {
    __syncthreads();
    if (i == 0)
      again = false;
    __syncthreads();
    if (in[i] > n)
      done = true;
    __syncthreads();
  } while (!done);
  out[i] = again;
}

// The condition follows the body's last barrier: the write after it and
// the read in the condition race.
__global__ void doWhileWriteBeforeCondition(const int *in, int *out, int n) {
  __shared__ bool done;
  int i = threadIdx.x;
  do {
    __syncthreads();
    if (i == 0)
      done = in[0] > n;
  } while (!done);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different warps communicate through 'done' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread 32 reads 'done', which thread 0 writes (assuming blocks of 1024 threads)
  // CHECK-NOTES: :[[@LINE-4]]:13: note: no automatic fix: the statements involved cannot be rewritten in place (macros or statement forms the rewrite does not handle)
  out[i] = 1;
}

__global__ void everyThreadStoresFalse(const float *d, int *out, int cats) {
  __shared__ bool found;
  __shared__ float smem[256];
  for (int row = blockIdx.x; row < 64; row += gridDim.x) {
    __syncthreads();
    found = false;
    for (int c = 0; c < cats && !found; ++c) {
      smem[threadIdx.x] = d[row * cats + c * 256 + threadIdx.x];
      __syncthreads();
      if (smem[threadIdx.x] > 0.5f)
        found = true;
      __syncthreads();
    }
    if (threadIdx.x == 0)
      out[row] = found;
  }
}

// The same with one constant element of an array and a value the same in
// every thread.
__global__ void everyThreadStoresBlock(int *out) {
  __shared__ int s[2];
  s[1] = blockIdx.x * 2;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[1];
}

// Only thread 0 stores: the others read before it may have.
__global__ void oneThreadStores(int *out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = 1;
  out[threadIdx.x] = flag;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 'flag' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 32 reads 'flag', which thread 0 writes (assuming blocks of 1024 threads)
  // CHECK-FIXES: {{^}}    flag = 1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[threadIdx.x] = flag;{{$}}
}

// Every thread stores its own index: which store lands decides the value.
__global__ void everyThreadStoresOwnIndex(int *out) {
  __shared__ int last;
  last = threadIdx.x;
  out[threadIdx.x] = last;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 'last' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 0 reads 'last', which thread 32 writes (assuming blocks of 1024 threads)
}

// The store is in a loop that may run no iteration: a thread that skips it
// reads what another thread is storing.
__global__ void storeInLoop(const int *n, int *out) {
  __shared__ int zero;
  for (int k = 0; k < n[threadIdx.x]; ++k)
    zero = 0;
  out[threadIdx.x] = zero;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 'zero' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 0 reads 'zero', which thread 32 writes (assuming blocks of 1024 threads)
}
