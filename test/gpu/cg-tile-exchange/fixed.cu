// A cooperative-groups tile exchange with its tile.sync() missing: lane l
// of each warp writes s[w][l] (w = tile.meta_group_rank(), l =
// tile.thread_rank()) and reads s[w][l ^ 1], which its neighbour lane
// writes, with nothing ordering them since Volta. cuda-warp-synchronous
// (issue 29: cooperative groups as thread indices) reports it and inserts
// __syncwarp() before the read. The result is checked against the CPU.
#include <cooperative_groups.h>
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

namespace cg = cooperative_groups;

__global__ void exchange(const float *in, float *out) {
  __shared__ float s[8][32];
  auto cta = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(cta);
  unsigned w = tile.meta_group_rank();
  unsigned l = tile.thread_rank();
  unsigned i = blockIdx.x * 256 + cta.thread_rank();
  s[w][l] = in[i] * 2.0f;
  __syncwarp();
  out[i] = s[w][l ^ 1];
}

int main(int argc, char **argv) {
  const int blocks = std::getenv("CUDA_LINT_SMALL") ? 4 : 4096;
  const size_t n = size_t(blocks) * 256;
  std::vector<float> h(n);
  for (size_t k = 0; k < n; ++k)
    h[k] = float(k % 9973);
  float *d_in = nullptr, *d_out = nullptr;
  CK(cudaMalloc(&d_in, sizeof(float) * n));
  CK(cudaMalloc(&d_out, sizeof(float) * n));
  CK(cudaMemcpy(d_in, h.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
  exchange<<<blocks, 256>>>(d_in, d_out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> out(n);
  CK(cudaMemcpy(out.data(), d_out, sizeof(float) * n, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t k = 0; k < n; ++k)
    bad += out[k] != h[k ^ 1] * 2.0f;
  std::printf("elements differing from the CPU: %zu of %zu\n", bad, n);
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f || std::fwrite(out.data(), sizeof(float), n, f) != n)
      return 1;
    std::fclose(f);
  }
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
  return bad != 0;
}
