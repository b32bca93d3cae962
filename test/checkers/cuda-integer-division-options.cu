// RUN: %check_cuda_lint -check-suffix=OUT %s cuda-integer-division %t-out -- -config="{CheckOptions: {cuda-integer-division.WarnOutsideLoops: true}}" --min-impact=low
// RUN: %check_cuda_lint -check-suffix=NP2 %s cuda-integer-division %t-np2 -- -config="{CheckOptions: {cuda-integer-division.WarnNonPowerOfTwoConstants: true}}"
// RUN: %check_cuda_lint -check-suffix=DEF %s cuda-integer-division %t-default
// By default, nothing here is reported: no loop holds a run-time divisor.
// CHECK-MESSAGES-DEF-NOT: warning:

__global__ void cells(int *out, int nx, int shift, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int y = tid / nx;
  // CHECK-MESSAGES-OUT: :[[@LINE-1]]:15: warning: integer division by 'nx', which is not a compile-time constant, compiles to a slow instruction sequence [cuda-integer-division]
  int x = tid % (1 << shift);
  // CHECK-MESSAGES-OUT: :[[@LINE-1]]:15: warning: integer modulo by '(1 << shift)', which is not a compile-time constant, compiles to a slow instruction sequence
  // CHECK-FIXES-OUT: {{^}}  int x = tid & ((1 << shift) - 1);{{$}}
  int lane = tid % 32;
  // CHECK-MESSAGES-OUT: :[[@LINE-1]]:18: warning: signed integer modulo by 32 costs extra instructions to round toward zero; the dividend is never negative, so a mask is exact
  // CHECK-FIXES-OUT: {{^}}  int lane = tid & 31;{{$}}
  for (int i = tid; i < n; i += 4096)
    out[i] = i % 7 + i / 10 + y + x + lane;
  // CHECK-MESSAGES-NP2: :[[@LINE-1]]:16: warning: integer modulo by the constant 7 inside a loop compiles to a multiply-high sequence
  // CHECK-MESSAGES-NP2: :[[@LINE-2]]:24: warning: integer division by the constant 10 inside a loop compiles to a multiply-high sequence
}
