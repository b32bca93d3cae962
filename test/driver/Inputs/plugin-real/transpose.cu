// A sample in the style of the CUDA samples: cooperative groups, <cmath>
// on the host with nvcc's mixed-precision max(double, float), a tiled
// transpose through shared memory.
#include <cmath>
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define TILE_DIM 16
#define BLOCK_ROWS 16

__global__ void transposeCoalesced(float *odata, const float *idata,
                                   int width, int height) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  cg::sync(block);
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j] * 0.5;
}

__global__ void warpSum(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  for (int offset = warp.size() / 2; offset > 0; offset /= 2)
    v += warp.shfl_down(v, offset);
  if (warp.thread_rank() == 0)
    out[block.group_index().x] = v;
}

double maxError(const float *a, const float *b, int n) {
  double err = 0.0;
  for (int i = 0; i < n; ++i)
    err = max(err, fabsf(a[i] - b[i]));
  return std::sqrt(err) + std::fabs(max(1.0, 2.0f));
}

int main() {
  const int n = 1024;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * n * sizeof(float));
  cudaMalloc(&d_out, n * n * sizeof(float));
  dim3 grid(n / TILE_DIM, n / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  transposeCoalesced<<<grid, threads>>>(d_out, d_in, n, n);
  warpSum<<<n, 256>>>(d_in, d_out);
  printf("%f\n", maxError(d_in, d_out, 0));
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
