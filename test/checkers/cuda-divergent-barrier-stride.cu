// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// A block-stride loop, `for (p = threadIdx.x; p < n; p += NT)` in blocks of
// NT threads, runs equally often in every thread when n is a multiple of NT
// (often what the host passes): its barriers diverge only in a last,
// partial iteration. The bound is a parameter the host passes unchanged
// from its own caller: the finding says what must hold (where every launch
// passes a multiple, cuda-divergent-barrier-launch-multiple.cu, nothing is
// reported).
#define NT 256
__global__ void countPositive(const int *in, int *out, int n) {
  __shared__ int s[NT];
  __shared__ int total;
  int acc = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    s[threadIdx.x] = in[blockIdx.x * n + p] > 0;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; otherwise only some threads run the last iteration, and a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    if (threadIdx.x == 0) {
      int t = 0;
      for (int i = 0; i < NT; i++)
        t += s[i];
      total = t;
    }
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; otherwise only some threads run the last iteration, and a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    acc += total;
  }
  __syncthreads();
  out[blockIdx.x * NT + threadIdx.x] = acc;
}

void launchCount(const int *in, int *out, int n) {
  countPositive<<<8, NT>>>(in, out, n);
}

// A count the loop's iterations add to (uniform when every thread runs
// them all): the barrier under `if (found < 3)` diverges only through the
// loop too. A barrier under a condition on the thread index in the same
// loop diverges anyway.
__global__ void firstThree(const int *in, int *out, int n) {
  __shared__ int s[NT];
  __shared__ int total;
  int found = 0, acc = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    s[threadIdx.x] = in[blockIdx.x * n + p] > 0;
    if (threadIdx.x == 0)
      total = s[0] + s[1];
    if (found < 3) {
      acc += s[(threadIdx.x + 1) % NT];
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-8]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
      found += total;
    }
    if (threadIdx.x < 32)
      __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES: :[[@LINE-3]]:9: note: the barrier is under this condition, which depends on the thread index
  }
  out[blockIdx.x * NT + threadIdx.x] = acc;
}

void launchFirst(const int *in, int *out, int m) {
  firstThree<<<8, NT>>>(in, out, m * 1000);
}

// Negative: the bound rounded up to a multiple of the step.
__global__ void countRounded(const int *in, int *out, int n) {
  __shared__ int s[NT];
  int acc = 0;
  int padded = (n + NT - 1) / NT * NT;
  for (int p = threadIdx.x; p < padded; p += NT) {
    s[threadIdx.x] = p < n ? in[blockIdx.x * n + p] : 0;
    __syncthreads();
    acc += s[NT - 1 - threadIdx.x];
    __syncthreads();
  }
  __syncthreads();
  out[blockIdx.x * NT + threadIdx.x] = acc;
}

void launchRounded(const int *in, int *out, int n) {
  countRounded<<<8, NT>>>(in, out, n);
}

// A constant bound that is not a multiple: the last iteration runs in only
// some threads, whatever the host does.
__global__ void countFixed(const int *in, int *out) {
  __shared__ int s[NT];
  int acc = 0;
  for (int p = threadIdx.x; p < 1000; p += NT) {
    s[threadIdx.x] = in[blockIdx.x * 1000 + p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: the barrier is under this condition, which depends on the thread index
    acc += s[NT - 1 - threadIdx.x];
  }
  __syncthreads();
  out[blockIdx.x * NT + threadIdx.x] = acc;
}

void launchFixed(const int *in, int *out) { countFixed<<<8, NT>>>(in, out); }

// A grid-stride loop over a parameter bound: not hedged (a multiple of the
// whole grid is not what such loops are written for).
__global__ void gridStride(const float *in, float *out, int n) {
  __shared__ float s[NT];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    out[i] = s[NT - 1 - threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  }
  __syncthreads();
  out[0] = 0.0f;
}

void launchGrid(const float *in, float *out, int n) {
  gridStride<<<8, NT>>>(in, out, n);
}
