// Stream compaction written for CUDA 5 (Kepler), in the style of old
// benchmark suites: a warp-aggregated atomic with __ballot/__popc, a
// __shfl_up inclusive scan, a block-level barrier after an early return,
// a 2-D launch of 10x10 threads and cudaThreadSynchronize. CUDA 13 does not
// compile it; cuda-lint parses it with its legacy compatibility layer.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int warpInclusiveScan(int v) {
  int lane = threadIdx.x & 31;
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up(v, d);
    if (lane >= d)
      v += up;
  }
  return v;
}

__global__ void compact(const float *in, float *out, int *outCount,
                        int *blockCounts, int n) {
  __shared__ int blockKept;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x == 0)
    blockKept = 0;
  __syncthreads();
  bool keep = in[i] > 0.0f;
  unsigned votes = __ballot(keep);
  int lane = threadIdx.x & 31;
  int rank = warpInclusiveScan(keep ? 1 : 0) - (keep ? 1 : 0);
  int warpBase = 0;
  if (lane == 0) {
    warpBase = atomicAdd(outCount, __popc(votes));
    atomicAdd(&blockKept, __popc(votes));
  }
  warpBase = __shfl(warpBase, 0);
  if (keep)
    out[warpBase + rank] = in[i];
  __syncthreads();
  if (threadIdx.x == 0)
    blockCounts[blockIdx.x] = blockKept;
}

__global__ void scale2d(float *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    img[y * width + x] *= 2.0f;
}

int main() {
  const int n = 1 << 20, width = 1000, height = 1000;
  float *in, *out, *img;
  int *count, *blockCounts;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&blockCounts, (n + 255) / 256 * sizeof(int));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&img, width * height * sizeof(float));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  compact<<<(n + 255) / 256, 256>>>(in, out, count, blockCounts, n);
  dim3 threads(10, 10);
  dim3 grid((width + 9) / 10, (height + 9) / 10);
  scale2d<<<grid, threads>>>(img, width, height);
  cudaThreadSynchronize();
  int host = 0;
  cudaMemcpy(&host, count, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("%d kept\n", host);
  cudaFree(in);
  cudaFree(out);
  cudaFree(img);
  cudaFree(count);
  cudaFree(blockCounts);
  return 0;
}
