// RUN: %check_cuda_lint %s cuda-double-promotion %t -- --min-impact=low
// RUN: %check_cuda_lint -check-suffix=APART %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.FunctionGroupMin: 0}}" --min-impact=low

#include <cmath>

// A function with four or more literal findings gets one finding for all of
// them (FunctionGroupMin, default 4), with a fix that suffixes every literal
// it can. The look-alike: a cell model's serial update, written in float
// with double constants throughout (the fourth sealed audit read five
// findings in one such function, each "a negligible share" of its double
// arithmetic, and asked for one finding per function).

#define REAL float
#define FARADAY 96485.3415
// CHECK-FIXES: {{^}}#define FARADAY 96485.3415f{{$}}

__device__ void cellStep(const REAL *state, REAL *rates, int off) {
  REAL v = state[off];
  REAL nai = state[off + 1];
  REAL ko = state[off + 2];
  REAL gate = 0.1 * v + 1.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 7 double-precision literals in 'cellStep' promote float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: one finding for the function: each alone is a small share of its double arithmetic; the fix changes 6 of the 7 together
  // CHECK-NOTES: :[[@LINE-3]]:25: note: literal '1.5' here
  // CHECK-FIXES: {{^}}  REAL gate = 0.1f * v + 1.5f;{{$}}
  // CHECK-FIXES-APART: {{^}}  REAL gate = 0.1f * v + 1.5f;{{$}}
  REAL flux = nai * 0.341 / ko;
  // CHECK-NOTES: :[[@LINE-1]]:21: note: literal '0.341' here
  // CHECK-FIXES: {{^}}  REAL flux = nai * 0.341f / ko;{{$}}
  REAL act = exp(0.08 * v) * 1e3;
  // CHECK-NOTES: :[[@LINE-1]]:18: note: literal '0.08' here
  // CHECK-NOTES: :[[@LINE-2]]:30: note: literal '1e3' here
  // CHECK-FIXES: {{^}}  REAL act = exp(0.08f * v) * 1e3f;{{$}}
  REAL tiny = v * 1e-50;
  // CHECK-NOTES: :[[@LINE-1]]:19: note: literal '1e-50' here: no automatic fix, the value underflows to zero in float
  // CHECK-FIXES: {{^}}  REAL tiny = v * 1e-50;{{$}}
  REAL charge = v / FARADAY;
  // CHECK-NOTES: :[[@LINE-24]]:17: note: literal '96485.3415' spelled in macro 'FARADAY' here
  // CHECK-NOTES: :[[@LINE-18]]:15: note: 4 of the literals are not exact in float: with 'f' they differ by a relative 2.7e-08 at most (or flush to zero where subnormal), which can change the last bits of results
  // CHECK-NOTES: :[[@LINE-19]]:15: note: 2 of the literals are exact in float, but with 'f' the operations around them round to float instead of double: results can change in the last bits
  // CHECK-NOTES: :[[@LINE-20]]:15: note: with the suffixes, calls of 'exp' get float arguments and become their float overloads: a different implementation, whose results can differ in the last bits
  // The call to 'exp' is no finding of its own: the literal's fix makes its
  // argument float, and the call its float overload (the note above).
  // nvcc computes this one in float already: not one of the group.
  rates[off] = gate * 2.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: double-precision literal '2.0' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  rates[off + 1] = flux + act + tiny + charge;

  // Each literal alone, without the grouping (FunctionGroupMin: 0):
  // CHECK-MESSAGES-APART: :21:15: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :21:25: warning: double-precision literal '1.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :27:21: warning: double-precision literal '0.341' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :30:14: warning: call to 'exp' computes float data in double precision; use the float function 'expf' [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :30:18: warning: double-precision literal '0.08' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :30:30: warning: double-precision literal '1e3' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :34:19: warning: double-precision literal '1e-50' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :37:21: warning: double-precision literal '96485.3415' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :45:23: warning: double-precision literal '2.0' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :85:13: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'ca * ca' [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :85:27: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'ca * ca' [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :91:13: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'powf' [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :94:17: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :98:19: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'k * k' [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :98:38: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'powf' [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :114:10: warning: double-precision literal '0.3' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :114:20: warning: double-precision literal '0.7' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :114:30: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :128:10: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :128:20: warning: double-precision literal '0.25' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :128:35: warning: double-precision literal '0.125' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-APART: :128:55: warning: double-precision literal '0.0625' promotes float arithmetic to double [cuda-double-promotion]
}

__global__ void cellKernel(const REAL *state, REAL *rates) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int c = 0; c < 100; ++c)
      cellStep(state, rates, 4 * c);
}

// Calls of double math functions join the literals of their function: a
// serial model's powers of float data (the fifth sealed audit read six
// 'pow' findings in one such function, three "a negligible share").
__device__ float gates(const float *s) {
  float ca = s[0], na = s[1], k = s[2];
  float a = pow(ca, 2) / (pow(ca, 2) + 0.25f);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 6 double-precision literals and calls of double math functions in 'gates' compute float data in double precision [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: one finding for the function: each alone is a small share of its double arithmetic; the fix changes all 6 together
  // CHECK-NOTES: :[[@LINE-3]]:13: note: call to 'pow' here: 'ca * ca'
  // CHECK-NOTES: :[[@LINE-4]]:27: note: call to 'pow' here: 'ca * ca'
  // CHECK-FIXES: {{^}}  float a = (ca * ca) / ((ca * ca) + 0.25f);{{$}}
  float b = pow(na, 3) * k;
  // CHECK-NOTES: :[[@LINE-1]]:13: note: call to 'pow' here: 'powf'
  // CHECK-FIXES: {{^}}  float b = powf(na, 3) * k;{{$}}
  float c = k * 0.1;
  // CHECK-NOTES: :[[@LINE-1]]:17: note: literal '0.1' here
  // CHECK-FIXES: {{^}}  float c = k * 0.1f;{{$}}
  // Two calls of one computation both suffix its literals: each once.
  float d = 0.5 * pow(k, 2) + 0.25 * pow(k, 3);
  // CHECK-NOTES: :[[@LINE-1]]:19: note: call to 'pow' here: 'k * k'
  // CHECK-NOTES: :[[@LINE-2]]:38: note: call to 'pow' here: 'powf'
  // CHECK-NOTES: :[[@LINE-16]]:13: note: 1 of the literals is not exact in float{{.*}}
  // CHECK-NOTES: :[[@LINE-17]]:13: note: the float forms that replace 5 of the calls ('powf' and its kin, a product for a square) round differently: their results can differ in the last bits
  // CHECK-FIXES: {{^}}  float d = 0.5f * (k * k) + 0.25f * powf(k, 3);{{$}}
  return a + b + c + d;
}

__global__ void gatesKernel(float *out, const float *s) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = gates(s + 4 * blockIdx.x);
}

// Three literal findings: one each, as usual.
__device__ float blend(float a, float b) {
  return 0.3 * a + 0.7 * b + 0.1;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: double-precision literal '0.3' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: double-precision literal '0.7' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-3]]:30: warning: double-precision literal '0.1' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  return 0.3f * a + 0.7f * b + 0.1f;{{$}}
}

__global__ void blendKernel(float *out, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = blend(x[i], x[i + 1]);
}

// A template's literals are one group over its instantiations.
template <typename T> __device__ T poly(T x) {
  return 0.5 * x + 0.25 * x * x + 0.125 * x * x * x + 0.0625 * x * x * x * x;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 4 double-precision literals in 'poly' promote float arithmetic to double [cuda-double-promotion]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: one finding for the function: each alone is a small share of its double arithmetic; no automatic fix for any of them (below)
  // CHECK-NOTES: :[[@LINE-3]]:20: note: literal '0.25' here: no automatic fix, the literal is also used where it does not promote float data (another template instantiation)
}

__global__ void polyKernel(float *out, const float *x, double *dout,
                           const double *dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = poly(x[i]);
  dout[i] = poly(dx[i]);
}

// Host code and already-float code: nothing.
float hostModel(float v) { return 0.1 * v + 0.2 * v + 0.3 * v + 0.4 * v; }

__device__ float clean(float v) {
  return 0.1f * v + 0.2f * v + 0.3f * v + 0.4f * v;
}

int main() {
  for (int t = 0; t < 10; ++t) {
    cellKernel<<<2, 32>>>(nullptr, nullptr);
    blendKernel<<<64, 256>>>(nullptr, nullptr);
    polyKernel<<<64, 256>>>(nullptr, nullptr, nullptr, nullptr);
    gatesKernel<<<64, 32>>>(nullptr, nullptr);
  }
  return hostModel(1.0f) > clean(1.0f);
}
