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

// Audit of stop 25. One stream: a loop that only launches kernels, or a call
// of a function that only launches, between the copies is no host work
// (crs): nothing follows the copies that pinning would let overlap.
void launchTwice(float *d, int n) {
  step<<<(n + 255) / 256, 256>>>(d, n);
  step<<<(n + 255) / 256, 256>>>(d, n);
}
void launchLoops(float *d, int n, int count) {
  float *in = (float *)malloc(n * count * sizeof(float));
  float *out = (float *)malloc(n * count * sizeof(float));
  for (int c = 0; c < count; ++c) {
    cudaMemcpyAsync(d, in + c * n, n * sizeof(float), cudaMemcpyHostToDevice,
                    0);
    for (int pass = 0, off = 0; pass < 2; ++pass, off += n)
      step<<<(n + 255) / 256, 256>>>(d, n);
    launchTwice(d, n);
    cudaMemcpyAsync(out + c * n, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                    0);
  }
  cudaDeviceSynchronize();
  free(in);
  free(out);
}

// A loop that fills a buffer on the host is host work: reported.
void hostLoop(float *d, int n, int count) {
  float *in = (float *)malloc(n * sizeof(float));
  for (int c = 0; c < count; ++c) {
    cudaMemcpyAsync(d, in, n * sizeof(float), cudaMemcpyHostToDevice, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous if it is larger than 64 KB: the host waits while the driver copies the data into a pinned staging buffer, so the host work that follows cannot overlap with it (and, on one stream, overlap with kernels needs a second stream as well) [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-4]]:24: note: the memory from 'malloc' is pageable
    step<<<(n + 255) / 256, 256>>>(d, n);
    for (int i = 0; i < n; ++i)
      in[i] = in[i] * 0.5f + c;
  }
  cudaDeviceSynchronize();
  free(in);
}

// Two streams (logan, streamPriority), but no kernel can run beside these
// copies: set-up uploads before the first launch, and a download after a
// wait for the whole device. Only a copy issued while a kernel of the other
// stream may still run is reported.
void twoStreams(int n) {
  size_t bytes = n * sizeof(float);
  float *hA = (float *)malloc(bytes);
  float *hB = (float *)malloc(bytes);
  float *dA, *dB;
  cudaMalloc(&dA, bytes);
  cudaMalloc(&dB, bytes);
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaMemcpyAsync(dA, hA, bytes, cudaMemcpyHostToDevice, s1);
  cudaMemcpyAsync(dB, hB, bytes, cudaMemcpyHostToDevice, s2);
  cudaDeviceSynchronize();
  step<<<(n + 255) / 256, 256, 0, s1>>>(dA, n);
  cudaMemcpyAsync(hB, dB, bytes, cudaMemcpyDeviceToHost, s2);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
  // CHECK-NOTES: :[[@LINE-13]]:24: note: the memory from 'malloc' is pageable
  step<<<(n + 255) / 256, 256, 0, s2>>>(dB, n);
  cudaDeviceSynchronize();
  cudaMemcpyAsync(hA, dA, bytes, cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  free(hA);
  free(hB);
}

// Kernels launched through a table of function pointers (HeCBench's crs
// picks its coding kernel from `void (*table[])(...) = {...}`): when every
// function the table can hold only launches, the call is no host work.
typedef void (*stepFn)(float *, int);
void launchStep(float *d, int n) { step<<<(n + 255) / 256, 256>>>(d, n); }
void launchStepTwice(float *d, int n) {
  step<<<(n + 255) / 256, 256>>>(d, n);
  step<<<(n + 255) / 256, 256>>>(d, n);
}
void prepareThenStep(float *d, int n) {
  prepare(d, n, 0);
  step<<<(n + 255) / 256, 256>>>(d, n);
}
void (*stepTable[])(float *, int) = {launchStep, &launchStepTwice};

void chunksThroughTable(float *d, int n, int count, int which) {
  float *in = (float *)malloc(n * count * sizeof(float));
  float *out = (float *)malloc(n * count * sizeof(float));
  stepFn *chosen = (stepFn *)malloc(2 * sizeof(stepFn));
  chosen[0] = stepTable[which];
  chosen[1] = launchStep;
  for (int c = 0; c < count; ++c) {
    cudaMemcpyAsync(d, in + c * n, n * sizeof(float), cudaMemcpyHostToDevice,
                    0);
    for (int j = 0; j < 2; ++j)
      chosen[j](d, n);
    cudaMemcpyAsync(out + c * n, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                    0);
  }
  cudaDeviceSynchronize();
  free(chosen);
  free(in);
  free(out);
}

// One function the table can hold does host work: the next iteration's
// call could overlap with the download.
void (*mixedTable[])(float *, int) = {launchStep, prepareThenStep};

void chunksThroughMixedTable(float *d, int n, int count, int which) {
  float *in = (float *)malloc(n * count * sizeof(float));
  float *out = (float *)malloc(n * count * sizeof(float));
  for (int c = 0; c < count; ++c) {
    cudaMemcpyAsync(d, in + c * n, n * sizeof(float), cudaMemcpyHostToDevice,
                    0);
    mixedTable[which](d, n);
    cudaMemcpyAsync(out + c * n, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                    0);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, so the host work that follows cannot overlap with it (and, on one stream, overlap with kernels needs a second stream as well) [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-8]]:25: note: the memory from 'malloc' is pageable
  }
  cudaDeviceSynchronize();
  free(in);
  free(out);
}

// A function pointer from the caller: what it does is unknown.
void chunksThroughParameter(float *d, int n, int count, stepFn fn) {
  float *in = (float *)malloc(n * count * sizeof(float));
  float *out = (float *)malloc(n * count * sizeof(float));
  for (int c = 0; c < count; ++c) {
    cudaMemcpyAsync(d, in + c * n, n * sizeof(float), cudaMemcpyHostToDevice,
                    0);
    fn(d, n);
    cudaMemcpyAsync(out + c * n, d, n * sizeof(float), cudaMemcpyDeviceToHost,
                    0);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, so the host work that follows cannot overlap with it (and, on one stream, overlap with kernels needs a second stream as well) [cuda-pageable-async-copy]
    // CHECK-NOTES: :[[@LINE-8]]:25: note: the memory from 'malloc' is pageable
  }
  cudaDeviceSynchronize();
  free(in);
  free(out);
}
