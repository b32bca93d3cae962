// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A branch with a barrier on one path only, under a condition that is the
// same in every thread of the block (a kernel parameter, a shared flag or
// length read after a barrier): every thread takes the same path, so the
// accesses after that barrier never meet the accesses before the branch or
// those of the other path (hbc's bc_kernel: `if (Q2_len == 0) done = true;
// else { ...; __syncthreads(); if (j == 0) Q2_len = 0; }`). The accesses
// before the branch still meet those after it on the path without the
// barrier.

__global__ void queueLength(int *out, int n) {
  __shared__ int len;
  __shared__ bool done;
  if (threadIdx.x == 0) {
    len = n;
    done = false;
  }
  __syncthreads();
  if (len == 0) {
    done = true;
  } else {
    out[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0)
      len = 0;
  }
  __syncthreads();
  out[threadIdx.x] = done;
}

__global__ void queueLengthArray(int *out, int n) {
  __shared__ int len[1];
  if (threadIdx.x == 0)
    len[0] = n;
  __syncthreads();
  if (len[0] == 0) {
    out[threadIdx.x] = 0;
  } else {
    out[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0)
      len[0] = 0;
  }
  __syncthreads();
}

// The path without the barrier (n <= 0): the store before the branch meets
// the load after it.
__global__ void skipOnParameter(int *out, int n) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  if (n > 0)
    __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 's' with no barrier in between on the paths that skip a conditional barrier; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-5]]:7: note: the barrier between them is reached only where this condition is true
  // CHECK-NOTES: :[[@LINE-4]]:22: note: for example, thread 0 reads 's[255]', which thread 255 writes (in blocks of 256 threads, as launched here)
  // CHECK-FIXES: {{^}}  if (n > 0){{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  out[threadIdx.x] = s[255 - threadIdx.x];{{$}}
}

void launch(int *out, int n) {
  queueLength<<<64, 256>>>(out, n);
  queueLengthArray<<<64, 256>>>(out, n);
  skipOnParameter<<<64, 256>>>(out, n);
}
