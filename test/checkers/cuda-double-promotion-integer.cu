// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.FunctionGroupMin: 0}}" --min-impact=low
// RUN: %check_cuda_lint -check-suffix=STRICT %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.StrictNumerics: true, cuda-double-promotion.FunctionGroupMin: 0}}" --min-impact=low
// (--min-impact=low: some kernels here compute once per thread beside a loop,
// which the impact model ranks low; this file tests the check, not the rank.)

// Integer data made double by an unsuffixed literal, the result narrowed
// into a float: `1.0 / width` is a double division (nvcc emits cvt.rn.f64,
// rcp.rn.f64 and cvt.rn.f32.f64, see cuda-double-promotion-ptx.cu).

__global__ void pixels(float *out, unsigned width, int n) {
  for (unsigned x = threadIdx.x; x < width; x += blockDim.x) {
    float px = 1.0 / width;
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: double-precision literal '1.0' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: with '1.0f' the integer is converted to float, exactly only up to 2^24 in magnitude, and the arithmetic rounds to float: results can differ from the double computation in the last bits
    // CHECK-FIXES: {{^}}    float px = 1.0f / width;{{$}}
    // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:16: warning: double-precision literal '1.0' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
    // CHECK-FIXES-STRICT: {{^}}    float px = 1.0 / width;{{$}}
    out[x] = px * x;
  }
  float h = 0.5 * n;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: double-precision literal '0.5' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float h = 0.5f * n;{{$}}
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:13: warning: double-precision literal '0.5' promotes integer data
  out[0] = h;
}

// Chains with float data, compound assignments to a float, several
// literals, inexact literals.
__device__ float mixed(float x, int n, long m) {
  float a = x * 0.5 * n;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '0.5' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float a = x * 0.5f * n;{{$}}
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:17: warning: double-precision literal '0.5'
  float b = 0.5 * n * x;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: double-precision literal '0.5' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float b = 0.5f * n * x;{{$}}
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:13: warning: double-precision literal '0.5'
  a += 1.0 / m;
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: double-precision literal '1.0' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  a += 1.0f / m;{{$}}
  // CHECK-MESSAGES-STRICT: :[[@LINE-3]]:8: warning: double-precision literal '1.0'
  b = 1.0 / (2.0 * n + 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: double-precision literal '1.0' promotes integer data
  // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: double-precision literal '2.0' promotes integer data
  // CHECK-FIXES: {{^}}  b = 1.0f / (2.0f * n + 1);{{$}}
  // CHECK-MESSAGES-STRICT: :[[@LINE-4]]:7: warning: double-precision literal '1.0'
  // CHECK-MESSAGES-STRICT: :[[@LINE-5]]:14: warning: double-precision literal '2.0'
  float c = 0.1 * n;
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: double-precision literal '0.1' promotes integer data to double, and the result is narrowed to float [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: '0.1' is not exactly representable in float; '0.1f' differs by a relative 1.5e-08, which can change the last bits of results
  // CHECK-NOTES: :[[@LINE-3]]:13: note: with '0.1f' the integer is converted to float, exactly only up to 2^24 in magnitude, and the arithmetic rounds to float: results can differ from the double computation in the last bits
  // CHECK-FIXES: {{^}}  float c = 0.1f * n;{{$}}
  // CHECK-MESSAGES-STRICT: :[[@LINE-5]]:13: warning: double-precision literal '0.1' promotes integer data
  return a + b + c;
}

// Macros: the definition is rewritten when every use narrows into a float.
#define RECIP(v) (1.0 / (v))
#define HALF_OF(v) (0.5 * (v))
__device__ float macros(int n, double *d) {
  float r = RECIP(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: double-precision literal '1.0' promotes integer data
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:13: warning: double-precision literal '1.0'
  float s = HALF_OF(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: double-precision literal '0.5' promotes integer data
  // CHECK-MESSAGES-STRICT: :[[@LINE-2]]:13: warning: double-precision literal '0.5'
  d[0] = HALF_OF(n);
  return r + s;
}
// CHECK-FIXES: {{^}}#define RECIP(v) (1.0f / (v)){{$}}
// CHECK-FIXES: {{^}}#define HALF_OF(v) (0.5 * (v)){{$}}

// Negatives: the result stays double, or is an integer; constants folded by
// the compiler; comparisons; no literal; host code.
__device__ double negatives(int n, float x, double *d) {
  double keep = 1.0 / n;
  int half = 0.5 * n;
  float folded = 0.5 * 3;
  bool less = 0.5 * n < x;
  float noLiteral = n;
  float suffixed = 1.0f / n;
  d[0] = x * 0.5 * n + d[1];
  return keep + half + folded + less + noLiteral + suffixed;
}

float host(int n) { return 1.0 / n; }
__host__ float hostOnly(int n) { return 0.5 * n; }
