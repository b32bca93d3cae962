// A kernel launched from device code (dynamic parallelism) needs relocatable
// device code: nvcc compiles it with -rdc=true, which a compile command may
// not show (CMake's CUDA_SEPARABLE_COMPILATION links it elsewhere). The
// driver analyses every file with -fgpu-rdc, so this file is analysed: the
// child kernel's double-precision multiply is reported. (nvcc needs -rdc=true
// for it, which this test's compile step does not pass.)
// RUN: %check_cuda_lint -no-compile %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low

__global__ void child(float *p) {
  p[threadIdx.x] = p[threadIdx.x] * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  p[threadIdx.x] = p[threadIdx.x] * 0.5f;{{$}}
}

__global__ void parent(float *p, int n) {
  if (threadIdx.x == 0)
    child<<<n / 32, 32>>>(p);
}
