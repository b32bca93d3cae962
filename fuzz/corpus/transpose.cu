// Matrix transposes from the OpenCL best-practices guide (3.2.1, 3.2.2.3):
// the naive one writes with a stride of the matrix width (uncoalesced), the
// tiled one reads its shared tile column-wise (32-way bank conflicts).
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *odata, const float *idata, int width,
                               int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeTiled(float *odata, float *idata, int width,
                               int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// C = A * A^T for a TILE_DIM-wide A (guide 3.2.2.3).
__global__ void aaT(float *c, float *a, int m) {
  __shared__ float aTile[TILE_DIM][TILE_DIM], transposedTile[TILE_DIM][TILE_DIM];
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

int main() {
  const int n = 1024;
  float *a, *b;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  dim3 grid(n / TILE_DIM, n / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  transposeNaive<<<grid, block>>>(b, a, n, n);
  transposeTiled<<<grid, block>>>(b, a, n, n);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}
