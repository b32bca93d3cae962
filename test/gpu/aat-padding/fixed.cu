// C = A * A^T for an M x 32 matrix A (OpenCL best-practices guide 3.2.2.3,
// "coalescedMultiply" with a transposed shared tile): the transposed tile is
// written column-wise, a 32-way bank conflict on every store.
// cuda-shared-bank-conflict pads it to [TILE_DIM][TILE_DIM + 1].
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define TILE_DIM 32

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t err_ = (x);                                                    \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void aatMultiply(const float *a, float *c, int m) {
  __shared__ float aTile[TILE_DIM][TILE_DIM],
      transposedTile[TILE_DIM][TILE_DIM + 1];
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  aTile[threadIdx.y][threadIdx.x] = a[row * TILE_DIM + threadIdx.x];
  transposedTile[threadIdx.x][threadIdx.y] =
      a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE_DIM + threadIdx.x];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i++)
    sum += aTile[threadIdx.y][i] * transposedTile[i][threadIdx.x];
  c[row * m + col] = sum;
}

int main(int argc, char **argv) {
  const int m = 4096;
  const size_t countA = size_t(m) * TILE_DIM, countC = size_t(m) * m;
  int reps = getenv("CUDA_LINT_REPS") ? atoi(getenv("CUDA_LINT_REPS")) : 20;
  std::vector<float> ha(countA);
  unsigned s = 777u;
  for (size_t i = 0; i < countA; ++i) {
    s = s * 1664525u + 1013904223u;
    ha[i] = (s >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
  float *a, *c;
  CHECK(cudaMalloc(&a, countA * sizeof(float)));
  CHECK(cudaMalloc(&c, countC * sizeof(float)));
  CHECK(cudaMemcpy(a, ha.data(), countA * sizeof(float),
                   cudaMemcpyHostToDevice));
  dim3 grid(m / TILE_DIM, m / TILE_DIM), block(TILE_DIM, TILE_DIM);
  aatMultiply<<<grid, block>>>(a, c, m);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(e0));
    aatMultiply<<<grid, block>>>(a, c, m);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("TIME_MS %.5f\n", times[times.size() / 2]);
  std::vector<float> hc(countC);
  CHECK(cudaMemcpy(hc.data(), c, countC * sizeof(float),
                   cudaMemcpyDeviceToHost));
  if (argc > 1) {
    FILE *f = std::fopen(argv[1], "wb");
    if (!f)
      return 1;
    std::fwrite(hc.data(), sizeof(float), countC, f);
    std::fclose(f);
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(c));
  return 0;
}
