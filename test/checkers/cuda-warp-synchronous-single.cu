// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Guards that let in one thread of a block (`threadIdx.x == best`, a
// bracket over sorted keys), one block of the grid (the "last block" of
// threadFenceReduction) or, through the block's shape, only one of two
// paths (`if (blockDim.x <= 32) return ...;`): the shapes of the false
// alarms of the stop-22 audit, each next to the true race that must stay.

// One thread of each block: the one whose index is the block's best.
__global__ void bestCounts(const int *score, const int *best, int *cnt,
                           int *hist) {
  __shared__ int top;
  if (threadIdx.x == 0)
    top = 0;
  __syncthreads();
  atomicMax(&top, score[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (best[blockIdx.x] == threadIdx.x) {
    cnt[blockIdx.x]++;
    if (cnt[blockIdx.x] > 3)
      cnt[blockIdx.x] = 0;
  }
}

// The same guard, but the best index is read from memory that the guarded
// thread writes while the others read it: not one thread.
__global__ void bestMoving(int *best, int *cnt) {
  if (best[blockIdx.x] == threadIdx.x) {
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: threads may communicate through 'best' with no barrier in between, depending on the data: a race unless a data-dependent condition lets only one thread at each element [cuda-warp-synchronous]
    best[blockIdx.x] = threadIdx.x + 1;
    cnt[blockIdx.x] = cnt[blockIdx.x] + 1;
  }
}

// One thread of each block for every value of k, but the loop has no
// barrier: the thread of k = 0 and the thread of k = 1 meet.
__global__ void bestPerStep(const int *best, int *cnt, int steps) {
  for (int k = 0; k < steps; ++k) {
    if (best[k] == threadIdx.x)
      cnt[blockIdx.x] = cnt[blockIdx.x] + 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: threads may communicate through 'cnt' with no barrier in between, depending on the data: a race unless a data-dependent condition lets only one thread at each element [cuda-warp-synchronous]
  }
}

// The b+tree search: keys sorted, one thread finds the interval of the
// query, and only that thread updates the block's offset.
__global__ void findInterval(const int *keys, const int *query, long *off) {
  int t = threadIdx.x;
  if (keys[t] <= query[blockIdx.x] && keys[t + 1] > query[blockIdx.x]) {
    if (keys[off[blockIdx.x] + t] >= 0)
      off[blockIdx.x] = off[blockIdx.x] + t;
  }
}

// Both bounds inclusive: with a repeated key two threads pass.
__global__ void findClosed(const int *keys, const int *query, long *off) {
  int t = threadIdx.x;
  if (keys[t] <= query[blockIdx.x] && keys[t + 1] >= query[blockIdx.x])
    off[blockIdx.x] = off[blockIdx.x] + t;
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: threads may communicate through 'off' with no barrier in between, depending on the data: a race unless a data-dependent condition lets only one thread at each element [cuda-warp-synchronous]
}

// threadFenceReduction: every block publishes its sum behind a fence and
// takes a ticket; the block that takes the last one sums them.
__global__ void lastBlockSum(const float *in, int n, unsigned *count,
                             volatile float *result) {
  __shared__ bool isLast;
  __shared__ float acc;
  if (threadIdx.x == 0)
    acc = 0.f;
  __syncthreads();
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n)
    atomicAdd(&acc, in[gid]);
  __syncthreads();
  if (threadIdx.x == 0) {
    result[blockIdx.x] = acc;
    __threadfence();
    unsigned ticket = atomicAdd(count, 1);
    isLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast) {
    if (threadIdx.x == 0)
      acc = 0.f;
    __syncthreads();
    for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x)
      atomicAdd(&acc, result[i]);
    __syncthreads();
    if (threadIdx.x == 0) {
      result[0] = acc;
      *count = 0;
    }
  }
}

// The same flag set from a plain counter read (not a ticket): several
// blocks may see it, and they meet in result.
__global__ void notLastBlock(unsigned *count, volatile float *result) {
  __shared__ bool isLast;
  if (threadIdx.x == 0) {
    result[blockIdx.x] = 1.f;
    __threadfence();
    isLast = (*count == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast) {
    float s = 0.f;
    for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x)
      s += result[i];
    if (threadIdx.x == 0)
      result[0] = s;
    // CHECK-MESSAGES: :[[@LINE-3]]:12: warning: threads of different blocks communicate through 'result' with no grid-wide synchronization in between; __syncthreads() cannot order them [cuda-warp-synchronous]
  }
}

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// A block reduction with a path for blocks of one warp: the read of sh[0]
// on that path and the write after it are never in one block.
__device__ float blockSum(float v) {
  __shared__ float sh[32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  v = warpSum(v);
  if (lane == 0)
    sh[warp] = v;
  __syncthreads();
  if (blockDim.x <= 32) {
    return sh[0];
  }
  v = (threadIdx.x < blockDim.x / 32) ? sh[lane] : 0.f;
  if (warp == 0) {
    v = warpSum(v);
    if (threadIdx.x == 0)
      sh[0] = v;
  }
  __syncthreads();
  return sh[0];
}

__global__ void sums(const float *in, float *out) {
  float s = blockSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// The same split with the write on the path that large blocks take too:
// a race in every block of more than one warp.
__device__ float blockSumRacy(float v) {
  __shared__ float sh[32];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
    sh[warp] = v;
  __syncthreads();
  if (blockDim.x > 32) {
    v = sh[0];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: threads of different warps communicate through 'sh' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    if (threadIdx.x == 0)
      sh[0] = v * 2;
  }
  __syncthreads();
  return sh[0];
}

__global__ void sumsRacy(const float *in, float *out) {
  float s = blockSumRacy(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// A chained scan: the last thread of each block spins on the volatile word
// the block before publishes its running total in, then publishes its own.
// The wait is the synchronization, not a racy read.
__global__ void chainedScan(volatile int *flag, const int *cnt, int *out) {
  if (threadIdx.x == blockDim.x - 1) {
    int st = 0;
    if (blockIdx.x > 0) {
      do {
        st = flag[blockIdx.x];
      } while (st < 0);
    }
    flag[blockIdx.x + 1] = st + cnt[blockIdx.x];
    out[blockIdx.x] = st;
  }
}

// The same wait in the loop's condition.
__global__ void chainedWait(volatile int *flag, const int *cnt) {
  if (threadIdx.x == 0) {
    if (blockIdx.x > 0)
      while (flag[blockIdx.x] < 0)
        ;
    flag[blockIdx.x + 1] = cnt[blockIdx.x];
  }
}

// A volatile read that the loop does not wait on: still a race.
__global__ void notAWait(volatile int *flag, int *out, int n) {
  if (threadIdx.x == 0) {
    int st = 0;
    for (int i = 0; i < n; ++i)
      st += flag[blockIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: threads of different blocks communicate through 'flag' with no grid-wide synchronization in between; __syncthreads() cannot order them [cuda-warp-synchronous]
    flag[blockIdx.x + 1] = st;
    out[blockIdx.x] = st;
  }
}

// A loop that does more than wait: its volatile read stays one.
__global__ void pollAndCount(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    int polls = 0;
    while (flag[blockIdx.x] < 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: threads of different blocks communicate through 'flag' with no grid-wide synchronization in between; __syncthreads() cannot order them [cuda-warp-synchronous]
      ++polls;
    flag[blockIdx.x + 1] = polls;
    out[blockIdx.x] = polls;
  }
}
