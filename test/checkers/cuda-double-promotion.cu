// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true, cuda-double-promotion.FunctionGroupMin: 0}}" --min-impact=low -- -isystem %S/Inputs
// (--min-impact=low: some kernels here compute once per thread beside a loop,
// which the impact model ranks low; this file tests the check, not the rank.
// FunctionGroupMin: 0 keeps each literal its own finding, as this file tests
// them one by one; cuda-double-promotion-function.cu tests the grouping.)

#include <cmath>
#include <promotion-system.h>

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

// Chains stay in double in nvcc (`nvcc -ptx` shows f64 instructions; see
// cuda-double-promotion-ptx.cu); compound assignments and comparisons with a
// literal exactly representable in float are single operations that nvcc
// narrows, as are inexact literals in a branch of a conditional converted
// back to float.
__device__ float physics(float x, float y, float dt) {
  float e = 0.5 * x * y;
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  float e = 0.5f * x * y;{{$}}
  float acc = 0.0f;
  acc += 0.25;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: double-precision literal '0.25'
  // CHECK-NOTES: :[[@LINE-2]]:10: note: nvcc already narrows this single operation back to float; the suffix makes that explicit
  // CHECK-FIXES: {{^}}  acc += 0.25f;{{$}}
  acc /= 3.0;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: double-precision literal '3.0'
  // CHECK-NOTES: :[[@LINE-2]]:10: note: nvcc already narrows this single operation back to float; the suffix makes that explicit
  // CHECK-FIXES: {{^}}  acc /= 3.0f;{{$}}
  acc -= 0.1;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: double-precision literal '0.1'
  // CHECK-NOTES: :[[@LINE-2]]:10: note: '0.1' is not exactly representable in float; '0.1f' differs by a relative 1.5e-08, which can change the last bits of results
  // CHECK-FIXES: {{^}}  acc -= 0.1f;{{$}}
  if (x == 0.3)
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: double-precision literal '0.3'
    // CHECK-NOTES: :[[@LINE-2]]:12: note: '0.3' is not exactly representable in float; '0.3f' differs by a relative 4.0e-08, which can change the last bits of results
    // CHECK-FIXES: {{^}}  if (x == 0.3f){{$}}
    acc = 0;
  acc = acc * 0.5 + dt;
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: double-precision literal '0.5'
  // CHECK-FIXES: {{^}}  acc = acc * 0.5f + dt;{{$}}
  if (x < 1.)
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: double-precision literal '1.'
    // CHECK-NOTES: :[[@LINE-2]]:11: note: nvcc already narrows this single operation back to float; the suffix makes that explicit
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
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: double-precision literal '1e40'
  // CHECK-NOTES: :[[@LINE-2]]:14: note: no automatic fix: the value is outside float's range
  // CHECK-FIXES: {{^}}  return v * 1e40;{{$}}
}

// Nor one that is zero or subnormal in float.
__device__ float underflow(float v) {
  float a = v * 1e-50;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: double-precision literal '1e-50'
  // CHECK-NOTES: :[[@LINE-2]]:17: note: '1e-50' underflows in float: '1e-50f' is zero
  // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the value underflows to zero in float
  // CHECK-FIXES: {{^}}  float a = v * 1e-50;{{$}}
  float b = v * 1e-40;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: double-precision literal '1e-40'
  // CHECK-NOTES: :[[@LINE-2]]:17: note: '1e-40' is subnormal in float: '1e-40f' differs by a relative 5.4e-06, and is zero where subnormals are flushed (-ftz=true, --use_fast_math)
  // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the value is subnormal in float
  // CHECK-FIXES: {{^}}  float b = v * 1e-40;{{$}}
  float c = v * 0x1p-140;
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: double-precision literal '0x1p-140'
  // CHECK-NOTES: :[[@LINE-2]]:17: note: '0x1p-140' is subnormal in float: '0x1p-140f' is zero where subnormals are flushed (-ftz=true, --use_fast_math)
  // CHECK-NOTES: :[[@LINE-3]]:17: note: no automatic fix: the value is subnormal in float
  // CHECK-FIXES: {{^}}  float c = v * 0x1p-140;{{$}}
  return a + b + c;
}

// The conditional operator: `c ? v : 0.1` is double.
__device__ float conditional(float v, bool c) {
  float a = c ? v : 0.1;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: double-precision literal '0.1'
  // CHECK-NOTES: :[[@LINE-2]]:21: note: nvcc already converts this branch to float; the suffix makes that explicit
  // CHECK-FIXES: {{^}}  float a = c ? v : 0.1f;{{$}}
  float b = (c ? 2.5 : v) * v;
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: double-precision literal '2.5'
  // CHECK-FIXES: {{^}}  float b = (c ? 2.5f : v) * v;{{$}}
  // Double on purpose, or no float data.
  double d = c ? v : 0.1;
  float e = c ? 0.25 : 0.5;
  return a + b + e + (float)d;
}

// Double math functions called on float data.
__device__ float math(float v) {
  float p = pow(v, 2.0);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: call to 'pow' computes float data in double precision; use the float function 'powf' [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: 'powf' is a different implementation from 'pow': its result can differ from 'pow' rounded to float in the last bits (the CUDA programming guide lists each function's accuracy in ulp)
  // CHECK-FIXES: {{^}}  float p = powf(v, 2.0f);{{$}}
  p += pow(v, 0.1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: call to 'pow' computes float data in double precision; use the float function 'powf' [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: '0.1' is not exactly representable in float; '0.1f' differs by a relative 1.5e-08, which can change the last bits of results
  // CHECK-NOTES: :[[@LINE-3]]:8: note: 'powf' is a different implementation from 'pow'
  // CHECK-FIXES: {{^}}  p += powf(v, 0.1f);{{$}}
  // Exact functions: copysignf is copysign rounded to float. `::exp(v)`
  // resolves to the float overload.
  p += copysign(v, -2.0) + ::exp(v);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: call to 'copysign' computes float data in double precision; use the float function 'copysignf' [cuda-double-promotion]
  // CHECK-NOTES-NOT: :[[@LINE-2]]:8: note: 'copysignf' is a different
  // CHECK-FIXES: {{^}}  p += copysignf(v, -2.0f) + ::exp(v);{{$}}
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
// A lambda without an execution space is host code in host code (clang marks
// it implicitly __host__ __device__; nvcc does not compile it for the device).
void hostLambda(float *f) {
  auto hl = [](float v) { return v * 0.5; };
  auto nested = [](float v) { return [](float w) { return w * 0.1; }(v); };
  f[0] = hl(f[0]) + nested(f[1]);
}
// constexpr functions are host code as written (see Limitations).
constexpr float cxScale(float v) { return v * 0.5; }
// ... and device code in device code, nested lambdas too.
__device__ float deviceNested(float v) {
  return [](float w) { return [](float u) { return u * 0.1; }(w); }(v);
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: double-precision literal '0.1'
  // CHECK-FIXES: {{^}}  return [](float w) { return [](float u) { return u * 0.1f; }(w); }(v);{{$}}
}

__host__ __device__ float both(float v) { return v * 1.5; }
// CHECK-MESSAGES: :[[@LINE-1]]:54: warning: double-precision literal '1.5'
// CHECK-FIXES: {{^}}__host__ __device__ float both(float v) { return v * 1.5f; }{{$}}

// Suppression comments work as in clang-tidy: same line, next line, block.
__device__ float suppressed(float v) { return v * 0.5; } // NOLINT(cuda-double-promotion)
// NOLINTNEXTLINE(cuda-double-promotion)
__device__ float suppressedNext(float v) { return v * 0.5; }
// NOLINTBEGIN(cuda-double-promotion)
__device__ float suppressedBlock(float v) { return v * 0.5 + pow(v, 2.0); }
// NOLINTEND(cuda-double-promotion)
__device__ float notSuppressed(float v) { return v * 0.25; } // NOLINT(cuda-other-check)
// CHECK-MESSAGES: :[[@LINE-1]]:54: warning: double-precision literal '0.25'
// CHECK-FIXES: {{^}}__device__ float notSuppressed(float v) { return v * 0.25f; } // NOLINT(cuda-other-check){{$}}

// System headers: no finding in one; a macro defined in one is reported at
// its use and not rewritten.
__device__ float fromSystemHeader(float v) {
  return sysScale(v) + v * SYS_HALF;
  // CHECK-NOTES: :[[@LINE-1]]:28: warning: double-precision literal '0.5'
  // CHECK-NOTES: :[[@LINE-2]]:28: note: no automatic fix: the literal is spelled in a macro defined in another file
  // CHECK-FIXES: {{^}}  return sysScale(v) + v * SYS_HALF;{{$}}
}


// One finding per promoting operand: an all-double constant built from
// several literals (through macros, or written out) is one operand, and is
// fixed as a whole.
#define PI 3.14159265358979
#define INV_TWO_PI (1.0 / (2.0 * PI))
// CHECK-FIXES: {{^}}#define PI 3.14159265358979f{{$}}
// CHECK-FIXES: {{^}}#define INV_TWO_PI (1.0f / (2.0f * PI)){{$}}
__global__ void phase(float *out, const float *angle, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = angle[i] * INV_TWO_PI;
    // CHECK-NOTES: :[[@LINE-1]]:25: warning: double-precision constant 'INV_TWO_PI' promotes float arithmetic to double [cuda-double-promotion]
    // CHECK-NOTES: :[[@LINE-8]]:21: note: literal '1.0' spelled in macro 'INV_TWO_PI' here
    // CHECK-NOTES: :[[@LINE-9]]:28: note: literal '2.0' spelled in macro 'INV_TWO_PI' here
    // CHECK-NOTES: :[[@LINE-11]]:12: note: literal '3.14159265358979' spelled in macro 'PI' here
    // CHECK-NOTES: :[[@LINE-12]]:12: note: '3.14159265358979' is not exactly representable in float; '3.14159265358979f' differs by a relative 2.8e-08, which can change the last bits of results
    out[i] += angle[i] * (0.5 + 0.25);
    // CHECK-NOTES: :[[@LINE-1]]:27: warning: double-precision constant '(0.5 + 0.25)' promotes float arithmetic to double [cuda-double-promotion]
    // CHECK-NOTES: :[[@LINE-2]]:27: note: literal '0.5' here
    // CHECK-NOTES: :[[@LINE-3]]:33: note: literal '0.25' here
    // CHECK-FIXES: {{^}}    out[i] += angle[i] * (0.5f + 0.25f);{{$}}
    // The narrowed case: true as written, the suffix makes it explicit.
    out[i] = angle[i] * 0.5;
    // CHECK-NOTES: :[[@LINE-1]]:25: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
    // CHECK-NOTES: :[[@LINE-2]]:25: note: nvcc already narrows this single operation back to float; the suffix makes that explicit
    // CHECK-FIXES: {{^}}    out[i] = angle[i] * 0.5f;{{$}}
  }
}

// Operands in a macro argument are apart: one finding per literal of
// `100.0 * (expf(0.66 * s) - 1.f) * den[i] / 3.0e8 * q`, each for its own
// operand, not one "constant" for all three.
#define MIN_OF(x, y) ((x) < (y) ? (x) : (y))
__global__ void freeze(float *o, const float *den, float s, float q) {
  int i = threadIdx.x;
  o[i] = MIN_OF(100.0 * (expf(0.66 * s) - 1.f) * den[i] / 3.0e8 * q, q);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: double-precision literal '100.0' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: warning: double-precision literal '0.66' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-3]]:59: warning: double-precision literal '3.0e8' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  o[i] = MIN_OF(100.0f * (expf(0.66f * s) - 1.f) * den[i] / 3.0e8f * q, q);{{$}}
}

// Constant operands: nvcc folds the double computation (no f64 instruction
// is left, see cuda-double-promotion-ptx.cu), and nothing is reported.
__global__ void rates(float *out, const float *x, int n) {
  float kbi, kib;
  kbi = 2.2;
  kib = kbi / 33.5e-3;
  float Ko = 5.4f;
  float g = 0.03 * sqrt(Ko / 5.4);
  const float ttp = 273.15f + 0.01f;
  float xa = -(4.0 * 461.6 - 4190.0) / 461.6;
  float xb = xa + 2.5e6 / (461.6 * ttp);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] * kib + g + xb;
}

// An operand inside a larger macro expansion is named as written in it.
#define MAX_OF(a, b) ((a) > (b) ? (a) : (b))
#define N0_MAX 1.e11
#define N0_S 2.e6
// CHECK-FIXES: {{^}}#define N0_MAX 1.e11f{{$}}
// CHECK-FIXES: {{^}}#define N0_S 2.e6f{{$}}
__device__ float clampRatio(float v) {
  return MAX_OF(v * (N0_MAX / N0_S), 1.f);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: double-precision constant '(N0_MAX / N0_S)' promotes float arithmetic to double [cuda-double-promotion]
}

// `pow(float, int)`: clang's headers resolve it to float, nvcc (libstdc++,
// C++11) to the promoting std::pow, which computes in double: the call is
// the cause, reported and fixed with the literals of its arithmetic (alone,
// the literal's suffix would add a conversion to the double the pow
// keeps). With a float power the literal is the cause.
__global__ void powInteger(float *y, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = x[i];
  y[i] = 0.0074 * pow(t, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 't * t' [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  y[i] = 0.0074f * (t * t);{{$}}
  y[i] += 0.0074 * powf(t, 2.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: double-precision literal '0.0074' promotes float arithmetic to double [cuda-double-promotion]
}

// The same where the pow is part of the other operand: `pi * pow(r, 2) *
// len` is double in nvcc; the pow is reported, and `1e-15` fixed with it.
__global__ void powProduct(float *y, const float *r, float len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float pi = 3.14159265f;
  y[i] = pi * pow(r[i], 2) * len * 1e-15;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'powf' [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  y[i] = pi * powf(r[i], 2) * len * 1e-15f;{{$}}
  y[i] += pi * r[i] * len * 1e-15;
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: double-precision literal '1e-15' promotes float arithmetic to double [cuda-double-promotion]
}

// Constants three locals deep (wsm5's constants.h, included in a kernel:
// `cpv = 4. * r_v`, `dldti = cpv - cliq`, `xai = -dldti / rv`): nvcc folds
// every line, no f64 is left, and nothing is reported. Started from memory,
// the chain is data.
__global__ void constChain(float *out, const float *in) {
  float a = 2.5;
  float b = a * 3.0;
  b = b; // wsm5's `cvap = cpv;` with `#define cvap cpv`: no change
  float c;
  c = b - 1.0;
  out[threadIdx.x] = c * 0.1;
  c = b - 1.0; // the same value again (wsm5's second phase)
  out[threadIdx.x] += c * 0.1;
  float d = in[0];
  float e = d * 3.0f;
  float f = e - 1.0f;
  out[threadIdx.x] += f * 0.1;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
}

// A branch converted back to float: nvcc narrows the literal's branch on its
// own, except where the other branch is a load the condition guards, in a
// loop: the join then stays double (jaccard, audit of stop 25: cvt.f64.f32
// of the load, cvt.rn.f32.f64 after the join).
__global__ void guardedSelect(const int *idx, const float *w, float *out,
                              int n) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < 2 * n; i += blockDim.x) {
    bool valid = i < n;
    float s = valid ? w[idx[i]] : 0.0;
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: double-precision literal '0.0' promotes float arithmetic to double [cuda-double-promotion]
    acc += s;
  }
  bool first = threadIdx.x < n;
  float t = first ? w[idx[threadIdx.x]] : 0.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: double-precision literal '0.0' in a branch that nvcc converts to float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:43: note: nvcc already converts this branch to float; the suffix makes that explicit
  out[threadIdx.x] = acc + t;
}

// A macro literal used where nvcc narrows it (one multiply, exact in float,
// straight back to float) and in a chain that stays double: the finding is
// at the chain, the use that makes f64 work (wsm5's psat, audit of stop 26).
#define PSAT 0.610780029296875E+03
__global__ void satPressure(const float *x, float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float qq = PSAT * expf(x[i]);
  a[i] = qq;
  float q1 = PSAT * expf(x[i]) * expf(-x[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: double-precision literal '0.610780029296875E+03' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-9]]:14: note: literal spelled in macro 'PSAT' here
  b[i] = q1;
}

// A macro literal passed to another macro (`MAX(q[i], QMIN)`) is still
// spelled in QMIN's body: the no-fix note says the macro is used elsewhere,
// not that a template is.
#define QMIN 1.00000000362749e-15
#define MAXOF(x, y) ((x) > (y) ? (x) : (y))
__global__ void clampMin(const float *q, float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a[i] = 2.f * (1.f - MAXOF(q[i], QMIN));
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: double-precision literal '1.00000000362749e-15' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:35: note: '1.00000000362749e-15' is not exactly representable in float; '1.00000000362749e-15f' differs by a relative 3.7e-15, which can change the last bits of results
  // CHECK-NOTES: :[[@LINE-9]]:14: note: literal spelled in macro 'QMIN' here
  // CHECK-NOTES: :[[@LINE-4]]:35: note: no automatic fix: the macro is also used where the literal does not promote float data
  b[i] = MAXOF(QMIN, q[i]);
}
