// RUN: %check_cuda_lint %s cuda-integer-division %t

// A division by the counter of a loop with constant bounds that
// `#pragma unroll` unrolls fully, at any trip count: each copy divides by a
// literal, and nvcc emits no div or rem (nvcc -ptx -arch=sm_90: 0 rem.s32
// for k = 1..32).
__global__ void residues(const int *in, int *out) {
  int x = in[threadIdx.x];
  int acc = 0;
#pragma unroll
  for (int k = 1; k <= 32; ++k)
    acc += x % k;
#pragma unroll 64
  for (int k = 1; k <= 64; ++k)
    acc += x / k;
  out[threadIdx.x] = acc;
}

// Still findings: a count below the trip count leaves the loop rolled, and
// so does a loop of more than 16 iterations without a pragma.
__global__ void residuesRolled(const int *in, int *out) {
  int x = in[threadIdx.x];
  int acc = 0;
#pragma unroll 4
  for (int k = 1; k <= 32; ++k)
    acc += x % k;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: integer modulo by 'k', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
  for (int k = 1; k <= 32; ++k)
    acc += x / k;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: integer division by 'k', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
  out[threadIdx.x] = acc;
}
