// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// A run-time stride that every launch passes one constant for is measured
// at that constant: through a launching function template (its
// instantiations pass the values), as a loop bound over the record, in the
// thread-index guards, with the grid the launches give.

#define THREADS 64
#define BLOCK 16

// Second-order filter sections: each thread loads its section's state of
// `width` values; `width` is 2 at every launch, so the loop reads each
// thread's whole 2-element record: no finding.
template <typename T>
__global__ void load_state(const T *__restrict__ zi, T *__restrict__ out,
                           const int sections, const int width) {
  extern __shared__ char smem[];
  T *s_zi = reinterpret_cast<T *>(smem);
  const int tx = threadIdx.x;
  const int ty = blockIdx.x;
  for (int i = 0; i < width; i++)
    s_zi[tx * width + i] = zi[ty * sections * width + tx * width + i];
  __syncthreads();
  out[ty * sections + tx] = s_zi[tx * width];
}

// Only the first of each thread's 2 values: half of every sector unused.
template <typename T>
__global__ void load_first(const T *__restrict__ zi, T *__restrict__ out,
                           const int width) {
  const int tx = threadIdx.x;
  out[tx] = zi[tx * width];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: uncoalesced load from global memory: consecutive threads access elements 'width' (2 at every launch) apart, so a warp request touches 8 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

template <typename T>
void filtering(const T *zi, T *out, const int signals, const int width) {
  load_state<T><<<signals, THREADS, THREADS * width * sizeof(T)>>>(
      zi, out, THREADS, width);
  load_first<T><<<1, THREADS>>>(zi, out, width);
}

// A transposed read of an np x np matrix whose size is the launching
// template's parameter, instantiated with 4: one 16x16 block of which the
// guard lets 4x4 threads in, 8 in each warp: 4 sectors against 2.
__global__ void transpose(double *out, const double *in, int np) {
  int l = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  if (l < np && j < np)
    out[j * np + l] = in[l * np + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: uncoalesced load from global memory: consecutive threads access elements 'np' (4 at every launch) apart, so a warp request touches 4 32-byte sectors instead of 2 (blocks of 16x16 threads) [cuda-uncoalesced-access]
}

template <int np> void run_transpose(double *out, const double *in) {
  transpose<<<dim3((np + BLOCK - 1) / BLOCK, (np + BLOCK - 1) / BLOCK),
              dim3(BLOCK, BLOCK)>>>(out, in, np);
}

// Class scores: offset 0, then 1 to classes - 1 in a loop; 3 classes at
// every launch: each thread's whole record, no finding.
__global__ void best_class(const float *__restrict__ cls, int *out,
                           int classes) {
  int a = threadIdx.x;
  const float *scores = cls + blockIdx.x * 6 * classes + a * classes;
  float best = scores[0];
  int id = 0;
  for (int i = 1; i < classes; i++)
    if (scores[i] > best) {
      best = scores[i];
      id = i;
    }
  out[blockIdx.x * 6 + a] = id;
}

// A row of `len` (1024 at every launch) floats per thread, read in a loop:
// the textbook strided pattern, reported at the stride the launches give.
__global__ void row_sums(const float *__restrict__ u, float *out, int len) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int l = 0; l < len; ++l)
    s += u[d * len + l];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'len' (1024 at every launch) apart, so a warp request touches 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[d] = s;
}

// Launched with two different widths: nothing is known, the worst case is
// reported.
__global__ void rows(const float *__restrict__ in, float *out, int w) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * w];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: uncoalesced load from global memory: consecutive threads access elements 'w' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
}

int main() {
  const int width = 2;
  filtering<float>(nullptr, nullptr, 8, width);
  filtering<double>(nullptr, nullptr, 8, width);
  run_transpose<4>(nullptr, nullptr);
  best_class<<<16, 6>>>(nullptr, nullptr, 3);
  row_sums<<<4, 256>>>(nullptr, nullptr, 1024);
  rows<<<4, 256>>>(nullptr, nullptr, 3);
  rows<<<4, 256>>>(nullptr, nullptr, 5);
}
