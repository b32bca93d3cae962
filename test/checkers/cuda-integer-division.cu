// RUN: %check_cuda_lint %s cuda-integer-division %t

// Run-time divisors in loops: warned, with what to do instead.
__global__ void decode(int *cells, const int *keys, int n, int rowLen) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = tid; k < n; k += gridDim.x * blockDim.x) {
    int row = keys[k] / rowLen;
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: integer division by 'rowLen', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES: :[[@LINE+2]]:23: note: '%' of the same operands here: the compiler computes both results with one division
    // CHECK-NOTES: :[[@LINE-3]]:23: note: nvcc divides by a compile-time constant with a multiply and a shift (by a power of two, a shift and a mask): make the divisor a template parameter or 'constexpr' where it takes few values, or, if it is always a power of two, pass its log2 and use '>>' and '&'
    int col = keys[k] % rowLen;
    cells[k] = row * 1000 + col + threadIdx.x / 32 + threadIdx.x % 32;
  }
}

// Power-of-two divisors written as a shift: rewritten when exact.
__global__ void decodeShift(int *out, int n, int rowShift) {
  const int rowLen = 1 << rowShift;
  for (int lin = blockIdx.x * blockDim.x + threadIdx.x; lin < n;
       lin += gridDim.x * blockDim.x) {
    int row = lin / rowLen;
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: integer division by 'rowLen', which is not a compile-time constant, inside a loop
    // CHECK-NOTES: :[[@LINE-2]]:19: note: 'rowLen' is a power of two, 1 << rowShift: a shift and a mask compute the same result when the dividend is never negative
    // CHECK-FIXES: {{^}}    int row = lin >> rowShift;{{$}}
    int col = lin % rowLen;
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: integer modulo by 'rowLen', which is not a compile-time constant, inside a loop
    // (Each half of a 1 << k pair gets its own rewrite, so a second --fix
    // finds nothing.)
    // CHECK-FIXES: {{^}}    int col = lin & (rowLen - 1);{{$}}
    out[lin] = row + col / (1 << rowShift) + 2 * col % (1 << rowShift);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: integer division by '(1 << rowShift)'
    // CHECK-NOTES: :[[@LINE-2]]:26: note: '(1 << rowShift)' is a power of two
    // CHECK-MESSAGES: :[[@LINE-3]]:54: warning: integer modulo by '(1 << rowShift)'
    // CHECK-NOTES: :[[@LINE-4]]:54: note: '(1 << rowShift)' is a power of two
    // CHECK-FIXES: {{^}}    out[lin] = row + (col >> rowShift) + (2 * col & ((1 << rowShift) - 1));{{$}}
  }
}

// Hash buckets: a signed hash that is never negative gets shift and mask;
// unsigned division by a visible `1u << bits` is left alone, nvcc already
// compiles it to a mask.
__global__ void hash(unsigned *bins, const int *keys, int n, int bits) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    int h = keys[i] & 0x7fffffff;
    int b = h % (1 << bits);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer modulo by '(1 << bits)'
    // CHECK-NOTES: :[[@LINE-2]]:15: note: '(1 << bits)' is a power of two
    // CHECK-FIXES: {{^}}    int b = h & ((1 << bits) - 1);{{$}}
    h /= 1 << bits;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: integer division by '1 << bits'
    // CHECK-NOTES: :[[@LINE-2]]:7: note: '1 << bits' is a power of two
    // CHECK-FIXES: {{^}}    h >>= bits;{{$}}
    int m = h;
    m %= 1 << bits;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: integer modulo by '1 << bits'
    // CHECK-FIXES: {{^}}    m &= ((1 << bits) - 1);{{$}}
    int p = m + h / (1 << bits) * 2;
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: integer division by '(1 << bits)'
    // CHECK-FIXES: {{^}}    int p = m + (h >> bits) * 2;{{$}}
    unsigned u = (unsigned)keys[i] * 2654435761u;
    unsigned c = u % (1u << bits) + u / (1u << bits);
    atomicAdd(&bins[b], h + c + p);
  }
}

// A signed dividend that may be negative: no rewrite (shift rounds down).
__global__ void signedDividend(int *out, const int *in, int n, int k) {
  for (int i = 0; i < n; ++i) {
    out[i] = in[i] / (1 << k);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: integer division by '(1 << k)'
    // CHECK-NOTES: :[[@LINE-2]]:20: note: '(1 << k)' is a power of two
    // CHECK-NOTES: :[[@LINE-3]]:20: note: no automatic fix: the dividend may be negative, where a shift rounds differently
  }
}

// Signed division by a constant power of two of a value that is never
// negative: the signed form costs extra instructions.
__global__ void lanes(int *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = tid; i < n; i += 1024) {
    int lane = i % 32;
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: signed integer modulo by 32 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a mask is exact
    // CHECK-FIXES: {{^}}    int lane = i & 31;{{$}}
    int warp = i / 32;
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: signed integer division by 32 inside a loop
    // CHECK-FIXES: {{^}}    int warp = i >> 5;{{$}}
    int j = i - n;
    out[i] = lane + warp + j / 32 + threadIdx.x / 32u;
  }
}

// Dividends that may be negative although they start from thread indices:
// narrowed to a signed type, or changed through a reference or a pointer.
struct IntRef {
  int &r;
  __device__ IntRef(int &x) : r(x) {}
};
__device__ void reset(int &v) { v = -1; }
__global__ void maybeNegative(int *out, int n, int k) {
  for (int i = 0; i < n; ++i) {
    char lane = threadIdx.x;
    short s = blockIdx.x * blockDim.x + threadIdx.x;
    int x = threadIdx.x;
    int &r = x;
    r = -7;
    int y = threadIdx.x;
    int *py = &y;
    *py = -3;
    int z = threadIdx.x;
    reset(z);
    int w = threadIdx.x;
    IntRef rw(w);
    rw.r = -9;
    out[i] = lane % 32 + x / 16 + y / 8 + z % 4 + w / 2;
    out[i] += s / (1 << k);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer division by '(1 << k)'
    // CHECK-NOTES: :[[@LINE-2]]:17: note: '(1 << k)' is a power of two
    // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the dividend may be negative, where a shift rounds differently
    out[i] += x % (1 << k);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer modulo by '(1 << k)'
    // CHECK-NOTES: :[[@LINE-2]]:17: note: '(1 << k)' is a power of two
    // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the dividend may be negative, where a shift rounds differently
  }
}

// A divisor `1 << k` whose variable changes through a reference: no longer
// known to be a power of two.
__global__ void divisorByReference(int *out, int n, int k) {
  int d = 1 << k;
  int &rd = d;
  rd = 3;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = i / d;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: integer division by 'd'
  // CHECK-NOTES: :[[@LINE-2]]:16: note: nvcc divides by a compile-time constant
}

// The rewrite binds less tightly than `/` and `%`: parenthesised wherever
// the context needs it, overloaded operators included.
struct Vec {
  int a;
  __device__ Vec operator+(int b) const { return Vec{a + b}; }
  __device__ int operator[](int i) const { return a + i; }
};
struct Wrap {
  int a;
  __device__ Wrap(int x) : a(x) {}
};
__device__ Wrap operator-(Wrap l, Wrap r) { return Wrap(l.a - r.a); }
__device__ int get(Vec v) { return v.a; }
__global__ void precedence(int *out, int n, int k) {
  Vec v{1};
  Wrap w(2);
  for (int i = 0; i < n; ++i) {
    int x = threadIdx.x;
    out[i] = get(v + x / 32) + v[x / 32];
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: signed integer division by 32 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:36: warning: signed integer division by 32 inside a loop
    // CHECK-FIXES: {{^}}    out[i] = get(v + (x >> 5)) + v[x >> 5];{{$}}
    out[i] += get(v + x % (1 << k)) + (w - x / 16).a + -(x / 8);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: integer modulo by '(1 << k)'
    // CHECK-NOTES: :[[@LINE-2]]:25: note: '(1 << k)' is a power of two
    // CHECK-MESSAGES: :[[@LINE-3]]:46: warning: signed integer division by 16 inside a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:60: warning: signed integer division by 8 inside a loop
    // CHECK-FIXES: {{^}}    out[i] += get(v + (x & ((1 << k) - 1))) + (w - (x >> 4)).a + -(x >> 3);{{$}}
    out[i] += x / 32 * 2 + (i ? x % 32 : 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: signed integer division by 32 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:35: warning: signed integer modulo by 32 inside a loop
    // CHECK-FIXES: {{^}}    out[i] += (x >> 5) * 2 + (i ? x & 31 : 0);{{$}}
  }
}

// Constants, outside loops, host code, templates and macros.
#define DIV(a, b) ((a) / (b))
template <int N> __device__ int perTile(int x, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += x / N + i % 7;
  return s;
}
template <typename T> __device__ T scaled(T x, T d, int n) {
  for (int i = 0; i < n; ++i)
    x = x / d;
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: integer division by 'd'
  // CHECK-NOTES: :[[@LINE-2]]:11: note: nvcc divides by a compile-time constant
  return x;
}
__global__ void misc(int *out, int a, int b, int n) {
  out[0] = a / b;
  out[1] = perTile<16>(a, n) + perTile<8>(a, n) + scaled(a, b, n);
  for (int i = 0; i < n; ++i)
    out[2] += DIV(i, b);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer division by '(b)'
  // CHECK-NOTES: :[[@LINE-2]]:15: note: nvcc divides by a compile-time constant
  float f = 1.0f;
  for (int i = 0; i < n; ++i)
    f = f / b;
}
int host(int a, int b) {
  int s = 0;
  for (int i = 0; i < b; ++i)
    s += a / b;
  return s;
}

// Every operand a constant, through a macro, a constexpr variable, an
// enumerator, a template argument: folded by the compiler, not reported.
#define WARPS_PER_BLOCK (256 / 32)
enum { kTile = 16 };
template <int BS> __device__ int warpsOf(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += BS / 32 + (BS / 2) % 7;
  return s;
}
__global__ void foldedConstants(int *out, int n) {
  constexpr int kWarps = 8;
  const int kHalf = kWarps / 2;
  int w = warpsOf<128>(n);
  for (int i = 0; i < n; ++i) {
    out[i] = WARPS_PER_BLOCK / 2 + kWarps % 3 + kTile / 4 + kHalf + w;
    // Still reported: a variable dividend.
    out[i] += (int)(i + threadIdx.x) / kTile;
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: signed integer division by kTile inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a shift is exact
    // CHECK-FIXES: {{^}}    out[i] += (int)(i + threadIdx.x) >> 4;{{$}}
  }
}

// Division and modulo by the same run-time divisor in one basic block: the
// compiler computes both from one division (`nvcc -ptx`: one `div`), so one
// finding, at the first, with a note on the second; in either order, with a
// store between them when the operands are not read from memory.
__global__ void toCells(int2 *cells, const int *keys, int n, int width) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n;
       k += gridDim.x * blockDim.x) {
    int x = k % width;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: integer modulo by 'width', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES: :[[@LINE+3]]:15: note: '/' of the same operands here: the compiler computes both results with one division
    // CHECK-NOTES: :[[@LINE-3]]:15: note: nvcc divides by a compile-time constant
    cells[k].x = x;
    int y = k / width;
    cells[k].y = y;
    // Not one block: the `%` under a branch keeps its own `rem`.
    int r = keys[k] / width;
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: integer division by 'width'
    // CHECK-NOTES: :[[@LINE-2]]:21: note: nvcc divides by a compile-time constant
    if (r > 3)
      cells[k].x += keys[k] % width;
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: integer modulo by 'width'
    // CHECK-NOTES: :[[@LINE-2]]:29: note: nvcc divides by a compile-time constant
    // Loads with a store between them: the second load may see another
    // value, the PTX has a `div` and a `rem`.
    cells[k].y = keys[k] / width;
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: integer division by 'width'
    // CHECK-NOTES: :[[@LINE-2]]:26: note: nvcc divides by a compile-time constant
    cells[k].x = keys[k] % width;
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: integer modulo by 'width'
    // CHECK-NOTES: :[[@LINE-2]]:26: note: nvcc divides by a compile-time constant
  }
}

// Operands read through a member of a local struct: still one division.
struct Layout {
  unsigned width, count;
};
__global__ void members(unsigned *out, Layout in) {
  const Layout l = in;
  Layout m = in;
  for (unsigned i = threadIdx.x; i < l.count; i += blockDim.x) {
    unsigned x = i % l.width;
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: integer modulo by 'l.width'
    // CHECK-NOTES: :[[@LINE+2]]:20: note: '/' of the same operands here: the compiler computes both results with one division
    // CHECK-NOTES: :[[@LINE-3]]:20: note: nvcc divides by a compile-time constant
    unsigned y = i / l.width;
    out[i] = x + y + i / m.width + i % m.width;
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: integer division by 'm.width'
    // CHECK-NOTES: :[[@LINE-2]]:38: note: '%' of the same operands here: the compiler computes both results with one division
    // CHECK-NOTES: :[[@LINE-3]]:24: note: nvcc divides by a compile-time constant
  }
}
