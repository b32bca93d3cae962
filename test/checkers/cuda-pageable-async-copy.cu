// RUN: %check_cuda_lint %s cuda-pageable-async-copy %t

#include <cstdlib>
#include <vector>

__constant__ float cTable[64];
__device__ float dBuffer[256];
float gHost[256];

void use(float *);
float *obtain();

// Positives: malloc, new[], std::vector, stack and global arrays, offsets
// and local copies, the 2D, 3D and symbol forms.
void positives(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is not asynchronous: the driver stages it through a pinned buffer, so it cannot overlap with kernels or other copies [cuda-pageable-async-copy]
  // CHECK-NOTES: :[[@LINE-3]]:23: note: the memory from 'malloc' is pageable: allocate it with 'cudaMallocHost' or 'cudaHostAlloc', or pin it with 'cudaHostRegister'
  float *half = h + n / 2;
  float *alias = half;
  cudaMemcpyAsync(alias, d, n / 2 * sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' to pageable host memory is not asynchronous
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

  float local[64];
  cudaMemcpyToSymbolAsync(cTable, local, sizeof(local), 0,
                          cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyToSymbolAsync' from pageable host memory
  // CHECK-NOTES: :[[@LINE-4]]:9: note: the stack array 'local' is pageable
  cudaMemcpyFromSymbolAsync(gHost, dBuffer, sizeof(gHost), 0,
                            cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyFromSymbolAsync' to pageable host memory
  // CHECK-NOTES: :8:7: note: the global array 'gHost' is pageable

  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(h, 64 * sizeof(float), 64, 4);
  p.dstPtr = make_cudaPitchedPtr(d, 64 * sizeof(float), 64, 4);
  p.extent = make_cudaExtent(64 * sizeof(float), 4, 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&p, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy3DAsync' from pageable host memory
  // CHECK-NOTES: :16:23: note: the memory from 'malloc' is pageable
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
  cudaMemcpyAsync(d, h, n * sizeof(T), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory
  // CHECK-NOTES: :[[@LINE-3]]:10: note: the memory from 'new[]' is pageable
  delete[] h;
}
void instantiate(float *f, int *i, cudaStream_t s) {
  copyT(f, 4, s);
  copyT(i, 4, s);
}
