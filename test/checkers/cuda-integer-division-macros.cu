// RUN: %check_cuda_lint %s cuda-integer-division %t -- -- -I%S/Inputs
//
// Index helpers spelled as macros: the macro's body is rewritten when it is
// defined in this file and every expansion of it, each analysed, gets the
// same exact rewrite; otherwise a note says why not.

#include <cuda_runtime.h>
#include "division-macro.cuh"

#define W 32
#define IDX(i, j) ((i) / W + (j))
// CHECK-FIXES: {{^}}#define IDX(i, j) (((i) >> 5) + (j)){{$}}
#define HALF(x) ((x) / 2)
// CHECK-FIXES: {{^}}#define HALF(x) ((x) / 2){{$}}
#define BARE(x) x / 16
#define HOST_TOO(x) ((x) % 8)
#define HIDDEN(x) ((x) / 4)
#define COL(x) ((x) + 3)
#define BS 32

__global__ void tiles(float *out, const float *in, int n) {
  for (int t = threadIdx.x; t < n; t += blockDim.x) {
    int s = t + 1; // Both change in the loop; the compiler cannot see signs.
    out[IDX(t, s)] += in[IDX(s, t)];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signed integer division by 32 inside a loop costs extra instructions to round toward zero; the dividend is never negative, so a shift is exact [cuda-integer-division]
    // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: signed integer division by 32 inside a loop
    // Never negative here, but possibly negative in `signs` below.
    out[HALF(t)] += 1.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signed integer division by 2 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: no automatic fix: the operation is spelled in macro 'HALF', and one of its expansions cannot be rewritten: its dividend may be negative
    // The dividend is the macro argument itself, unparenthesised.
    out[BARE(t)] += 2.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signed integer division by 16 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: no automatic fix: the operation is spelled in macro 'BARE', and an operand comes from a macro argument or another macro, so the rewrite would differ between expansions
    out[HOST_TOO(t)] += 3.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signed integer modulo by 8 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: no automatic fix: the operation is spelled in macro 'HOST_TOO', and one of its expansions cannot be rewritten: its dividend may be negative
    out[HIDDEN(t)] += 4.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signed integer division by 4 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: no automatic fix: the operation is spelled in macro 'HIDDEN', which is also named where the device-side analysis does not see its expansion
    // The operator written here, an operand through a macro: rewritten here.
    out[COL(t) / 64] += 6.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: signed integer division by 64 inside a loop
    // CHECK-FIXES: {{^}}    out[COL(t) >> 6] += 6.0f;{{$}}
    // The divisor through a macro: `>> 5` would bake in its value.
    out[t / BS] += 7.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: signed integer division by 32 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:11: note: no automatic fix: the divisor is spelled through a macro; a shift would bake in its current value
    out[HDR_ROW(t)] += 5.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signed integer division by 64 inside a loop
    // CHECK-MESSAGES: :[[@LINE-2]]:9: note: no automatic fix: the operation is spelled in macro 'HDR_ROW', defined in another file, which other translation units may expand differently
  }
}

__global__ void signs(float *out, int n, int m) {
  for (int s = 0; s < n; ++s)
    out[s] += HALF(m - s);
}

// A host expansion counts too: its dividend may be negative.
int hostIndex(int k) { return HOST_TOO(k - 100); }

// An expansion the device-side analysis never sees.
#ifndef __CUDA_ARCH__
int hostOnly(int k) { return HIDDEN(k - 100); }
#endif
