// A variable-sized array with an initializer in host code: g++ (nvcc's
// host compiler) accepts it, clang does not. cuda-lint reports no error, and
// the host function, with its launch, is analysed.
// RUN: %cuda_lint --min-impact=low --checks='-*,cuda-double-promotion,cuda-launch-shape' %s -- > %t.out 2>&1
// RUN: FileCheck %s --input-file=%t.out -implicit-check-not=error: -implicit-check-not=warning:

__global__ void scale(float *out, int n) {
  if (threadIdx.x < n)
    out[threadIdx.x] = out[threadIdx.x] * 0.1;
  // CHECK: :[[@LINE-1]]:43: warning: double-precision literal '0.1'
}

void run(float *out, int n) {
  int sizes[n] = {0};
  sizes[0] = n;
  scale<<<1, 100>>>(out, sizes[0]);
  // CHECK: :[[@LINE-1]]:14: warning: block of 100 threads is not a multiple of the warp size (32)
}
