// RUN: %check_cuda_lint %s cuda-integer-division %t

// What the compiler already does: nvcc (-arch=sm_90) emits a shift or mask,
// or computes the division once, for every unreported operation below.

// A tree reduction whose stride is guarded by `offset > 0`: nvcc knows the
// dividend is positive and emits shr.u32.
__global__ void reduceGuarded(float *s) {
  for (int offset = blockDim.x / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (threadIdx.x < offset)
      s[threadIdx.x] += s[threadIdx.x + offset];
  }
}

// The same guard, written `v > 1`, on a while loop that halves it first.
__global__ void reduceWhile(float *s) {
  int half = blockDim.x;
  while (half > 1) {
    half /= 2;
    if (threadIdx.x < half)
      s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
}

// `while (i != 0)` does not tell the compiler that `i` is non-negative:
// the signed sequence is real, and `i >>= 1` is exact.
__global__ void reduceUnguarded(float *s) {
  int i = blockDim.x / 2;
  while (i != 0) {
    if (threadIdx.x < i)
      s[threadIdx.x] += s[threadIdx.x + i];
    __syncthreads();
    i /= 2;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: signed integer division by 2 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a shift is exact [cuda-integer-division]
    // CHECK-FIXES: {{^}}    i >>= 1;{{$}}
  }
}

// A counter that counts up from 1: nvcc knows `j + 1` is positive.
__global__ void triangleRows(int *out, int twojmax) {
  int jju = 0;
  for (int j = 1; j <= twojmax; j++) {
    int del = j + 1;
    out[jju] = j;
    jju += del * (del / 2);
  }
}

// A counter that starts at a thread index is not known to the compiler.
__global__ void gridStride(int *out, int n) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
       k += gridDim.x * blockDim.x) {
    out[k] = k / 4;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: signed integer division by 4 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a shift is exact [cuda-integer-division]
    // CHECK-FIXES: {{^}}    out[k] = k >> 2;{{$}}
  }
}

// A fully unrolled loop (constant bounds, 8 trips): every `% i` is a mask
// by a literal, `i / 2` a constant.
__global__ void pairTree(float *p) {
  int tx = threadIdx.x;
  for (int i = 2; i <= 256; i = 2 * i) {
    if ((tx + 1) % i == 0)
      p[tx] += p[tx - i / 2];
    __syncthreads();
  }
}

// A run-time divisor that a loop counter cannot stand for (unbounded trip
// count): still reported.
__global__ void runtimeCounter(float *p, int n) {
  int tx = threadIdx.x;
  for (int i = 2; i <= n; i = 2 * i) {
    if ((tx + 1) % i == 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: integer modulo by 'i', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
      p[tx] += 1.0f;
    __syncthreads();
  }
}

// The same tree with a C-style counter declared before its loop: unrolled
// just the same.
#define TREE_THREADS 256
__global__ void pairTreeCStyle(float *p, int nf) {
  int tx = threadIdx.x;
  int i;
  if (nf == TREE_THREADS) {
    for (i = 2; i <= TREE_THREADS; i = 2 * i) {
      if ((tx + 1) % i == 0)
        p[tx] += p[tx - i / 2];
      __syncthreads();
    }
  }
  // Reused with a bound known only at run time: reported.
  for (i = 2; i <= nf; i = 2 * i) {
    if ((tx + 1) % i == 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: integer modulo by 'i', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
      p[tx] += 1.0f;
    __syncthreads();
  }
  // Changed in the body too: not a counter the compiler unrolls.
  for (i = 2; i <= TREE_THREADS; i = 2 * i) {
    p[tx] += tx % i;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer modulo by 'i', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    i += (int)p[0];
  }
}

// A division whose operands no loop changes is hoisted out of the loops:
// one division per thread, as outside a loop (not reported by default).
#define PACKAGE ((gid / 4) * 4 * dim)
__global__ void packages(float *out, const float *in, int dim) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < dim; ++i)
    out[PACKAGE + i] += in[PACKAGE + i];
}

__global__ void invariantRuntime(int *out, const int *in, int n, int w) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k)
    out[k] += t / w + in[k];
}

// The same operands, changed by the loop: reported.
__global__ void variantRuntime(int *out, int n, int w) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    out[k] += t / w;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer division by 'w', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    t += 7;
  }
}

// An operand read from memory the loop writes: not invariant.
__global__ void variantMemory(int *out, int n, int w) {
  for (int k = 0; k < n; ++k)
    out[k] += out[0] / w;
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: integer division by 'w', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
}
