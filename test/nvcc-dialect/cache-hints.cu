// nvcc declares the cache-hint loads and stores (sm_32_intrinsics.h) for
// every scalar and vector type; clang's CUDA headers lack __ldca, __ldlu,
// __stcg, __stcs and __stwb, and some `long` overloads. cuda-lint's nvcc
// compatibility header declares them, so this kernel is analysed (the
// double-precision multiply is reported and fixed) and the fixed file
// compiles with nvcc.
// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low

__global__ void stream(int4 *out, const int4 *in, double2 *d2, float4 *f4,
                       unsigned long *ul, long *l, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcs(&out[i], __ldcs(&in[i]));
  __stcg(&d2[i], __ldca(&d2[i + 1]));
  __stwb(&f4[i], __ldlu(&f4[i + 1]));
  __stwb(&ul[i], __ldlu(&ul[i + 1]) + __ldcg(&ul[i + 2]) + __ldcs(&ul[i + 3]) +
                     __ldcv(&ul[i + 4]));
  __stwt(&l[i], __ldca(&l[i + 1]));
  __stcs(&f[i], __ldlu(&f[i + 1]) * 0.5);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  __stcs(&f[i], __ldlu(&f[i + 1]) * 0.5f);{{$}}
}
