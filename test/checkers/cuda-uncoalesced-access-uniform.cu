// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// Thread-uniform unknowns: variables with several definitions, each the same
// in every thread (C-style loop counters, reassigned parameters, pointers
// moved along a row), do not hide the lane stride of an index. Only the
// thread-dependent part decides.

#define NX 4096

// PolyBench's mvt: a C-style counter declared before its loop.
__global__ void mvt(int n, float *a, float *x1, float *y1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j;
    for (j = 0; j < n; j++)
      x1[i] += a[i * n + j] * y1[j];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  }
}

// The counter declared at the top, its loops under a thread-dependent
// condition: each loop starts it again, so the threads that run a loop
// share its value.
__global__ void counterAtTop(float *out, const float *in, int n) {
  int i, j;
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  for (i = 0; i < 4; i++)
    if (tx > i) {
      for (j = 0; j < i; j++)
        out[tx * 64 + j] = in[tx];
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: uncoalesced store to global memory: consecutive threads access elements 64 apart, so a warp request touches 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    }
}

// A reassigned parameter and an offset moved along the rows.
__global__ void reassigned(float *out, const float *in, int offset,
                           int width) {
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  offset = offset * 2;
  long row = offset;
  for (int k = 0; k < 8; ++k) {
    out[tx * 3 + offset] = in[row + tx];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: uncoalesced store to global memory: consecutive threads access elements 3 apart, so a warp request touches 12 32-byte sectors instead of 4 [cuda-uncoalesced-access]
    row += width;
  }
}

// A value loaded through a pointer that several definitions move, at a
// uniform address: uniform.
__global__ void uniformLoad(float *out, const int *starts, int n) {
  const int *p = starts;
  if (n > 4)
    p = starts + 4;
  int base = p[blockIdx.x];
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  out[base + tx * 2] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 2 apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

__device__ int lane() { return threadIdx.x & 31; }

// Negatives: the unknown is thread-dependent.
__global__ void dependent(float *a, int n) {
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  // Defined under a thread-dependent condition, read after it.
  int j = 0;
  if (threadIdx.x < 5)
    j = n;
  a[tx * 4 + j] = 0.0f;
  // A loop whose trip count depends on the thread, read after it.
  int k;
  for (k = 0; k < threadIdx.x; k++)
    a[k] = 1.0f;
  a[tx * 4 + k] = 0.0f;
  // A thread-dependent value.
  int m = 0;
  for (int r = 0; r < n; ++r)
    m += threadIdx.x;
  a[tx * 4 + m] = 0.0f;
  // A divergent break leaves the threads with different counters.
  int b;
  for (b = 0; b < n; b++)
    if (a[tx] > 0.0f)
      break;
  a[tx * 4 + b] = 0.0f;
  // A divergent continue skips an update in some threads.
  int c = 0;
  for (int r = 0; r < n; ++r) {
    if (a[tx + r] > 0.0f)
      continue;
    c += 2;
  }
  a[tx * 4 + c] = 0.0f;
  // A call that may read the thread index.
  int d = 0;
  for (int r = 0; r < n; ++r)
    d = lane() + d;
  a[tx * 4 + d] = 0.0f;
  // Its address escapes.
  int e = 0;
  int *pe = &e;
  *pe = threadIdx.x;
  e = e + 1;
  a[tx * 4 + e] = 0.0f;
}

// A counter that two loops start again, the second at a thread-dependent
// value: the first loop's threads still share it (each use sees the
// definitions that reach it, not every definition of the variable).
__global__ void insertSorted(int *arrays, const int *lens, int n, int stride) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    int start = idx * stride;
    int length = lens[idx];
    int i;
    for (i = 0; i < length; i++)
      if (arrays[start + i] == 7)
        // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: uncoalesced load from global memory: consecutive threads access elements 'stride' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
        return;
    for (i = length; i > 0; i--)
      arrays[start + i] = arrays[start + i - 1];
  }
}

// A value the index analysis cannot form (a conditional), the same in every
// thread: a uniform unknown, as any other.
__global__ void clamped(float *out, int lo, int width) {
  int tx = blockIdx.x * blockDim.x + threadIdx.x;
  int first = lo < 0 ? -lo : 0;
  int row = first;
  if (width > 8)
    row = first + 1;
  out[tx * 8 + row] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: uncoalesced store to global memory: consecutive threads access elements 8 apart, so a warp request touches 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

// A GNU statement-expression max (PPCG's ppcg_max) of the thread index: a
// loop started at it runs at a different place in each thread.
#define stmt_max(x, y)                                                         \
  ({                                                                           \
    __typeof__(x) _x = (x);                                                    \
    __typeof__(y) _y = (y);                                                    \
    _x > _y ? _x : _y;                                                         \
  })
__global__ void skewed(float *out, const float *in, int n) {
  int t0 = threadIdx.x;
  float acc = 0.0f;
  for (int c1 = 0; c1 < n; c1 += 16)
    for (int c3 = stmt_max(0, 12 * t0 - c1); c3 <= 15; c3 += 1)
      acc += in[13 * t0 + c1 + c3];
  out[t0] = acc;
}

// Host code is never analysed.
void host(float *a, int n) {
  int j;
  for (j = 0; j < n; j++)
    a[j * n] = 0.0f;
}
