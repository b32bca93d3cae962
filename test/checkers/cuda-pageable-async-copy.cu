// RUN: %check_cuda_lint %s cuda-pageable-async-copy %t

#include <cstdlib>
#include <vector>

__constant__ float cTable[64];
__constant__ float cBig[16400];
__device__ float dBuffer[256];
float gHost[256];

void use(float *);
float *obtain();

__global__ void kernel(float *d);

// Positives: malloc, new[], std::vector, stack and global arrays, offsets
// and local copies, the 2D, 3D and symbol forms, in a function that uses two
// streams (the kernel on s2 could overlap with the copies on s).
void positives(float *d, size_t n, cudaStream_t s, cudaStream_t s2) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous if it is larger than 64 KB: the host waits while the driver copies the data into a pinned staging buffer, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: the memory from 'malloc' is pageable: allocate it with 'cudaMallocHost' or 'cudaHostAlloc', or pin it with 'cudaHostRegister'
  float *half = h + n / 2;
  float *alias = half;
  cudaMemcpyAsync(alias, d, n / 2 * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous: the host waits until the copy has completed, and the transfer cannot overlap with kernels in other streams [cuda-pageable-async-copy]
  // CHECK-NOTES: :[[@LINE-8]]:23: note: the memory from 'malloc' is pageable

  float *arr = new float[n];
  cudaMemcpyAsync(&arr[4], d, 4 * sizeof(float), cudaMemcpyDefault, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' to pageable host memory
  // CHECK-NOTES: :[[@LINE-3]]:16: note: the memory from 'new[]' is pageable

  std::vector<float> v(n);
  cudaMemcpyAsync(d, v.data(), n * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory
  // CHECK-NOTES: :[[@LINE-3]]:22: note: the storage of the std::vector 'v' is pageable
  cudaMemcpy2DAsync(&v[0], 16, d, 16, 16, 4, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy2DAsync' to pageable host memory
  // CHECK-NOTES: :[[@LINE-6]]:22: note: the storage of the std::vector 'v' is pageable

  float local[16400]; // More than 64 KB.
  cudaMemcpyToSymbolAsync(cBig, local, sizeof(local), 0,
                          cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyToSymbolAsync' from pageable host memory
  // CHECK-NOTES: :[[@LINE-4]]:9: note: the stack array 'local' is pageable
  cudaMemcpyFromSymbolAsync(gHost, dBuffer, sizeof(gHost), 0,
                            cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyFromSymbolAsync' to pageable host memory
  // CHECK-NOTES: :9:7: note: the global array 'gHost' is pageable

  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(h, 64 * sizeof(float), 64, 512);
  p.dstPtr = make_cudaPitchedPtr(d, 64 * sizeof(float), 64, 512);
  p.extent = make_cudaExtent(64 * sizeof(float), 512, 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&p, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy3DAsync' from pageable host memory
  // CHECK-NOTES: :20:23: note: the memory from 'malloc' is pageable
  kernel<<<1, 32, 0, s2>>>(d);
  free(h);
  delete[] arr;
}

// Negatives: pinned, managed and device memory, registered ranges, copies
// between device buffers, pointers of unknown origin, a pointer that may
// hold pinned memory, synchronous copies.
void negatives(float *d, float *param, size_t n, cudaStream_t s) {
  float *pinned;
  cudaMallocHost(&pinned, n * sizeof(float));
  cudaMemcpyAsync(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  float *alloc;
  cudaHostAlloc((void **)&alloc, n * sizeof(float), cudaHostAllocDefault);
  cudaMemcpyAsync(alloc + 1, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  float *managed;
  cudaMallocManaged(&managed, n * sizeof(float));
  cudaMemcpyAsync(d, managed, n * sizeof(float), cudaMemcpyDefault, s);
  float *dev;
  cudaMalloc(&dev, n * sizeof(float));
  cudaMemcpyAsync(d, dev, n * sizeof(float), cudaMemcpyDefault, s);

  float *registered = (float *)malloc(n * sizeof(float));
  cudaHostRegister(registered, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(d, registered + 8, 8 * sizeof(float), cudaMemcpyHostToDevice,
                  s);
  std::vector<float> pinnedVector(n);
  cudaHostRegister(pinnedVector.data(), n * sizeof(float), 0);
  cudaMemcpyAsync(d, pinnedVector.data(), n * sizeof(float),
                  cudaMemcpyHostToDevice, s);

  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
  cudaMemcpyAsync(d, param, n * sizeof(float), cudaMemcpyHostToDevice, s);
  float *fromCall = obtain();
  cudaMemcpyAsync(d, fromCall, n * sizeof(float), cudaMemcpyHostToDevice, s);
  float *either = (float *)malloc(n * sizeof(float));
  if (n > 1024)
    cudaMallocHost(&either, n * sizeof(float));
  cudaMemcpyAsync(d, either, n * sizeof(float), cudaMemcpyHostToDevice, s);
  float *escapes = (float *)malloc(n * sizeof(float));
  use(escapes);
  float *&ref = escapes;
  cudaMemcpyAsync(d, escapes, n * sizeof(float), cudaMemcpyHostToDevice, s);
  // The kind says which side is the host: the device side of a pageable
  // pointer is not looked at.
  cudaMemcpyAsync(h, pinned, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  (void)ref;
}

// Templates: one report per copy.
template <typename T> void copyT(T *d, size_t n, cudaStream_t s) {
  T *h = new T[n];
  for (int rep = 0; rep < 10; ++rep) {
    cudaMemcpyAsync(d, h, n * sizeof(T), cudaMemcpyHostToDevice, s);
    // No finding (no host work can overlap): the stream is synchronized right after the copy.
    // (reported before: only the loop made it a finding)
    cudaStreamSynchronize(s);
  }
  delete[] h;
}
void instantiate(float *f, int *i, cudaStream_t s) {
  copyT(f, 4, s);
  copyT(i, 4, s);
}

// The size of the copy. A host-to-device copy of 64 KB or less from pageable
// memory returns once the driver has staged it (the Programming Guide lists
// it among the operations asynchronous with respect to the host): not
// reported when its size folds to a constant (sizeof, constants, macros,
// locals never changed). Copies to pageable memory wait for completion at
// any size; a size known only at run time is reported.
#define DIVISIONS 1024
__global__ void add(int *d, const int *flag, int n);
void sizes(int *d, int *dFlag, size_t n, cudaStream_t s) {
  const int count = 1024;
  int *h = (int *)malloc(count * sizeof(int));
  int flag = 1;
  unsigned *offsets = (unsigned *)malloc(DIVISIONS * sizeof(unsigned));
  int rows = 4096; // Never changed: 16 KB.
  float *row = (float *)malloc(rows * sizeof(float));
  int *big = (int *)malloc((16384 + 1) * sizeof(int));
  std::vector<char> bytes(1 << 20);
  for (int it = 0; it < 100; ++it) {
    cudaMemcpyAsync(d, h, count * sizeof(int), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(dFlag, &flag, sizeof(int), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, offsets, sizeof(unsigned) * DIVISIONS,
                    cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, row, rows * sizeof(float), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, bytes.data(), 65536, cudaMemcpyHostToDevice, s);
    cudaMemcpy2DAsync(d, 256, bytes.data(), 1024, 256, 64,
                      cudaMemcpyHostToDevice, s);
    cudaMemcpyToSymbolAsync(cTable, h, 64 * sizeof(float), 0,
                            cudaMemcpyHostToDevice, s);
    add<<<4, 256, 0, s>>>(d, dFlag, count);

    cudaMemcpyAsync(d, bytes.data(), 65537, cudaMemcpyHostToDevice, s);
    // No finding (no host work can overlap): the host waits for the copy to pageable memory below anyway.
    // (reported before: only the loop made it a finding)
    cudaMemcpyAsync(d, big, (16384 + 1) * sizeof(int), cudaMemcpyHostToDevice,
                    s);
    // No finding (no host work can overlap): the host waits for the copy to pageable memory below anyway.
    // (reported before: only the loop made it a finding)
    cudaMemcpy2DAsync(d, 1024, bytes.data(), 1024, 1024, 65,
                      cudaMemcpyHostToDevice, s);
    // No finding (no host work can overlap): the host waits for the copy to pageable memory below anyway.
    // (reported before: only the loop made it a finding)
    cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s);
    // No finding (no host work can overlap): the host waits for the copy to pageable memory below anyway.
    // (reported before: only the loop made it a finding)
    cudaMemcpyAsync(&flag, dFlag, sizeof(int), cudaMemcpyDeviceToHost, s);
    // No finding (no host work can overlap): the loop only copies and launches.
    // (reported before: only the loop made it a finding)
  }
  free(h);
  free(offsets);
  free(row);
  free(big);
}

// Overlap. Reported where the program plausibly wants it: a copy in a loop,
// or a function that uses more than one stream. A one-time upload or
// download on the only stream has nothing to overlap with: not reported.
__global__ void scale(float *d, int n);
void oneTimeDefaultStream(float *d, int n) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, 0);
  cudaDeviceSynchronize();
  for (int rep = 0; rep < 100; ++rep)
    scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  free(h);
}
void oneTimeOneStream(float *d, int n) {
  std::vector<float> h(n);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaMemcpyAsync(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
}

// Two streams created here: the copy is issued while the kernel of the
// other stream may run.
void twoStreams(float *d, float *d2, int n) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaStream_t s[2];
  cudaStreamCreate(&s[0]);
  cudaStreamCreate(&s[1]);
  scale<<<(n + 255) / 256, 256, 0, s[1]>>>(d2, n);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous
  // CHECK-NOTES: :[[@LINE-7]]:23: note: the memory from 'malloc' is pageable
  cudaDeviceSynchronize();
  free(h);
}
// The same copy before the first launch: nothing runs beside it (the
// streams are this function's own, so no caller's work either).
void twoStreamsSetUp(float *d, float *d2, int n) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaStream_t s[2];
  cudaStreamCreate(&s[0]);
  cudaStreamCreate(&s[1]);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s[0]);
  scale<<<(n + 255) / 256, 256, 0, s[1]>>>(d2, n);
  cudaDeviceSynchronize();
  free(h);
}
// A stream of unknown origin and the legacy default stream: the stream may
// be blocking, so nothing overlaps. Created non-blocking, it can.
void copyStreamAndDefault(float *d, int n, cudaStream_t copy) {
  float *h = new float[n];
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, copy);
  scale<<<(n + 255) / 256, 256>>>(d + n, n);
  delete[] h;
}
void nonBlockingAndDefault(float *d, int n) {
  float *h = new float[n];
  cudaStream_t copy;
  cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, copy);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous
  // CHECK-NOTES: :[[@LINE-5]]:14: note: the memory from 'new[]' is pageable
  scale<<<(n + 255) / 256, 256>>>(d + n, n);
  delete[] h;
}
// A loop that uploads the parts of a structure one after another, with no
// kernel or synchronization in it, is a one-time upload; a download in a
// loop makes the host wait on every iteration.
struct Part {
  std::vector<int> idx;
};
void uploadParts(int *d, const std::vector<Part> &parts, size_t *offsets) {
  for (size_t m = 0; m < parts.size(); ++m) {
    std::vector<int> local(parts[m].idx);
    cudaMemcpyAsync(d + offsets[m], local.data(), local.size() * sizeof(int),
                    cudaMemcpyHostToDevice, 0);
  }
  int last[20000];
  for (int rep = 0; rep < 10; ++rep) {
    cudaMemcpyAsync(last, d, sizeof(last), cudaMemcpyDeviceToHost, 0);
    // No finding (no host work can overlap): nothing else runs in the loop.
    // (reported before: only the loop made it a finding)
  }
}
void loopDefaultStream(float *d, int n, int steps) {
  float *h = (float *)malloc(n * sizeof(float));
  for (int step = 0; step < steps; ++step) {
    scale<<<(n + 255) / 256, 256>>>(d, n);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, 0);
    // No finding (no host work can overlap): the loop only launches and copies.
    // (reported before: only the loop made it a finding)
  }
  free(h);
}
// The kernel of the loop is launched through a wrapper that only launches
// (no host work to overlap with, crs), or the loop waits in a synchronous
// copy.
__global__ void bump(int *d);
void launchBump(int *d) { bump<<<1, 32>>>(d); }
void loopWithWrapper(int *d, size_t n, int reps) {
  int *h = (int *)malloc(n * sizeof(int));
  int *out = (int *)malloc(n * sizeof(int));
  for (int rep = 0; rep < reps; ++rep) {
    cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, 0);
    // No finding: the wrapper only launches, on the copy's own stream.
    launchBump(d);
  }
  for (int rep = 0; rep < reps; ++rep) {
    cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, 0);
    // No finding (no host work can overlap): the synchronous copy waits right after.
    // (reported before: only the loop made it a finding)
    cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  }
  free(h);
  free(out);
}
// Streams named inside a macro's arguments are told apart by their spelling,
// not by the macro call around them: one stream here.
#define CHECK(call) (void)(call)
void oneStreamThroughMacro(float *d, int n, cudaStream_t s) {
  std::vector<float> a(n), b(n);
  CHECK(cudaMemcpyAsync(d, a.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(d + n, b.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, 2 * n);
  CHECK(cudaStreamSynchronize(s));
}
