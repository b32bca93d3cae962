// In the device-side analysis, clang's CUDA headers declare the C math
// classification functions (isfinite, isnan, isinf) for the device only;
// nvcc compiles host code with the host compiler, where they exist. The
// driver passes -fgpu-defer-diag: such host-side errors are not diagnosed
// unless the code is emitted for the device, and the file is analysed.
// RUN: %check_cuda_lint %s cuda-double-promotion %t

#include <cmath>

bool allFinite(const float *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i]) || isnan(v[i]) || isinf(v[i]))
      return false;
  return true;
}

__global__ void halve(float *p) {
  p[threadIdx.x] = isfinite(p[threadIdx.x]) ? p[threadIdx.x] * 0.5 : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: double-precision literal '0.5' promotes float arithmetic to double [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  p[threadIdx.x] = isfinite(p[threadIdx.x]) ? p[threadIdx.x] * 0.5f : 0.0f;{{$}}
}
