// RUN: %check_cuda_lint -no-compile %s cuda-shared-bank-conflict %t -- --min-impact=low
// The block shape of a kernel is read from its launches; launches in
// dependent code (a generic lambda) or with sizes that do not fit a block
// give none.

__global__ void transpose(float *out, const float *in) {
  __shared__ float t[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float t[32][33];{{$}}
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
}

// Issue 20: a `dim3` whose arguments have a dependent type is kept as an
// initialiser without a type; reading the block shape from it crashed.
void generic(float *o, const float *i) {
  auto go = [&](auto n) {
    dim3 b(n, 2);
    transpose<<<1, b>>>(o, i);
  };
  go(32);
}

__global__ void transpose2(float *out, const float *in) {
  __shared__ float t[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float t[32][33];{{$}}
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: up to 32-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
}

// Sizes far beyond a block: no shape (their product overflowed).
void huge(float *o, const float *i) {
  transpose2<<<1, dim3(0xffffffffu, 0xffffffffu, 0xffffffffu)>>>(o, i);
}

__global__ void transpose3(float *out, const float *in) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 16-way shared memory bank conflict: threads of a warp access different addresses of 't' in the same bank [cuda-shared-bank-conflict]
}

// A value-dependent launch in a template and a constant one: the
// instantiation's shape is the launch's.
template <int W> void sized(float *o, const float *i) {
  transpose3<<<1, dim3(W, W / 8)>>>(o, i);
}
void constant(float *o, const float *i) {
  transpose3<<<1, dim3(16, 2)>>>(o, i);
}
