// RUN: %check_cuda_lint %s cuda-legacy-warp-intrinsic %t

// A warp reduction written for CUDA 8: the whole warp takes part.
__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down has no mask and is not supported on sm_70 and newer GPUs; use '__shfl_down_sync' [cuda-legacy-warp-intrinsic]
  // CHECK-FIXES: {{^}}    v += __shfl_down_sync(0xffffffff, v, offset);{{$}}
  return v;
}
// Its only call is reached by the whole warp.
__global__ void sumAll(float *f) { f[threadIdx.x] = warpSum(f[threadIdx.x]); }

// A helper's mask depends on its callers: every call of it in the file must
// be reached by the whole warp for the full mask.
__device__ float helperDivergent(float v) { return __shfl_down(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:52: warning: __shfl_down has no mask
// CHECK-FIXES: {{^}}__device__ float helperDivergent(float v) { return __shfl_down_sync(__activemask(), v, 1); }{{$}}
__device__ float helperChain(float v) { return helperDivergent(v) + 1.0f; }
__global__ void callsHelpers(float *f) {
  float v = f[threadIdx.x];
  v = helperChain(v);
  if (threadIdx.x < 16)
    v = helperChain(v);
  // CHECK-NOTES: :[[@LINE-1]]:9: note: 'helperChain' is called here under a thread-dependent condition, so the mask is '__activemask()'; review the code's assumption about which lanes take part
  // CHECK-NOTES: :[[@LINE-3]]:7: note: thread-dependent condition
  f[threadIdx.x] = v;
}
// Not called in this file (it may be called from anywhere).
__device__ float helperUncalled(float v) { return __ballot(v > 0.0f); }
// CHECK-NOTES: :[[@LINE-1]]:51: warning: __ballot has no mask
// CHECK-NOTES: :[[@LINE-2]]:18: note: 'helperUncalled' is not a kernel and is not called from one in this file, so the mask is '__activemask()'; review the code's assumption about which lanes take part
// CHECK-FIXES: {{^}}__device__ float helperUncalled(float v) { return __ballot_sync(__activemask(), v > 0.0f); }{{$}}
// Called by a device function that is itself called from the whole warp.
__device__ float helperNested(float v) { return __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:49: warning: __shfl_xor has no mask
// CHECK-FIXES: {{^}}__device__ float helperNested(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }{{$}}
__device__ float helperOuter(float v) { return helperNested(v) * 2.0f; }
__global__ void callsNested(float *f, int n) {
  // A block-uniform condition keeps the whole warp.
  if (n > 0)
    f[threadIdx.x] = helperOuter(f[threadIdx.x]);
}
// A call from host code does not count.
__host__ __device__ float helperHostToo(float v) {
#ifdef __CUDA_ARCH__
  return __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl has no mask
  // CHECK-FIXES: {{^}}  return __shfl_sync(0xffffffff, v, 0);{{$}}
#else
  return v;
#endif
}
__global__ void callsHostToo(float *f) { f[0] = helperHostToo(f[0]); }
float onHost(float v) { return helperHostToo(v); }

// Width arguments are kept; every intrinsic has its _sync form.
__global__ void votes(const float *in, unsigned *out, int *flags) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float b = __shfl_xor(v, 1, 16) + __shfl_up(v, 2, 8) + __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: __shfl_xor has no mask
  // CHECK-MESSAGES: :[[@LINE-2]]:36: warning: __shfl_up has no mask
  // CHECK-MESSAGES: :[[@LINE-3]]:57: warning: __shfl has no mask
  // CHECK-FIXES: {{^}}  float b = __shfl_xor_sync(0xffffffff, v, 1, 16) + __shfl_up_sync(0xffffffff, v, 2, 8) + __shfl_sync(0xffffffff, v, 0);{{$}}
  unsigned mask = __ballot(b > 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: __ballot has no mask
  // CHECK-FIXES: {{^}}  unsigned mask = __ballot_sync(0xffffffff, b > 0.0f);{{$}}
  int any = __any(v > 1.0f), all = __all(v > 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: __any has no mask
  // CHECK-MESSAGES: :[[@LINE-2]]:36: warning: __all has no mask
  // CHECK-FIXES: {{^}}  int any = __any_sync(0xffffffff, v > 1.0f), all = __all_sync(0xffffffff, v > 0.0f);{{$}}
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x] = mask + any + all;
  // A block-uniform branch keeps the full mask.
  if (flags[blockIdx.x] != 0)
    out[blockIdx.x] += __ballot(v < 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __ballot has no mask
  // CHECK-FIXES: {{^}}    out[blockIdx.x] += __ballot_sync(0xffffffff, v < 0.0f);{{$}}
}

// Only part of the warp gets here: the mask is the active lanes, with a
// note that the convergence assumption needs a review.
__global__ void partial(const float *in, float *out, int n) {
  int lane = threadIdx.x & 31;
  float v = in[threadIdx.x];
  if (lane < 16) {
    v += __shfl_down(v, 8, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down has no mask
    // CHECK-NOTES: :[[@LINE-3]]:7: note: the call is under this thread-dependent condition, so the mask is '__activemask()'; review the code's assumption about which lanes take part
    // CHECK-FIXES: {{^}}    v += __shfl_down_sync(__activemask(), v, 8, 16);{{$}}
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = __shfl_up(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __shfl_up has no mask
  // CHECK-NOTES: :[[@LINE-3]]:5: note: some threads of the warp may have returned here, so the mask is '__activemask()'; review the code's assumption about which lanes take part
  // CHECK-FIXES: {{^}}  out[i] = __shfl_up_sync(__activemask(), v, 1);{{$}}
}

// Warp-uniform conditions keep the full mask: the warp index, votes and
// broadcasts are the same in every lane.
__global__ void warpUniform(const float *in, float *out) {
  int tid = threadIdx.x;
  int warp = tid / 32;
  float v = in[tid];
  if (warp == 0)
    v += __shfl_xor(v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_xor has no mask
  // CHECK-FIXES: {{^}}    v += __shfl_xor_sync(0xffffffff, v, 16);{{$}}
  if ((threadIdx.x >> 5) == 1 && __any(v > 1.0f))
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: __any has no mask
    // CHECK-FIXES: {{^}}  if ((threadIdx.x >> 5) == 1 && __any_sync(0xffffffff, v > 1.0f)){{$}}
    v += __all(v > 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __all has no mask
  // CHECK-FIXES: {{^}}    v += __all_sync(0xffffffff, v > 0.0f);{{$}}
  float first = __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: __shfl has no mask
  // CHECK-FIXES: {{^}}  float first = __shfl_sync(0xffffffff, v, 0);{{$}}
  if (first > 0.0f)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down has no mask
  // CHECK-FIXES: {{^}}    v += __shfl_down_sync(0xffffffff, v, 1);{{$}}
  // Not warp-uniform: half warps, a shuffle from a per-lane source.
  if (tid / 16 == 0)
    v += __shfl_down(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_down has no mask
  // CHECK-NOTES: :[[@LINE-3]]:7: note: the call is under this thread-dependent condition
  // CHECK-FIXES: {{^}}    v += __shfl_down_sync(__activemask(), v, 2);{{$}}
  if (__shfl(v, tid & 7) > 0.0f)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __shfl has no mask
    // CHECK-FIXES: {{^}}  if (__shfl_sync(0xffffffff, v, tid & 7) > 0.0f){{$}}
    v += __shfl_up(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: __shfl_up has no mask
  // CHECK-NOTES: :[[@LINE-5]]:7: note: the call is under this thread-dependent condition
  // CHECK-FIXES: {{^}}    v += __shfl_up_sync(__activemask(), v, 1);{{$}}
  out[tid] = v;
}

// Templates: one fix for every instantiation.
template <typename T> __device__ T broadcast(T v) { return __shfl(v, 0); }
// CHECK-MESSAGES: :[[@LINE-1]]:60: warning: __shfl has no mask
// CHECK-FIXES: {{^}}template <typename T> __device__ T broadcast(T v) { return __shfl_sync(0xffffffff, v, 0); }{{$}}
__global__ void useBroadcast(int *i, float *f) {
  i[0] = broadcast(i[0]);
  f[0] = broadcast(f[0]);
}

// Already modern: not findings.
__global__ void modern(float *f) {
  float v = f[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 1);
  f[threadIdx.x] = v + __ballot_sync(__activemask(), v > 0.0f);
}

// A program's own overload named like the intrinsic (a float4 shuffle built
// on the _sync forms) is not the legacy intrinsic: there is no
// '__shfl_down_sync' for float4 to rewrite it to. Not a finding.
__device__ __forceinline__ float4 __shfl_down(float4 v, unsigned d,
                                              int w = 32) {
  float4 r;
  r.x = __shfl_down_sync(0xffffffffu, v.x, d, w);
  r.y = __shfl_down_sync(0xffffffffu, v.y, d, w);
  r.z = __shfl_down_sync(0xffffffffu, v.z, d, w);
  r.w = __shfl_down_sync(0xffffffffu, v.w, d, w);
  return r;
}
__global__ void sum4(const float4 *in, float4 *out) {
  float4 v = in[threadIdx.x];
  float4 o = __shfl_down(v, 16);
  v.x += o.x;
  v.y += o.y;
  v.z += o.z;
  v.w += o.w;
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}
// The intrinsic itself next to the overload is still reported.
__global__ void sumScalar(float *f) {
  f[threadIdx.x] += __shfl_down(f[threadIdx.x], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __shfl_down has no mask
  // CHECK-FIXES: {{^}}  f[threadIdx.x] += __shfl_down_sync(0xffffffff, f[threadIdx.x], 16);{{$}}
}

// nvcc defines its version, and code guards the _sync forms with it: the
// branch nvcc compiles is the one analysed, not the pre-CUDA-9 fallback
// (which exists for toolkits without _sync; rewriting it would break them).
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) ||       \
    !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are not defined"
#endif
__device__ float warpSumGuarded(float v) {
#if __CUDACC_VER_MAJOR__ >= 9
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
#else
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
#endif
  return v;
}
__global__ void reduceGuarded(const float *in, float *out) {
  float v = warpSumGuarded(in[threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}
