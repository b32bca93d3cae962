// The fixes also edit the header's declaration: each run gets its own copy.
// RUN: for d in 1 2 3 4; do rm -rf %t-inc$d && mkdir -p %t-inc$d && cp %S/Inputs/restrict-declared.cuh %t-inc$d/; done
// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low -- -I%t-inc1
// RUN: %check_cuda_lint -check-suffix=LDG %s cuda-missing-restrict %t-ldg -- --min-impact=low -config="{CheckOptions: {cuda-missing-restrict.UseLdg: true}}" -- -I%t-inc2
//
// Where a kernel's type is observed (a function pointer, a template
// argument, a CUDA API that takes the kernel, a declaration in another
// file), `const` on a pointee would change it and break that code: only the
// top-level `__restrict__`, which is not part of the function type, is
// added. The fixed file compiles, host and device side, with clang and nvcc:
// RUN: %cuda_lint --min-impact=low %s --checks='-*,cuda-missing-restrict' -- -I%t-inc3 | FileCheck --check-prefix=NOTE %s
// RUN: cp %s %t-both.cu && %cuda_lint --min-impact=low %t-both.cu --fix --checks='-*,cuda-missing-restrict' -- -I%t-inc4 > /dev/null
// RUN: FileCheck --check-prefix=HEADER --input-file=%t-inc4/restrict-declared.cuh %s
// HEADER: __global__ void declaredInHeader(float *out, float *__restrict__ in, int n);
// RUN: %clangxx -x cuda -fsyntax-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -I%t-inc4 %t-both.cu
// RUN: %if nvcc %{ %nvcc -c -arch=sm_90 -I%t-inc4 %t-both.cu -o %t-both.o %}
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)
// REQUIRES: cuda-toolkit

#include <cuda_runtime.h>
#include "restrict-declared.cuh"
#ifdef __clang__
extern "C" cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0,
                                         cudaStream_t = 0);
#endif

// NVIDIA's transpose sample: the kernels are stored in a function pointer of
// the old type and launched through it.
__global__ void copyKernel(float *odata, float *idata, int width) {
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: pointer parameter 'idata' is only read; declare it 'const float *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
  // CHECK-FIXES: {{^}}__global__ void copyKernel(float *odata, float *__restrict__ idata, int width) {{{$}}
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:49: warning: pointer parameter 'idata' is only read; load it with '__ldg()'
  // CHECK-FIXES-LDG: {{^}}__global__ void copyKernel(float *odata, float *idata, int width) {{{$}}
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  odata[x] = idata[x];
  // CHECK-FIXES-LDG: {{^}}  odata[x] = __ldg(&idata[x]);{{$}}
}

__global__ void transposeNaive(float *odata, float *idata, int width) {
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: pointer parameter 'idata' is only read; declare it 'const float *__restrict__'
  // CHECK-FIXES: {{^}}__global__ void transposeNaive(float *odata, float *__restrict__ idata, int width) {{{$}}
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:53: warning: pointer parameter 'idata' is only read; load it with '__ldg()'
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  odata[x * width + y] = idata[y * width + x];
}

// Already `__restrict__`: `const` is all that is missing, and nvcc does not
// need it (the loads are already ld.global.nc): not a finding.
__global__ void onlyConst(float *odata, float *__restrict__ idata) {
  odata[threadIdx.x] = idata[threadIdx.x];
}

// Passed to the runtime API.
__global__ void attributes(float *odata, float *idata) {
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: pointer parameter 'idata' is only read
  // CHECK-FIXES: {{^}}__global__ void attributes(float *odata, float *__restrict__ idata) {{{$}}
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:49: warning: pointer parameter 'idata' is only read; load it with '__ldg()'
  odata[threadIdx.x] = idata[threadIdx.x];
}

// A template argument.
__global__ void asArgument(float *odata, float *idata) {
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: pointer parameter 'idata' is only read
  // CHECK-FIXES: {{^}}__global__ void asArgument(float *odata, float *__restrict__ idata) {{{$}}
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:49: warning: pointer parameter 'idata' is only read; load it with '__ldg()'
  odata[threadIdx.x] = idata[threadIdx.x];
}
template <void (*K)(float *, float *)> void launchWith(float *o, float *i) {
  K<<<1, 64>>>(o, i);
  // NOTE-DAG: :[[@LINE-1]]:3: note: only '__restrict__' added: 'const' would change the type of kernel 'asArgument'
}

// Declared in a header that other translation units may include.
__global__ void declaredInHeader(float *out, float *in, int n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: pointer parameter 'in' is only read
  // CHECK-FIXES: {{^}}__global__ void declaredInHeader(float *out, float *__restrict__ in, int n) {{{$}}
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:53: warning: pointer parameter 'in' is only read; load it with '__ldg()'
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Negative: only launched directly, so its type may change.
__global__ void launchedOnly(float *odata, float *idata) {
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: pointer parameter 'idata' is only read
  // CHECK-FIXES: {{^}}__global__ void launchedOnly(float *odata, const float *__restrict__ idata) {{{$}}
  // CHECK-MESSAGES-LDG: :[[@LINE-3]]:51: warning: pointer parameter 'idata' is only read; load it with '__ldg()'
  odata[threadIdx.x] = idata[threadIdx.x];
}

void run(float *d_odata, float *d_idata, int n) {
  void (*kernel)(float *, float *, int);
  kernel = &copyKernel;
  // NOTE-DAG: :[[@LINE-1]]:13: note: only '__restrict__' added: 'const' would change the type of kernel 'copyKernel', which this use as a value (its address taken, stored or passed) depends on
  kernel<<<n / 256, 256>>>(d_odata, d_idata, n);
  kernel = transposeNaive;
  // NOTE-DAG: :[[@LINE-1]]:12: note: only '__restrict__' added: 'const' would change the type of kernel 'transposeNaive'
  kernel<<<n / 256, 256>>>(d_odata, d_idata, n);
  void (*other)(float *, float *) = onlyConst;
  other<<<1, 64>>>(d_odata, d_idata);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, attributes);
  // NOTE-DAG: :[[@LINE-1]]:32: note: only '__restrict__' added: 'const' would change the type of kernel 'attributes'
  attributes<<<1, 64>>>(d_odata, d_idata);
  launchWith<asArgument>(d_odata, d_idata);
  declaredInHeader<<<n / 256, 256>>>(d_odata, d_idata, n);
  launchedOnly<<<1, 64>>>(d_odata, d_idata);
}
// NOTE-DAG: restrict-declared.cuh:3:17: note: only '__restrict__' added: 'const' would change the type of kernel 'declaredInHeader', declared here in another file, which other translation units may include
