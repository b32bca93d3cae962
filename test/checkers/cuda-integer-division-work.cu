// RUN: %check_cuda_lint -check-suffixes=LOW %s cuda-integer-division %t-low -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=DEFAULT %s cuda-integer-division %t-default

// A division worth little beside its loop's other work: where it is under a
// tenth of the estimated work of one iteration of the innermost loop that
// repeats it (LoopWork.h: one unit per arithmetic, conversion or memory
// access, 8 per library call, an inner loop's body times its trip count),
// the finding ranks low (30) with the estimate, and the default profile
// hides it. A run-time 32-bit division counts as about 20 simple
// instructions, a 64-bit one 60, a signed division by a constant 4 more
// than its shift. No kernel here is launched: the file is no program, so
// the model's rank is otherwise that of code in a loop.

// One division per output word, the packing in an inner loop of 32 steps.
__global__ void pack(unsigned *out, const unsigned *in, int words, int bits) {
  for (int w = 0; w < words; ++w) {
    int first = w * 32 / bits;
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:24: warning: integer division by 'bits', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES-LOW: :[[@LINE-2]]:24: note: impact: low (rank 30/100): the division is about 6% of its loop's estimated work per iteration (312 simple instructions)
    unsigned word = 0;
    for (int b = 0; b < 32; ++b)
      word |= ((in[first + b] >> (b % 4)) & 1u) << b;
    out[w] = word;
  }
}

// A signed modulo by a constant beside a tile of FMAs: the mask would save
// about four instructions of hundreds.
__global__ void tileDot(float *out, const float *a, const float *b, int n) {
  for (int si = threadIdx.x; si < n; si += blockDim.x) {
    int lane = si % 32;
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:19: warning: signed integer modulo by 32 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a mask is exact [cuda-integer-division]
    // CHECK-NOTES-LOW: :[[@LINE-2]]:19: note: impact: low (rank 30/100): the modulo is about 1% of its loop's estimated work per iteration ({{[0-9]+}} simple instructions)
    // CHECK-FIXES-LOW: {{^}}    int lane = si & 31;{{$}}
    // CHECK-FIXES-DEFAULT: {{^}}    int lane = si % 32;{{$}}
    float acc = 0.0f;
    for (int k = 0; k < 16; ++k)
      for (int j = 0; j < 16; ++j)
        acc += a[lane * 16 + k] * b[k * 16 + j];
    out[si] = acc;
  }
}

//===--- Still ranked by where they run -----------------------------------===//

// Library calls count (8 each), but expf and logf twice per element are not
// enough to hide a run-time modulo: it is about a third of the estimate.
__device__ float softplus(float x) { return logf(1.0f + expf(x)); }
__global__ void smooth(float *v, int n, int period) {
  for (int i = 0; i < n; ++i) {
    int p = i % period;
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:15: warning: integer modulo by 'period', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES-LOW: :[[@LINE-2]]:15: note: impact: high (rank 65/100): in a loop
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:15: warning: integer modulo by 'period'
    v[i] = softplus(v[i]) + softplus(v[p]);
  }
}

// A copy loop: the division is most of the work.
__global__ void gather(float *out, const float *in, int n, int width) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i / width];
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:19: warning: integer division by 'width', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
  // CHECK-NOTES-LOW: :[[@LINE-2]]:19: note: impact: high (rank 65/100): in a loop
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-3]]:19: warning: integer division by 'width'
}

// Several divisions in one light loop do not hide each other: each counts
// the others as one unit.
__global__ void cells(int *x, int *y, int *z, int n, int w, int h) {
  for (int i = 0; i < n; ++i) {
    x[i] = i % w;
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:14: warning: integer modulo by 'w'
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:14: warning: integer modulo by 'w'
    y[i] = (i / w) % h;
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:20: warning: integer modulo by 'h'
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:20: warning: integer modulo by 'h'
    z[i] = i / (w * h);
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:14: warning: integer division by '(w * h)'
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:14: warning: integer division by '(w * h)'
  }
}
