// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// Write-after-read on a shared slot: every thread reads s[0], then one
// thread overwrites it with no barrier between (issue 29).

__global__ void readThenOverwrite(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  if (tid == 0)
    s[0] = in[0];
  __syncthreads();
  int v = s[0];
  if (tid == 0)
    s[0] = in[1];
  // CHECK-MESSAGES: :[[@LINE-3]]:11: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-5]]:11: note: for example, thread 32 reads 's[0]', which thread 0 writes (in blocks of 128 threads, as launched here)
  // CHECK-FIXES: {{^}}  int v = s[0];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (tid == 0){{$}}
  out[tid] = v;
}

// With the barrier between the read and the overwrite: no race.
__global__ void readBarrierOverwrite(const int *in, int *out) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  if (tid == 0)
    s[0] = in[0];
  __syncthreads();
  int v = s[0];
  __syncthreads();
  if (tid == 0)
    s[0] = in[1];
  out[tid] = v;
}

void launch(const int *a, int *b) {
  readThenOverwrite<<<1, 128>>>(a, b);
  readBarrierOverwrite<<<1, 128>>>(a, b);
}
