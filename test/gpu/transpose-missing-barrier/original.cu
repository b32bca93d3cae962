// The tiled transpose of the CUDA samples (32x32 tiles, 32x8 threads, each
// thread moving four elements) with its __syncthreads() between the tile's
// writes and its transposed reads missing: thread (x, y) reads
// tile[x][y + j], which thread (y + j, x) of another warp writes, with
// nothing ordering them. cuda-warp-synchronous reports it and inserts the
// barrier before the reading loop. The transposed matrix is checked against
// the CPU (exact).
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

#define TILE 32
#define ROWS 8

__global__ void transpose(float *odata, const float *idata, int width,
                          int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv) {
  // CUDA_LINT_SMALL: the smaller problem the validator runs under
  // compute-sanitizer.
  const int n = std::getenv("CUDA_LINT_SMALL") ? 256 : 4096;
  const int reps =
      std::getenv("CUDA_LINT_REPS") ? std::atoi(std::getenv("CUDA_LINT_REPS")) : 20;
  std::vector<float> h(size_t(n) * n);
  for (size_t k = 0; k < h.size(); ++k)
    h[k] = float(k % 9973) * 0.5f;
  float *d_in = nullptr, *d_out = nullptr;
  CK(cudaMalloc(&d_in, sizeof(float) * h.size()));
  CK(cudaMalloc(&d_out, sizeof(float) * h.size()));
  CK(cudaMemcpy(d_in, h.data(), sizeof(float) * h.size(), cudaMemcpyHostToDevice));
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  transpose<<<grid, block>>>(d_out, d_in, n, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int rep = 0; rep < reps; ++rep) {
    CK(cudaEventRecord(start));
    transpose<<<grid, block>>>(d_out, d_in, n, n);
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("TIME_MS %f\n", times[times.size() / 2]);
  std::vector<float> out(h.size());
  CK(cudaMemcpy(out.data(), d_out, sizeof(float) * out.size(), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      bad += out[size_t(c) * n + r] != h[size_t(r) * n + c];
  std::printf("elements differing from the CPU: %zu of %zu\n", bad, out.size());
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
