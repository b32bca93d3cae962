// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A read under a thread-dependent branch, of what other threads wrote
// under another branch before it: the barrier goes before the branch of
// the read, where every thread arrives (not inside it, where it would be
// divergent).

#define ROWS 17

// Romberg's column sums: threads 0..16 sum a column each; thread 0 then
// reads all the sums.
__global__ void columnSums(const double *in, double *out) {
  __shared__ double smem[ROWS * 64];
  for (int i = 0; i < ROWS; i++)
    smem[ROWS * threadIdx.x + i] = in[ROWS * threadIdx.x + i];
  __syncthreads();
  if (threadIdx.x < ROWS) {
    double sum = 0.0;
    for (int i = threadIdx.x; i < 64 * ROWS; i += ROWS)
      sum += smem[i];
    smem[threadIdx.x] = sum;
  }
  if (threadIdx.x == 0) {
    double t = smem[0];
    for (int k = 1; k < ROWS; k++)
      t += smem[k];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: lanes of a warp communicate through 'smem' with no barrier in between; warp-synchronous code is a data race [cuda-warp-synchronous]
    out[blockIdx.x] = t;
  }
  // CHECK-FIXES: {{^}}    smem[threadIdx.x] = sum;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x == 0) {{[{]}}{{$}}
}

// The same, with the sums written by the second warp.
__global__ void columnSums2(const double *in, double *out) {
  __shared__ double smem[64];
  smem[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x >= 32)
    smem[threadIdx.x - 32] += smem[threadIdx.x];
  if (threadIdx.x == 0) {
    double t = 0.0;
    for (int k = 0; k < 32; k++)
      t += smem[k];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: threads of different warps communicate through 'smem' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    out[blockIdx.x] = t;
  }
  // CHECK-FIXES: {{^}}    smem[threadIdx.x - 32] += smem[threadIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x == 0) {{[{]}}{{$}}
}

// The write after the read in the same branch: a barrier before the
// branch would not separate them.
__global__ void sameBranch(double *out) {
  __shared__ double smem[64];
  smem[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 40) {
    double t = smem[threadIdx.x + 24];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: threads of different warps communicate through 'smem' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    // CHECK-NOTES: :[[@LINE-2]]:16: note: no automatic fix: the barrier would be inside a thread-dependent branch or loop
    smem[threadIdx.x] = t;
  }
  out[threadIdx.x] = smem[threadIdx.x];
}

void launch(const double *in, double *out) {
  columnSums<<<8, 64>>>(in, out);
  columnSums2<<<8, 64>>>(in, out);
  sameBranch<<<8, 64>>>(out);
}
