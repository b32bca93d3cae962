// RUN: %check_cuda_lint -check-suffixes=ALL %s cuda-double-promotion %t-all -- --min-impact=low
// RUN: %check_cuda_lint -check-suffixes=DIV %s cuda-integer-division %t-div -- --min-impact=low

// A grid-stride loop whose every launch gives a grid of ceil(n / B) blocks of
// B threads runs its body once per thread at most: code in it is ranked as
// once-per-thread code, not as loop code (the sealed audit found integer
// divisions and loads in such loops ranked as hot). A loop whose grid may be
// smaller than its range (a capped or constant grid) stays a loop.

#include <cuda_runtime.h>

__global__ void covered(float *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] = v[i] * 0.1;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:19: warning: double-precision literal '0.1'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:19: note: impact: high (rank 65/100): once per thread (a grid-stride loop that every launch's grid covers); kernel 'covered' is launched in a host loop
  // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 0.1f;{{$}}
}

__global__ void coveredLocal(float *v, int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = gridDim.x * blockDim.x;
  for (int i = idx; i < n; i += stride)
    v[i] = v[i] * 0.2;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:19: warning: double-precision literal '0.2'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:19: note: impact: high (rank 65/100): once per thread (a grid-stride loop that every launch's grid covers); kernel 'coveredLocal' is launched in a host loop
  // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 0.2f;{{$}}
}

__global__ void capped(float *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v[i] = v[i] * 0.3;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:19: warning: double-precision literal '0.3'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:19: note: impact: high (rank 80/100): in a loop; kernel 'capped' is launched in a host loop
  // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 0.3f;{{$}}
}

// A range and a grid that host variables give (`int cells = 6 * 6 * 6;`,
// `dim3 grid(16);`): 16 blocks of 256 threads cover 216 elements.
__global__ void smallRange(float *v, int cells) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < cells;
       i += blockDim.x * gridDim.x)
    v[i] = v[i] * 0.4;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:19: warning: double-precision literal '0.4'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:19: note: impact: low (rank 5/100): once per thread (a grid-stride loop that every launch's grid covers); kernel 'smallRange' is launched once, other kernels in host loops; a grid of 16 blocks
  // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 0.4f;{{$}}
}

// The same grid over 65536 elements: 16 passes per thread.
__global__ void largeRange(float *v, int cells) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < cells;
       i += blockDim.x * gridDim.x)
    v[i] = v[i] * 0.7;
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:19: warning: double-precision literal '0.7'
  // CHECK-NOTES-ALL: :[[@LINE-2]]:19: note: impact: low (rank 20/100): in a loop; kernel 'largeRange' is launched once, other kernels in host loops; a grid of 16 blocks
  // CHECK-FIXES-ALL: {{^}}    v[i] = v[i] * 0.7f;{{$}}
}

// cuda-integer-division reports divisions in loops: in a covered
// grid-stride loop the division runs once per thread, and is not reported.
__global__ void rowsCovered(int *row, int n, int width) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    row[i] = i / width;
}

__global__ void rowsCapped(int *row, int n, int width) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    row[i] = i / width;
  // CHECK-MESSAGES-DIV: :[[@LINE-1]]:16: warning: integer division by 'width', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
}

// Helpers that return the count: judged by their one `return`, with the
// block size passed in or a constant (`get_blocks(n)`). A helper that caps
// the count covers nothing.
#define THREADS 512
static inline int get_blocks(const int N) {
  return (N + THREADS - 1) / THREADS;
}
static inline int capped_blocks(const int N) {
  return (N + THREADS - 1) / THREADS > 64 ? 64 : (N + THREADS - 1) / THREADS;
}
static int blocksFor(int b, int a) { return (a - 1) / b + 1; }

__global__ void rowsHelper(int *row, int n, int width) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    row[i] = i / width;
}

__global__ void rowsHelperCapped(int *row, int n, int width) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    row[i] = i / width;
  // CHECK-MESSAGES-DIV: :[[@LINE-1]]:16: warning: integer division by 'width', which is not a compile-time constant, inside a loop compiles to a slow instruction sequence [cuda-integer-division]
}

static int divUp(int a, int b) { return (a + b - 1) / b; }

int main() {
  const int n = 1 << 20;
  float *v;
  cudaMalloc(&v, n * sizeof(float));
  int blocks = (n + 255) / 256;
  dim3 grid((n - 1) / 128 + 1);
  for (int it = 0; it < 100; ++it) {
    covered<<<blocks, 256>>>(v, n);
    covered<<<divUp(n, 512), 512>>>(v, n);
    coveredLocal<<<grid, 128>>>(v, n);
    capped<<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256>>>(v, n);
    rowsCovered<<<n / 256 + (n % 256 != 0), 256>>>((int *)v, n, 1000);
    rowsCapped<<<1024, 256>>>((int *)v, n, 1000);
    rowsHelper<<<get_blocks(n), THREADS>>>((int *)v, n, 1000);
    rowsHelper<<<blocksFor(128, n), 128>>>((int *)v, n, 1000);
    rowsHelperCapped<<<capped_blocks(n), THREADS>>>((int *)v, n, 1000);
  }
  int side = 6;
  int cells = side * side * side;
  int many = 1 << 16;
  dim3 few(16);
  smallRange<<<few, 256>>>(v, cells);
  largeRange<<<few, 256>>>(v, many);
  cudaDeviceSynchronize();
  cudaFree(v);
  return 0;
}
