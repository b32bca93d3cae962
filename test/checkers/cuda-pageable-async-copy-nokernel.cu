// RUN: %check_cuda_lint %s cuda-pageable-async-copy %t

// A translation unit that launches no kernel (a copy benchmark): there is
// nothing for its copies to overlap with on one stream. Copies in two
// streams can still overlap each other.

#include <cstdlib>

void log(int);

int main(int argc, char **argv) {
  int reps = atoi(argv[1]);
  for (int i = 0; i < 16; ++i) {
    size_t bytes = (size_t)1 << (i + 10);
    int *h = (int *)malloc(bytes);
    int *d;
    cudaMalloc(&d, bytes);
    for (int r = 0; r < reps; ++r) {
      cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, 0);
      log(r);
    }
    cudaDeviceSynchronize();
    for (int r = 0; r < reps; ++r) {
      cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, 0);
      log(r);
    }
    cudaDeviceSynchronize();
    cudaFree(d);
    free(h);
  }
  return 0;
}

void twoStreams(int *d, int *d2, size_t bytes, cudaStream_t a, cudaStream_t b) {
  int *h = (int *)malloc(bytes);
  cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, a);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous if it is larger than 64 KB: the host waits while the driver copies the data into a pinned staging buffer, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
  cudaMemcpyAsync(d2, d, bytes, cudaMemcpyDeviceToDevice, b);
  free(h);
}
