// RUN: %check_cuda_lint %s cuda-warp-synchronous %t

// A helper's pointer (or array) parameter that every call binds to a local
// array of the caller points at memory private to each thread (registers or
// local memory): no other thread can see it, so there is no race.
template <unsigned Tile, unsigned Width>
__device__ __forceinline__ void dotTile(const float *q, const float *k,
                                        float *s) {
#pragma unroll
  for (unsigned j = 0; j < Tile; ++j) {
    s[j] = 0.f;
#pragma unroll
    for (unsigned i = 0; i < 4; ++i)
      s[j] += q[i] * k[(j * Width + threadIdx.x) * 4 + i];
#pragma unroll
    for (unsigned o = Width / 2; o > 0; o /= 2)
      s[j] += __shfl_xor_sync(0xffffffffu, s[j], o);
  }
}

__device__ __forceinline__ void butterfly(float x[2][4]) {
  int lane = threadIdx.x % 32;
  for (int step = 0; step < 5; ++step) {
    int m = 1 << step;
    float sign = (lane & m) ? -1.f : 1.f;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < 4; ++i) {
        float other = __shfl_xor_sync(0xffffffffu, x[c][i], m);
        x[c][i] = sign * x[c][i] + other;
      }
  }
}

// Passed on through a second helper, and as `&local[0]`.
__device__ void twice(float x[2][4]) { butterfly(x); }
__device__ void clear(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = p[(i + threadIdx.x) % n] * 0.f;
}

__global__ void localArrays(const float *in, float *out) {
  float q[4], s[2], x[2][4];
  for (int i = 0; i < 4; ++i)
    q[i] = in[threadIdx.x * 4 + i];
  dotTile<2, 32>(q, in, s);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 4; ++i)
      x[c][i] = s[i & 1] * c;
  twice(x);
  clear(&q[0], 4);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0] + s[1] + x[0][0] + q[3];
}

// A helper called once with a local array and once with shared memory: its
// parameter is shared in the second call, where threads of different warps
// read each other's elements.
__device__ float neighbour(float *p) {
  p[threadIdx.x] = 1.f;
  return p[threadIdx.x + 1];
}
// CHECK-MESSAGES: :[[@LINE-2]]:10: warning: threads of different warps communicate through 'p' with no barrier in between; missing __syncthreads() [cuda-warp-synchronous]
// CHECK-FIXES: {{^}}  p[threadIdx.x] = 1.f;{{$}}
// CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
// CHECK-FIXES-NEXT: {{^}}  return p[threadIdx.x + 1];{{$}}

__global__ void mixed(float *out) {
  __shared__ float tile[257];
  float mine[257];
  float a = neighbour(mine);
  float b = neighbour(tile);
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
