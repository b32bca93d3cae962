// RUN: %check_cuda_lint %s cuda-pageable-async-copy %t

// What a pageable copy loses on one stream: overlap with the host work that
// follows it before the host waits for the device anyway. No finding where
// the copy is followed at once by a wait; a hedged message for a copy to the
// device of unknown size.

#include <cstdlib>

__global__ void reduce(const float *in, double *out, int n);
__global__ void step(float *d, int n);
void prepare(float *h, int n, int batch);
void report(double v);

// A scalar result read back and waited for at once: nothing can overlap.
void scalarResult(const float *dIn, double *dOut, int n, int iters) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int it = 0; it < iters; ++it) {
    reduce<<<1, 256, 0, s>>>(dIn, dOut, n);
    double result = 0.0;
    cudaMemcpyAsync(&result, dOut, sizeof(double), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    report(result);
  }
  cudaStreamDestroy(s);
}

// An upload waited for at once by a device synchronization.
void resetEachRep(float *d, int n, int reps) {
  float *backup = (float *)malloc(n * sizeof(float));
  for (int rep = 0; rep < reps; ++rep) {
    cudaMemcpyAsync(d, backup, n * sizeof(float), cudaMemcpyHostToDevice, 0);
    cudaDeviceSynchronize();
    step<<<(n + 255) / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
  }
  free(backup);
}

// Copy-in, kernel, copy-out on the default stream, no host work between.
void chunks(float *d, int n, int count) {
  float *in = (float *)malloc(n * count * sizeof(float));
  float *out = (float *)malloc(n * count * sizeof(float));
  for (int c = 0; c < count; ++c) {
    cudaMemcpyAsync(d, in + c * n, n * sizeof(float), cudaMemcpyHostToDevice,
                    0);
    step<<<(n + 255) / 256, 256>>>(d, n);
    cudaMemcpyAsync(out + c * n, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                    0);
  }
  cudaDeviceSynchronize();
  free(in);
  free(out);
}

// The copy back ends the iteration and the next one prepares a batch on the
// host: with pinned memory that preparation would run while the kernel does.
void batches(float *d, int n, int count) {
  float *in = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(n * sizeof(float));
  for (int b = 0; b < count; ++b) {
    prepare(in, n, b);
    cudaMemcpyAsync(d, in, n * sizeof(float), cudaMemcpyHostToDevice, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous if it is larger than 64 KB: the host waits while the driver copies the data into a pinned staging buffer, so the host work that follows cannot overlap with it (and, on one stream, overlap with kernels needs a second stream as well) [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-6]]:24: note: the memory from 'malloc' is pageable
    step<<<(n + 255) / 256, 256>>>(d, n);
    cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, so the host work that follows cannot overlap with it (and, on one stream, overlap with kernels needs a second stream as well) [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-9]]:25: note: the memory from 'malloc' is pageable
  }
  cudaDeviceSynchronize();
  free(in);
  free(out);
}

// A copy to the device of a size known only at run time, followed by host
// work: reported, with what holds above 64 KB.
struct Params {
  int queue = 320;
};
void queue(float *d, const Params &p, int reps) {
  float *h = (float *)malloc(p.queue * sizeof(float));
  for (int r = 0; r < reps; ++r) {
    cudaMemcpyAsync(d, h, p.queue * sizeof(float), cudaMemcpyHostToDevice, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous if it is larger than 64 KB: the host waits while the driver copies the data into a pinned staging buffer, so the host work that follows cannot overlap with it (and, on one stream, overlap with kernels needs a second stream as well) [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-4]]:23: note: the memory from 'malloc' is pageable
    step<<<(p.queue + 255) / 256, 256>>>(d, p.queue);
    prepare(h, p.queue, r);
    cudaDeviceSynchronize();
  }
  free(h);
}

// Two streams taken in turn through a local variable: the copies of one chunk
// could overlap the kernel of the other, with no host work between.
void alternate(float *d, int n, int count, cudaStream_t *streams) {
  float *h = (float *)malloc(n * count * sizeof(float));
  for (int c = 0; c < count; ++c) {
    cudaStream_t s = streams[c % 2];
    cudaMemcpyAsync(d + c * n, h + c * n, n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous if it is larger than 64 KB: the host waits while the driver copies the data into a pinned staging buffer, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-6]]:23: note: the memory from 'malloc' is pageable
    step<<<(n + 255) / 256, 256, 0, s>>>(d + c * n, n);
  }
  cudaDeviceSynchronize();
  free(h);
}
