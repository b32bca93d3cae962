// Strided copies: out[i] = in[i * STRIDE] for strides 1, 2, 4, 8 and 32.
// cuda-uncoalesced-access reports the strided reads (a warp's 32 loads span
// STRIDE times as many 32-byte sectors); it has no fix. This case measures
// the cost it reports: each kernel is timed and its effective bandwidth
// (bytes the program asked for / time) printed. Report only.
#include <algorithm>
#include <cstdint>
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

__global__ void copyStride1(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

__global__ void copyStride2(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 2];
}

__global__ void copyStride4(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 4];
}

__global__ void copyStride8(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 8];
}

__global__ void copyStride32(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * 32];
}

typedef void (*CopyKernel)(const float *, float *, unsigned);

int main(int argc, char **argv) {
  // CUDA_LINT_SMALL: the smaller problem the validator runs under
  // compute-sanitizer.
  const unsigned n = std::getenv("CUDA_LINT_SMALL") ? 1u << 14 : 1u << 24;
  const int reps = std::getenv("CUDA_LINT_REPS") ? std::atoi(std::getenv("CUDA_LINT_REPS")) : 20;
  const unsigned strides[] = {1, 2, 4, 8, 32};
  const CopyKernel kernels[] = {copyStride1, copyStride2, copyStride4, copyStride8,
                                copyStride32};
  const size_t inElems = (size_t)n * 32;
  std::vector<float> h(inElems);
  for (size_t k = 0; k < inElems; ++k)
    h[k] = (float)(k % 1000003) * 0.5f;
  float *d_in = nullptr, *d_out = nullptr;
  CK(cudaMalloc(&d_in, sizeof(float) * inElems));
  CK(cudaMalloc(&d_out, sizeof(float) * n * 5));
  CK(cudaMemcpy(d_in, h.data(), sizeof(float) * inElems, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  const unsigned block = 256, grid = (n + block - 1) / block;
  double total = 0;
  for (int k = 0; k < 5; ++k) {
    kernels[k]<<<grid, block>>>(d_in, d_out + (size_t)k * n, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> times;
    for (int rep = 0; rep < reps; ++rep) {
      CK(cudaEventRecord(start));
      kernels[k]<<<grid, block>>>(d_in, d_out + (size_t)k * n, n);
      CK(cudaEventRecord(stop));
      CK(cudaEventSynchronize(stop));
      CK(cudaGetLastError());
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, start, stop));
      times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    float ms = times[times.size() / 2];
    total += ms;
    // Bytes asked for: n floats read and n written.
    std::printf("stride %2u: %.4f ms, effective bandwidth %.1f GB/s\n", strides[k], ms,
                2.0 * n * sizeof(float) / (ms * 1e6));
  }
  std::vector<float> out((size_t)n * 5);
  CK(cudaMemcpy(out.data(), d_out, sizeof(float) * n * 5, cudaMemcpyDeviceToHost));
  // Against the CPU: every copy must be exact.
  size_t bad = 0;
  for (int k = 0; k < 5; ++k)
    for (unsigned i = 0; i < n; ++i)
      bad += out[(size_t)k * n + i] != h[(size_t)i * strides[k]];
  std::printf("mismatches against the CPU: %zu\n", bad);
  std::printf("TIME_MS %f\n", total);
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(out.data(), sizeof(float), out.size(), f) != out.size())
      return 1;
    std::fclose(f);
  }
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
  return bad != 0;
}
