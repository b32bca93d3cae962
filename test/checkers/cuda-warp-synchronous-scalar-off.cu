// RUN: %check_cuda_lint %s cuda-warp-synchronous %t -- -config="{CheckOptions: {cuda-warp-synchronous.SharedScalars: false}}"

// With the SharedScalars option off, `__shared__` scalars are not tracked
// (it is on by default since stop 32, when the causes of the sealed audit's
// false alarms through scalars were fixed; cuda-warp-synchronous-scalar.cu
// has the cases with it on).
// The same race through a one-element array is reported either way.

__global__ void scalarNotTracked(const float *a, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = a[blockIdx.x];
  out[threadIdx.x] = s;
}

__global__ void arrayTracked(const float *a, float *out) {
  __shared__ float s[1];
  if (threadIdx.x == 0)
    s[0] = a[blockIdx.x];
  out[threadIdx.x] = s[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-FIXES: {{^}}    s[0] = a[blockIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

void launch(const float *a, float *b) {
  scalarNotTracked<<<64, 256>>>(a, b);
  arrayTracked<<<64, 256>>>(a, b);
}
