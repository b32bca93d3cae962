// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A store to a field or vector lane of an element (`s[i].x = v`) is a store
// to that element (issue 29; GPUVerify's struct_member_race and
// vector_element_race): it used to be recorded as a read. The check does not
// tell the fields of an element apart.

struct Pair {
  int x, y;
};

// Every thread stores its own id to one element's field.
__global__ void sameField(Pair *g) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  g[3].y = gid;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads write different values to one element of 'g' with no barrier in between; which value remains is undefined [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: for example, thread 0 writes 'g[3]', which thread 32 writes (in blocks of 64 threads, as launched here)
}

// A float2 tile filled field by field, read reversed with no barrier.
__global__ void reversed(float2 *out) {
  __shared__ float2 s[256];
  s[threadIdx.x].x = threadIdx.x;
  s[threadIdx.x].y = 1.0f;
  out[threadIdx.x] = s[255 - threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: threads of different warps communicate through 's' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: another thread writes the element here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread 0 reads 's[255]', which thread 255 writes (in blocks of 256 threads, as launched here)
  // CHECK-FIXES: {{^}}  s[threadIdx.x].y = 1.0f;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
}

// Negatives: the barrier between; each thread its own element's fields.
__global__ void reversedWithBarrier(float2 *out) {
  __shared__ float2 s[256];
  s[threadIdx.x].x = threadIdx.x;
  s[threadIdx.x].y = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void ownFields(float2 *out) {
  __shared__ float2 s[256];
  s[threadIdx.x].x = threadIdx.x;
  s[threadIdx.x].y += s[threadIdx.x].x;
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(Pair *g, float2 *o) {
  sameField<<<2, 64>>>(g);
  reversed<<<1, 256>>>(o);
  reversedWithBarrier<<<1, 256>>>(o);
  ownFields<<<1, 256>>>(o);
}
