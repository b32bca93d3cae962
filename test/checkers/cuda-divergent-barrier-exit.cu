// RUN: %check_cuda_lint -check-suffix=DEF %s cuda-divergent-barrier %t-def
// RUN: %check_cuda_lint -check-suffix=EXIT %s cuda-divergent-barrier %t-exit -- -config="{CheckOptions: {cuda-divergent-barrier.ReportExitedThreads: true}}"

// Barriers missed only by threads that have exited the kernel, loop
// counters reused with a uniform value, warps of whole rows: not findings
// (issue 19). ReportExitedThreads reports the exited-threads case with its
// own message.

// The threads past the end return: they have exited. PTX's exit releases a
// barrier that waits only for exiting threads, so this does not hang.
__global__ void tail(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:3: warning: '__syncthreads' is not reached by the threads that returned before it; exited threads do not hold up the barrier, but the CUDA programming guide asks every thread of the block to reach a barrier in conditional code [cuda-divergent-barrier]
  // CHECK-NOTES-EXIT: :[[@LINE-4]]:5: note: some threads return here, before the barrier
  out[i] = tile[threadIdx.x ^ 1];
}

// __syncwarp waits only for the lanes that have not exited: well defined.
__global__ void warpTail(const int *in, int *out, int n) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncwarp();
  out[i] = s[threadIdx.x ^ 1];
}

// The `if` is the rest of the kernel: the threads that skip it exit, as
// with `if (i >= n) return;`.
__global__ void wrapped(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:5: warning: '__syncthreads' is not reached by the threads that skip it and run to the end of the kernel; exited threads do not hold up the barrier, but the CUDA programming guide asks every thread of the block to reach a barrier in conditional code [cuda-divergent-barrier]
    // CHECK-NOTES-EXIT: :[[@LINE-4]]:7: note: the threads this condition keeps from the barrier reach no other barrier before they exit
    out[i] = tile[threadIdx.x ^ 1];
  }
  return;
}

// A grid-stride loop that ends the kernel: the threads that leave it early
// exit; the others meet only each other at its barriers.
__global__ void strideToEnd(const float *in, float *out, int n) {
  __shared__ float tile[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:5: warning: '__syncthreads' is not reached by the threads that skip it and run to the end of the kernel; {{.*}}
    // CHECK-NOTES-EXIT: :[[@LINE-5]]:55: note: the threads this condition keeps from the barrier reach no other barrier before they exit
    out[i] = tile[threadIdx.x ^ 1];
    __syncthreads();
    // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:5: warning: '__syncthreads' is not reached by the threads that skip it and run to the end of the kernel; {{.*}}
    // CHECK-NOTES-EXIT: :[[@LINE-9]]:55: note: the threads this condition keeps from the barrier reach no other barrier before they exit
  }
}

// Still reported: the threads that skip the barrier go on running, to a
// barrier after the branch, to another barrier in the other arm, or round
// the loop around the branch.
__global__ void skip(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES-DEF: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES-DEF: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
    // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES-EXIT: :[[@LINE-6]]:7: note: the barrier is under this condition, which depends on the thread index
    out[i] = tile[threadIdx.x ^ 1];
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    __syncthreads();
    // CHECK-MESSAGES-DEF: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES-DEF: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread index
    // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES-EXIT: :[[@LINE-5]]:7: note: the barrier is under this condition, which depends on the thread index
  } else {
    out[i] = 0.0f;
    __syncthreads();
    // CHECK-MESSAGES-DEF: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES-DEF: :[[@LINE-10]]:7: note: the barrier is under this condition, which depends on the thread index
    // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:5: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
    // CHECK-NOTES-EXIT: :[[@LINE-12]]:7: note: the barrier is under this condition, which depends on the thread index
  }
}

__global__ void skipInLoop(const float *in, float *out, int n, int steps) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < steps; ++s)
    if (i < n) {
      tile[threadIdx.x] = in[i];
      __syncthreads();
      // CHECK-MESSAGES-DEF: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
      // CHECK-NOTES-DEF: :[[@LINE-4]]:9: note: the barrier is under this condition, which depends on the thread index
      // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:7: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
      // CHECK-NOTES-EXIT: :[[@LINE-6]]:9: note: the barrier is under this condition, which depends on the thread index
      out[i] += tile[threadIdx.x ^ 1];
    }
}

// A loop counter reused: the first loop gives `i` per-thread values, the
// second starts it again at 0 for every thread.
__global__ void reuse(const float *in, float *out, int n, int steps) {
  __shared__ float s[256];
  int i;
  float acc = 0.0f;
  for (i = threadIdx.x; i < n; i += blockDim.x)
    acc += in[i];
  s[threadIdx.x] = acc;
  for (i = 0; i < steps; i++) {
    __syncthreads();
    s[threadIdx.x] += s[(threadIdx.x + 1) % 256];
  }
  i = threadIdx.x;
  if (i < 32)
    __syncthreads();
  // CHECK-MESSAGES-DEF: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES-DEF: :[[@LINE-3]]:7: note: the barrier is under this condition, which depends on the thread index
  // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES-EXIT: :[[@LINE-5]]:7: note: the barrier is under this condition, which depends on the thread index
  out[threadIdx.x] = s[threadIdx.x];
}

// Launched with 32-wide rows, a warp is one row: the row's bounds are the
// same in all its lanes.
__global__ void rows(const int *rowPtr, const float *val, float *out,
                     int nrows) {
  __shared__ float sh[8 * 32];
  int row = blockDim.y * blockIdx.x + threadIdx.y;
  if (row < nrows) {
    int lb = rowPtr[row], hb = rowPtr[row + 1];
    float acc = 0.0f;
    for (int j = lb; j < hb; j += 32) {
      if (j + threadIdx.x < hb)
        sh[threadIdx.y * 32 + threadIdx.x] = val[j + threadIdx.x];
      __syncwarp();
      for (int k = 0; k < 32 && j + k < hb; k++)
        acc += sh[threadIdx.y * 32 + k];
      __syncwarp();
    }
    out[row * 32 + threadIdx.x] = acc;
  }
}

void run(const int *rowPtr, const float *val, float *out, int nrows,
         int rowsPerBlock) {
  rows<<<(nrows + rowsPerBlock - 1) / rowsPerBlock, dim3(32, rowsPerBlock)>>>(
      rowPtr, val, out, nrows);
}

// A do-while whose condition reads what the body assigns last: a value
// every thread reads from shared memory.
__global__ void improve(const float *in, float *out, int n) {
  __shared__ int best;
  int change;
  do {
    change = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      change -= in[i] > 0.0f;
    if (threadIdx.x == 0)
      best = change;
    __syncthreads();
    change = best;
    __syncthreads();
  } while (change < 0);
  out[threadIdx.x] = change;
}

// A helper whose only call is the last thing a kernel runs: its `return`
// ends the thread, as in the kernel.
__device__ void tailBody(const float *in, float *out, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  t[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:3: warning: '__syncthreads' is not reached by the threads that returned before it; {{.*}}
  // CHECK-NOTES-EXIT: :[[@LINE-4]]:5: note: some threads return here, before the barrier
  out[i] = t[threadIdx.x ^ 1];
}
__global__ void viaTailHelper(const float *in, float *out, int n) {
  tailBody(in, out, n);
}

// The same helper called before more work: the threads that return go on
// running in the caller.
__device__ void midBody(const float *in, float *out, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  t[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES-DEF: :[[@LINE-1]]:3: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
  // CHECK-NOTES-DEF: :[[@LINE-4]]:5: note: some threads return here, before the barrier; they go on running in the caller
  // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:3: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
  // CHECK-NOTES-EXIT: :[[@LINE-6]]:5: note: some threads return here, before the barrier; they go on running in the caller
  out[i] = t[threadIdx.x ^ 1];
}
__global__ void viaMidHelper(const float *in, float *out, int n) {
  midBody(in, out, n);
  __syncthreads();
  out[0] = 0.0f;
}

// Threads that wait at a barrier of their own and then return (moe_align):
// the first barrier the others reach after the branch is the one they meet
// in its place. Both are `bar.sync 0`: the returning threads arrive once and
// exit, and later barriers wait for no exited thread, so nothing hangs
// (audit of stop 25). Outside the guide's letter: reported, as one pairing,
// only with ReportExitedThreads; the later barriers are missed only by
// threads that have exited.
template <int Fill>
__device__ void fillThenSort(const int *keys, int *out, int n) {
  __shared__ int counts[256];
  if (threadIdx.x < Fill) {
    for (int i = threadIdx.x; i < n; i += Fill)
      out[i] = n;
    __syncthreads();
    return;
  }
  const int tid = threadIdx.x - Fill;
  counts[tid] = keys[tid];
  __syncthreads();
  // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:3: warning: '__syncthreads' pairs with another barrier that the returning threads wait at before they exit; both are barrier 0, so this cannot hang, but the CUDA programming guide asks every thread of the block to reach the same barrier [cuda-divergent-barrier]
  // CHECK-NOTES-EXIT: :[[@LINE-6]]:5: note: some threads return here, after waiting at another barrier in its place
  // CHECK-NOTES-EXIT: :[[@LINE-8]]:5: note: the threads that return wait at this barrier instead
  if (tid == 0)
    for (int i = 1; i < 256 - Fill; ++i)
      counts[i] += counts[i - 1];
  __syncthreads();
  // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:3: warning: '__syncthreads' is not reached by the threads that returned before it; {{.*}}
  // CHECK-NOTES-EXIT: :[[@LINE-13]]:5: note: some threads return here, before the barrier
  out[tid] = counts[tid];
}

// The returning threads wait at their barrier in a loop: they arrive more
// than once, the others once. That can hang: reported.
__global__ void fillInLoop(int *out, int n, int rounds) {
  if (threadIdx.x < 32) {
    for (int r = 0; r < rounds; ++r) {
      out[threadIdx.x] += r;
      __syncthreads();
      // CHECK-MESSAGES-DEF: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
      // CHECK-NOTES-DEF: :[[@LINE-5]]:7: note: the barrier is under this condition, which depends on the thread index
      // CHECK-MESSAGES-EXIT: :[[@LINE-3]]:7: warning: '__syncthreads' is reached by only some threads of the block; {{.*}}
      // CHECK-NOTES-EXIT: :[[@LINE-7]]:7: note: the barrier is under this condition, which depends on the thread index
    }
    return;
  }
  __syncthreads();
  // CHECK-MESSAGES-EXIT: :[[@LINE-1]]:3: warning: '__syncthreads' is not reached by the threads that returned before it; {{.*}}
  // CHECK-NOTES-EXIT: :[[@LINE-4]]:5: note: some threads return here, before the barrier
  out[threadIdx.x] = n;
}
template <int Fill>
__global__ void alignKernel(const int *keys, int *out, int n) {
  fillThenSort<Fill>(keys, out, n);
}
void runAlign(const int *keys, int *out, int n) {
  alignKernel<64><<<1, 256>>>(keys, out, n);
}
