// A kernel timed with a host clock and no synchronization: each repetition
// reads std::chrono::steady_clock right after the launch returns, so the
// reported time is the launch's (microseconds), not the kernel's.
// cuda-unsynchronized-timing inserts cudaDeviceSynchronize() before the
// second clock read; the fixed program's reported time (TIME_MS, the median
// of the repetitions) grows to the kernel's real time, which the program
// also measures with CUDA events for comparison. The outputs are the same.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

// Deterministic busy work: each element goes through `iters` steps of a
// contracting map, so the result does not depend on timing.
__global__ void busy(float *p, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = p[i];
  for (int k = 0; k < iters; ++k)
    x = 0.5f * x + 0.25f;
  p[i] = x;
}

int main(int argc, char **argv) {
  // CUDA_LINT_SMALL: the smaller problem the validator runs under
  // compute-sanitizer.
  const bool small = std::getenv("CUDA_LINT_SMALL") != nullptr;
  const int n = small ? 1 << 12 : 1 << 22;
  const int iters = small ? 16 : 4096;
  const int reps = std::getenv("CUDA_LINT_REPS") ? std::atoi(std::getenv("CUDA_LINT_REPS")) : 20;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 1000) * 0.001f;
  float *d = nullptr;
  CK(cudaMalloc(&d, sizeof(float) * n));
  CK(cudaMemcpy(d, h.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  const int block = 256, grid = (n + block - 1) / block;

  // The kernel's real time, with events (GPU timers), after a warm-up.
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  busy<<<grid, block>>>(d, n, iters);
  CK(cudaEventRecord(start));
  busy<<<grid, block>>>(d, n, iters);
  CK(cudaEventRecord(stop));
  CK(cudaEventSynchronize(stop));
  float eventMs = 0;
  CK(cudaEventElapsedTime(&eventMs, start, stop));

  // The same kernel timed with a host clock.
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    busy<<<grid, block>>>(d, n, iters);
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  CK(cudaGetLastError());
  CK(cudaMemcpy(h.data(), d, sizeof(float) * n, cudaMemcpyDeviceToHost));
  std::sort(times.begin(), times.end());
  double hostMs = times[times.size() / 2];
  std::printf("kernel time by events: %.4f ms; by the host clock: %.4f ms (%.1f%%)\n",
              eventMs, hostMs, 100.0 * hostMs / eventMs);
  std::printf("TIME_MS %f\n", hostMs);
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(h.data(), sizeof(float), h.size(), f) != h.size())
      return 1;
    std::fclose(f);
  }
  CK(cudaFree(d));
  return 0;
}
