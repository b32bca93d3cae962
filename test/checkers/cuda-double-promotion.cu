// RUN: %check_cuda_lint %s cuda-double-promotion %t

#include <cmath>

// A float loop of the kind the guide describes (5.1.3).
__global__ void saxpyLike(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  y[i] = v * 0.5 + a;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  y[i] = v * 0.5f + a;{{$}}
  y[i] = v * 0.1;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  y[i] = v * 0.1f;{{$}}
}

// Notes: exactly representable literals in single operations are narrowed
// by nvcc; inexact ones change the last bits.
__device__ float notes(float v) {
  float r = v * 0.5;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: double-precision literal '0.5'
  // CHECK-NOTES: :[[@LINE-2]]:17: note: nvcc already narrows this single operation back to float; the suffix makes that explicit
  // CHECK-FIXES: {{^}}  float r = v * 0.5f;{{$}}
  r = r * 0.1;
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: double-precision literal '0.1'
  // CHECK-NOTES: :[[@LINE-2]]:11: note: '0.1' is not exactly representable in float; '0.1f' differs by a relative 1.5e-08, which can change the last bits of results
  // CHECK-FIXES: {{^}}  r = r * 0.1f;{{$}}
  return r;
}

// Chains, compound assignments and comparisons stay in double in nvcc.
__device__ float physics(float x, float y, float dt) {
  float e = 0.5 * x * y;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float e = 0.5f * x * y;{{$}}
  float acc = 0.0f;
  acc += 0.25;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: double-precision literal '0.25'
  // CHECK-FIXES: {{^}}  acc += 0.25f;{{$}}
  if (x < 1.)
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: double-precision literal '1.'
    // CHECK-FIXES: {{^}}  if (x < 1.f){{$}}
    acc = 2.0 * (dt + 1.5);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: double-precision literal '2.0'
  // CHECK-MESSAGES: :[[@LINE-2]]:23: warning: double-precision literal '1.5'
  // CHECK-FIXES: {{^}}    acc = 2.0f * (dt + 1.5f);{{$}}
  return e + acc * -0.75;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: double-precision literal '0.75'
  // CHECK-FIXES: {{^}}  return e + acc * -0.75f;{{$}}
}

// Every spelling gets the suffix it needs; long double is left alone.
__device__ float spellings(float v) {
  float a = v * .5 + v * 1e-3 + v * 0x1p-3 + v * 1.5e+2;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '.5'
  // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: double-precision literal '1e-3'
  // CHECK-MESSAGES: :[[@LINE-3]]:37: warning: double-precision literal '0x1p-3'
  // CHECK-MESSAGES: :[[@LINE-4]]:50: warning: double-precision literal '1.5e+2'
  // CHECK-FIXES: {{^}}  float a = v * .5f + v * 1e-3f + v * 0x1p-3f + v * 1.5e+2f;{{$}}
  return a;
}

// A literal too large for float is reported but never rewritten.
__device__ float overflow(float v) {
  return v * 1e40;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: double-precision literal '1e40'
  // CHECK-FIXES: {{^}}  return v * 1e40;{{$}}
}

// Double math functions called on float data.
__device__ float math(float v) {
  float p = pow(v, 2.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: call to 'pow' computes float data in double precision; use the float function 'powf' [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float p = powf(v, 2.0f);{{$}}
  float q = std::pow(v, 3.0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: call to 'pow' computes float data in double precision; use the float function 'std::pow'
  // CHECK-FIXES: {{^}}  float q = std::pow(v, 3.0f);{{$}}
  // Double on purpose: the result is kept in double.
  double keep = pow(v, 0.5);
  double wide = v * 0.1;
  // A double call inside float arithmetic is fixed with it.
  float e = v + pow(v, 2.0) * 1e-3;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: call to 'pow' computes float data in double precision; use the float function 'powf'
  // CHECK-MESSAGES: :[[@LINE-2]]:31: warning: double-precision literal '1e-3'
  // CHECK-FIXES: {{^}}  float e = v + powf(v, 2.0f) * 1e-3f;{{$}}
  // Float overloads are not findings.
  float s = sqrt(v) + expf(v) + powf(v, 2.0f) + std::exp(v);
  return p + q + s + e + (float)keep + (float)wide;
}

// Macros: reported at the use; the definition is rewritten only when every
// use of the macro is a float promotion.
#define HALF 0.5
#define THIRD 0.3333333
__device__ float macros(float v, double d) {
  float a = v * HALF;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '0.5'
  double b = d * THIRD;
  float c = v * THIRD;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '0.3333333'
  return a + c + (float)b;
}
// CHECK-FIXES: {{^}}#define HALF 0.5f{{$}}
// CHECK-FIXES: {{^}}#define THIRD 0.3333333{{$}}

// A literal written as a macro argument is fixed where it is written.
#define SCALE_BY(x, k) ((x) * (k))
__device__ float macroArg(float v) {
  return SCALE_BY(v, 0.25);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: double-precision literal '0.25'
  // CHECK-FIXES: {{^}}  return SCALE_BY(v, 0.25f);{{$}}
}

// Templates as instantiated: fixed when every instantiation is float ...
template <typename T> __device__ T scaleAll(T v) { return v * 0.125; }
// CHECK-MESSAGES: :[[@LINE-1]]:63: warning: double-precision literal '0.125'
// CHECK-FIXES: {{^}}template <typename T> __device__ T scaleAll(T v) { return v * 0.125f; }{{$}}
// ... and not when a double instantiation shares the literal.
template <typename T> __device__ T scaleSome(T v) { return v * 0.2; }
// CHECK-MESSAGES: :[[@LINE-1]]:64: warning: double-precision literal '0.2'
// CHECK-FIXES: {{^}}template <typename T> __device__ T scaleSome(T v) { return v * 0.2; }{{$}}
__global__ void useTemplates(float *f, double *d) {
  f[0] = scaleAll(f[0]) + scaleAll(f[1]);
  f[1] = scaleSome(f[1]);
  d[0] = scaleSome(d[0]);
}

// Device lambdas are device code.
__global__ void lambdas(float *f) {
  auto twice = [](float v) { return v * 2.0; };
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: double-precision literal '2.0'
  // CHECK-FIXES: {{^}}  auto twice = [](float v) { return v * 2.0f; };{{$}}
  f[threadIdx.x] = twice(f[threadIdx.x]);
}

// Negatives: double on purpose, integer arithmetic, suffixed literals,
// initialisation, host code.
__device__ double doubles(double d, float f, int n) {
  double r = d * 0.1 + n * 0.5;
  float g = f * 0.5f + 1.0f;
  float h = 0.1;
  long double l = 2.0L * f;
  return r + g + h + (double)l;
}

__host__ float hostOnly(float v) { return v * 0.5; }
float plainHost(float v) { return v * 0.1 + std::pow(v, 2.0); }

__host__ __device__ float both(float v) { return v * 1.5; }
// CHECK-MESSAGES: :[[@LINE-1]]:54: warning: double-precision literal '1.5'
// CHECK-FIXES: {{^}}__host__ __device__ float both(float v) { return v * 1.5f; }{{$}}

// NOLINT works as in clang-tidy.
__device__ float suppressed(float v) { return v * 0.5; } // NOLINT(cuda-double-promotion)

