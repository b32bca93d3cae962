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
