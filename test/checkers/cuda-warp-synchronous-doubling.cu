// RUN: %check_cuda_lint %s cuda-warp-synchronous %t -- --min-impact=low

// Hillis-Steele scans whose offset doubles up to the block's size, or in a
// while loop: walked once per offset (each offset only where the model
// block is larger than it), so the write at the end of one step meets the
// read at the start of the next, and the barrier goes at the end of the
// loop body (GPUVerify's test_line_number_problem: a while loop up to
// get_local_size(0)).

__global__ void scanUpToBlock(int *a) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  int temp = 0;
  for (int i = 1; i < blockDim.x; i *= 2) {
    if (i <= tid)
      temp = s[tid - i];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    __syncthreads();
    if (i <= tid)
      s[tid] = s[tid] + temp;
  }
  // CHECK-FIXES: {{^}}      s[tid] = s[tid] + temp;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  a[tid] = s[tid];
}

__global__ void scanWhile(int *a) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  int temp = 0;
  int i = 1;
  while (i < blockDim.x) {
    if (i < tid)
      temp = s[tid - i];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
    __syncthreads();
    if (i < tid)
      s[tid] = s[tid] + temp;
    i = i * 2;
  }
  // CHECK-FIXES: {{^}}    i = i * 2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}    __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  a[tid] = s[tid];
}

// Negatives: a barrier closes each step; an offset that the body changes
// elsewhere too is not walked per value (the loop is then read as before).
__global__ void scanClosed(int *a) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  for (int i = 1; i < blockDim.x; i <<= 1) {
    int temp = 0;
    if (tid >= i)
      temp = s[tid - i];
    __syncthreads();
    if (tid >= i)
      s[tid] += temp;
    __syncthreads();
  }
  a[tid] = s[tid];
}

__global__ void scanWhileClosed(int *a) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  int i = 1;
  while (i < blockDim.x) {
    int temp = 0;
    if (tid >= i)
      temp = s[tid - i];
    __syncthreads();
    if (tid >= i)
      s[tid] += temp;
    __syncthreads();
    i *= 2;
  }
  a[tid] = s[tid];
}

__global__ void scanStepTwice(int *a, int n) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  s[tid] = a[tid];
  __syncthreads();
  int i = 1;
  while (i < blockDim.x) {
    int temp = 0;
    if (tid >= i)
      temp = s[tid - i];
    __syncthreads();
    if (tid >= i)
      s[tid] += temp;
    __syncthreads();
    if (n > 4)
      i *= 2;
    i *= 2;
  }
  a[tid] = s[tid];
}

int main() {
  int *a;
  scanUpToBlock<<<1, 256>>>(a);
  scanWhile<<<1, 256>>>(a);
  scanClosed<<<1, 256>>>(a);
  scanWhileClosed<<<1, 256>>>(a);
  scanStepTwice<<<1, 256>>>(a, 8);
}
