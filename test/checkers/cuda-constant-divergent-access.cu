// RUN: %check_cuda_lint -no-compile %s cuda-constant-divergent-access %t
// (-no-compile: the kernel launches below need cudaConfigureCall, which the
// CUDA 13 headers no longer declare for clang; nvcc compiles them.)

__constant__ float c_table[256];
__constant__ int c_grid[8][32];
__constant__ float c_coef[16];

// Lane-affine indices: the degree is the number of distinct addresses.
__global__ void lanes(float *out, int base) {
  int tid = threadIdx.x;
  float a = c_table[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: __constant__ array 'c_table' is read at 32 different addresses by the threads of a warp; constant memory serves one address at a time, so the read is serialized 32 ways [cuda-constant-divergent-access]
  // CHECK-NOTES: :5:20: note: 'c_table' is declared __constant__ here; reading it through a 'const __restrict__' global pointer (the read-only cache) or from shared memory serves the warp at once
  float b = c_table[tid / 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: __constant__ array 'c_table' is read at 8 different addresses
  float c = c_table[base + (tid & 3)];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: __constant__ array 'c_table' is read at 4 different addresses
  int d = c_grid[blockIdx.x & 7][tid % 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: __constant__ array 'c_grid' is read at 32 different addresses
  // CHECK-NOTES: :6:18: note: 'c_grid' is declared __constant__ here
  float e = c_table[(tid >> 3) * 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: __constant__ array 'c_table' is read at 4 different addresses
  out[tid] = a + b + c + d + e;
}

// The block shape from the launches: with 8x8 blocks, threadIdx.y varies
// within a warp (4 rows of a warp's 32 threads).
__global__ void rows(float *out) {
  out[threadIdx.x] = c_coef[threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __constant__ array 'c_coef' is read at 4 different addresses by the threads of a warp (blocks of 8x8 threads); constant memory serves one address at a time, so the read is serialized 4 ways
}
void launchRows(float *out) { rows<<<16, dim3(8, 8)>>>(out); }

// Negatives: uniform indices (constants, loop counters, blockIdx, kernel
// parameters, a warp-uniform threadIdx.y with blocks 32 wide), and indices
// that are thread-dependent through data (the degree is unknown).
__global__ void uniform(const int *idx, float *out, int n, int k) {
  float s = c_table[3] + c_table[k] + c_table[blockIdx.x % 256];
  for (int i = 0; i < n; ++i)
    s += c_table[i & 255];
  s += c_coef[threadIdx.y];
  s += c_table[idx[threadIdx.x] & 255];
  s += c_table[(threadIdx.x * 0) + 5];
  s += c_table[threadIdx.x / 32];
  out[threadIdx.x] = s;
}
void launchUniform(const int *idx, float *out) {
  uniform<<<16, dim3(32, 4)>>>(idx, out, 4, 2);
}

// A uniform multiplier may be small, a modulus may be 1: the fewest
// addresses over sample values (here 1 for the modulus) counts.
__global__ void symbolic(float *out, int m) {
  out[threadIdx.x] = c_table[threadIdx.x % m];
}

// A table smaller than a warp: at most as many addresses as elements.
__constant__ float c_small[8];
__global__ void small(float *out) {
  out[threadIdx.x] = c_small[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __constant__ array 'c_small' is read at 8 different addresses
}

// `__device__ const` tables are in global memory for nvcc (clang marks them
// __constant__ implicitly): not reported.
__device__ const double g_twiddle[64] = {1.0, 0.5};
__global__ void deviceConst(double *out) {
  out[threadIdx.x] = g_twiddle[32 * (threadIdx.x % 2)];
}

// Host code, and pointers to constant memory, are not inspected.
float host(int i) { return i; }
__global__ void pointer(float *out) {
  const float *p = c_table;
  out[threadIdx.x] = p[threadIdx.x];
}

// Templates: judged per instantiation, reported once.
template <int Div> __global__ void tmpl(float *out) {
  out[threadIdx.x] = c_table[threadIdx.x / Div];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: __constant__ array 'c_table' is read at 16 different addresses
}
template __global__ void tmpl<2>(float *);
template __global__ void tmpl<32>(float *);

// Guards that depend on the thread alone leave out lanes: one lane reads
// one address; four lanes read four. A bounds check lets every lane in.
__global__ void guarded(float *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    out[blockIdx.x] = c_table[threadIdx.x];
  if (threadIdx.x % 32 >= 4)
    return;
  out[i] = c_table[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: __constant__ array 'c_table' is read at 4 different addresses
  float v = (threadIdx.x & 31) == 5 ? c_table[threadIdx.x * 2] : 0.0f;
  if (i < n)
    out[i] += v + c_table[threadIdx.x / 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: __constant__ array 'c_table' is read at 2 different addresses
}
