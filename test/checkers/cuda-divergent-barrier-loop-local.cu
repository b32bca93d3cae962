// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// A variable declared before a loop with a thread-dependent exit, and
// assigned afresh at the top of each iteration, has the same value in all the
// threads that are still in the loop: declaring it outside the loop changes
// nothing. The threads that leave the loop exit.

// A warp-coherent tree walk (the Barnes-Hut force kernel's shape): 'depth'
// changes only under warp-uniform conditions.
__global__ void treeWalk(const int *child, const float *dist, float *out,
                         int nleaf, int n) {
  __shared__ int stack[8 * 32];
  int depth;
  const int base = threadIdx.x / 32 * 32;
  for (int k = threadIdx.x + blockIdx.x * blockDim.x; k < n;
       k += blockDim.x * gridDim.x) {
    depth = base;
    if (threadIdx.x % 32 == 0)
      stack[base] = 0;
    __syncwarp();
    float acc = 0.f;
    do {
      int node = stack[depth];
      __syncwarp();
      int c = child[node];
      if (c < nleaf || __all_sync(0xffffffff, dist[k] > 1.f)) {
        acc += 1.f;
      } else {
        if (threadIdx.x % 32 == 0)
          stack[depth] = c;
        depth++;
      }
      depth--;
      __syncwarp();
    } while (depth >= base);
    out[k] = acc;
  }
}

// The same at block scope: 'rounds' is reset in each iteration of a
// block-stride loop and read by the inner loop that holds the barrier.
__global__ void blockStride(const float *in, float *out, const int *len,
                            int n) {
  __shared__ float tile[256];
  int rounds;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    rounds = len[blockIdx.x];
    for (int r = 0; r < rounds; ++r) {
      tile[threadIdx.x] = in[i] + r;
      __syncthreads();
      out[i] += tile[255 - threadIdx.x];
      __syncthreads();
    }
  }
}

// Counted by the loop and read after it (the kernel goes on after the
// barrier's loop, so the threads that skip it have not exited): the threads leave the loop after
// different numbers of iterations, so 'steps' differs between them.
__global__ void countedAfterLoop(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int steps = 0;
  for (int k = threadIdx.x; k < n; k += 7)
    steps = steps + 1;
  for (int s = 0; s < steps; ++s) {
    tile[threadIdx.x] = in[s];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:19: note: the barrier is under this condition, which depends on the thread index
    out[threadIdx.x] += tile[s % 256];
  }
  out[threadIdx.x] += steps;
}

// The loop's own init assigns the variable, and the use follows the loop.
__global__ void initAssigned(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int k;
  for (k = threadIdx.x; k < n; k += blockDim.x)
    out[k] = in[k];
  if (k > n + 32) {
    tile[threadIdx.x] = 0.f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by only some threads of the block; a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the barrier is under this condition, which depends on the thread index
    out[threadIdx.x] = tile[0];
  }
  out[threadIdx.x] += 1.f;
}
