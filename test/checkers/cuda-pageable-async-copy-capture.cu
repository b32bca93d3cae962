// RUN: %check_cuda_lint %s cuda-pageable-async-copy %t

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess)                                                      \
      printf("%s\n", cudaGetErrorString(e));                                   \
  } while (0)

void report(int);
void consume(const float *, int);
void otherWork();

__global__ void produce(float *d, int n);
__global__ void countHits(const float *d, int n, int *hits);

// A copy between cudaStreamBeginCapture and cudaStreamEndCapture is
// recorded into a graph, not run: whatever follows it (an error-check
// wrapper here) is no host work it could overlap with.
void buildGraph(float *d, int n, cudaStream_t s, cudaStream_t s2,
                cudaGraph_t *graph) {
  float *h = (float *)malloc(n * sizeof(float));
  for (int it = 0; it < 4; ++it) {
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    produce<<<n / 256, 256, 0, s>>>(d, n);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    CHECK(cudaGetLastError());
    otherWork();
    CHECK(cudaStreamEndCapture(s, graph));
    produce<<<n / 256, 256, 0, s2>>>(d, n);
  }
  // After the capture ended, the same copy runs.
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
  // CHECK-NOTES: :[[@LINE-13]]:23: note: the memory from 'malloc' is pageable: allocate it with 'cudaMallocHost' or 'cudaHostAlloc', or pin it with 'cudaHostRegister'
  otherWork();
}

// A 4-byte result that the host needs on the next line: the host would
// wait there with pinned memory too.
void smallResult(const float *d, int n, cudaStream_t s, cudaStream_t s2) {
  int *hits = (int *)malloc(sizeof(int));
  int *dHits;
  cudaMalloc(&dHits, sizeof(int));
  for (int it = 0; it < 8; ++it) {
    countHits<<<n / 256, 256, 0, s>>>(d, n, dHits);
    produce<<<n / 256, 256, 0, s2>>>((float *)d, n);
    cudaMemcpyAsync(hits, dHits, sizeof(int), cudaMemcpyDeviceToHost, s);
    report(*hits);
    otherWork();
  }
  // A small result read after other host work: the host waits for the
  // copy (and the kernel before it) where it could have worked.
  for (int it = 0; it < 8; ++it) {
    countHits<<<n / 256, 256, 0, s>>>(d, n, dHits);
    cudaMemcpyAsync(hits, dHits, sizeof(int), cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-16]]:22: note: the memory from 'malloc' is pageable
    otherWork();
    cudaStreamSynchronize(s);
    report(*hits);
  }
}

// A stack result read on the next line, in a loop on one stream.
void stackResult(const float *d, int n, int *dHits, cudaStream_t s) {
  int hits = 0;
  for (int it = 0; it < 8; ++it) {
    countHits<<<n / 256, 256, 0, s>>>(d, n, dHits);
    cudaMemcpyAsync(&hits, dHits, sizeof(hits), cudaMemcpyDeviceToHost, s);
    if (hits > 0)
      otherWork();
  }
}

// A large result read at once stays reported where other streams run: the
// transfer itself cannot overlap with their kernels.
void largeResult(float *d, int n, cudaStream_t s, cudaStream_t s2) {
  float *h = (float *)malloc(1 << 24);
  for (int it = 0; it < 8; ++it) {
    produce<<<n / 256, 256, 0, s2>>>(d, n);
    cudaMemcpyAsync(h, d, 1 << 24, cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-5]]:23: note: the memory from 'malloc' is pageable
    consume(h, n);
  }
}
