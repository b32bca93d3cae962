// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: false}}" -- -I %S/Inputs

#include <cmath>
#include "promotion-constants.cuh"

// The cause of the double arithmetic is reported, not a literal beside it
// whose suffix would leave the f64 instructions in place.

// `atan(x) * ONE_OVER_PI` is double through the header's macro: the `0.5`
// added to it is not the cause, and '0.5f' alone would leave the fma.rn.f64.
__global__ void phase(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = atan(x[i]) * ONE_OVER_PI + 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: double-precision constant 'ONE_OVER_PI' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES-NOT: :[[@LINE-2]]:41: warning
}

// `pow(float, int)` is the promoting std::pow under nvcc: the call is the
// cause. The literals around it are not findings of their own (alone, their
// suffixes would add conversions to the double the pow keeps): they are
// fixed with the call, and the computation becomes float.
__global__ void rate(const float *t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float T = t[i];
    out[i] = 0.055 * T + 0.0074 * pow(T, 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'T * T' [cuda-double-promotion]
    // CHECK-NOTES: :[[@LINE-2]]:35: note: the literals of the computation around it ('0.055', '0.0074') get the 'f' suffix too, so that it is computed in float: its results can change in the last bits
    // CHECK-FIXES: {{^}}    out[i] = 0.055f * T + 0.0074f * (T * T);{{$}}
  }
}

__global__ void cube(const float *t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = pow(t[i], 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'powf' [cuda-double-promotion]
  // CHECK-FIXES: {{^}}    out[i] = powf(t[i], 3);{{$}}
}

// A double result on purpose: not reported.
__global__ void wide(const float *t, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double d = pow(t[i], 2);
    out[i] = d;
  }
}

// One float multiply by an exactly representable literal, stored to float:
// nvcc emits mul.f32 as written (cuda-double-promotion-ptx.cu), the suffix
// changes no instruction: not reported with ReportNarrowed off.
__global__ void twice(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] * 2.0;
}

// An exact literal in a chain that stays double: the suffix changes the
// rounding of the operations around it, and the note says so.
__global__ void chain(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.5 * x[i] * x[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: '0.5' is exact in float, but with '0.5f' the operations around it round to float instead of double: results can change in the last bits
  // CHECK-FIXES: {{^}}    out[i] = 0.5f * x[i] * x[i];{{$}}
}

// The suffix makes exp's argument float, and the call its float overload.
__global__ void decay(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = exp(-0.5 * x[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'exp' computes float data in double precision; use the float function 'expf' [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: with '0.5f' the argument of 'exp' becomes float, and the call its float overload: a different implementation, whose result can differ in the last bits
  // CHECK-FIXES: {{^}}    out[i] = exp(-0.5f * x[i]);{{$}}
}
