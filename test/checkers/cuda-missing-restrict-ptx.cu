// The fix makes nvcc load `in` through the read-only data cache: the loads
// are `ld.global` before and `ld.global.nc` after.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/jacobi.cu
// RUN: %nvcc -ptx -arch=sm_90 %t/jacobi.cu -o %t/before.ptx
// RUN: FileCheck --check-prefix=BEFORE --input-file=%t/before.ptx %s
// RUN: %cuda_lint --min-impact=low %t/jacobi.cu --fix --checks='-*,cuda-missing-restrict' --
// RUN: FileCheck --check-prefix=FIXED --input-file=%t/jacobi.cu %s
// RUN: %nvcc -ptx -arch=sm_90 %t/jacobi.cu -o %t/after.ptx
// RUN: FileCheck --check-prefix=AFTER --input-file=%t/after.ptx %s
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)

__global__ void jacobi(float *out, float *in, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  out[j * nx + i] = 0.25f * (in[j * nx + i - 1] + in[j * nx + i + 1] +
                             in[(j - 1) * nx + i] + in[(j + 1) * nx + i]);
}

// FIXED: __global__ void jacobi(float *out, const float *__restrict__ in, int nx, int ny) {

// BEFORE-LABEL: .entry {{.*}}jacobi
// BEFORE-NOT: ld.global.nc
// BEFORE: ld.global.f32
// BEFORE-NOT: ld.global.nc
// BEFORE: ret;

// AFTER-LABEL: .entry {{.*}}jacobi
// AFTER-COUNT-4: ld.global.nc.f32
// AFTER: st.global.f32
// AFTER: ret;
