// RUN: %check_cuda_lint %s cuda-legacy-runtime-api %t

#include <cstdio>

// Host code written for CUDA 3 to 11: every call has a same-meaning
// replacement, so the fixed file compiles with a CUDA 13 toolkit.
int setup() {
  if (cudaThreadSynchronize() != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaThreadSynchronize' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceSynchronize', which has the same meaning [cuda-legacy-runtime-api]
    // CHECK-FIXES: {{^}}  if (cudaDeviceSynchronize() != cudaSuccess){{$}}
    return 1;
  size_t stack = 0;
  cudaThreadGetLimit(&stack, cudaLimitStackSize);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadGetLimit' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceGetLimit'
  // CHECK-FIXES: {{^}}  cudaDeviceGetLimit(&stack, cudaLimitStackSize);{{$}}
  cudaThreadSetLimit(cudaLimitStackSize, 2 * stack);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadSetLimit' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceSetLimit'
  // CHECK-FIXES: {{^}}  cudaDeviceSetLimit(cudaLimitStackSize, 2 * stack);{{$}}
  cudaFuncCache cache;
  cudaThreadGetCacheConfig(&cache);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadGetCacheConfig' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceGetCacheConfig'
  // CHECK-FIXES: {{^}}  cudaDeviceGetCacheConfig(&cache);{{$}}
  cudaThreadSetCacheConfig(cudaFuncCachePreferShared);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadSetCacheConfig' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceSetCacheConfig'
  // CHECK-FIXES: {{^}}  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);{{$}}
  return 0;
}

// A macro argument is rewritten where it is written.
#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      std::printf("error at %s\n", #call);                                     \
  } while (0)

void teardown() {
  CHECK(cudaThreadSynchronize());
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cudaThreadSynchronize' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13
  // CHECK-FIXES: {{^}}  CHECK(cudaDeviceSynchronize());{{$}}
  cudaThreadExit();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaThreadExit' was deprecated in CUDA 4.0 and is no longer declared by CUDA 13; use 'cudaDeviceReset'
  // CHECK-FIXES: {{^}}  cudaDeviceReset();{{$}}
}

// Templates: one fix for every instantiation.
template <typename T> int syncAfter(T *p) {
  p[0] = T();
  return cudaThreadSynchronize() == cudaSuccess;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cudaThreadSynchronize' was deprecated in CUDA 4.0
  // CHECK-FIXES: {{^}}  return cudaDeviceSynchronize() == cudaSuccess;{{$}}
}
int useTemplates(int *i, float *f) { return syncAfter(i) + syncAfter(f); }

// Not findings: the modern API.
void modern() {
  cudaDeviceSynchronize();
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  cudaDeviceReset();
}
