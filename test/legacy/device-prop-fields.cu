// Fields that CUDA 13 removed from cudaDeviceProp are reported with the
// attribute to query instead. The driver adds the legacy compatibility
// header by itself (the pre-scan sees `.clockRate`), so the file parses and
// its kernels are analysed (the launch below is reported); there is no
// automatic rewrite, so the file is unchanged.
// RUN: %check_cuda_lint -no-compile %s cuda-legacy-runtime-api,cuda-launch-shape %t

#include <cstdio>

__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }

static int peakKHz(const cudaDeviceProp &prop) {
  return prop.clockRate;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'cudaDeviceProp::clockRate' was removed in CUDA 13; read it with 'cudaDeviceGetAttribute(&value, cudaDevAttrClockRate, device)' [cuda-legacy-runtime-api]
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaDeviceProp *p = &prop;
  if (prop.computeMode == cudaComputeModeProhibited)
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cudaDeviceProp::computeMode' was removed in CUDA 13; read it with 'cudaDeviceGetAttribute(&value, cudaDevAttrComputeMode, device)' [cuda-legacy-runtime-api]
    return 1;
  printf("%d %d %d %d\n", p->deviceOverlap, prop.memoryClockRate,
         // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'cudaDeviceProp::deviceOverlap' was removed in CUDA 13; read it with 'cudaDeviceGetAttribute(&value, cudaDevAttrGpuOverlap, device)' [cuda-legacy-runtime-api]
         // CHECK-MESSAGES: :[[@LINE-2]]:50: warning: 'cudaDeviceProp::memoryClockRate' was removed in CUDA 13; read it with 'cudaDeviceGetAttribute(&value, cudaDevAttrMemoryClockRate, device)' [cuda-legacy-runtime-api]
         prop.kernelExecTimeoutEnabled, prop.singleToDoublePrecisionPerfRatio);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'cudaDeviceProp::kernelExecTimeoutEnabled' was removed in CUDA 13; read it with 'cudaDeviceGetAttribute(&value, cudaDevAttrKernelExecTimeout, device)' [cuda-legacy-runtime-api]
  // CHECK-MESSAGES: :[[@LINE-2]]:46: warning: 'cudaDeviceProp::singleToDoublePrecisionPerfRatio' was removed in CUDA 13; read it with 'cudaDeviceGetAttribute(&value, cudaDevAttrSingleToDoublePrecisionPerfRatio, device)' [cuda-legacy-runtime-api]
  int width = prop.maxTexture1DLinear;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cudaDeviceProp::maxTexture1DLinear' was removed in CUDA 13; use 'cudaDeviceGetTexture1DLinearMaxWidth' instead [cuda-legacy-runtime-api]
  int multi = prop.cooperativeMultiDeviceLaunch;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'cudaDeviceProp::cooperativeMultiDeviceLaunch' was removed in CUDA 13; multi-device cooperative launches were removed with it (use 'cooperativeLaunch' for single-device ones) [cuda-legacy-runtime-api]

  // Fields CUDA 13 still has are not reported.
  int sms = prop.multiProcessorCount + prop.asyncEngineCount + prop.major;

  float *d = nullptr;
  scale<<<sms, 48>>>(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: block of 48 threads is not a multiple of the warp size (32); the last warp of every block runs with idle lanes [cuda-launch-shape]
  return peakKHz(prop) + width + multi;
}

// A program's own struct with a field of the same name is not reported.
struct Clock {
  int clockRate;
};
int ownClock(Clock c) { return c.clockRate; }
