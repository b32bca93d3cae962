// Scans of 16 elements: the first half of each warp runs a Hillis-Steele
// inclusive scan of its 16 elements through shared memory, relying on warp
// lock-step between the steps (Kepler tuning guide 1.4.9), a data race
// since Volta. Only lanes 0..15 take part, so the fix is neither a
// full-warp shuffle nor a full-mask __syncwarp(): cuda-warp-synchronous
// splits each step with __syncwarp(0xffff), naming the lanes that arrive.
// The result is checked against the CPU (exact).
#include <algorithm>
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

__global__ void halfScan(const int *in, int *out, unsigned n) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  unsigned i = blockIdx.x * 256 + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  if (lane < 16) {
    auto peer1 = lane >= 1 ? s[tid - 1] : s[tid];
    __syncwarp(0xffff);
    if (lane >= 1) s[tid] += peer1;
    __syncwarp(0xffff);
    auto peer2 = lane >= 2 ? s[tid - 2] : s[tid];
    __syncwarp(0xffff);
    if (lane >= 2) s[tid] += peer2;
    __syncwarp(0xffff);
    auto peer3 = lane >= 4 ? s[tid - 4] : s[tid];
    __syncwarp(0xffff);
    if (lane >= 4) s[tid] += peer3;
    __syncwarp(0xffff);
    auto peer4 = lane >= 8 ? s[tid - 8] : s[tid];
    __syncwarp(0xffff);
    if (lane >= 8) s[tid] += peer4;
    __syncwarp(0xffff);
  }
  __syncthreads();
  if (i < n)
    out[i] = s[tid];
}

int main(int argc, char **argv) {
  const unsigned n = std::getenv("CUDA_LINT_SMALL") ? 1u << 14 : 1u << 24;
  const int reps =
      std::getenv("CUDA_LINT_REPS") ? std::atoi(std::getenv("CUDA_LINT_REPS")) : 20;
  std::vector<int> h(n);
  unsigned state = 3u;
  for (unsigned k = 0; k < n; ++k) {
    state = state * 1664525u + 1013904223u;
    h[k] = int(state >> 20) - 2048;
  }
  int *d_in = nullptr, *d_out = nullptr;
  CK(cudaMalloc(&d_in, sizeof(int) * n));
  CK(cudaMalloc(&d_out, sizeof(int) * n));
  CK(cudaMemcpy(d_in, h.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
  unsigned blocks = (n + 255) / 256;
  halfScan<<<blocks, 256>>>(d_in, d_out, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int rep = 0; rep < reps; ++rep) {
    CK(cudaEventRecord(start));
    halfScan<<<blocks, 256>>>(d_in, d_out, n);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("TIME_MS %f\n", times[times.size() / 2]);
  std::vector<int> out(n);
  CK(cudaMemcpy(out.data(), d_out, sizeof(int) * n, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (unsigned w = 0; w < n; w += 32) {
    int acc = 0;
    for (unsigned l = 0; l < 32 && w + l < n; ++l) {
      int want = h[w + l];
      if (l < 16) {
        acc += h[w + l];
        want = acc;
      }
      bad += out[w + l] != want;
    }
  }
  std::printf("elements differing from the CPU: %zu of %u\n", bad, n);
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(out.data(), sizeof(int), out.size(), f) != out.size())
      return 1;
    std::fclose(f);
  }
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
  return bad != 0;
}
