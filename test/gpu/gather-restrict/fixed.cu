#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n",                         \
                   cudaGetErrorString(err_), __FILE__, __LINE__);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static uint32_t lcg(uint32_t &s) {
  s = s * 1664525u + 1013904223u;
  return s;
}

// An indexed gather with per-element weights: `in`, `idx` and `w` are only
// read but not declared const __restrict__.
__global__ void gather(float *out, const float *__restrict__ in, const int *__restrict__ idx, const float *__restrict__ w, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = in[idx[i]] * w[i];
}

int main(int argc, char **argv) {
  const int n = 1 << 25, m = 1 << 22;
  std::vector<float> hin(m), hw(n);
  std::vector<int> hidx(n);
  uint32_t seed = 777u;
  for (int k = 0; k < m; ++k)
    hin[k] = (lcg(seed) >> 8) * (1.0f / 16777216.0f);
  for (int k = 0; k < n; ++k) {
    // Mostly local indices with some scatter, as in a mesh or a sparse matrix.
    int base = (int)(((long long)k * m) / n);
    hidx[k] = (base + (int)(lcg(seed) % 4096u)) % m;
    hw[k] = (lcg(seed) >> 8) * (1.0f / 16777216.0f);
  }
  float *in, *w, *out;
  int *idx;
  CHECK(cudaMalloc(&in, m * sizeof(float)));
  CHECK(cudaMalloc(&w, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&idx, n * sizeof(int)));
  CHECK(cudaMemcpy(in, hin.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(idx, hidx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
#define LAUNCH gather<<<1320, 256>>>(out, in, idx, w, n)

  // Warm-up, then 20 timed repetitions; report the median.
  LAUNCH;
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int rep = 0; rep < 20; ++rep) {
    CHECK(cudaEventRecord(start));
    LAUNCH;
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("TIME_MS %.6f\n", 0.5f * (times[9] + times[10]));

  std::vector<float> host(n);
  CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(host.data(), sizeof(float), host.size(), f) != host.size())
      return 1;
    std::fclose(f);
  }

  CHECK(cudaFree(in));
  CHECK(cudaFree(w));
  CHECK(cudaFree(out));
  CHECK(cudaFree(idx));
  return 0;
}
