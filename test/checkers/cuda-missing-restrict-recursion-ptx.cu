// The PTX behind cuda-missing-restrict-recursion.cu: a pointer passed to a
// recursive function with two calls of itself that are not tail calls, and
// that writes memory, is loaded with plain ld.global whether it is
// `const __restrict__` or not (no finding); with one recursive call, the
// qualifiers make its loads ld.global.nc (a finding).
// REQUIRES: nvcc
// RUN: %nvcc -ptx -arch=sm_90 %s -o %t-plain.ptx
// RUN: %nvcc -ptx -arch=sm_90 -DRESTRICT=__restrict__ %s -o %t-restrict.ptx
// RUN: FileCheck --check-prefix=PLAIN --input-file=%t-plain.ptx %s
// RUN: FileCheck --check-prefix=RESTRICT --input-file=%t-restrict.ptx %s
// RUN: %cuda_lint --min-impact=low %s --checks='-*,cuda-missing-restrict' -- 2>&1 | FileCheck --check-prefix=LINT %s
// (--min-impact=low: most kernels here load their pointers before any
// store, where `__restrict__` only adds .nc and the finding ranks low; the
// file tests what the check finds and fixes, cuda-missing-restrict-benefit.cu
// the rank.)

#ifndef RESTRICT
#define RESTRICT
#endif

__device__ int cover(const int *fanin, int *seen, int i) {
  if (i <= 0 || seen[i & 7])
    return 0;
  seen[i & 7] = 1;
  return 1 + cover(fanin, seen, fanin[i]) + cover(fanin, seen, fanin[i + 1]);
}
__global__ void kept(int *out, const int *RESTRICT fanin, int n) {
  int seen[8] = {0};
  out[threadIdx.x] = cover(fanin, seen, n) + fanin[n + 1];
}

__device__ int chain(const int *next, int *seen, int i) {
  if (i <= 0 || seen[i & 7])
    return 0;
  seen[i & 7] = 1;
  return 1 + chain(next, seen, next[i]);
}
__global__ void once(int *out, const int *RESTRICT next, int n) {
  int seen[8] = {0};
  out[threadIdx.x] = chain(next, seen, n) + next[n + 1];
}

// PLAIN-LABEL: .entry {{.*}}kept
// PLAIN-NOT: ld.global.nc
// PLAIN: call.uni
// PLAIN-NOT: ld.global.nc
// PLAIN: ret;
// PLAIN-LABEL: .entry {{.*}}once
// PLAIN-NOT: ld.global.nc
// PLAIN: ret;

// RESTRICT-LABEL: .entry {{.*}}kept
// RESTRICT-NOT: ld.global.nc
// RESTRICT: call.uni
// RESTRICT-NOT: ld.global.nc
// RESTRICT: ret;
// RESTRICT-LABEL: .entry {{.*}}once
// RESTRICT: ld.global.nc.u32
// RESTRICT: ret;

// LINT-NOT: parameter 'fanin'
// LINT: warning: pointer parameter 'next' is only read
// LINT-NOT: parameter 'fanin'
