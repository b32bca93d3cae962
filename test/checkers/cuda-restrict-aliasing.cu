// RUN: %check_cuda_lint %s cuda-restrict-aliasing %t

__global__ void scale(const float *__restrict__ in, float *__restrict__ out,
                      float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}

__global__ void accumulate(float *acc, const float *__restrict__ x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] += x[i];
}

__device__ void store(float *p, int i, float v) { p[i] = v; }
__global__ void viaHelper(const float *__restrict__ in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    store(out, i, in[i] + 1.0f);
}

__global__ void readBoth(const float *__restrict__ a, const float *b,
                         float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + b[i];
}

__global__ void plain(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

void launchScale(const float *in, float *out, int n) {
  scale<<<(n + 255) / 256, 256>>>(in, out, 2.0f, n);
}

void positives(float *d, float *e, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, d, 2.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'in' and 'out' of kernel 'scale', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract, which works only because each thread reads an element before it writes it at the same index; the compiler may reorder it on any change [cuda-restrict-aliasing]
  // CHECK-NOTES: :3:49: note: 'in' is '__restrict__'
  // CHECK-NOTES: :3:73: note: 'out' is '__restrict__' and written through
  // CHECK-NOTES: :7:12: note: 'out' is written here
  accumulate<<<(n + 255) / 256, 256>>>(e + 16, e + 16, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'acc' and 'x' of kernel 'accumulate', one '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract, which works only because each thread reads an element before it writes it at the same index
  // CHECK-NOTES: :10:35: note: 'acc' is written through
  // CHECK-NOTES: :13:12: note: 'acc' is written here
  // CHECK-NOTES: :10:66: note: 'x' is '__restrict__'
  float *alias = d;
  viaHelper<<<1, 256>>>(d, d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'in' and 'out' of kernel 'viaHelper', one '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out
  // CHECK-NOTES: :17:53: note: 'in' is '__restrict__'
  // CHECK-NOTES: :17:64: note: 'out' is written through
  // CHECK-NOTES: :16:56: note: 'out' is written here
  launchScale(e, e, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call passes the same pointer to 'in' and 'out' of kernel 'scale', both '__restrict__' and one written through
  // CHECK-NOTES: :37:3: note: 'launchScale' launches the kernel with its parameters here
  // CHECK-NOTES: :3:49: note: 'in' is '__restrict__'
  // CHECK-NOTES: :3:73: note: 'out' is '__restrict__' and written through
  // CHECK-NOTES: :7:12: note: 'out' is written here
  (void)alias;
}

// Negatives: distinct buffers, disjoint parts of one buffer (offsets that
// differ), read-only aliasing, no __restrict__ at all, a local copy (not
// followed: only the same expression counts).
void negatives(float *d, float *e, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, e, 2.0f, n);
  scale<<<(n + 255) / 256, 256>>>(d, d + n, 2.0f, n);
  readBoth<<<(n + 255) / 256, 256>>>(d, d, e, n);
  plain<<<(n + 255) / 256, 256>>>(d, d, n);
  launchScale(d, e, n);
  launchScale(d, d + n, n);
  float *copy = d;
  scale<<<(n + 255) / 256, 256>>>(copy, d, 2.0f, n);
}

// Templates: reported once per launch.
template <typename T>
__global__ void axpyT(T *y, const T *__restrict__ x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
template <typename T> void runT(T *y, int n) {
  axpyT<<<(n + 255) / 256, 256>>>(y, y, T(2), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'y' and 'x' of kernel 'axpyT', one '__restrict__' and one written through
  // CHECK-NOTES: :[[@LINE-8]]:26: note: 'y' is written through
  // CHECK-NOTES: :[[@LINE-6]]:10: note: 'y' is written here
  // CHECK-NOTES: :[[@LINE-10]]:51: note: 'x' is '__restrict__'
}
void instantiate(float *f, double *g) {
  runT(f, 4);
  runT(g, 4);
}

// Stale reads: a load through the '__restrict__' input that can follow a
// store to its element, by another thread (a neighbour's index after a
// barrier) or by the same thread (a store before the load, a loop).
__global__ void shiftInPlace(const float *__restrict__ in,
                             float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
  __syncthreads();
  if (threadIdx.x > 0)
    out[i] += in[i - 1];
}
__global__ void storeThenLoad(const float *__restrict__ in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 0.0f;
  out[i] += in[i];
}
__global__ void rows(const float *__restrict__ in, float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < n; ++k)
    out[r * n + k] = in[r * n + k - 1] + in[r * n + k];
}
void stale(float *d, int n) {
  shiftInPlace<<<n / 256, 256>>>(d, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'in' and 'out' of kernel 'shiftInPlace', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
  storeThenLoad<<<n / 256, 256>>>(d, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'in' and 'out' of kernel 'storeThenLoad', one '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
  rows<<<n / 256, 256>>>(d, d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'in' and 'out' of kernel 'rows', one '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
}

// In place, but in shapes the element-wise proof does not follow: a pointer
// rebased by the block row, a segment staged in shared memory across
// barriers, an element-wise block-stride loop. No load can see a stale value
// in any of them, so the message states only what is certain.
__global__ void butterflyRows(float *__restrict__ out,
                              const float *__restrict__ in, int n) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const float *src = in + blockIdx.y * n;
  float *dst = out + blockIdx.y * n;
  float a = src[2 * pos], b = src[2 * pos + 1];
  dst[2 * pos] = a + b;
  dst[2 * pos + 1] = a - b;
}
__global__ void stagedSort(unsigned *__restrict__ dst,
                           const unsigned *__restrict__ src) {
  __shared__ unsigned s[512];
  src += blockIdx.x * 512 + threadIdx.x;
  dst += blockIdx.x * 512 + threadIdx.x;
  s[threadIdx.x] = src[0];
  s[threadIdx.x + 256] = src[256];
  for (int stride = 256; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    unsigned x = s[pos], y = s[pos + stride];
    if (x > y) {
      s[pos] = y;
      s[pos + stride] = x;
    }
  }
  __syncthreads();
  dst[0] = s[threadIdx.x];
  dst[256] = s[threadIdx.x + 256];
}
__global__ void addBlockOffset(const int *__restrict__ src,
                               int *__restrict__ dst,
                               const int *__restrict__ off, int perBlock) {
  int start = perBlock * blockIdx.x, end = start + perBlock;
  int sum = off[blockIdx.x];
  for (int i = start; i < end; i += blockDim.x)
    dst[i + threadIdx.x] = src[i + threadIdx.x] + sum;
}
void undecided(float *d, unsigned *k, int *keys, const int *offs, int n) {
  butterflyRows<<<dim3(n / 512, 4), 256>>>(d, d, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'out' and 'in' of kernel 'butterflyRows', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
  stagedSort<<<n / 512, 256>>>(k, k);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'dst' and 'src' of kernel 'stagedSort', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
  addBlockOffset<<<n / 4096, 256>>>(keys, keys, offs, 4096);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: launch passes the same pointer to 'src' and 'dst' of kernel 'addBlockOffset', both '__restrict__' and one written through: undefined behaviour by the '__restrict__' contract; loads through the read-only data cache return stale data if an element is read after a store to it, which the check could not rule out [cuda-restrict-aliasing]
}
