// nvcc defines __CUDACC__ as 1 (clang's wrapper defines it empty, so that
// `#if __CUDACC__` does not parse), and clang 22 ignores `__managed__` for
// CUDA (HIP only), leaving a managed variable a host variable that device
// code may not read. The nvcc compatibility header makes both read as under
// nvcc: this kernel is analysed.
// RUN: %check_cuda_lint %s cuda-double-promotion %t -- -config="{CheckOptions: {cuda-double-promotion.ReportNarrowed: true}}" --min-impact=low

__managed__ float factor;

#if __CUDACC__
__global__ void scale(float *p) {
  p[threadIdx.x] = p[threadIdx.x] * factor * 0.5;
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: double-precision literal '0.5' in a float operation that nvcc computes in float; the 'f' suffix makes that explicit [cuda-double-promotion]
  // CHECK-FIXES: {{^}}  p[threadIdx.x] = p[threadIdx.x] * factor * 0.5f;{{$}}
}
#endif

void setFactor(float f) { factor = f; }
