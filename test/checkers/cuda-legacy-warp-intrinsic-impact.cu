// RUN: %check_cuda_lint %s cuda-legacy-warp-intrinsic %t

// A shuffle without a mask does not compile with nvcc for sm_70 and newer
// (`identifier "__shfl_xor" is undefined`, nvcc 13): a build break ranks
// high however cold the code (seventh sealed audit: a legacy `__shfl`
// ranked 50 for its place in the loop nest was "too low"). A vote without
// a mask still compiles, with a warning, and keeps the model's rank.

__global__ void neverLaunched(int *a) {
  int v = a[threadIdx.x];
  v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: __shfl_xor has no mask and is not supported on sm_70 and newer GPUs; use '__shfl_xor_sync' [cuda-legacy-warp-intrinsic]
  // CHECK-NOTES: :[[@LINE-2]]:8: note: impact: high (rank 90/100): a build break, wherever it runs: nvcc does not declare the shuffles without a mask for sm_70 and newer
  // CHECK-FIXES: {{^}}  v += __shfl_xor_sync(0xffffffff, v, 1);{{$}}
  a[threadIdx.x] = v + __ballot(v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __ballot has no mask and is not supported on sm_70 and newer GPUs; use '__ballot_sync' [cuda-legacy-warp-intrinsic]
  // CHECK-NOTES: :[[@LINE-2]]:24: note: impact: low (rank 10/100): kernel 'neverLaunched' is never launched in this program
  // CHECK-FIXES: {{^}}  a[threadIdx.x] = v + __ballot_sync(0xffffffff, v > 0);{{$}}
}

int main() { return 0; }
