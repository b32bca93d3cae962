// `register` is not C++17; clang rejects it in C++17 code, nvcc warns. The
// driver passes -Wno-register: this kernel is analysed.
// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low -- -std=c++17

__global__ void halve(float *p) {
  register float x = p[threadIdx.x];
  p[threadIdx.x] = x * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  p[threadIdx.x] = x * 0.5f;{{$}}
}
