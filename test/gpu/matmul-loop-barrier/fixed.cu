// The tiled matrix product of the CUDA programming guide (32x32 tiles in
// shared memory) without the __syncthreads() at the end of the tile loop:
// a fast thread starts loading the next tiles into As and Bs while threads
// of other warps still read the current ones, across the loop's back edge.
// cuda-warp-synchronous reports it and ends the loop body with the barrier.
// The product is checked against the CPU (relative 1e-4).
#include <algorithm>
#include <cmath>
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

#define TILE 32

__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

int main(int argc, char **argv) {
  const int n = std::getenv("CUDA_LINT_SMALL") ? 128 : 2048;
  const int reps =
      std::getenv("CUDA_LINT_REPS") ? std::atoi(std::getenv("CUDA_LINT_REPS")) : 10;
  std::vector<float> a(size_t(n) * n), b(size_t(n) * n);
  unsigned state = 7u;
  for (size_t k = 0; k < a.size(); ++k) {
    state = state * 1664525u + 1013904223u;
    a[k] = float(state >> 9) / float(1u << 23) - 0.5f;
    state = state * 1664525u + 1013904223u;
    b[k] = float(state >> 9) / float(1u << 23) - 0.5f;
  }
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CK(cudaMalloc(&dA, sizeof(float) * a.size()));
  CK(cudaMalloc(&dB, sizeof(float) * b.size()));
  CK(cudaMalloc(&dC, sizeof(float) * a.size()));
  CK(cudaMemcpy(dA, a.data(), sizeof(float) * a.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, b.data(), sizeof(float) * b.size(), cudaMemcpyHostToDevice));
  dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
  matmul<<<grid, block>>>(dA, dB, dC, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int rep = 0; rep < reps; ++rep) {
    CK(cudaEventRecord(start));
    matmul<<<grid, block>>>(dA, dB, dC, n);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("TIME_MS %f\n", times[times.size() / 2]);
  std::vector<float> c(a.size());
  CK(cudaMemcpy(c.data(), dC, sizeof(float) * c.size(), cudaMemcpyDeviceToHost));
  // The CPU reference on a sample of rows (every row when small), in double.
  size_t bad = 0, checked = 0;
  int step = n > 256 ? 61 : 1;
  for (int r = 0; r < n; r += step)
    for (int col = 0; col < n; ++col) {
      double ref = 0;
      for (int k = 0; k < n; ++k)
        ref += double(a[size_t(r) * n + k]) * b[size_t(k) * n + col];
      double got = c[size_t(r) * n + col];
      bad += std::fabs(got - ref) > 1e-4 * std::max(1.0, std::fabs(ref)) * std::sqrt(double(n));
      ++checked;
    }
  std::printf("elements differing from the CPU: %zu of %zu checked\n", bad, checked);
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(c.data(), sizeof(float), c.size(), f) != c.size())
      return 1;
    std::fclose(f);
  }
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
  return bad != 0;
}
