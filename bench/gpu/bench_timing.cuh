// Shared by the GPU benchmarks of bench/gpu: an error check that returns 1
// from main, and the mean time of a launch over many, with CUDA events.

#ifndef CUDA_LINT_BENCH_TIMING_CUH
#define CUDA_LINT_BENCH_TIMING_CUH

#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));             \
      return 1;                                                                \
    }                                                                          \
  } while (0)

/// The mean time in ms of \p Launch over \p Reps calls, after one warm-up.
template <typename F> static float timeIt(F Launch, int Reps) {
  cudaEvent_t A, B;
  cudaEventCreate(&A);
  cudaEventCreate(&B);
  Launch();
  cudaEventRecord(A);
  for (int R = 0; R < Reps; ++R)
    Launch();
  cudaEventRecord(B);
  cudaEventSynchronize(B);
  float Ms = 0;
  cudaEventElapsedTime(&Ms, A, B);
  cudaEventDestroy(A);
  cudaEventDestroy(B);
  return Ms / Reps;
}

#endif // CUDA_LINT_BENCH_TIMING_CUH
