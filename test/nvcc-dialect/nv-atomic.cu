// The `__nv_atomic_*` functions (CUDA 12.8+) are nvcc built-ins that no
// header declares, and their memory-order and scope constants are declared
// where clang's CUDA headers do not look. The nvcc compatibility header
// declares both: this kernel is analysed.
// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low

__global__ void publish(unsigned long long *count, int *flag, float *p) {
  unsigned long long seen = __nv_atomic_load_n(count, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(count, 1ULL, __NV_ATOMIC_RELAXED,
                        __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(flag, 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  if (seen == 0)
    p[threadIdx.x] = p[threadIdx.x] * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}    p[threadIdx.x] = p[threadIdx.x] * 0.5f;{{$}}
}
