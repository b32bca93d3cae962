// A `%` in inline assembly that is not an operand (`%laneid`, a PTX special
// register, written with one `%`): nvcc passes the string to ptxas as it is;
// clang calls it an invalid escape. cuda-lint reports no error, and the
// function with the assembly is analysed.
// RUN: %cuda_lint --checks='-*,cuda-double-promotion' %s -- > %t.out 2>&1
// RUN: FileCheck %s --input-file=%t.out -implicit-check-not=error: -implicit-check-not=warning:

__device__ unsigned laneId() {
  unsigned r;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(r));
  return r;
}

__global__ void scale(float *out) {
  unsigned warp;
  asm("mov.u32 %0, %warpid;" : "=r"(warp));
  out[threadIdx.x] = out[threadIdx.x] * 0.5 + laneId() + warp;
  // CHECK: :[[@LINE-1]]:41: warning: double-precision literal '0.5'
}
