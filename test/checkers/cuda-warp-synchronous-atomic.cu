// RUN: %check_cuda_lint %s cuda-warp-synchronous %t -- -config="{CheckOptions: {cuda-warp-synchronous.SharedScalars: true}}"

// An atomic on an element or a shared scalar (`atomicAdd(&s[i], v)`,
// `atomicAdd(&count, 1)`) reads and writes it: two atomics never race with
// each other, an atomic and a plain access with no barrier between do
// (issue 29; GPUVerify's atomic_read_race). `&s[i]` passed to anything else
// is still no access.

// Every thread bumps its own counter, and reads its neighbour's with no
// barrier in between.
__global__ void neighbour(int *out) {
  __shared__ int c[256];
  c[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&c[threadIdx.x], 1);
  out[threadIdx.x] = c[(threadIdx.x + 32) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 'c' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 0 reads 'c[32]', which thread 32 writes (in blocks of 256 threads, as launched here)
  // CHECK-FIXES: {{^}}  atomicAdd(&c[threadIdx.x], 1);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

// A count read by thread 0 while the others may still add to it.
__global__ void countRead(const int *in, int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd(&count, in[threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = count;
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: threads of different warps communicate through 'count' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:14: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:23: note: for example, thread 0 reads 'count', which thread 32 writes (in blocks of 256 threads, as launched here)
  // CHECK-NOTES: :[[@LINE-4]]:23: note: no automatic fix: {{.*}}
}

// Negatives: atomics only; the barriers in place.
__global__ void atomicsOnly(const int *in, int *out) {
  __shared__ int count;
  __shared__ int best;
  if (threadIdx.x == 0) {
    count = 0;
    best = 0;
  }
  __syncthreads();
  atomicAdd(&count, 1);
  atomicMax(&best, in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = count + best;
}

void launch(const int *in, int *out) {
  neighbour<<<8, 256>>>(out);
  countRead<<<8, 256>>>(in, out);
  atomicsOnly<<<8, 256>>>(in, out);
}
