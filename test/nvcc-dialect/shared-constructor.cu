// A `__shared__` object whose type has a constructor: nvcc accepts it (it
// warns that a function-scope __shared__ variable is not dynamically
// initialized), which is how cuda::barrier is declared in shared memory;
// clang calls it an error. cuda-lint analyses the kernel as nvcc compiles it:
// no error, and the kernel that uses the variable is analysed.
// REQUIRES: cuda-toolkit
// RUN: %cuda_lint --checks='-*,cuda-double-promotion' %s -- > %t.out 2>&1
// RUN: FileCheck %s --input-file=%t.out -implicit-check-not=error: -implicit-check-not=warning:
// An initializer written out is an error for nvcc too, and stays one.
// RUN: not %cuda_lint --checks='-*,cuda-double-promotion' %s -- -DEXPLICIT 2>&1 | FileCheck %s --check-prefix=EXPLICIT

#include <cooperative_groups.h>
#include <cuda/barrier>

namespace cg = cooperative_groups;

struct Counter {
  int Value;
  __device__ Counter() : Value(0) {}
};

__global__ void stage(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ Counter counter;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  bar.arrive_and_wait();
  out[threadIdx.x] = out[threadIdx.x] * 0.5 + counter.Value;
  // CHECK: :[[@LINE-1]]:41: warning: double-precision literal '0.5'
}

#ifdef EXPLICIT
__global__ void explicitInit(int *out) {
  // EXPLICIT: :[[@LINE+1]]:18: error: initialization is not supported for __shared__ variables
  __shared__ int n = 1;
  out[0] = n;
}
#endif
