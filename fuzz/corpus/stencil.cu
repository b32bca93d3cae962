// A 2-D stencil and an index-decoding kernel: read-only inputs without
// `const __restrict__` (Kepler tuning guide 1.4.4.3), and division and modulo
// by a run-time power of two (OpenCL best-practices guide 5.1.1).
#include <cuda_runtime.h>

__global__ void jacobi(float *out, float *in, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  out[j * nx + i] = 0.25f * (in[j * nx + i - 1] + in[j * nx + i + 1] +
                             in[(j - 1) * nx + i] + in[(j + 1) * nx + i]);
}

__global__ void decode(int *cells, const int *keys, int n, int rowLen) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = tid; k < n; k += gridDim.x * blockDim.x) {
    int row = keys[k] / rowLen;
    int col = keys[k] % rowLen;
    cells[k] = row * 1000 + col + threadIdx.x / 32 + threadIdx.x % 32;
  }
}

int main() {
  const int nx = 1024, ny = 1024;
  float *a, *b;
  cudaMalloc(&a, nx * ny * sizeof(float));
  cudaMalloc(&b, nx * ny * sizeof(float));
  dim3 block(32, 8), grid(nx / 32, ny / 8);
  jacobi<<<grid, block>>>(b, a, nx, ny);
  cudaDeviceSynchronize();
  return 0;
}
