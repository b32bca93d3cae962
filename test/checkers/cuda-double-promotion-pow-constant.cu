// RUN: %check_cuda_lint -check-suffixes=LOW %s cuda-double-promotion %t-low -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=DEFAULT %s cuda-double-promotion %t-default

// `pow` of a constant base (a literal, or a local initialised with one and
// never written) and a constant exponent: nvcc folds the call, so the fix
// changes no instruction that runs. Ranked 5 (low) with the reason, and
// hidden by default (the second sealed audit checked myocyte's
// `pow(Nao, 3)` with `float Nao = 140;` in the PTX). A base the kernel
// computes keeps its rank.

#include <cmath>

__global__ void concentrations(const float *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float Nao = 140;
  float x = v[i];
  out[i] = x / pow(Nao, 3);
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:16: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'powf' [cuda-double-promotion]
  // CHECK-NOTES-LOW: :[[@LINE-2]]:16: note: impact: low (rank 5/100): the fix changes no instruction: the base and the exponent are constants: nvcc folds the call
  // CHECK-NOTES-LOW: :[[@LINE-3]]:16: note: 'powf' is a different implementation from 'pow': its result can differ from 'pow' rounded to float in the last bits
  // CHECK-FIXES-LOW: {{^}}  out[i] = x / powf(Nao, 3);{{$}}
  // CHECK-FIXES-DEFAULT: {{^}}  out[i] = x / pow(Nao, 3);{{$}}
  out[i] += pow(x, 3);
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:13: warning: 'pow' of a float and an integer computes in double with nvcc (libstdc++'s std::pow promotes both arguments); use 'powf' [cuda-double-promotion]
  // CHECK-NOTES-LOW: :[[@LINE-2]]:13: note: impact: medium {{.*}}
  // CHECK-NOTES-LOW: :[[@LINE-3]]:13: note: 'powf' is a different implementation from 'pow': its result can differ from 'pow' rounded to float in the last bits
  // CHECK-FIXES-LOW: {{^}}  out[i] += powf(x, 3);{{$}}
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-5]]:13: warning: 'pow' of a float and an integer computes in double with nvcc
  // CHECK-FIXES-DEFAULT: {{^}}  out[i] += powf(x, 3);{{$}}
}
