// What nvcc's implicit include of cuda_runtime.h declares for the host
// compiler: <time.h> (clock_t, clock(), time(), CLOCKS_PER_SEC) and
// <string.h>, used without an #include; and assert, which NVRTC declares for
// run-time compiled code. cuda-lint reports no error, and the kernel is
// analysed. (The declarations come with the toolkit's headers.)
// REQUIRES: cuda-toolkit
// RUN: %cuda_lint --checks='-*,cuda-double-promotion' %s -- > %t.out 2>&1
// RUN: FileCheck %s --input-file=%t.out -implicit-check-not=error: -implicit-check-not=warning:

extern "C" __global__ void scale(float *out, int n) {
  assert(n > 0);
  out[threadIdx.x] = out[threadIdx.x] * 0.1;
  // CHECK: :[[@LINE-1]]:41: warning: double-precision literal '0.1'
}

double seconds() {
  clock_t start = clock();
  time_t now = time(0);
  char name[16];
  memset(name, 0, sizeof(name));
  return (double)(clock() - start) / CLOCKS_PER_SEC + (double)now;
}
