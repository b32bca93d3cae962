// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// An index read from memory (`hist[in[i] & 63]`, `s[perm[tid]]`) may name
// any element of the array: where another thread writes an element with no
// barrier in between, it is a race unless the data keeps the threads apart.
// Reported, hedged and ranked low (at most 25), never dropped (issue 29);
// no fix is offered.

// The histogram's bins zeroed and bumped with no barrier between: a thread
// may add to a bin another thread has not zeroed yet.
__global__ void histogram(const int *in, int *out, int n) {
  __shared__ int hist[64];
  if (threadIdx.x < 64)
    hist[threadIdx.x] = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&hist[in[i] & 63], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: threads may communicate through 'hist' with no barrier in between, depending on the data: an index read from memory may name an element another thread accesses [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: another thread may write the element here
  // CHECK-NOTES: :[[@LINE-3]]:16: note: this index is read from memory
  // CHECK-NOTES: :[[@LINE-4]]:16: note: for example, thread 0 reads '{{.*}}', which thread {{[0-9]+}} writes, where the data names that element (in blocks of 256 threads, as launched here)
  __syncthreads();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = hist[threadIdx.x];
}

// A gather through a permutation, with no barrier after the stores.
__global__ void gather(const int *perm, const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = s[perm[threadIdx.x]];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: threads may communicate through 's' with no barrier in between, depending on the data: an index read from memory may name an element another thread accesses [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: another thread may write the element here
  // CHECK-NOTES: :[[@LINE-3]]:41: note: this index is read from memory
  // CHECK-NOTES: :[[@LINE-4]]:41: note: for example, thread 0 reads '{{.*}}', which thread {{[0-9]+}} writes, where the data names that element (in blocks of 256 threads, as launched here)
}

// Negatives: the barriers in place; per-thread sub-histograms (the bin
// read from memory picks the row, the thread its own column: no value of
// the data makes two threads meet, tpacf's histoKernel).
__global__ void perThreadBins(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned char bins[64 * 128];
  for (int b = 0; b < 64; ++b)
    bins[b * 128 + threadIdx.x] = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    unsigned d = in[blockIdx.x * n + i];
    bins[threadIdx.x + ((d >> 2) & 63) * 128]++;
  }
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = bins[threadIdx.x];
}

__global__ void histogramOk(const int *in, int *out, int n) {
  __shared__ int hist[64];
  if (threadIdx.x < 64)
    hist[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&hist[in[i] & 63], 1);
  __syncthreads();
  if (threadIdx.x < 64)
    out[blockIdx.x * 64 + threadIdx.x] = hist[threadIdx.x];
}

__global__ void gatherOk(const int *perm, const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[perm[threadIdx.x]];
}

void launch(const int *in, const int *perm, const float *f, float *g,
            int *out, int n) {
  histogram<<<8, 256>>>(in, out, n);
  gather<<<8, 256>>>(perm, f, g);
  histogramOk<<<8, 256>>>(in, out, n);
  perThreadBins<<<8, 128>>>((const unsigned *)in, (unsigned *)out, n);
  gatherOk<<<8, 256>>>(perm, f, g);
}
