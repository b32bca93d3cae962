// RUN: %check_cuda_lint %s cuda-divergent-barrier %t

// A block-stride loop over a kernel parameter runs equally often in every
// thread when the bound is a multiple of the step. Where every launch of the
// kernel passes a value the host provably makes a multiple (`num_paths *=
// 1024;` before the launch, a product with such a constant), its barriers
// are reached by every thread. Values read from shared memory at an index
// every thread computes alike, after a barrier, are the same in every
// thread: `continue` on them and a count added from them do not diverge.
template <int NUM_THREADS>
__global__ void findPaths(const int *in, int *out, int num_paths) {
  __shared__ int s_sum[NUM_THREADS];
  __shared__ int s_total;
  int found_paths = 0;
  for (int path = threadIdx.x; path < num_paths; path += NUM_THREADS) {
    s_sum[threadIdx.x] = in[path];
    __syncthreads();
    if (threadIdx.x == 0) {
      int t = 0;
      for (int i = 0; i < NUM_THREADS; i++)
        t += s_sum[i];
      s_sum[0] = t;
      s_total = t;
    }
    __syncthreads();
    int lsum = s_sum[0];
    if (lsum == 0)
      continue;
    found_paths += s_total;
    __syncthreads();
    if (found_paths < 3) {
      out[path] = lsum;
      __syncthreads();
    }
  }
  __syncthreads();
  out[threadIdx.x] = found_paths;
}

void runPaths(const int *in, int *out, int num_paths) {
  num_paths *= 1024;
  findPaths<256><<<64, 256>>>(in, out, num_paths);
}

// The same shape where one launch passes a value not known to be a
// multiple: reported, saying what must hold.
#define NT 256
__global__ void countPaths(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-2]]:5: note: impact: low (rank 25/100): the barrier diverges only if the loop's bound is not a multiple of its step
    // CHECK-NOTES: :[[@LINE-6]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; otherwise only some threads run the last iteration, and a barrier that not every thread reaches is undefined behaviour and can hang [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-12]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

void runCounts(const int *in, int *out, int n, int m) {
  // A local made a multiple, then overwritten with an unknown value.
  int k = m << 10;
  countPaths<<<8, NT>>>(in, out, k);
  countPaths<<<8, NT>>>(in, out, 512 * m);
  k = n;
  countPaths<<<8, NT>>>(in, out, k);
}

// Every launch passes a multiple, one through a local initialised with it:
// nothing to report.
__global__ void countAll(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

void runAll(const int *in, int *out, int m) {
  int k = m * NT;
  countAll<<<8, NT>>>(in, out, k);
  countAll<<<8, NT>>>(in, out, 4096);
}

// The multiple is made in a branch only: not every launch sees it.
__global__ void countBranch(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

void runBranch(const int *in, int *out, int n, bool big) {
  if (big)
    n *= 1024;
  countBranch<<<8, NT>>>(in, out, n);
}

// Also launched through cudaLaunchKernel, whose arguments are not read.
__global__ void countPointer(const int *in, int *out, int n) {
  __shared__ int s_total;
  int found = 0;
  for (int p = threadIdx.x; p < n; p += NT) {
    if (threadIdx.x == 0)
      s_total = in[p];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
    found += s_total;
    if (found < 3) {
      out[p] = found;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads' is reached by every thread of the block only if 'n' is a multiple of the loop's step 256; {{.*}}
      // CHECK-NOTES: :[[@LINE-11]]:29: note: the threads run this loop equally often only when its bound is a multiple of its step
      // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition differs between threads only through the iterations of that loop
    }
  }
  __syncthreads();
  out[threadIdx.x] = found;
}

void runPointer(const int *in, int *out, int m) {
  int n = m * 1024;
  countPointer<<<8, NT>>>(in, out, n);
  void *args[] = {&in, &out, &n};
  cudaLaunchKernel((const void *)countPointer, dim3(8), dim3(NT), args, 0, 0);
}
