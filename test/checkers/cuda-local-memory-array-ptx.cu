// The rule in the PTX: nvcc keeps the loop of 32 powf calls rolled, so
// `acc` lives in local memory (ld.local/st.local); after the fix, with
// `#pragma unroll`, every index is constant and `acc` is in registers. The
// negatives (a run-time-free loop of 8 iterations without a pragma, which
// nvcc unrolls on its own) use no local memory, before and after.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/acc.cu
// RUN: %nvcc -ptx -arch=sm_90 %t/acc.cu -o %t/before.ptx
// RUN: FileCheck --check-prefix=BEFORE --input-file=%t/before.ptx %s
// RUN: %cuda_lint %t/acc.cu --fix --checks='-*,cuda-local-memory-array' -- | FileCheck --check-prefix=DIAG %s
// RUN: FileCheck --check-prefix=FIXED --input-file=%t/acc.cu %s
// RUN: %nvcc -ptx -arch=sm_90 %t/acc.cu -o %t/after.ptx
// RUN: FileCheck --check-prefix=AFTER --input-file=%t/after.ptx %s

__global__ void rolled(const float *in, float *out, int n) {
  float acc[32];
  for (int k = 0; k < 32; ++k)
    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    s += acc[k] * acc[31 - k];
  out[threadIdx.x] = s;
}

__global__ void unrolled(const float *in, float *out, int n) {
  float acc[8];
  for (int k = 0; k < 8; ++k)
    acc[k] = powf(in[k * n + threadIdx.x], 1.7f);
  float s = 0.0f;
  for (int k = 0; k < 8; ++k)
    s += acc[k] * acc[7 - k];
  out[threadIdx.x] = s;
}

__global__ void runTime(const float *in, const int *idx, float *out) {
  float acc[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    acc[k] = in[k];
  out[threadIdx.x] = acc[idx[threadIdx.x] & 7];
}

// DIAG: acc.cu:18:5: warning: per-thread array 'acc' is indexed by the counter of a loop of 32 iterations that nvcc does not unroll on its own
// DIAG-NOT: acc.cu:{{2[6-9]|3[0-4]}}:{{.*}}warning
// DIAG: acc.cu:41:22: warning: per-thread array 'acc' is indexed with a value known only at run time

// FIXED: float acc[32];
// FIXED-NEXT: {{^}}  #pragma unroll{{$}}
// FIXED-NEXT: {{^}}  for (int k = 0; k < 32; ++k){{$}}

// BEFORE-LABEL: .entry {{.*}}rolled
// BEFORE: .local
// BEFORE: st.local
// BEFORE: ld.local
// BEFORE-LABEL: .entry {{.*}}unrolled
// BEFORE-NOT: .local
// BEFORE: ret;
// BEFORE-LABEL: .entry {{.*}}runTime
// BEFORE: ld.local

// AFTER-LABEL: .entry {{.*}}rolled
// AFTER-NOT: .local
// AFTER: ret;
// AFTER-LABEL: .entry {{.*}}unrolled
// AFTER-NOT: .local
// AFTER: ret;
// AFTER-LABEL: .entry {{.*}}runTime
// AFTER: ld.local
