// RUN: %check_cuda_lint %s cuda-integer-division %t -- --min-impact=low

// A run-time division of 64-bit operands: nvcc tests whether both fit in 32
// bits and then divides in 32 bits (`or.b64`, `and.b64`, `setp.eq.s64`,
// `div.u32` in the PTX of sm_90), so the division costs about a 32-bit one
// (about 24 simple instructions, not the 60 of the 64-bit sequence) unless
// the values are larger. The note says so, and the share of a loop's work
// that caps the rank counts it so (the sixth sealed audit).

__global__ void wide(long *out, const long *in, long n, long d) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  for (long k = 0; k < n; ++k)
    out[i + k] = in[i + k] / d;
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: integer division by 'd', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
  // CHECK-NOTES: :[[@LINE-2]]:28: note: impact: high (rank 65/100): in a loop
  // CHECK-NOTES: :[[@LINE-3]]:28: note: nvcc divides by a compile-time constant with a multiply and a shift (by a power of two, a shift and a mask): make the divisor a template parameter or 'constexpr' where it takes few values, or, if it is always a power of two, pass its log2 and use '>>' and '&'
  // CHECK-NOTES: :[[@LINE-4]]:28: note: the operands are 64-bit: nvcc tests at run time whether both fit in 32 bits and then divides in 32 bits, so the division costs about as much as a 32-bit one unless the values are larger
}

// 32-bit operands: no such note.
__global__ void narrow(int *out, const int *in, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k)
    out[i + k] = in[i + k] / d;
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: integer division by 'd', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
  // CHECK-NOTES: :[[@LINE-2]]:28: note: impact: high (rank 65/100): in a loop
  // CHECK-NOTES: :[[@LINE-3]]:28: note: nvcc divides by a compile-time constant with a multiply and a shift (by a power of two, a shift and a mask): make the divisor a template parameter or 'constexpr' where it takes few values, or, if it is always a power of two, pass its log2 and use '>>' and '&'
}

// A 64-bit modulo beside about 320 instructions of other work per
// iteration: about 6% of it at the cost of the 32-bit path (at the 60 of
// the 64-bit sequence it would be 15%, over the tenth that caps the rank).
__global__ void wideBusy(float *out, const float *in, long n, long d) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  for (long k = 0; k < n; ++k) {
    float x = in[i + k];
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    x = x * x + 1.0f; x = x * x + 2.0f; x = x * x + 3.0f; x = x * x + 4.0f;
    out[(i + k) % d] = x;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: integer modulo by 'd', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
    // CHECK-NOTES: :[[@LINE-2]]:17: note: impact: low (rank 30/100): the modulo is about 6% of its loop's estimated work per iteration (350 simple instructions)
    // CHECK-NOTES: :[[@LINE-3]]:17: note: nvcc divides by a compile-time constant with a multiply and a shift (by a power of two, a shift and a mask): make the divisor a template parameter or 'constexpr' where it takes few values, or, if it is always a power of two, pass its log2 and use '>>' and '&'
    // CHECK-NOTES: :[[@LINE-4]]:17: note: the operands are 64-bit: nvcc tests at run time whether both fit in 32 bits and then divides in 32 bits, so the division costs about as much as a 32-bit one unless the values are larger
  }
}

// A dividend shifted past 32 bits never takes the 32-bit path: no note.
__global__ void shifted(unsigned *out, const unsigned *in, int n, unsigned m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k)
    out[i + k] = ((unsigned long long)in[i + k] << 32) % m;
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: integer modulo by 'm', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
  // CHECK-NOTES: :[[@LINE-2]]:56: note: impact: high (rank 65/100): in a loop
  // CHECK-NOTES: :[[@LINE-3]]:56: note: nvcc divides by a compile-time constant with a multiply and a shift (by a power of two, a shift and a mask): make the divisor a template parameter or 'constexpr' where it takes few values, or, if it is always a power of two, pass its log2 and use '>>' and '&'
}

// Host code is not reported.
long hostDivide(long a, long b) { return a / b; }
