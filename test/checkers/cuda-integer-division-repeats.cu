// RUN: %check_cuda_lint %s cuda-integer-division %t

// What nvcc computes once or not at all (audit of stop 23, checked against
// `nvcc -arch=sm_90 -ptx`): the same division again, the other half of a
// pair written back to its dividend, a signed product folded into a
// multiply, and code that no instantiation compiles.

// The same operation again with unchanged operands, past an
// `if (...) continue;` that the first dominates: one `rem`.
#define CELL(x, y, nx) (((x) + (nx)) % (nx) + (y) * (nx))
__global__ void flags(const char *flag, const char *dirs, char *out, int nx,
                      int ny) {
  for (int y = blockIdx.y; y < ny; y += gridDim.y)
    for (int x = threadIdx.x + blockIdx.x * blockDim.x; x < nx;
         x += blockDim.x * gridDim.x) {
      char f = flag[CELL(x, y, nx)];
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: integer modulo by '(nx)', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
      if (f == 1)
        continue;
      char d = dirs[CELL(x, y, nx)];
      out[y * nx + x] = f + d;
      // The divisor changed: a new division.
      nx += f;
      out[CELL(x, y, nx)] = d;
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: integer modulo by '(nx)'
    }
}

// Loaded operands: a `float` store between the two cannot change the `int`
// load (one `div`, also for the two copies in one statement); an `int`
// store can.
__global__ void similar(const int *corr, int *index, float *slope,
                        const float *res, int samp, int win) {
  for (int k = 0; k < samp; k++) {
    index[k] = corr[k + 1] / (2 * win + 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: integer division by '(2 * win + 1)'
    slope[k] = res[corr[k + 1] / (2 * win + 1)];
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: integer division by '(2 * win + 1)'
    slope[k + 1] = res[corr[k + 1] / (2 * win + 1) + corr[k + 1] / (2 * win + 1)];
    index[k + 1] = 0;
    slope[k + 2] = res[corr[k + 1] / (2 * win + 1)];
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: integer division by '(2 * win + 1)'
  }
}

// `h = tmp % H; tmp = tmp / H;`: the store back to `tmp` comes after both
// are computed, one `div` for the pair.
__global__ void unpack(const float *in, float *out, int n, int W, int H) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n;
       index += blockDim.x * gridDim.x) {
    int tmp = index / W;
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: integer division by 'W'
    int h = tmp % H;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer modulo by 'H'
    // CHECK-NOTES: :[[@LINE+1]]:15: note: '/' of the same operands here: the compiler computes both results with one division
    tmp = tmp / H;
    // Written back first: the next division has another dividend.
    tmp = tmp / H;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer division by 'H'
    int c = tmp % H;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer modulo by 'H'
    out[index] = in[h] + in[c];
  }
}

// A signed product by a multiple of the divisor: `(j * 128) / 4` is
// `j * 32` (one `shl`), no rounding fix-up. `(j + 1) % 32` keeps it.
#define NDIM 128
__global__ void load(float *out, const float *in) {
  __shared__ float buf[32 * NDIM / 4];
  for (int j = threadIdx.y; j < 32; j += 8) {
    buf[j * NDIM / 4 + threadIdx.x] = in[j];
    buf[(j + 1) % (NDIM / 4)] += 1.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: signed integer modulo by (NDIM / 4) inside a loop costs extra instructions
    // CHECK-FIXES: {{^}}    buf[(j + 1) & ((NDIM / 4) - 1)] += 1.0f;{{$}}
    // Not a multiple: `(j * 6) / 4` still divides.
    out[j * 6 / 4] = buf[j];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: signed integer division by 4 inside a loop costs extra instructions
    // CHECK-FIXES: {{^}}    out[j * 6 >> 2] = buf[j];{{$}}
  }
}

// A branch of `if constexpr` that the only instantiation discards, and a
// helper named only there: nothing is compiled.
template <typename K>
__device__ __forceinline__ int probe(const K *keys, K key, int capacity) {
  int loc = (int)key % capacity;
  while (true) {
    if (keys[loc] == key || keys[loc] == -1)
      return loc;
    loc = (loc + 1) % capacity;
  }
}
template <bool SPARSE, bool TABLE>
__global__ void attend(float *out, const int *keys, int n, int stride) {
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < n;
       b += blockDim.x * gridDim.x) {
    if constexpr (SPARSE) {
      if ((b + 1) % stride != 0)
        continue;
    }
    if constexpr (TABLE)
      b += probe<int>(keys, b, stride);
    out[b] = 2.0f * (b % stride);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: integer modulo by 'stride'
  }
}
template __global__ void attend<false, false>(float *, const int *, int, int);

// Kept in an instantiation: reported there.
template <bool SPARSE>
__global__ void attendKept(float *out, int n, int stride) {
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < n;
       b += blockDim.x * gridDim.x) {
    if constexpr (SPARSE) {
      if ((b + 1) % stride != 0)
        // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: integer modulo by 'stride'
        continue;
    }
    out[b] = 1.0f;
  }
}
template __global__ void attendKept<true>(float *, int, int);

// A template that nothing here instantiates: still reported (a header
// template, instantiated elsewhere).
template <typename T>
__device__ void spread(T *out, int n, int stride) {
  for (int b = threadIdx.x; b < n; b += blockDim.x)
    out[b % stride] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: integer modulo by 'stride'
}

// Audit of stop 24 (HeCBench, checked against `nvcc -arch=sm_90 -ptx`).
// backprop: a copy of the counter of a fully unrolled loop is a constant in
// each copy of the body too (`ty % p` is `and.b32`, `p / 2` an offset).
#define HEIGHT 16
__global__ void layerForward(float *out) {
  __shared__ float s[HEIGHT * HEIGHT];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * HEIGHT + tx] = out[ty * HEIGHT + tx];
  __syncthreads();
  for (int i = 1; i <= HEIGHT; i = i * 2) {
    int power_two = i;
    if (ty % power_two == 0)
      s[ty * HEIGHT + tx] += s[(ty + power_two / 2) * HEIGHT + tx];
    __syncthreads();
  }
  out[ty * HEIGHT + tx] = s[ty * HEIGHT + tx];
}

// A copy that changes is not a constant.
__global__ void layerForwardShifted(float *out, int n) {
  __shared__ float s[HEIGHT * HEIGHT];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 1; i <= HEIGHT; i = i * 2) {
    int p = i;
    p += n;
    if (ty % p == 0)
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: integer modulo by 'p', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
      s[ty * HEIGHT + tx] += 1.0f;
    __syncthreads();
  }
  out[ty * HEIGHT + tx] = s[ty * HEIGHT + tx];
}

// lrn: `(i / (1)) % W` (a macro argument of 1) has the operands of
// `i / (W)`: one division for the pair.
__global__ void decode(int *out, const int *in, int W, int H, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int h = (i / (W)) % H;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: integer division by '(W)', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES: :[[@LINE+2]]:21: note: '%' of the same operands here: the compiler computes both results with one division
    // CHECK-MESSAGES: :[[@LINE-3]]:23: warning: integer modulo by 'H'
    int w = (i / 1) % W;
    out[i] = in[h * W + w];
  }
}

// `(i / 3) % W` has another dividend: its own division.
__global__ void decodeThirds(int *out, const int *in, int W, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int h = i / W;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer division by 'W'
    int w = (i / 3) % W;
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: integer modulo by 'W'
    out[i] = in[h * W + w];
  }
}

// mask: `k = i % M; j = (i - k) / M;` is `i / M` and its remainder, one
// `div.s32` (the modulo is mul.lo + sub), and so is `(i - i % M) / M`.
__global__ void split(int *out, const int *in, int M, int total) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += blockDim.x * gridDim.x) {
    int k = i % M;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer modulo by 'M', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES: :[[@LINE+1]]:21: note: '/' of the same operands here: the compiler computes both results with one division
    int j = (i - k) / M;
    out[i] = in[j] + k;
  }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += blockDim.x * gridDim.x) {
    out[i] = in[(i - i % M) / M];
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: integer modulo by 'M'
    // CHECK-NOTES: :[[@LINE-2]]:29: note: '/' of the same operands here
  }
}

// A remainder changed before the division: two divisions.
__global__ void splitChanged(int *out, const int *in, int M, int total) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += blockDim.x * gridDim.x) {
    int k = i % M;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer modulo by 'M'
    k += in[0];
    int j = (i - k) / M;
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: integer division by 'M'
    out[i] = in[j] + k;
  }
}

// minimap2: `i` of a loop with two counters (the condition tests the
// other) counts up from 64 and nothing else changes it: `i % 64` is a plain
// `and.b32`. Changed in the body as well, the compiler cannot tell.
#define RING 64
__global__ void ring(int *out, const int *in, int n) {
  __shared__ int buf[RING];
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  int acc = 0;
  for (int i = RING, c = 0; c < n; i++, c++)
    acc += buf[i % RING];
  for (int i = 1, c = 0; c < n; i++, c++) {
    acc += buf[i % RING];
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: signed integer modulo by 64 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a mask is exact [cuda-integer-division]
    i += in[c] & 7;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Audit of stop 25 (d3q19, logic-rewrite, streamPriority; nvcc -ptx).
// The same division in an `if` condition and in its branch: the condition
// is evaluated first, one rem.s32.
__global__ void findWall(const int *a, int *b, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (a[i % m] > 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: integer modulo by 'm'
      b[i % m] = 1;
    }
    if (a[i] > 0)
      b[i % m] = 2; // computed by the condition above
  }
}
// Computed only in a branch that may not run: the later one is its own.
__global__ void findWallBranch(const int *a, int *b, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (a[i] > 0)
      b[i % m] = 2;
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: integer modulo by 'm'
    b[i] += i % m;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer modulo by 'm'
  }
}

// A never-changed local copy of a member is the member (`nx = dom.nx`).
struct Box {
  int nx, ny;
};
__global__ void copyOfMember(const int *a, int *b, const Box dom, int n) {
  int nx = dom.nx;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int v = a[i % nx];
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer modulo by 'nx'
    b[i] = v + i % dom.nx + i % dom.ny;
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: integer modulo by 'dom.ny'
  }
}

// A signed remainder by a power of two only compared with zero is a bare
// and.b32, whatever the sign; used as a number it needs the fix-up.
__global__ void parity(int *out, int n) {
  int nThreads = gridDim.x * blockDim.x;
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n;
       idx += nThreads) {
    if (idx % 2 == 0)
      out[idx] = 1;
    out[idx] += (idx % 4) ? 2 : 3;
    out[idx] += idx % 8;
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: signed integer modulo by 8 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a mask is exact [cuda-integer-division]
  }
}
