// A value published through a __shared__ scalar: thread 0 stores the round's
// value, every thread reads it after a barrier, and the loop has no barrier
// at its end, so thread 0 can overwrite it for the next round while a slow
// warp still reads this one. cuda-warp-synchronous (issue 29, stop 31: shared
// scalars are tracked) reports it and inserts __syncthreads() at the end of
// the loop body. The result is checked against the CPU.
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

__global__ void rounds(const int *in, int *out, int nrounds) {
  __shared__ int s;
  unsigned tid = threadIdx.x;
  int acc = 0;
  for (int r = 0; r < nrounds; ++r) {
    if (tid == 0)
      s = in[blockIdx.x * nrounds + r];
    __syncthreads();
    acc += s * int(tid + 1);
    __syncthreads();
  }
  out[blockIdx.x * 256 + tid] = acc;
}

int main(int argc, char **argv) {
  const int blocks = std::getenv("CUDA_LINT_SMALL") ? 4 : 2048;
  const int nrounds = 16;
  std::vector<int> h(size_t(blocks) * nrounds);
  for (size_t k = 0; k < h.size(); ++k)
    h[k] = int(k % 97) + 1;
  int *d_in = nullptr, *d_out = nullptr;
  const size_t n = size_t(blocks) * 256;
  CK(cudaMalloc(&d_in, sizeof(int) * h.size()));
  CK(cudaMalloc(&d_out, sizeof(int) * n));
  CK(cudaMemcpy(d_in, h.data(), sizeof(int) * h.size(), cudaMemcpyHostToDevice));
  rounds<<<blocks, 256>>>(d_in, d_out, nrounds);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<int> out(n);
  CK(cudaMemcpy(out.data(), d_out, sizeof(int) * n, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int r = 0; r < nrounds; ++r)
      sum += h[size_t(b) * nrounds + r];
    for (int t = 0; t < 256; ++t)
      bad += out[size_t(b) * 256 + t] != sum * (t + 1);
  }
  std::printf("elements differing from the CPU: %zu of %zu\n", bad, n);
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(out.data(), sizeof(int), n, f) != n)
      return 1;
    std::fclose(f);
  }
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
  return bad != 0;
}
