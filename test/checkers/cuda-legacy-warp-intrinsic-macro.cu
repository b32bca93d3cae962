// RUN: %check_cuda_lint -no-compile %s cuda-legacy-warp-intrinsic %t
// (-no-compile: the macro keeps its removed intrinsic, so nvcc 13 rejects
// the file, as it rejects the original.)

// Macros: reported, not rewritten (the macro may be used elsewhere).
#define WARP_BROADCAST(v) __shfl((v), 0)
__global__ void viaMacro(float *f) {
  f[threadIdx.x] = WARP_BROADCAST(f[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: __shfl has no mask
}

