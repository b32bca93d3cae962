// RUN: %check_cuda_lint %s cuda-uncoalesced-access %t

// A kernel that every launch in the translation unit runs with blocks one
// thread wide: each warp holds a single thread of a block, so there are no
// consecutive threads to coalesce. Not reported.
__global__ void perBlockScratch(const char *flags, int *out, int n) {
  __shared__ int scratch[64]; // Per-block scratch: one thread per block.
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int cnt = 0;
  for (int l = 0; l < n; l++) {
    scratch[l & 63] = l;
    if (flags[k * n + l] == '1')
      cnt += scratch[l & 63];
  }
  out[k] = cnt;
}

void launchPerBlock(const char *f, int *o, int rows, int n) {
  perBlockScratch<<<rows, 1>>>(f, o, n);
  perBlockScratch<<<dim3(rows, 4), dim3(1, 1)>>>(f, o, n);
}

// The same kernel launched once with a wider block: reported.
__global__ void rowSums(const float *a, float *out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int l = 0; l < n; l++)
    s += a[k * n + l];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[k] = s;
}

void launchRowSums(const float *a, float *o, int rows, int n, int bs) {
  rowSums<<<rows, 1>>>(a, o, n);
  rowSums<<<rows / 64, 64>>>(a, o, n);
}

// No launch in this translation unit: the block is unknown, reported.
__global__ void rowSumsElsewhere(const float *a, float *out, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int l = 0; l < n; l++)
    s += a[k * n + l];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: uncoalesced load from global memory: consecutive threads access elements 'n' apart, so a warp request touches up to 32 32-byte sectors instead of 4 [cuda-uncoalesced-access]
  out[k] = s;
}
