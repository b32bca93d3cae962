// RUN: %check_cuda_lint %s cuda-missing-restrict %t -- --min-impact=low

// The fix gives `const` to the local pointers that hold the parameter too
// (else `uint32_t *bW = &W[k]` would not compile once W points to const),
// and a note says so at each: an audit reader applying only the
// parameter's change found the fix "breaking" (lut-gemm's _nqmv_bias).

#include <cstdint>

template <int K>
__global__ void tiled(uint32_t *W, float *out, int M) {
  uint32_t *bW = &W[blockIdx.y * K * M];
  for (int m = threadIdx.x; m < M; m += blockDim.x)
    out[m] += bW[m];
}
// CHECK-MESSAGES: :[[@LINE-5]]:33: warning: pointer parameter 'W' is only read; declare it 'const uint32_t *__restrict__' so that its loads can use the read-only data cache [cuda-missing-restrict]
// CHECK-NOTES: :[[@LINE-5]]:13: note: 'const' added to local pointer 'bW' too, which holds 'W'
// CHECK-FIXES: {{^}}__global__ void tiled(const uint32_t *__restrict__ W, float *out, int M) {{{$}}
// CHECK-FIXES: {{^}}  const uint32_t *bW = &W[blockIdx.y * K * M];{{$}}

void run(uint32_t *W, float *o, int M) {
  for (int i = 0; i < 10; ++i)
    tiled<4><<<dim3(1, 8), 256>>>(W, o, M);
}
