// A source that includes <omp.h> is analysed with OpenMP, as its build
// compiles it (`-Xcompiler -fopenmp`), even when no compile command says so:
// omp.h is found (clang's own, from the libomp-22-dev package), the host
// pragma is accepted, and the device side sees `_OPENMP` defined, as it does
// under nvcc, whose device pass is preprocessed by the host compiler with
// -fopenmp: the kernel below is analysed.
// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low

#include <omp.h>

#ifdef _OPENMP
__global__ void scale(float *p) {
  p[threadIdx.x] = p[threadIdx.x] * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  p[threadIdx.x] = p[threadIdx.x] * 0.5f;{{$}}
}
#endif

double wallTime(float *h, int n) {
  double t = omp_get_wtime();
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    h[i] = 2.0f * h[i];
  return omp_get_wtime() - t;
}
