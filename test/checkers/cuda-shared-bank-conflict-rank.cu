// RUN: %check_cuda_lint -check-suffixes=LOW %s cuda-shared-bank-conflict %t-low -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=DEFAULT %s cuda-shared-bank-conflict %t-default

// A 2-way conflict outside loops costs one more shared-memory cycle for the
// access, once per thread: ranked low (at most 30) with the reason, hidden
// by the default profile (the second sealed audit's one-time staging stores
// and 6x6 transposes). The same conflict in a loop, and a wider conflict
// anywhere, keep the model's rank.

__global__ void stageOnce(const float *in, float *out) {
  __shared__ float s[64];
  s[2 * threadIdx.x] = in[threadIdx.x];
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES-LOW: :[[@LINE-2]]:3: note: impact: low (rank 30/100): a 2-way conflict outside loops costs one more shared-memory cycle for the access, once per thread
  // CHECK-NOTES-LOW: :[[@LINE-4]]:20: note: {{.*}}
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void stageInLoop(const float *in, float *out, int n) {
  __shared__ float s[64];
  for (int k = 0; k < n; ++k) {
    s[2 * threadIdx.x] = in[k * 32 + threadIdx.x];
    // CHECK-MESSAGES-LOW: :[[@LINE-1]]:5: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
    // CHECK-NOTES-LOW: :[[@LINE-2]]:5: note: impact: medium (rank 55/100): in a loop; a grid of 64 blocks
    // CHECK-NOTES-LOW: :[[@LINE-5]]:20: note: {{.*}}
    // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:5: warning: 2-way shared memory bank conflict
    __syncthreads();
    out[k * 32 + threadIdx.x] = s[threadIdx.x];
    __syncthreads();
  }
}

__global__ void wideOnce(const float *in, float *out) {
  __shared__ float s[256];
  s[8 * threadIdx.x] = in[threadIdx.x];
  // CHECK-MESSAGES-LOW: :[[@LINE-1]]:3: warning: 8-way shared memory bank conflict: threads of a warp access different addresses of 's' in the same bank [cuda-shared-bank-conflict]
  // CHECK-NOTES-LOW: :[[@LINE-2]]:3: note: impact: medium (rank 40/100): once per thread; a grid of 64 blocks
  // CHECK-NOTES-LOW: :[[@LINE-4]]:20: note: {{.*}}
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-4]]:3: warning: 8-way shared memory bank conflict
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(const float *a, float *b, int n) {
  stageOnce<<<64, 32>>>(a, b);
  stageInLoop<<<64, 32>>>(a, b, n);
  wideOnce<<<64, 32>>>(a, b);
}
